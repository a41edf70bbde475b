#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a person could be asked something, and the one rule for it: the terminal
/// (SecretPrompt's passphrase prompt), the desktop (the keyring's unlock prompt, a
/// graphical pinentry) and the terminal a curses pinentry is told of (pass's and import's
/// gpg). Each caller asks the question it needs; none reads DISPLAY, GIT_TERMINAL_PROMPT,
/// GPG_TTY or a descriptor's terminal itself.
public struct PromptPlace {
    /// The environment variable as set, empty included (GIT_TERMINAL_PROMPT= is false).
    var variable: (String) -> String?
    /// The name of the terminal on a descriptor, `nil` when it is none.
    var terminalOn: (Int32) -> String?
    /// Whether this process has a terminal to open (/dev/tty): a prompt, or a pinentry
    /// told of a terminal, reaches a person only then (git run from cron, systemd, setsid
    /// has none, whatever GPG_TTY or SSH_TTY it inherited).
    var controllingTerminal: () -> Bool

    public init(variable: @escaping (String) -> String?, terminalOn: @escaping (Int32) -> String?, controllingTerminal: @escaping () -> Bool) {
        self.variable = variable
        self.terminalOn = terminalOn
        self.controllingTerminal = controllingTerminal
    }

    /// This process's environment and descriptors.
    public static var here: PromptPlace {
        PromptPlace(
            variable: { name in getenv(name).map { String(cString: $0) } },
            terminalOn: { fd in isatty(fd) == 1 ? ttyname(fd).map { String(cString: $0) } : nil },
            controllingTerminal: {
                let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
                if fd < 0 { return false }
                close(fd)
                return true
            })
    }

    func nonEmpty(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }

    /// A graphical session (DISPLAY or WAYLAND_DISPLAY): the keyring's unlock prompt and a
    /// graphical pinentry show there, and a person may take a while to answer.
    public var desktop: Bool { nonEmpty("DISPLAY") != nil || nonEmpty("WAYLAND_DISPLAY") != nil }

    /// git's GIT_TERMINAL_PROMPT: a false value (0, false, no, off, empty) forbids the
    /// terminal, and git then never opens it (a script or CI job that set it would
    /// otherwise hang on /dev/tty); askpass stays allowed, as in git. A value git would
    /// reject as no boolean counts as false: when in doubt, do not block on a terminal.
    public var terminalAllowed: Bool {
        guard let raw = variable("GIT_TERMINAL_PROMPT") else { return true }
        let word = raw.lowercased()
        if ["true", "yes", "on"].contains(word) { return true }
        if let number = Int(word) { return number != 0 }
        return false
    }

    /// Whether the terminal may be asked and there is one.
    public var terminal: Bool { terminalAllowed && controllingTerminal() }

    /// The terminal to name in GPG_TTY for a curses pinentry: GPG_TTY itself, else the
    /// terminal on stderr, stdout or stdin (stderr first: where this program's messages
    /// go, so where the person reads; git gives a helper a pipe as stdin), else SSH_TTY
    /// (as Git Credential Manager does over SSH). `nil` when the terminal may not be asked
    /// or there is none.
    public var pinentryTerminal: String? {
        guard terminal else { return nil }
        if let named = nonEmpty("GPG_TTY") { return named }
        for fd: Int32 in [2, 1, 0] {
            if let name = terminalOn(fd) { return name }
        }
        return nonEmpty("SSH_TTY")
    }

    /// Whether gpg-agent's pinentry can reach a person: a display, or a terminal to name.
    public var pinentryReachable: Bool { desktop || pinentryTerminal != nil }

    /// The same here and now, and never while completing a word (SecretPrompt.allowed).
    public static var pinentryReachable: Bool { SecretPrompt.allowed && here.pinentryReachable }
}
