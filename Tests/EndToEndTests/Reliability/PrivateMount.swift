import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs that only this test sees: mounted in a mount namespace of its own (with
/// a user namespace too when not root: `unshare -rm`), held open by a process that waits
/// on its stdin, and entered with nsenter by whatever the test runs on it. A disk that
/// fills up, or turns read-only, without touching the machine's own file systems.
final class PrivateMount {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the tmpfs is mounted (inside the namespace; outside, an empty directory).
    let directory: String
    private let sandbox: Sandbox
    private let holder: BackgroundProcess
    private let enter: [String]

    /// Throws `Unavailable` when this machine cannot make the namespace (no unshare, or
    /// user namespaces disabled for a user who is not root).
    init(sandbox: Sandbox, kilobytes: Int) throws {
        self.sandbox = sandbox
        directory = sandbox.root + "/mount"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        guard let unshare = Sandbox.which("unshare"), let nsenter = Sandbox.which("nsenter") else {
            throw Unavailable(description: "unshare or nsenter (util-linux) not found")
        }
        let root = geteuid() == 0
        holder = try BackgroundProcess(unshare, (root ? ["-m"] : ["-r", "-m"]) + ["--propagation", "private", "/bin/sh", "-c", """
            mount -t tmpfs -o size=\(kilobytes)k,mode=0700 tmpfs "$0" || exit 1
            echo mounted
            exec cat >/dev/null
            """, directory], environment: sandbox.environment)
        do {
            let line = try holder.firstLine(timeout: 10)
            guard line == "mounted" else { throw Unavailable(description: "unexpected \(line.debugDescription)") }
        } catch {
            throw Unavailable(description: "cannot mount a tmpfs in a namespace of its own (\(error))")
        }
        enter = [nsenter, "--target", String(holder.pid), "--mount"] + (root ? [] : ["--user", "--preserve-credentials"]) + ["--"]
    }

    /// Runs a program inside the namespace, as Sandbox.run does outside it.
    func run(_ executable: String, _ arguments: [String], input: [UInt8] = [],
             environment: [String: String] = [:]) throws -> ProcessResult {
        try sandbox.run(enter[0], Array(enter.dropFirst()) + [executable] + arguments, input: input, environment: environment)
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
