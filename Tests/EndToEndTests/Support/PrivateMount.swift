import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Mounts that only this test sees: made in a mount namespace of its own (with a user
/// namespace too when not root: `unshare -rm`), held open by a process that waits on its
/// stdin, and entered with nsenter by whatever the test runs there. A disk that fills up,
/// or turns read-only, without touching the machine's own file systems; a container's
/// bind mounts.
final class PrivateMount {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the test's mount is (inside the namespace; outside, an empty directory or nothing).
    let directory: String
    private let sandbox: Sandbox
    private let holder: BackgroundProcess
    private let enter: [String]
    private let root = geteuid() == 0

    /// A small tmpfs at `directory` in the sandbox.
    convenience init(sandbox: Sandbox, kilobytes: Int) throws {
        let directory = sandbox.root + "/mount"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try self.init(sandbox: sandbox, directory: directory, mounting: #"mount -t tmpfs -o size=\#(kilobytes)k,mode=0700 tmpfs "$0""#)
    }

    /// What the shell script `mounting` mounts ($0: `directory`, $1...: `arguments`).
    /// Throws `Unavailable` when this machine cannot make the namespace (no unshare, or
    /// user namespaces disabled for a user who is not root).
    init(sandbox: Sandbox, directory: String, mounting script: String, _ arguments: String...) throws {
        self.sandbox = sandbox
        self.directory = directory
        guard let unshare = Sandbox.which("unshare"), let nsenter = Sandbox.which("nsenter") else {
            throw Unavailable(description: "unshare or nsenter (util-linux) not found")
        }
        holder = try BackgroundProcess(unshare, (root ? ["-m"] : ["-r", "-m"]) + ["--propagation", "private", "/bin/sh", "-c", """
            { \(script); } || exit 1
            echo mounted
            exec cat >/dev/null
            """, directory] + arguments, environment: sandbox.environment)
        do {
            let line = try holder.firstLine(timeout: 10)
            guard line == "mounted" else { throw Unavailable(description: "unexpected \(line.debugDescription)") }
        } catch {
            throw Unavailable(description: "cannot mount in a namespace of its own (\(error))")
        }
        enter = [nsenter, "--target", String(holder.pid), "--mount"] + (root ? [] : ["--user", "--preserve-credentials"])
    }

    /// Runs a program inside the namespace, as Sandbox.run does outside it (in its
    /// `directory`, else the sandbox's home: entering a mount namespace alone would leave
    /// it at the root); as `uid` (and the group of that number) when given, as root can.
    func run(_ executable: String, _ arguments: [String], input: [UInt8] = [],
             environment: [String: String] = [:], directory: String? = nil, as uid: uid_t? = nil) throws -> ProcessResult {
        let user = uid.map { ["--setuid", String($0), "--setgid", String($0)] } ?? []
        return try sandbox.run(enter[0], Array(enter.dropFirst()) + ["--wd=" + (directory ?? sandbox.home)] + user + ["--", executable] + arguments,
                               input: input, environment: environment, timeout: 60)
    }

    /// `sh -c SCRIPT` inside the namespace, with `arguments` as $1...
    func shell(_ script: String, _ arguments: String...) throws -> ProcessResult {
        try run("/bin/sh", ["-c", script, "sh"] + arguments)
    }

    /// Makes the file system read-only, or writable again.
    func remount(readOnly: Bool) throws {
        let result = try run(Sandbox.which("mount") ?? "/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", directory])
        guard result.exitCode == 0 else { throw SpawnError(description: "remount: \(result)") }
    }

    /// Fills the file system with a file of zeros until no byte is left.
    func fill() throws {
        _ = try shell(#"cat /dev/zero > "$1/filler" 2>/dev/null; true"#, directory)
    }

    func unfill() throws {
        _ = try shell(#"rm -f "$1/filler""#, directory)
    }

    /// A git-credential-sqlite whose database and key file are on this file system.
    func sqliteHelper() -> MountedSQLiteHelper { MountedSQLiteHelper(mount: self) }

    /// The path under which this process sees `path` of the namespace (the holder's root),
    /// to read; a program given it would resolve the link in its own namespace.
    func outside(_ path: String) -> String { "/proc/\(holder.pid)/root" + path }
}

/// git-credential-sqlite run inside a PrivateMount, its store on the mount.
struct MountedSQLiteHelper: CredentialHelper {
    let mount: PrivateMount
    var database: String { mount.directory + "/data/credentials.db" }
    var keyFile: String { mount.directory + "/config/key" }

    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult {
        try mount.run(BuiltProducts.sqliteHelper, ["--db", database, "--key-file", keyFile] + arguments, input: input)
    }
}
