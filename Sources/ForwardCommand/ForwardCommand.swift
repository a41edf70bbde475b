import ArgumentParser
import CredentialCore
import HelperCommand

/// `git-credential-forward`: the person's own credential helpers answering for git on a
/// machine they reach by ssh (or a container), through a forwarded Unix socket; nothing
/// at rest there. One program, two ends: git's get/store/erase on the remote, `serve` on
/// the person's machine.
public struct ForwardCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "git-credential-forward",
        abstract: "Answer git on a remote machine with the credential helpers of your own, through a socket ssh forwards.",
        discussion: """
            On the remote machine (a build server, a cloud VM, a container), git runs it as a \
            credential helper (its full path in credential.helper): it passes get, store and erase \
            through a Unix socket that ssh forwards (RemoteForward, ssh -R) to your machine, \
            where `git-credential-forward serve` asks your own helpers (the keyring, the SQLite \
            store, pass, an OAuth helper: whatever git uses there) and answers. Nothing is \
            stored on the remote: no file, no environment variable, no argument holds a \
            secret there. With no socket, or no one answering within 5 seconds, a get stays \
            silent and git asks its next helper.

            Your machine decides: serve answers get only, for the hosts you list (--host), \
            store and erase only where you allow them, each request confirmed on your \
            desktop if you ask for it (--confirm), and every answer logged (--log), never with \
            the secret. While a session lasts, the remote's root can use the socket as you \
            can (as with ssh-agent forwarding): list only the hosts that machine needs.

            The remote's socket: --socket, else $GIT_CREDENTIAL_FORWARD_SOCKET, else \
            ~/.git-credential-forward.sock. It is used only when it is a socket of your own, \
            in directories no one else can write; otherwise the helper says so in one line.

            Examples:
              git-credential-forward setup build --host github.com   # prints the lines below
              git-credential-forward serve build --host github.com   # on your machine
              git config --global credential.helper "$(command -v git-credential-forward)"   # on build, once
              git-credential-forward doctor                          # on build
            """,
        version: Version.line("git-credential-forward"),
        subcommands: [ForwardGet.self, ForwardStore.self, ForwardErase.self, ServeCommand.self, SetupCommand.self,
                      ClaimCommand.self, ForwardDoctorCommand.self, CapabilityCommand.self])

    public init() {}

    /// The program's entry point: git's calls without the argument parser (its reflection
    /// costs more than the rest of a get), anything else through it.
    public static func start() -> Never {
        HelperRunner.main(command: ForwardCommand.self, parsedWithout: gitCall)
    }

    /// `[--socket PATH] get|store|erase`, as git runs a helper line.
    static func gitCall(_ arguments: [String]) -> ParsableCommand? {
        guard let last = arguments.last, let action = ForwardWire.Action(rawValue: last), action != .ping else { return nil }
        var call = GitCall()
        call.action = action
        switch arguments.dropLast().count {
        case 0: break
        case 1 where arguments[0].hasPrefix("--socket="): call.socket = String(arguments[0].dropFirst("--socket=".count))
        case 2 where arguments[0] == "--socket": call.socket = arguments[1]
        default: return nil
        }
        return call
    }

    /// git's call as gitCall read it; never parsed.
    struct GitCall: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "git-credential-forward")
        var action = ForwardWire.Action.get
        var socket: String?
        init() {}
        init(from decoder: Decoder) throws {}
        func run() throws { try ForwardClient.run(action, socket: socket) }
    }

    public func run() throws {
        throw HelperError(.usage, "no action given (git runs helpers with get, store or erase last)", fix: "see git-credential-forward --help")
    }
}

struct ForwardSocketOption: ParsableArguments {
    @Option(help: ArgumentHelp("The forwarded socket (default: $GIT_CREDENTIAL_FORWARD_SOCKET, else ~/.git-credential-forward.sock).", valueName: "path"),
            completion: .file())
    var socket: String?
}

struct ForwardGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Ask your machine for the credential of the request on stdin (git calls this).",
        discussion: "Example:\n  printf 'protocol=https\\nhost=github.com\\n\\n' | git-credential-forward get")
    @OptionGroup var options: ForwardSocketOption
    func run() throws { try ForwardClient.run(.get, socket: options.socket) }
}

struct ForwardStore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Pass the credential on stdin to your machine to store, where serve allows it (git calls this).")
    @OptionGroup var options: ForwardSocketOption
    func run() throws { try ForwardClient.run(.store, socket: options.socket) }
}

struct ForwardErase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Pass the request on stdin to your machine to erase, where serve allows it (git calls this).")
    @OptionGroup var options: ForwardSocketOption
    func run() throws { try ForwardClient.run(.erase, socket: options.socket) }
}

struct ClaimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "On the remote, from ~/.ssh/rc: move this ssh session's socket on, so that the next session can bind its path.",
        discussion: """
            sshd binds every session's forward at ~/.git-credential-forward.sock and leaves \
            the socket there when the session ends; the next session cannot bind the path \
            while it is there. The first get of a session moves it into \
            ~/.git-credential-forward/ under the session's name; claim does it as the session \
            starts, for sessions that may never run git. Silent; exits 0 when there is nothing \
            to move, but for one line when a socket an earlier session left kept this \
            session's forward from binding (removed then: reconnect).

            Example (~/.ssh/rc on the remote; sshd runs it with /bin/sh at each session's start):
              ~/.local/bin/git-credential-forward claim
            """)

    func run() throws {
        guard let sessions = ForwardSockets.remote(option: nil), try sessions.claim() else { return }
        // sshd shows what ~/.ssh/rc writes as the session starts: the person reconnects now.
        SystemIO.writeAll(2, sessions.unbound.line(program: "git-credential-forward") + "\n")
    }
}
