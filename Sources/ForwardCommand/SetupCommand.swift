import ArgumentParser
import CredentialCore
import HelperCommand

/// `setup NAME`: the lines that set a forward up, with this machine's and the remote's
/// paths filled in; it changes nothing.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Print the lines that forward your credential helpers to the remote NAME: serve, ssh's RemoteForward, the remote's credential.helper.",
        discussion: """
            Changes nothing: it prints the serve command for this machine, the RemoteForward \
            line for ~/.ssh/config (and the ssh -R form for one session), and the commands \
            that copy the program to the remote and set git's credential.helper there (by \
            its full path: git run by ssh HOST COMMAND or cron has no login PATH). The \
            remote's socket is ~/.git-credential-forward.sock there: \
            its home directory is --remote-home, else /home/USER (/root for root) with the \
            user ssh -G NAME names.

            Examples:
              git-credential-forward setup build --host github.com
              git-credential-forward setup build --host github.com --remote-home /srv/home/alice
            """)

    @OptionGroup var forward: ForwardPolicyOptions

    @Option(help: ArgumentHelp("The remote user's home directory (default: /home/USER, with ssh -G NAME's user).", valueName: "dir"))
    var remoteHome: String?

    func run() throws {
        let policy = try forward.policy()
        let local = try ForwardSockets.serve(name: policy.name, option: nil)
        let (home, guessed) = try remoteHomeDirectory(policy.name)
        let remote = ForwardSockets.remoteDefault(home: home)
        // The remote's sessions' sockets are the longest there (RemoteSessions.claim).
        for path in [local, home + "/.git-credential-forward/01234567.sock"] where path.utf8.count > ForwardSockets.longestPath {
            throw HelperError(.usage, "\(path) is longer than a Unix socket's path may be (\(ForwardSockets.longestPath) bytes)", fix: "give a shorter --remote-home, or set XDG_RUNTIME_DIR")
        }
        let serve = (["git-credential-forward", "serve"] + forward.serveArguments).map(ShellWord.quoted).joined(separator: " ")
        let allows = policy.hosts.isEmpty ? "no host yet: add --host HOST for each host the remote may get" : policy.actions.joined(separator: ", ") + " for " + policy.hosts.map(\.text).joined(separator: ", ")
        let host = ShellWord.quoted(policy.name)
        let program = Subprocess.currentExecutable ?? "git-credential-forward"
        let lines = [
            "# 1. On this machine, keep this running while you work on \(policy.name) (\(allows)):",
            serve,
            "#    (in a terminal or tmux; or for your desktop session: systemd-run --user --unit=git-credential-forward-\(policy.name) \(serve))",
            "# 2. In ~/.ssh/config on this machine (add the RemoteForward line to your Host \(policy.name) block if you have one):",
            "Host \(policy.name)",
            "    RemoteForward \(sshConfigWord(remote)) \(sshConfigWord(local))",
            "#    or for one session: ssh -R \(ShellWord.quoted(remote + ":" + local)) \(host)",
            guessed.map { "#    (\(home) is \($0); if not, run setup again with --remote-home DIR)" },
            "# 3. Once: copy the program to \(policy.name) (one static file) and make git there use it alone (the empty",
            "#    line: no helper of its system configuration keeps what forward answers), sending each repository's",
            "#    path so that this machine answers with the account its git uses for that repository",
            "#    (these commands forward nothing: a session that runs no git would leave its socket in the next one's way):",
            "ssh -o ClearAllForwardings=yes \(host) 'mkdir -p ~/.local/bin'",
            "scp \(ShellWord.quoted(program)) \(host):.local/bin/git-credential-forward",
            "ssh -o ClearAllForwardings=yes \(host) 'git config --global --replace-all credential.helper \"\" && git config --global --add credential.helper \"$HOME/.local/bin/git-credential-forward\" && \(AccountsByPath.remoteFix)'",
            "# 4. Once, so that a session that never runs git leaves nothing in the next one's way (sshd leaves each",
            "#    session's socket behind): each session moves its socket on as it starts (if you forward X11, see",
            "#    sshd(8) on ~/.ssh/rc and xauth first); StreamLocalBindUnlink yes in its sshd_config is no replacement:",
            "ssh -o ClearAllForwardings=yes \(host) 'test -x ~/.local/bin/git-credential-forward && mkdir -p -m 700 ~/.ssh && echo ~/.local/bin/git-credential-forward claim >> ~/.ssh/rc'",
            "# Check: git-credential-forward doctor \(host) here, and there: ssh \(host) .local/bin/git-credential-forward doctor",
        ].compactMap { $0 }
        SystemIO.writeAll(1, lines.joined(separator: "\n") + "\n")
    }

    /// The remote home, and how it was guessed (nil when given).
    func remoteHomeDirectory(_ name: String) throws -> (String, String?) {
        if let remoteHome {
            guard remoteHome.hasPrefix("/") else {
                throw HelperError(.usage, "--remote-home \(Trace.quoted(remoteHome)) is not an absolute path", fix: "give the remote home's full path, e.g. --remote-home /home/alice")
            }
            return (remoteHome, nil)
        }
        guard let user = try SSHConfiguration.values("user", for: name).first, !user.isEmpty, !user.contains("/") else {
            throw HelperError(.failure, "ssh -G \(name) does not say which user logs in there, so the remote's home is not known",
                              fix: "give it: git-credential-forward setup \(name) --remote-home /home/USER")
        }
        return (user == "root" ? "/root" : "/home/" + user, "a guess from ssh -G \(name)'s user \(user)")
    }

    /// A path as ssh_config reads a word: in double quotes when it holds a space.
    func sshConfigWord(_ path: String) -> String { path.contains(" ") ? "\"\(path)\"" : path }
}
