import ArgumentParser
import CredentialCore
import HelperCommand

/// What a forward may ask, as serve and setup take it.
struct ForwardPolicyOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The remote's name, as you name it to ssh (letters, digits, '.', '-', '_').", valueName: "name"))
    var name: String

    @Option(name: .customLong("host"),
            help: ArgumentHelp("A host whose credential the remote may get: HOST (any port) or HOST:PORT. Repeat for more; none: nothing is answered.",
                               valueName: "host"))
    var hosts: [String] = []

    @Flag(help: "Let the remote store credentials in your helpers (a token refreshed there).")
    var allowStore = false

    @Flag(help: "Let the remote erase credentials from your helpers (a password the server rejected).")
    var allowErase = false

    @Flag(help: "Ask on your desktop before each answer (SSH_ASKPASS, else ssh-askpass); no one there: no.")
    var confirm = false

    func policy() throws(HelperError) -> ForwardPolicy {
        try ForwardPolicy.checkName(name)
        var policy = ForwardPolicy(name: name)
        for host in hosts { policy.hosts.append(try ForwardPolicy.HostPattern(host)) }
        (policy.allowStore, policy.allowErase, policy.confirm) = (allowStore, allowErase, confirm)
        return policy
    }

    /// The options again, as serve takes them (setup prints the command).
    var serveArguments: [String] {
        [name] + hosts.flatMap { ["--host", $0] } + (allowStore ? ["--allow-store"] : []) + (allowErase ? ["--allow-erase"] : [])
            + (confirm ? ["--confirm"] : [])
    }
}

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "On your machine: answer the remote NAME's requests with your own credential helpers.",
        discussion: """
            Listens on a Unix socket (default: $XDG_RUNTIME_DIR/git-credential-forward/NAME/socket, \
            else ~/.cache/git-credential-forward/NAME/socket) that ssh forwards to the remote, \
            until Ctrl-C, SIGTERM, the end of --for or of the process --while names; each forward's directory holds its \
            socket alone, so that a container given it reaches no other. Each request is answered by git credential fill (approve, \
            reject for store and erase) run outside any repository, as git here would ask your \
            helpers, never with a prompt of git's own; serve stores nothing itself. Each \
            request gets a line on stderr (--log: in a file), never with the secret. Only \
            connections from your own processes (your ssh) are read; a request must come \
            whole within 5 seconds, and at most 32 are handled at once.

            Examples:
              git-credential-forward serve build --host github.com
              git-credential-forward serve build --host github.com --host git.example.com:8443 --allow-store --log ~/forward.log
              git-credential-forward serve ci --host github.com --confirm
            """)

    @OptionGroup var forward: ForwardPolicyOptions

    @Option(help: ArgumentHelp("Write the line for each request (what was asked and what was done, never a secret) to this file instead of stderr.", valueName: "file"),
            completion: .file())
    var log: String?

    @Option(help: ArgumentHelp("Listen here instead of the default socket; its directory must hold nothing else.", valueName: "path"), completion: .file())
    var socket: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("Stop by itself after this long: 90s, 30m, 2h (default: until stopped).", valueName: "duration"))
    var lasting: String?

    @Option(name: .customLong("while"), help: ArgumentHelp("Stop by itself when the process PID ends (ssh's LocalCommand: --while $PPID).", valueName: "pid"))
    var whilePID: Int32?

    func run() throws {
        let policy = try forward.policy()
        let span = try lasting.map { text throws(HelperError) in try TimeSpan(parsing: text, option: "--for") }
        let log = try ForwardLog.open(log.map(expandingTilde) ?? "-")
        let watched = try whilePID.map { pid throws(HelperError) in try ForwardServer.Watched(pid) }
        try ForwardServer(policy: policy, log: log, socket: ForwardSockets.serve(name: policy.name, option: socket.map(expandingTilde)),
                          lasting: span, watched: watched).run()
    }
}
