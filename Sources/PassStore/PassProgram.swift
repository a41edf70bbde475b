import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The `pass` program run on one password store, every call bounded in time. Secrets go
/// to and come from it on pipes only; what goes in its arguments is an entry's name
/// (hosts and users, which every pass user's file names show).
public struct PassProgram: Sendable {
    /// The password store's directory, as pass gets it (PASSWORD_STORE_DIR).
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The password store pass uses here: $PASSWORD_STORE_DIR, else ~/.password-store.
    public static func defaultDirectory() -> String? {
        if let named = SystemIO.environment("PASSWORD_STORE_DIR"), !named.isEmpty { return named }
        return SystemIO.environment("HOME").map { $0 + "/.password-store" }
    }

    /// Whether a person can answer gpg-agent's pinentry (PromptPlace's rule).
    public static var personPresent: Bool { PromptPlace.pinentryReachable }

    /// How long a call may take: a person at a pinentry needs a while; without one, gpg
    /// that has not finished in seconds is waiting for something that will not come.
    public static var timeoutSeconds: Double { personPresent ? 120 : 10 }

    /// What pass (and gpg under it) gets besides this environment: the store; gpg's
    /// status lines on stderr (they tell a key that needs its passphrase from no key);
    /// `--batch`, so that gpg itself never asks on the terminal (an untrusted key); and
    /// without a person, no pinentry at all, so that gpg-agent fails at once instead.
    var environment: [String: String] {
        let present = Self.personPresent
        let options = GPGRunner.passOptions(SystemIO.environment("PASSWORD_STORE_GPG_OPTS")) + ["--batch", "--status-fd", "2"]
            + GPGRunner.pinentryOptions(someoneToAsk: present)
        return ["PASSWORD_STORE_DIR": directory, "PASSWORD_STORE_GPG_OPTS": options.joined(separator: " ")]
            .merging(GPGRunner.pinentryEnvironment(someoneToAsk: present)) { $1 }
    }

    /// Runs `body` (a pass command that changes the store, or sync's merge) while no other
    /// git-credential-pass does: pass commits each change, and two commits at once in one
    /// repository fail on git's index lock, leaving an entry stored but never committed
    /// (8 stores at once left 3); and a store's check of the keys it encrypts to must still
    /// hold when pass reads them. The lock is a file in the repository's .git, which
    /// nothing tracks or syncs.
    public func exclusively<T>(_ body: () throws -> T) throws -> T {
        let gitDirectory = directory + "/.git"
        guard PrivateFiles.exists(gitDirectory) else { return try body() }
        let fd = open(gitDirectory + "/git-credential-pass.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        let deadline = time(nil) + time_t(PassProgram.timeoutSeconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard time(nil) < deadline else {
                throw HelperError(.unavailable, "another git-credential-pass has been changing the password store for \(Int(PassProgram.timeoutSeconds)) seconds",
                                  fix: "wait for it, or look for a stuck git-credential-pass process")
            }
            usleep(20_000)
        }
        return try body()
    }

    /// Writes the entry `name` through `pass insert`. `approved`: the fingerprints of the
    /// keys the person approved for it (ApprovedKeys.check), or nil (PASSWORD_STORE_KEY, the
    /// person's own choice; doctor's throwaway store): pass gets those keys and nothing else,
    /// and gpg is told to trust them. Approval pins each key by its full fingerprint after
    /// the person checked it, so for this helper it IS the person's certification: without
    /// it, a teammate's key nobody had signed (the normal case in a small team) made every
    /// store fail with gpg's "There is no assurance this key belongs to the named user".
    /// Only these recipients are trusted so: a .gpg-id naming a key not approved is
    /// refused before this (ApprovedKeys), and pass's own commands keep gpg's trust.
    public func insert(_ name: String, contents: [UInt8], approved: [String]?) throws -> Subprocess.Result {
        var extra: [String: String] = [:]
        if let approved {
            extra["PASSWORD_STORE_KEY"] = approved.joined(separator: " ")
            if approved.allSatisfy({ ApprovedKeys.isFingerprint($0[...]) }) {
                extra["PASSWORD_STORE_GPG_OPTS"] = (environment["PASSWORD_STORE_GPG_OPTS"] ?? "") + " --trust-model always"
            }
        }
        return try run(["insert", "--multiline", "--force", name], input: contents, environment: extra)
    }

    /// Runs `pass ARGUMENTS`; nil when pass cannot be started.
    public func run(_ arguments: [String], input: [UInt8]? = nil, timeout: Double = PassProgram.timeoutSeconds,
                    environment extra: [String: String] = [:]) throws -> Subprocess.Result {
        Trace.note("running pass " + arguments.map(Trace.quoted).joined(separator: " "))
        guard let result = Subprocess.run("pass", arguments, input: input ?? [], environment: environment.merging(extra) { $1 }, timeoutSeconds: timeout) else {
            throw Self.missing("pass")
        }
        if result.timedOut {
            throw HelperError(.unavailable, "pass \(arguments.first ?? "") did not finish within \(Int(timeout)) seconds (gpg-agent or a git hook waiting)",
                              fix: "run it by hand in a terminal to see what waits: " + ShellWord.command(["pass"] + arguments))
        }
        return result
    }

    /// pass and the gpg it and get run (GPGRunner's choice: gpg2 when there is one), each
    /// with where it is found, `nil` when it is not installed: the one check of them.
    public static var programs: [(name: String, path: String?)] { [("pass", Subprocess.which("pass")), ("gpg", GPGRunner.program)] }

    /// The first of `programs` that is not installed.
    static var missingProgram: String? { programs.first { $0.path == nil }?.name }

    static func missing(_ program: String) -> HelperError {
        HelperError(.unavailable, "\(program) is not installed (or not on PATH)", fix: "install it: sudo apt install pass gnupg")
    }

    // MARK: Reading an entry

    public enum Decrypted {
        case text([UInt8])
        /// Encrypted to none of this user's secret keys (a team entry for others).
        case notForYou
        /// Not a credential however it is read: no OpenPGP data, or more than one decrypts to.
        case unreadable(String)
    }

    /// The most an entry may decrypt to: a credential is a few fields, each a line git
    /// allows (up to 64 KiB: the protocol tests store one).
    static let largestEntry = 1 << 20

    /// The decrypted text of an entry whose encrypted bytes were read (by the store, from
    /// a directory it checked): gpg run as `pass show` runs it (its options, then
    /// PASSWORD_STORE_GPG_OPTS and ours), without pass's bash around it, which took 9 of a
    /// get's 15 ms (gpg's decryption: 4). Reading needs nothing of pass's own (no commit,
    /// no .gpg-id); writing and removing still go through pass.
    public func decrypt(_ ciphertext: [UInt8], of name: String) throws -> Decrypted {
        Trace.note("running gpg to decrypt \(Trace.quoted(name))")
        guard let program = GPGRunner.program else { throw Self.missing("gpg") }
        guard let (decrypted, result) = GPGRunner.decrypt(ciphertext, program: program, options: gpgOptions + ["--compress-algo=none", "--no-encrypt-to"],
                                                          limit: Self.largestEntry, timeout: Self.timeoutSeconds, environment: environment) else {
            throw Self.missing(program)
        }
        switch decrypted {
        case .text(let text): return .text(text)
        case .notForYou: return .notForYou
        case .unreadable(let reason): return .unreadable(reason)
        case .needsPassphrase: throw Self.needsPassphrase(name)
        case .timedOut:
            throw HelperError(.unavailable, "gpg did not decrypt \(name) within \(Int(Self.timeoutSeconds)) seconds (gpg-agent waiting, or: \(Self.reason(result)))",
                              fix: "see what waits: " + ShellWord.command(["pass", "show", name]) + " in a terminal; or restart the agent: gpgconf --kill gpg-agent")
        }
    }

    /// pass's options for gpg (PASSWORD_STORE_GPG_OPTS: a --homedir or --keyring there is
    /// one pass uses) and ours.
    var gpgOptions: [String] {
        GPGRunner.passOptions(environment["PASSWORD_STORE_GPG_OPTS"])
    }

    /// gpg run as pass runs it: gpg2 when there is one, `command` first, then pass's
    /// options and ours, then `arguments`; bounded as every gpg run is (GPGRunner).
    func gpg(_ command: [String], _ arguments: [String], limit: Int = 1 << 20) throws -> Subprocess.Result {
        guard let program = GPGRunner.program else { throw Self.missing("gpg") }
        guard let result = GPGRunner.run(program, command + gpgOptions + arguments, limit: limit, timeout: Self.timeoutSeconds,
                                         environment: environment) else {
            throw Self.missing(program)
        }
        return result
    }

    /// The fingerprints of the keys gpg would consider for `-r NAME` and could encrypt to:
    /// the primary keys it lists for the name that are not revoked, expired, disabled or
    /// invalid and have an encryption subkey.
    public func encryptionKeys(named name: String) throws -> [String] {
        let result = try gpg(["--with-colons", "--fixed-list-mode", "--list-keys"], ["--", name])
        guard !result.timedOut else {
            throw HelperError(.unavailable, "gpg did not list the keys named \(name) within \(Int(Self.timeoutSeconds)) seconds",
                              fix: "see what waits: " + ShellWord.command(["gpg", "--list-keys", "--", name]) + " in a terminal")
        }
        // Each key's `pub` line is followed by its `fpr` line (field 10: the fingerprint);
        // `pub` field 2 is the key's validity, field 12 what the whole key can do.
        var found: [String] = [], previous: [Substring] = []
        for line in String(decoding: result.output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.first == "fpr", fields.count > 9, previous.first == "pub", previous.count > 11,
               !["i", "d", "r", "e"].contains(previous[1]), previous[11].contains("E") {
                found.append(String(fields[9]))
            }
            previous = fields
        }
        return found
    }

    /// Whether the secret key of the key `name` stands for is here (the user's own key).
    func holdsSecretKey(named name: String) throws -> Bool {
        let result = try gpg(["--with-colons", "--list-secret-keys"], ["--", name])
        return result.succeeded && result.outputText.split(separator: "\n").contains { $0.hasPrefix("sec:") }
    }

    static func needsPassphrase(_ name: String) -> HelperError {
        personPresent
            ? HelperError(.unavailable, "gpg could not decrypt \(name): \(passphraseNotGiven)",
                          fix: "type it at the pinentry, or check gpg-agent's pinentry-program")
            : HelperError(.unavailable, "\(passphraseNeeded) to decrypt \(name), and there is no terminal here to ask it on",
                          fix: "run " + ShellWord.command(["pass", "show", name]) + " once in a terminal (gpg-agent then keeps it a while), or use a key gpg-agent can unlock")
    }

    static let passphraseNotGiven = "the passphrase of your key was not given"
    static let passphraseNeeded = "gpg-agent needs the passphrase of your gpg key"

    /// Whether `error` is `needsPassphrase`'s: the key is fine, gpg-agent just does not
    /// hold its passphrase now (doctor's round trip, which asks for nothing, reports that
    /// as the normal state it is).
    public static func isPassphraseNeeded(_ error: HelperError) -> Bool {
        error.kind == .unavailable && (error.message.hasPrefix(passphraseNeeded) || error.message.hasSuffix(passphraseNotGiven))
    }

    /// The line of pass's or gpg's stderr that says what went wrong (not a status line).
    static func reason(_ result: Subprocess.Result) -> String {
        let lines = GPGStatus(stderr: result.errors).messages
        let gpg = lines.last { $0.hasPrefix("gpg: ") && !$0.contains("[stdin]") }
        return gpg ?? lines.last ?? "exit status \(result.status)"
    }
}
