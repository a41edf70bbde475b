import CredentialCore

/// Where a passphrase comes from: an inherited descriptor given on the command line,
/// else a person (askpass or terminal). Never argv, never the environment.
public struct PassphraseSource: Sendable {
    public var fd: Int32?
    /// The option that sets `fd`, for messages.
    public var option: String
    /// How long a key unlocked with a passphrase a person gave is kept, so that the
    /// rest of the same git operation does not ask again (the SQLite store's grace
    /// period); zero keeps nothing. Never for a descriptor: a script gives it every time.
    public var gracePeriod: TimeSpan

    public init(fd: Int32? = nil, option: String = "--passphrase-fd", gracePeriod: TimeSpan = .zero) {
        self.fd = fd
        self.option = option
        self.gracePeriod = gracePeriod
    }

    /// Whether a person (askpass or terminal) is asked, rather than a descriptor read.
    public var asksAPerson: Bool { fd == nil }

    /// Three tries when a person types it, as sudo and ssh give (a typo should not cost
    /// the whole git operation); one from a descriptor, which would give the same bytes again.
    public var tries: Int { asksAPerson ? 3 : 1 }

    /// Asks until `open` accepts the passphrase (returns non-nil), each wrong one said in
    /// the next prompt; after the last try, throws `wrong`. `nil` when no one can be asked.
    public func read<Opened>(prompt: String, wrong: HelperError, opening open: ([UInt8]) throws -> Opened?) throws -> Opened? {
        for attempt in 1...tries {
            guard let phrase = try read(prompt: attempt == 1 ? prompt : "Wrong passphrase, try again. " + prompt) else { return nil }
            if let opened = try open(phrase) { return opened }
        }
        if tries == 1 { throw wrong }
        throw HelperError(wrong.kind, wrong.message + " (\(tries) tries)", fix: wrong.fix)
    }

    /// The passphrase, or `nil` when there is no descriptor and no one to ask.
    public func read(prompt: String) throws -> [UInt8]? {
        if let fd { return try SecretPrompt.read(fd: fd) }
        return try SecretPrompt.ask(prompt)
    }

    /// A new passphrase from a descriptor or askpass that holds a line break. A terminal
    /// ends the answer at the first one, so such a passphrase (`printf 'p\np\n' | ...
    /// --passphrase-fd 0`, meant as "asked twice") could never be typed again and would
    /// lose the store: refused before anything is made. A passphrase that opens what
    /// exists is taken as it comes: a store or export made by an earlier release with one
    /// still opens (anything else in it is a wrong passphrase, said as such).
    var moreThanOneLine: HelperError {
        if let fd {
            return HelperError(.usage, "the passphrase on file descriptor \(fd) (\(option)) holds more than one line, which no terminal or askpass could type again",
                               fix: "give the passphrase once, on one line (only a person at a terminal is asked to repeat it)")
        }
        return HelperError(.usage, "the askpass program's answer holds more than one line, which no terminal could type again",
                           fix: "make GIT_ASKPASS / SSH_ASKPASS print the passphrase on one line")
    }

    /// A new passphrase: asked twice when a person types it, refused when empty.
    public func readNew(prompt: String) throws -> [UInt8] {
        let noOne = noOneToAsk
        guard let first = try read(prompt: prompt) else { throw noOne }
        if first.contains(where: { $0 == 0x0A || $0 == 0x0D }) { throw moreThanOneLine }
        if first.isEmpty {
            throw HelperError(.usage, "the passphrase is empty", fix: "choose a passphrase, or use the default key file (init without --passphrase)")
        }
        if fd == nil {
            guard let again = try read(prompt: "Repeat the passphrase: ") else { throw noOne }
            if again != first { throw HelperError(.usage, "the two passphrases differ", fix: "run the command again") }
        }
        let length = String(decoding: first, as: UTF8.self).count
        if length < Self.shortLength {
            // A warning, not an error: the passphrase is taken.
            SystemIO.writeAll(2, "\(Self.program): warning: the new passphrase has only \(length) character\(length == 1 ? "" : "s"); whoever copies what it"
                + " protects can try short ones offline for as long as it takes, scrypt or not: \(Self.shortLength) characters or more"
                + " (a few random words) hold\n")
        }
        return first
    }

    /// Shorter than this, a new passphrase is warned about (not refused: the user may
    /// know better). scrypt makes each guess cost ~0.4 s of one core, but a stolen store or
    /// export file is guessed offline, on many cores, for as long as the attacker likes: a
    /// word with a digit or two (what 8 characters usually are) falls to a dictionary in
    /// days. From 12 on, passphrases are typically several words, beyond such a search.
    static let shortLength = 12

    /// The executable's name, for a warning's line.
    public static var program: String {
        let path = CommandLine.arguments.first ?? "git-credential-sqlite"
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    public var noOneToAsk: HelperError {
        HelperError(.usage, "no passphrase given and no terminal or askpass program to ask for one",
                    fix: "run it in a terminal (with GIT_TERMINAL_PROMPT not 0), or pass the passphrase on a descriptor with \(option)")
    }
}
