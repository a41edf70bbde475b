import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// A real "remote machine" on this one: Debian's OpenSSH server on 127.0.0.1, logging in a
// throwaway account, so that the forwarding tests go through the real `ssh -R` and the real
// sshd's stream-local forwarding (who binds the remote socket, when it is left behind, what
// StreamLocalBindUnlink changes). Making an account and running sshd need root: the tests
// that use them run only as root, as CI runs them.

/// Why a test needing the remote machine does not run: nil when it can.
let sshWorldUnavailable: String? = {
    if geteuid() != 0 { return "needs root: it makes a throwaway account and runs sshd (as CI does)" }
    for program in ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/sbin/useradd", "/usr/sbin/userdel"]
    where !FileManager.default.isExecutableFile(atPath: program) {
        return "needs \(program) (make deps-test installs openssh-server)"
    }
    return nil
}()

/// A throwaway account, `gcf-` and 8 hex digits: a HOME of its own (mode 0755, its own),
/// a shell, the password field `*` (no password, but not locked: sshd lets a locked
/// account in by no method, a key included). On deinit its processes are killed and the
/// account removed (userdel), its HOME with it.
final class RemoteAccount {
    let name: String
    let uid: uid_t
    let gid: gid_t
    let home: String

    /// The HOME is not in the test's sandbox: that is root's (0700, the remote user could
    /// not reach it) under /tmp, writable by all, which the helper's trust rule may fairly
    /// refuse above a socket. A remote's HOME is /home/NAME: here it is beside the built
    /// programs (`TrustedPlace`), where no one else can write on the way from /.
    init() throws {
        name = String(format: "gcf-%08x", UInt32.random(in: 0...UInt32.max))
        // Short: a session's socket below it must fit a socket's address (107 bytes).
        let homes = TrustedPlace.root + "/homes"
        try FileManager.default.createDirectory(atPath: homes, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(homes, 0o755)
        home = homes + "/" + name
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try Self.retryingLock(["/usr/sbin/useradd", "--no-create-home", "--home-dir", home, "--shell", "/bin/sh",
                               "--user-group", "--password", "*", name])
        guard let entry = getpwnam(name) else { throw SpawnError(description: "useradd made no \(name)") }
        (uid, gid) = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        chown(home, uid, gid)
    }

    deinit {
        killProcesses()
        try? Self.retryingLock(["/usr/sbin/userdel", name])
        try? FileManager.default.removeItem(atPath: home)
    }

    /// useradd and userdel fail while another one holds /etc/passwd's lock (tests run in parallel).
    private static func retryingLock(_ command: [String]) throws {
        var last = ProcessResult()
        for _ in 0..<50 {
            last = try ChildProcess.run(command[0], Array(command.dropFirst()), environment: ["PATH": Sandbox.searchPath + ":/usr/sbin:/sbin"])
            if last.exitCode == 0 { return }
            usleep(100_000)
        }
        throw SpawnError(description: "\(command.joined(separator: " ")): \(last)")
    }

    /// The pids of this account's processes (a remote command that outlived its session).
    var processes: [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
            return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().contains { uid_t($0) == uid } ? pid : nil
        }
    }

    /// Kills each of this account's processes by its pid (userdel refuses while any is left).
    func killProcesses() {
        for _ in 0..<50 {
            let left = processes
            if left.isEmpty { return }
            for pid in left { kill(pid, SIGKILL) }
            usleep(20_000)
        }
    }

    /// Waits until at most `count` of this account's processes are left (none: every
    /// session ended on the server's side too); throws after `timeout` seconds.
    func waitUntilNoProcesses(but count: Int = 0, timeout: Double = 15, _ why: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while processes.count > count {
            if Date() >= deadline { throw SpawnError(description: "\(why): processes of \(name) still running after \(timeout) s: \(processes)") }
            usleep(20_000)
        }
    }

    /// Every regular file under HOME whose bytes hold `text`, as paths relative to HOME.
    func files(containing text: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: home) else { return ["(cannot walk \(home))"] }
        return walk.compactMap { $0 as? String }.filter { relative in
            var info = stat()
            guard lstat(home + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
            return contents(of: home + "/" + relative)?.containsUTF8(text) ?? false
        }
    }

    /// Every regular file under HOME, relative to it (what a test prints when one holds a secret).
    var allFiles: [String] {
        (FileManager.default.enumerator(atPath: home)?.compactMap { $0 as? String } ?? []).sorted()
    }
}

/// Debian's sshd for one test: on 127.0.0.1 and a free port, a config and ed25519 host key
/// made here, publickey only (a client key made here, in the account's
/// ~/.ssh/authorized_keys), no PAM, stream-local forwarding allowed, logging to `logFile`.
/// Only `account` may log in. Stopped (with the account removed) when the value goes away.
final class SSHServer {
    /// sshd_config's StreamLocalBindUnlink: whether sshd removes a file at the remote
    /// socket's path before binding it. The README recommends yes where the person runs the
    /// server; no, the default, must work too (the helper removes a dead socket of the user's).
    enum BindUnlink: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case yes, no
        var testDescription: String { "StreamLocalBindUnlink \(rawValue)" }
    }

    let account: RemoteAccount
    let bindUnlink: BindUnlink
    private(set) var port = 0
    /// sshd's files: host key, config, log; the client's key and known_hosts.
    let directory: String
    var logFile: String { directory + "/sshd.log" }
    var log: String { String(decoding: contents(of: logFile) ?? [], as: UTF8.self) }
    private let sandbox: Sandbox
    private var process: BackgroundProcess?

    init(sandbox: Sandbox, bindUnlink: BindUnlink = .yes) throws {
        self.sandbox = sandbox
        self.bindUnlink = bindUnlink
        account = try RemoteAccount()
        directory = sandbox.root + "/sshd-" + account.name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // The privilege separation directory, which Debian's package makes at boot (tmpfiles).
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for key in ["host_ed25519", "client_ed25519"] {
            let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", key, "-f", directory + "/" + key])
            guard made.exitCode == 0 else { throw SpawnError(description: "ssh-keygen: \(made)") }
        }
        let ssh = account.home + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try ChildProcess.writeFile(ssh + "/authorized_keys", contents(of: directory + "/client_ed25519.pub") ?? [], mode: 0o600)
        for path in [ssh, ssh + "/authorized_keys"] { chown(path, account.uid, account.gid) }

        // A free port is found by binding port 0 and letting it go: another program may take
        // it meanwhile, and sshd then exits; a few tries.
        var failure = ""
        for _ in 0..<5 {
            port = try Self.freePort()
            try writeConfig()
            let started = try BackgroundProcess("/usr/sbin/sshd", ["-D", "-f", directory + "/sshd_config", "-E", logFile],
                                                environment: ["PATH": Sandbox.searchPath, "LANG": "C.UTF-8"], directory: directory)
            if try waitUntilListening(started) {
                process = started
                // The client knows the host key: no "Permanently added" line on ssh's stderr.
                let hostKey = String(decoding: contents(of: directory + "/host_ed25519.pub") ?? [], as: UTF8.self)
                    .split(separator: " ").prefix(2).joined(separator: " ")
                try ChildProcess.writeFile(knownHosts, Array("[127.0.0.1]:\(port) \(hostKey)\n".utf8), mode: 0o600)
                return
            }
            failure = log
            started.stop()
        }
        throw SpawnError(description: "sshd did not start: \(failure)")
    }

    deinit { process?.stop() }

    private var knownHosts: String { directory + "/known_hosts" }

    private func writeConfig() throws {
        try ChildProcess.writeFile(directory + "/sshd_config", Array("""
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(directory)/host_ed25519
            PidFile none
            UsePAM no
            AuthenticationMethods publickey
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PermitRootLogin no
            AllowUsers \(account.name)
            StrictModes yes
            AllowStreamLocalForwarding yes
            StreamLocalBindUnlink \(bindUnlink.rawValue)
            AllowAgentForwarding no
            X11Forwarding no
            PrintMotd no
            PrintLastLog no

            """.utf8), mode: 0o600)
    }

    /// Whether sshd accepts TCP connections on `port` within 10 s (false: it exited, the port taken).
    private func waitUntilListening(_ started: BackgroundProcess) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(started.pid, &status, WNOHANG) == started.pid { return false }
            if Self.accepts(port: port) { return true }
            usleep(20_000)
        }
        throw SpawnError(description: "sshd did not listen on 127.0.0.1:\(port) within 10 s: \(log)")
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw SpawnError(description: "cannot bind a port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    // MARK: The client

    /// A stream-local forward: the remote socket (on the server) to the local one (`ssh -R REMOTE:LOCAL`).
    struct Forward {
        let remote: String
        let local: String
        var argument: String { "\(remote):\(local)" }
    }

    /// ssh's command line, run as the test (the person): the client key only, no agent,
    /// no config file, the server's host key known; with `requireForward`, ssh exits when
    /// sshd cannot bind the remote socket (ExitOnForwardFailure), before the command runs.
    private func sshArguments(forward: Forward?, requireForward: Bool, command: String) -> [String] {
        var arguments = ["-F", "/dev/null", "-T", "-i", directory + "/client_ed25519", "-o", "IdentitiesOnly=yes",
                         "-o", "IdentityAgent=none", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                         "-o", "UserKnownHostsFile=" + knownHosts, "-o", "ExitOnForwardFailure=\(requireForward ? "yes" : "no")",
                         "-p", String(port)]
        if let forward { arguments += ["-R", forward.argument] }
        return arguments + ["\(account.name)@127.0.0.1", remoteCommand(command)]
    }

    /// What the remote shell runs: `command` in HOME, with sshd's PATH (no login shell's:
    /// the programs are named by their full path, as setup tells a person to), no prompt
    /// on any terminal.
    private func remoteCommand(_ command: String) -> String {
        "export GIT_TERMINAL_PROMPT=0 LANG=C.UTF-8; cd && \(command)"
    }

    /// `ssh [-R forward] account@127.0.0.1 command`, to its end: its stdout and stderr are
    /// the remote command's (ssh's own messages off: a forwarded connection that finds no
    /// one on this side is an error line of ssh's, not of the remote's helper). ssh's own
    /// failure (exit 255: no login, the forward not bound) is thrown, with sshd's log.
    func run(_ command: String, forwarding forward: Forward? = nil, requireForward: Bool = true, input: [UInt8] = [],
             timeout: Double = 60) throws -> ProcessResult {
        let result = try sandbox.run("/usr/bin/ssh", ["-o", "LogLevel=QUIET"] + sshArguments(forward: forward, requireForward: requireForward, command: command),
                                     input: input, timeout: timeout)
        if result.exitCode == 255 { throw SpawnError(description: "ssh failed (exit 255) running \(command.debugDescription): \(result)\nsshd: \(log)") }
        return result
    }

    /// A session left open in the background with `forward` established (sshd listens on
    /// the remote socket when this returns), running `command` until its first line
    /// (`expecting`): by default `cat`, which ends when the session does on the server's
    /// side too (its stdin closes).
    func openSession(forwarding forward: Forward, requireForward: Bool = true, command: String = "echo ready && exec cat",
                     expecting: String = "ready") throws -> SSHSession {
        let errors = directory + "/session-\(UUID().uuidString.prefix(8)).stderr"
        // ssh's stderr to a file: the pipe is closed once the first line is read, and a later
        // message (a forwarded connection refused) would then kill ssh with SIGPIPE.
        let process = try BackgroundProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>>\(shellQuoted(errors))", "/usr/bin/ssh"]
                                                + sshArguments(forward: forward, requireForward: requireForward, command: command),
                                            environment: sandbox.environment)
        let line: String
        do { line = try process.firstLine(timeout: 30) } catch {
            throw SpawnError(description: "ssh session did not start: \(error); ssh said: \(String(decoding: contents(of: errors) ?? [], as: UTF8.self)); sshd: \(log)")
        }
        guard line == expecting else { throw SpawnError(description: "ssh session printed \(line.debugDescription), not \(expecting)") }
        return SSHSession(process: process)
    }
}

/// An ssh session open in the background (`SSHServer.openSession`); ended on deinit.
final class SSHSession {
    private let process: BackgroundProcess

    init(process: BackgroundProcess) { self.process = process }

    deinit { process.stop() }

    /// The client killed with SIGKILL, as when a laptop's lid closes or the network drops:
    /// nothing cleans up on either end.
    func killClient() {
        kill(process.pid, SIGKILL)
        process.stop()
    }

    /// The session ended the ordinary way (the client's stdin closed, then SIGTERM).
    func end() { process.stop() }
}

/// `text` as one word of a POSIX shell: in single quotes, each single quote spelled '\''.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
