import Testing
@testable import CredentialCore

/// The one rule for whether, and where, a person can be asked (PromptPlace), with the
/// environment and the descriptors given: no process, no terminal needed.
@Suite("PromptPlace: whether and where a person can be asked")
struct PromptPlaceTests {
    static func place(_ variables: [String: String], terminals: [Int32: String] = [:], controlling: Bool = true) -> PromptPlace {
        PromptPlace(variable: { variables[$0] }, terminalOn: { terminals[$0] }, controllingTerminal: { controlling })
    }

    @Test func aDisplayOrWaylandIsTheDesktop() {
        #expect(Self.place(["DISPLAY": ":0"]).desktop)
        #expect(Self.place(["WAYLAND_DISPLAY": "wayland-0"]).desktop)
        #expect(!Self.place([:]).desktop)
        // Set but empty, as a script that clears it: no display.
        #expect(!Self.place(["DISPLAY": "", "WAYLAND_DISPLAY": ""]).desktop)
    }

    /// git's booleans: unset is true, empty and anything but a true word or a non-zero number false.
    @Test(arguments: [(nil, true), ("1", true), ("true", true), ("Yes", true), ("on", true), ("2", true),
                      ("0", false), ("", false), ("false", false), ("no", false), ("off", false), ("maybe", false)] as [(String?, Bool)])
    func gitTerminalPromptAsGitReadsIt(_ value: String?, _ allowed: Bool) {
        let place = Self.place(value.map { ["GIT_TERMINAL_PROMPT": $0] } ?? [:])
        #expect(place.terminalAllowed == allowed)
        #expect(place.terminal == allowed)
    }

    @Test func noControllingTerminalNoTerminal() {
        #expect(!Self.place([:], terminals: [2: "/dev/pts/3"], controlling: false).terminal)
    }

    /// GPG_TTY first, then stderr, stdout, stdin, then SSH_TTY (the copies differed:
    /// pass looked at 2, 1, 0 and never at SSH_TTY; import at 0, 2, 1 and SSH_TTY).
    @Test func pinentryTerminalInOrder() {
        #expect(Self.place(["GPG_TTY": "/dev/pts/9"], terminals: [2: "/dev/pts/3"]).pinentryTerminal == "/dev/pts/9")
        #expect(Self.place([:], terminals: [0: "/dev/pts/1", 1: "/dev/pts/2", 2: "/dev/pts/3"]).pinentryTerminal == "/dev/pts/3")
        #expect(Self.place([:], terminals: [0: "/dev/pts/1", 1: "/dev/pts/2"]).pinentryTerminal == "/dev/pts/2")
        #expect(Self.place([:], terminals: [0: "/dev/pts/1"]).pinentryTerminal == "/dev/pts/1")
        #expect(Self.place(["SSH_TTY": "/dev/pts/7"]).pinentryTerminal == "/dev/pts/7")
        #expect(Self.place(["GPG_TTY": "", "SSH_TTY": ""]).pinentryTerminal == nil)
    }

    /// GIT_TERMINAL_PROMPT=0 and no controlling terminal (cron, systemd, setsid) leave no
    /// terminal for a pinentry, whatever GPG_TTY or SSH_TTY were inherited (import's copy
    /// let GPG_TTY through without a terminal, and waited 120 seconds for no one).
    @Test func pinentryTerminalOnlyWhereATerminalMayBeAsked() {
        #expect(Self.place(["GPG_TTY": "/dev/pts/9", "GIT_TERMINAL_PROMPT": "0"]).pinentryTerminal == nil)
        #expect(Self.place(["GPG_TTY": "/dev/pts/9"], controlling: false).pinentryTerminal == nil)
        #expect(Self.place(["SSH_TTY": "/dev/pts/7"], controlling: false).pinentryTerminal == nil)
        #expect(!Self.place(["GPG_TTY": "/dev/pts/9"], controlling: false).pinentryReachable)
    }

    @Test func pinentryReachesADesktopWithoutATerminal() {
        #expect(Self.place(["DISPLAY": ":0", "GIT_TERMINAL_PROMPT": "0"], controlling: false).pinentryReachable)
        #expect(!Self.place([:], controlling: false).pinentryReachable)
        #expect(Self.place([:], terminals: [2: "/dev/pts/3"]).pinentryReachable)
    }
}
