import ArgumentParser
import CredentialCore
import HelperCommand

#if canImport(Glibc)
import Glibc
#endif

/// `doctor`: without NAME, this machine as the remote (git's configuration, the socket:
/// there? whose? does the other end answer?); with NAME, the serving end for NAME.
struct ForwardDoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a forward and say what to fix: on the remote (no NAME) or on your machine (serve NAME).",
        discussion: """
            On the remote: that git runs forward and no helper that writes credentials to a \
            file here, and that the socket is there, is yours and answers. On your machine \
            (NAME): that serve answers for NAME, that ssh forwards its socket for NAME \
            (ssh -G NAME), and that git here has helpers to answer with. Changes nothing, \
            asks for no credential; exits 1 when a check fails.

            Examples:
              git-credential-forward doctor              # on the remote
              git-credential-forward doctor build        # on your machine
            """)

    @Argument(help: ArgumentHelp("The forward to check on this machine, as serve names it; none: this machine as the remote.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The socket to check instead of the default one.", valueName: "path"), completion: .file())
    var socket: String?

    func run() throws {
        SecretPrompt.allowed = false
        let checks: [HealthCheck]
        if let name {
            try ForwardPolicy.checkName(name)
            checks = try ForwardDoctor.serving(name, socket: ForwardSockets.serve(name: name, option: socket.map(expandingTilde)))
        } else {
            checks = ForwardDoctor.remote(ForwardSockets.remote(option: socket))
        }
        SystemIO.writeAll(1, checks.map { $0.line + "\n" }.joined())
        if checks.contains(where: { $0.verdict == .fail }) { throw ExitCode.failure }
    }
}

enum ForwardDoctor {
    /// Without NAME on the person's own machine (serve runs here, no ssh session): the
    /// remote's checks would say to make forward git's helper here. Said first.
    /// Where serve may be found when not at NAME's default socket: started with another
    /// XDG_RUNTIME_DIR (a shell without it looks in ~/.cache), or under another name (a typo).
    static func elsewhere(_ name: String?) -> String {
        guard let name else { return "" }
        let home = SystemIO.environment("HOME").map { [$0 + "/.cache/git-credential-forward"] } ?? []
        let places = Array(Set(["/run/user/\(geteuid())/git-credential-forward"] + home + ((try? ForwardSockets.serveDirectory()).map { [$0] } ?? [])))
        let running = places.flatMap { directory in servedNames(in: directory).map { (directory, $0) } }
        if let other = running.first(where: { $0.1 == name }) {
            return " here; it runs with its socket in \(other.0)/\(name) (started with another XDG_RUNTIME_DIR): run doctor with that one"
        }
        let names = Set(running.map(\.1)).sorted()
        return names.isEmpty ? "" : " for \(name) (it runs for \(names.joined(separator: ", ")))"
    }

    /// The forwards whose socket is in `directory` (serve's directory of forwards).
    static func servedNames(in directory: String) -> [String] {
        guard let opened = CheckedDirectory.opened(directory, shownAs: directory, rootIsTrusted: false) else { return [] }
        return opened.entries().map(\.name).filter { name in
            var info = stat()
            return lstat(directory + "/" + name + "/socket", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        }.sorted()
    }

    static func servingHere() -> HealthCheck? {
        guard SystemIO.environment("SSH_CONNECTION") == nil, let directory = try? ForwardSockets.serveDirectory() else { return nil }
        let names = servedNames(in: directory)
        guard let first = names.first else { return nil }
        return HealthCheck(.warn, "this machine", "serve runs here for \(names.joined(separator: ", ")): the checks below are of a remote's end, and their Fix is not for this machine",
                           fix: "check this end: git-credential-forward doctor \(ShellWord.quoted(first))")
    }

    static func remote(_ sessions: RemoteSessions?) -> [HealthCheck] {
        let here = servingHere().map { [$0] } ?? []
        return here + remoteChecks(sessions)
    }

    static func remoteChecks(_ sessions: RemoteSessions?) -> [HealthCheck] {
        guard let sessions else { return configuration() + [HealthCheck(.fail, "socket", "HOME is not set, so there is no default socket", fix: "set HOME, or give --socket")] }
        let candidates = sessions.candidates()
        guard !candidates.isEmpty else {
            // setup guesses the remote's home (/home/USER): a RemoteForward to another path binds
            // nowhere this session looks.
            let home = SystemIO.environment("HOME").map { " --remote-home " + ShellWord.quoted($0) } ?? ""
            return configuration() + [HealthCheck(.fail, "socket", "no socket at \(sessions.arrival)" + (sessions.directory.map { " or in \($0)" } ?? "")
                                                  + ": this session has no forward (ssh said \"remote port forwarding failed\" at login if it could not bind it, as when sessions start at the same moment), so git here asks its next helper",
                                                  fix: sessions.directory == nil ? "reconnect, or name the socket that is forwarded here"
                                                    : "reconnect; if ssh said nothing, its RemoteForward names another path than \(sessions.arrival): on your machine, git-credential-forward setup NAME\(home) prints the line for this one")]
        }
        var dead = 0
        for path in candidates {
            let check = socketCheck(path, remote: true, named: sessions.directory == nil)
            if check.verdict == .ok { return configuration() + [check] }
            if ForwardSockets.isDead(path) { dead += 1; continue }
            return configuration() + [check]
        }
        return configuration() + [HealthCheck(.fail, "socket", "\(dead) socket\(dead == 1 ? "" : "s") of sessions that ended, none answering: this session has no forward (the next get removes them)",
                                              fix: "reconnect" + sessions.claimAdvice)]
    }

    static func serving(_ name: String, socket: String) -> [HealthCheck] {
        var checks = [socketCheck(socket, remote: false, name: name)]
        // "REMOTE LOCAL" for each RemoteForward to this socket.
        let forwards: [String]
        do { forwards = try SSHConfiguration.values("remoteforward", for: name).filter { $0.hasSuffix(" " + socket) } } catch {
            return checks + [HealthCheck(.fail, "ssh", error.message, fix: error.fix)] + personsChecks()
        }
        if let relative = forwards.map({ String($0.split(separator: " ")[0]) }).first(where: { !$0.hasPrefix("/") }) {
            checks.append(HealthCheck(.fail, "ssh", "ssh's RemoteForward for \(name) names \(relative) there, not a full path: sshd expands no ~ and binds nothing for it",
                                      fix: "use the line git-credential-forward setup \(ShellWord.quoted(name)) prints (the remote's home written out)"))
            return checks + personsChecks()
        }
        checks.append(forwards.isEmpty
            ? HealthCheck(.warn, "ssh", "ssh's configuration for \(name) forwards nothing to \(socket) (ssh -G \(name)), so only ssh -R on its command line reaches serve",
                          fix: "add the RemoteForward line git-credential-forward setup \(ShellWord.quoted(name)) prints to ~/.ssh/config")
            : HealthCheck(.ok, "ssh", "ssh \(name) forwards \(forwards[0].split(separator: " ")[0]) there to \(socket)"))
        return checks + personsChecks()
    }

    static func personsChecks() -> [HealthCheck] { [helpersCheck()] + (pathsNeededCheck().map { [$0] } ?? []) }

    /// git here has helpers for serve to ask.
    static func helpersCheck() -> HealthCheck {
        let helpers = (try? GitConfig.helperLines(outsideAnyRepository: true))?.activeGeneral.map(\.value) ?? []
        return helpers.isEmpty
            ? HealthCheck(.fail, "git config", "git here has no credential helper, so serve has nothing to answer with",
                          fix: "configure one: git-credential-keyring configure (or git-credential-sqlite configure)")
            : HealthCheck(.ok, "git config", "serve answers with your helpers: " + helpers.map(Trace.quoted).joined(separator: ", "))
    }

    /// git on the remote: forward among the helpers it runs; no helper that would write
    /// what forward answers to a file there (git hands every helper the credential to store).
    static func configuration() -> [HealthCheck] {
        guard let lines = try? GitConfig.helperLines() else {
            return [HealthCheck(.fail, "git config", "git config cannot be read (is git installed?)", fix: "run git config --list to see what is wrong")]
        }
        let active = lines.activeGeneral
        let order = active.isEmpty ? "no helper" : "helpers in order: " + active.map { Trace.quoted($0.value) }.joined(separator: ", ")
        // setup's line: forward alone (a system configuration's helper reset), never
        // replacing one value among several in place.
        let fixed = "git config --global --replace-all credential.helper '' && git config --global --add credential.helper "
            + ShellWord.quoted(Subprocess.currentExecutable ?? "/FULL/PATH/git-credential-forward")
        guard let ours = active.first(where: { HelperLine(parsing: $0.value).runs("forward") }) else {
            return [HealthCheck(.fail, "git config", "credential.helper does not name forward (\(order))", fix: fixed)]
        }
        if HelperLine(parsing: ours.value).isShortName {
            // git finds git-credential-forward on PATH: a login shell's PATH (~/.local/bin)
            // is not what `ssh HOST git fetch` or cron runs git with.
            guard let found = Subprocess.which("git-credential-forward") else {
                return [HealthCheck(.fail, "git config", "\(order): git runs git-credential-forward by name, and PATH here does not find it", fix: fixed)]
            }
            if !["/usr/local/bin", "/usr/bin", "/bin"].contains(PrivateFiles.directory(of: found)) {
                return [HealthCheck(.warn, "git config", "\(order): git finds \(found) on this PATH only: git run by ssh HOST COMMAND, cron or an IDE (PATH=/usr/bin:/bin) will not; a full path works everywhere",
                                    fix: fixed)]
            }
        }
        // The suite's helpers that keep credentials (Programs), and git's own and contrib's.
        let keeping = Programs.all.filter { !$0.keeps.isEmpty }.compactMap(\.helperName) + ["store", "cache", "libsecret"]
        if let writer = active.first(where: { entry in keeping.contains { HelperLine(parsing: entry.value).runs($0) } }) {
            return [HealthCheck(.fail, "git config", "\(order): \(Trace.quoted(writer.value)) (\(Doctor.place(writer.scope))) keeps on this machine what forward answers, since git stores every credential it used in each helper",
                                fix: Doctor.removal(of: writer))]
        }
        return [HealthCheck(.ok, "git config", order), pathCheck()]
    }

    /// On the remote: git sends the repository's path, so that the person's git can pick
    /// the account it would pick for the same repository (AccountsByPath).
    static func pathCheck() -> HealthCheck {
        let sent = GitConfig.runOutsideAnyRepository(["config", "--type=bool", "credential.useHttpPath"])?.outputText == "true\n"
        return sent ? HealthCheck(.ok, "paths", "git here sends each repository's path, so your machine answers with the account it would use for that repository")
            : HealthCheck(.warn, "paths", "git here sends no repository path: where your machine picks the account by path (two accounts on one host), serve answers nothing",
                          fix: AccountsByPath.remoteFix)
    }

    /// On the person's machine: where their git picks the account by path, the remote must send it.
    static func pathsNeededCheck() -> HealthCheck? {
        let found = AccountsByPath.configured()
        let hosts = found.everywhere ? ["every host"] : Array(Set(found.places.map(\.host))).sorted()
        guard !hosts.isEmpty else { return nil }
        return HealthCheck(.ok, "paths", "your git picks the account by the repository's path for \(hosts.joined(separator: ", ")): serve answers those only when the remote's git sends the path (\(AccountsByPath.remoteFix) there; setup prints it)")
    }

    /// `named`: a socket the person named (--socket, the variable: a container's mount),
    /// never to be moved aside (it may be serve's own, which every box uses).
    static func socketCheck(_ path: String, remote: Bool, name: String? = nil, named: Bool = false) -> HealthCheck {
        let subject = "socket"
        let start = remote ? "connect with the RemoteForward line git-credential-forward setup NAME prints on your machine"
            : "git-credential-forward serve \(name.map(ShellWord.quoted) ?? "NAME") --host HOST"
        switch ForwardSockets.connect(path, named: named) {
        case .nobody(let why):
            return HealthCheck(remote ? .warn : .fail, subject, why + (remote ? ": no ssh session forwards one here now" : ": serve is not running" + elsewhere(name)), fix: start)
        case .untrusted(let error): return HealthCheck(.fail, subject, error.message, fix: error.fix)
        case .dead:
            return HealthCheck(.fail, subject, "\(path) is a socket no one listens on: " + (remote ? "the session that made it ended (the next get removes it)" : "a serve that was killed left it"),
                               fix: "rm \(ShellWord.quoted(path))" + (remote ? ", then connect again" : ", then " + start))
        case .connected(var connection):
            defer { connection.close() }
            connection.write(ForwardWire.request(.ping, Credential()), until: ForwardConnection.now + ForwardClient.patience)
            let (reply, why) = ForwardWire.reply(on: &connection, patience: ForwardClient.patience)
            guard case .pong(let answering)? = reply else {
                return HealthCheck(.fail, subject, "\(path) is yours, but nothing answers through it (\(why))" + (remote ? ": serve does not run on your machine, or ssh cannot reach it" : ""),
                                   fix: remote ? "start it on your machine: git-credential-forward serve NAME --host HOST" : start)
            }
            return HealthCheck(.ok, subject, "\(path) is yours, and serve \(Trace.quoted(answering)) answers" + (remote ? " on your machine" : ""))
        }
    }
}
