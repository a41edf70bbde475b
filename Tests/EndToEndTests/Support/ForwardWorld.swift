import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension BuiltProducts {
    static var forward: String { directory + "/git-credential-forward" }
}

/// `git-credential-forward serve NAME OPTIONS` on the person's machine, in the background
/// until stopped (SIGTERM, as a person's Ctrl-C or systemd stops it) or the value goes away.
final class ForwardServe {
    let name: String
    /// The socket it said it listens on (`serving NAME on PATH ...`).
    let socket: String
    let logFile: String
    private let stderrFile: String
    private let process: BackgroundProcess

    /// Started with the machine's environment (its git, its helper) plus `environment`;
    /// `--log` is added unless `options` has one.
    init(machine: ClientMachine, name: String, _ options: [String], environment: [String: String] = [:]) throws {
        self.name = name
        let directory = machine.sandbox.root + "/serve-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        logFile = directory + "/log"
        stderrFile = directory + "/stderr"
        let runtime = machine.sandbox.root + "/runtime"
        if !fileExists(runtime) {
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        let arguments = ["serve", name] + options + (options.contains("--log") ? [] : ["--log", logFile])
        // stderr to a file, not a pipe that the test would have to keep reading.
        process = try BackgroundProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>>\(shellQuoted(stderrFile))", BuiltProducts.forward] + arguments,
                                        environment: machine.sandbox.environment.merging(machine.environment) { $1 }
                                            .merging(["XDG_RUNTIME_DIR": runtime]) { $1 }.merging(environment) { $1 })
        let deadline = Date().addingTimeInterval(20)
        var said = ""
        while true {
            said = String(decoding: contents(of: stderrFile) ?? [], as: UTF8.self)
            // `git-credential-forward: serving NAME on PATH: what it answers...`
            if let range = said.range(of: "serving \(name) on "),
               let word = said[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first {
                socket = word.hasSuffix(":") ? String(word.dropLast()) : String(word)
                break
            }
            var status: Int32 = 0
            if waitpid(process.pid, &status, WNOHANG) == process.pid || Date() >= deadline {
                process.stop()
                throw SpawnError(description: "git-credential-forward serve \(arguments) did not say it serves: \(said.debugDescription)")
            }
            usleep(20_000)
        }
    }

    deinit { process.stop() }

    /// SIGTERM, and waits for it to end.
    func stop() { process.stop() }

    var pid: pid_t { process.pid }

    /// What it wrote on stderr (its `serving` line, and anything else).
    var stderr: String { String(decoding: contents(of: stderrFile) ?? [], as: UTF8.self) }
    /// Its --log file's lines.
    var log: [String] { Output(bytes: contents(of: logFile) ?? []).lines }

    /// The last log line, waiting up to 10 s for there to be `count` lines (a child writes
    /// its line as it ends, maybe after the remote saw the answer).
    func waitForLog(lines count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let deadline = Date().addingTimeInterval(10)
        while log.count < count && Date() < deadline { usleep(20_000) }
        #expect(log.count >= count, "expected \(count) log lines: \(log)", sourceLocation: sourceLocation)
        return log
    }
}

/// The person's machine and a remote one: git-credential-sqlite as the person's helper
/// (their git configuration) holding alice's password for a loopback git server; sshd on
/// 127.0.0.1 logging in a throwaway account (the remote), configured as `setup` tells a
/// person to: git's credential.helper the program by its full path (the copied file) and,
/// unless told otherwise, `git-credential-forward claim` in ~/.ssh/rc.
final class ForwardWorld {
    /// When a session's socket is moved on from the arrival path into
    /// ~/.git-credential-forward/ (so that the next session can bind the path again).
    enum Claim: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// ~/.ssh/rc runs `git-credential-forward claim` as each session starts (setup's step 4).
        case atSessionStart = "claimed from ~/.ssh/rc"
        /// No ~/.ssh/rc: the session's first get claims it.
        case atFirstGet = "claimed by the first get"
        var testDescription: String { rawValue }
    }

    let machine: ClientMachine
    let server: BasicAuthServer
    let password = awkwardPassword()
    let sshd: SSHServer
    var remote: RemoteAccount { sshd.account }
    /// Where sshd binds each session's socket (RemoteForward's path as setup prints it):
    /// one file in HOME, since sshd makes no directories.
    var remoteSocket: String { remote.home + "/.git-credential-forward.sock" }
    /// Where sessions' sockets are moved to.
    var sessionsDirectory: String { remote.home + "/.git-credential-forward" }

    /// `responseDelay`: the git server's, in seconds (so that a sampler sees the clients run).
    init(bindUnlink: SSHServer.BindUnlink = .yes, claim: Claim = .atSessionStart, responseDelay: Double = 0) throws {
        machine = try ClientMachine(.sqlite)
        server = try machine.startServer(username: "alice", password: password, responseDelay: responseDelay)
        try server.makeRepository("project")
        try machine.store(username: "alice", password: password, for: server)
        sshd = try SSHServer(sandbox: machine.sandbox, bindUnlink: bindUnlink)
        // setup's lines for the remote, the program where the build put it.
        var lines = ["git config --global --replace-all credential.helper '' && git config --global --add credential.helper \(shellQuoted(BuiltProducts.forward))",
                     "git config --global credential.useHttpPath true"]
        if claim == .atSessionStart { lines.append("echo \(shellQuoted(BuiltProducts.forward)) claim >> ~/.ssh/rc") }
        for line in lines {
            let configured = try sshd.run(line)
            guard configured.exitCode == 0 else { throw SpawnError(description: "on the remote, \(line): \(configured)\n\(sshd.log)") }
        }
    }

    /// serve for this remote (name `remote`), allowing the server's host unless `options` names hosts.
    func serve(_ options: [String] = [], environment: [String: String] = [:], name: String = "remote") throws -> ForwardServe {
        try ForwardServe(machine: machine, name: name, options.contains("--host") ? options : ["--host", server.host] + options,
                         environment: environment)
    }

    func forward(to serve: ForwardServe) -> SSHServer.Forward { SSHServer.Forward(remote: remoteSocket, local: serve.socket) }

    /// `git clone` of the server's project on the remote, in a session forwarding to `serve` (if any).
    func clone(_ directory: String, through serve: ForwardServe?, requireForward: Bool = true, config: [String] = []) throws -> ProcessResult {
        let options = config.map { "-c " + shellQuoted($0) + " " }.joined()
        return try sshd.run("git \(options)clone --quiet \(shellQuoted(server.repositoryURL("project"))) \(shellQuoted(directory))",
                            forwarding: serve.map(forward(to:)), requireForward: requireForward)
    }

    /// `git credential ACTION` on the remote with `request`, in a session forwarding to `serve`.
    func credential(_ action: String, _ request: [UInt8], through serve: ForwardServe?, requireForward: Bool = true) throws -> ProcessResult {
        try sshd.run("git credential \(action)", forwarding: serve.map(forward(to:)), requireForward: requireForward, input: request)
    }

    /// The helper itself on the remote (`git-credential-forward ARGUMENTS` with `request`), in a session forwarding to `serve`.
    func helper(_ arguments: String, _ request: [UInt8], through serve: ForwardServe?, requireForward: Bool = true,
                environment: [String: String] = [:]) throws -> ProcessResult {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(shellQuoted($0.value)) " }.joined()
        return try sshd.run(variables + shellQuoted(BuiltProducts.forward) + " " + arguments, forwarding: serve.map(forward(to:)), requireForward: requireForward,
                            input: request)
    }

    /// The request git makes for the server: `protocol=http`, `host=127.0.0.1:PORT`.
    var request: [UInt8] { wire("protocol=http", "host=\(server.host)") }

    /// Expects that no file in the remote's HOME holds the password (the clone's config,
    /// a credential store, a trace, a history).
    func expectNothingAtRestOnTheRemote(sourceLocation: SourceLocation = #_sourceLocation) {
        let holding = remote.files(containing: password)
        #expect(holding.isEmpty, "files of the remote holding the password: \(holding)", sourceLocation: sourceLocation)
        #expect(!remote.allFiles.isEmpty, "the remote's HOME was not walked", sourceLocation: sourceLocation)
    }

    /// The password the person's own store holds for the server, nil for none.
    func personsPassword() throws -> String? { try machine.storedPassword(for: server) }
}

/// An SSH_ASKPASS for serve --confirm that records each question with SSH_ASKPASS_PROMPT
/// (`confirm: QUESTION` lines) and answers with `status` after `delay` seconds; in a
/// directory of the test's own that no one else can write (a program named by a variable
/// is run only from such a place).
struct Confirmer {
    let program: String
    let record: String

    init(_ sandbox: Sandbox, status: Int, delay: Int = 0) throws {
        let directory = try sandbox.ownDirectory()
        record = sandbox.root + "/askpass-record"
        program = directory + "/askpass-\(status)"
        try ChildProcess.writeFile(program, Array("""
            #!/bin/sh
            printf '%s: %s\\n' "$SSH_ASKPASS_PROMPT" "$*" >>'\(record)'
            sleep \(delay)
            exit \(status)

            """.utf8), mode: 0o755)
    }

    /// serve's environment for it: the program, and a display to ask on.
    var environment: [String: String] { ["SSH_ASKPASS": program, "DISPLAY": ":99"] }
    var questions: [String] { Output(bytes: contents(of: record) ?? []).lines }
    var asked: Bool { FileManager.default.fileExists(atPath: record) }
}
