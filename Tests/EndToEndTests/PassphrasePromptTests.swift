import Foundation
import Testing

/// At most one passphrase prompt per git operation (issue 11, point 3): the key kept in
/// the kernel keyring for a grace period after a person typed the passphrase, three tries
/// at a terminal, a warning for a short new passphrase, durations as people write them.
/// Real git 2.39 fetches over HTTP from the Basic-auth server, on a pseudo-terminal
/// where the prompts are counted.
@Suite struct PassphrasePromptTests {
    let sandbox: Sandbox
    let database: String
    let phrase = "a passphrase long enough"
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        database = sandbox.root + "/store/credentials.db"
        helper = sandbox.sqlite(["--db", database])
        let file = try sandbox.file("secrets/phrase", phrase + "\n")
        let created = try helper.with(passphraseFile: file).initPassphrase()
        #expect(created.exitCode == 0 && created.stderrLines.count == 1, "init: \(created)")
    }

    /// The helper with the passphrase on fd 3: asks no one, keeps nothing.
    var withDescriptor: SQLiteHelper { helper.with(passphraseFile: sandbox.root + "/secrets/phrase") }

    static let credential = wire("protocol=https", "host=prompt.example", "username=alice", "password=alice-secret")
    static let another = wire("protocol=https", "host=other.example", "username=bob", "password=bob-secret")
    static let lookup = wire("protocol=https", "host=prompt.example")

    static func count(_ text: String, in terminal: String) -> Int { terminal.components(separatedBy: text).count - 1 }

    /// A server holding `project`, a clone of it made before any helper was configured
    /// (askpass answers), the credential in the locked store, and `helperLine` as
    /// credential.helper in ~/.gitconfig. Returns the server (keep it) and the clone.
    func fetchSetup(helperLine: String) throws -> (server: BasicAuthServer, clone: String) {
        let password = "fetch-" + UUID().uuidString.prefix(8)
        let server = try BasicAuthServer(sandbox: sandbox, username: "alice", password: password)
        try server.makeRepository("project")
        let askpass = try Askpass(sandbox: sandbox, username: "alice", password: password)
        let clone = sandbox.root + "/clone"
        let cloned = try sandbox.git(["clone", "--quiet", server.repositoryURL("project"), clone], environment: askpass.environment)
        try #require(cloned.exitCode == 0, "clone: \(cloned)")
        try withDescriptor.storeAll(wire("protocol=http", "host=\(server.host)", "username=alice", "password=\(password)"))
        #expect(try sandbox.git(["config", "--global", "credential.helper", helperLine]).exitCode == 0)
        return (server, clone)
    }

    /// `git fetch` in `clone` at a terminal where a person types the passphrase whenever
    /// asked; what the terminal showed.
    func fetch(_ clone: String, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalSession {
        let session = try sandbox.atTerminal(Sandbox.which("git") ?? "/usr/bin/git", ["-C", clone, "fetch", "--quiet"],
                                             answers: [phrase, phrase, phrase], stderrOnTerminal: true, environment: environment)
        #expect(session.code == 0, "fetch: \(session)", sourceLocation: sourceLocation)
        #expect(!session.terminal.contains("git-credential-"), "a helper complained: \(session)", sourceLocation: sourceLocation)
        return session
    }

    // MARK: Grace period

    /// The get asks; the store git sends after the successful fetch does not, nor does
    /// the next fetch; after `lock`, the next one asks again.
    @Test func aFetchAsksOnceAndLockEndsTheGracePeriod() throws {
        let (server, clone) = try fetchSetup(helperLine: "\(BuiltProducts.sqliteHelper) --db \(database)")
        let first = try fetch(clone)
        #expect(Self.count("Passphrase for", in: first.terminal) == 1, "\(first)\n\(server.log)")
        #expect(try ["5m", "4m"].contains(kernelKeyTimeout()), "the key is not kept for the default 5 minutes")

        let second = try fetch(clone)
        #expect(Self.count("Passphrase for", in: second.terminal) == 0, "asked again within the grace period: \(second)")

        let locked = try helper("lock")
        #expect(locked.exitCode == 0 && locked.stderrText == "locked \(database)\n", "\(locked)")
        let third = try fetch(clone)
        #expect(Self.count("Passphrase for", in: third.terminal) == 1, "not asked after lock: \(third)")
        _ = try helper("lock")
    }

    /// `--grace-period 0` keeps nothing: the get and the store after the fetch ask each.
    @Test func aGracePeriodOfZeroAsksForTheGetAndTheStore() throws {
        let (server, clone) = try fetchSetup(helperLine: "\(BuiltProducts.sqliteHelper) --db \(database) --grace-period 0")
        let session = try fetch(clone)
        #expect(Self.count("Passphrase for", in: session.terminal) == 2, "\(session)\n\(server.log)")
        #expect(try kernelKeyTimeout() == nil, "a key was kept with --grace-period 0")
    }

    /// git-credential-keyring over SSH (no session bus) opens the same SQLite store
    /// through the same code: one prompt per fetch, and its --grace-period is read too.
    @Test func theKeyringHelperAsksOncePerFetchToo() throws {
        let bus = try sandbox.noSessionBus()
        let (server, clone) = try fetchSetup(helperLine: "\(BuiltProducts.keyringHelper) --db \(database) --grace-period 1h")
        let session = try fetch(clone, environment: bus)
        #expect(Self.count("Passphrase for", in: session.terminal) == 1, "\(session)\n\(server.log)")
        #expect(try ["1h", "59m"].contains(kernelKeyTimeout()), "the key is not kept for the hour given")
        _ = try helper("lock")
    }

    /// New-user finding (stop 20): init --passphrase and passwd left the store locked, so
    /// the first git operation after them asked for the passphrase just typed twice. A
    /// new passphrase a person types keeps the store unlocked for the grace period, as a
    /// passphrase typed for a get does; one read from a descriptor (a script) keeps nothing.
    @Test func aNewPassphraseTypedKeepsTheStoreUnlockedForTheGracePeriod() throws {
        #expect(try kernelKeyTimeout() == nil, "init --passphrase-fd kept the key")
        try withDescriptor.storeAll(Self.credential)
        let newPhrase = "another passphrase, typed"
        let changed = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "passwd", "--scrypt-cost", "10"],
                                             answers: [phrase, newPhrase, newPhrase], stderrOnTerminal: true)
        #expect(changed.code == 0 && changed.terminal.contains("even with an old copy of the store; unlocked for 5 minutes (lock locks it now)"), "\(changed)")
        #expect(try ["5m", "4m"].contains(kernelKeyTimeout()))
        let found = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "get"], input: Self.lookup, answers: [])
        #expect(found.stdout.contains("alice-secret") && !found.terminal.contains("Passphrase for"), "\(found)")
        _ = try helper("lock")

        let fresh = sandbox.root + "/fresh.db"
        let created = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", fresh, "--grace-period", "1h", "init", "--passphrase", "--scrypt-cost", "10"],
                                             answers: [phrase, phrase], stderrOnTerminal: true)
        #expect(created.code == 0 && created.terminal.contains("created \(fresh), protected by the passphrase; unlocked for 1 hour (lock locks it now)"), "\(created)")
        #expect(try ["1h", "59m"].contains(kernelKeyTimeout(of: fresh)))
        _ = try sandbox.sqlite(["--db", fresh])("lock")
    }

    /// An `unlock` keeps the key for as long as it said; a prompt does not happen then.
    @Test func unlockSaysHowLongAsAPersonReadsIt() throws {
        let unlocked = try withDescriptor("unlock", "--timeout", "8h")
        #expect(unlocked.exitCode == 0 && unlocked.stderrText == "unlocked \(database) for 8 hours\n", "\(unlocked)")
        #expect(try ["8h", "7h"].contains(kernelKeyTimeout()))
        let found = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "get"], input: Self.lookup, answers: [phrase])
        #expect(!found.terminal.contains("Passphrase for"), "\(found)")
        #expect(try ["8h", "7h"].contains(kernelKeyTimeout()), "the unlock was shortened")
        _ = try helper("lock")
    }

    /// An `unlock --timeout 8h` run while a get waits for its passphrase (the askpass runs
    /// it, then answers): the get's grace period does not cut the unlock to 5 minutes.
    @Test func theGracePeriodNeverShortensAnUnlock() throws {
        try withDescriptor.storeAll(Self.credential)
        let askpass = try sandbox.file("bin/askpass", """
            #!/bin/sh
            '\(BuiltProducts.sqliteHelper)' --db '\(database)' --passphrase-fd 3 unlock --timeout 8h 3<'\(sandbox.root)/secrets/phrase' 2>/dev/null
            printf '%s\\n' '\(phrase)'

            """, mode: 0o700)
        let found = try helper.with(environment: ["GIT_ASKPASS": askpass]).get(Self.lookup)
        #expect(found.attributes["password"] == "alice-secret", "\(found)")
        let left = try kernelKeyTimeout()
        #expect(["8h", "7h"].contains(left), "the unlock was shortened to \(left ?? "nothing")")
        _ = try helper("lock")
    }

    /// GIT_ASKPASS given by a relative path names a program of the current directory (the
    /// repository git runs the helper in): not run, one line; by an absolute path, it runs
    /// as git runs it (attack round: `GIT_ASKPASS=./good` ran from the working directory).
    @Test func aRelativeAskpassIsNotRun() throws {
        try withDescriptor.storeAll(Self.credential)
        let checkout = sandbox.root + "/checkout", ran = sandbox.root + "/askpass-ran"
        let askpass = try sandbox.file("checkout/askpass", "#!/bin/sh\ntouch '\(ran)'\nprintf '%s\\n' '\(phrase)'\n", mode: 0o700)
        let refused = try sandbox.run(BuiltProducts.sqliteHelper, ["--db", database, "get"], input: Self.lookup,
                                      environment: ["GIT_ASKPASS": "./askpass"], directory: checkout)
        #expect(refused.exitCode == 1 && refused.stdout.isEmpty && !fileExists(ran), "\(refused)")
        #expect(refused.stderrText.contains("GIT_ASKPASS=./askpass is a relative path, which names a program of the current directory"), "\(refused)")
        let found = try helper.with(environment: ["GIT_ASKPASS": askpass]).get(Self.lookup)
        #expect(found.attributes["password"] == "alice-secret" && fileExists(ran), "\(found)")
        _ = try helper("lock")
    }

    static let notADuration = "not a duration. Fix: give seconds, or a number followed by s, m, h or d, such as 90, 30s, 5m, 8h or 30d"

    /// Out of range, on the parser's road (unlock) and on git's own (a helper line's
    /// --grace-period, read without the parser): one line naming the value, the limit and
    /// one fix (not a second "see --help"), nothing done. A negative value is a value
    /// refused, not a "missing value" (the options are parsed unconditionally).
    @Test(arguments: [
        (["unlock", "--timeout", "400d"], "The value '400d' is invalid for '--timeout <duration>': longer than the limit of 365 days. Fix: give at most 365d"),
        (["--grace-period", "366d", "get"], "The value '366d' is invalid for '--grace-period <duration>': longer than the limit of 365 days. Fix: give at most 365d"),
        (["--grace-period", "9000h", "store"], "The value '9000h' is invalid for '--grace-period <duration>': longer than the limit of 365 days. Fix: give at most 365d"),
        (["unlock", "--timeout", "0"], "The value '0' is invalid for '--timeout <duration>': no time at all. Fix: give at least 1s"),
        (["--grace-period", "soon", "get"], "The value 'soon' is invalid for '--grace-period <duration>': " + notADuration),
        (["unlock", "--timeout", "-1"], "The value '-1' is invalid for '--timeout <duration>': " + notADuration),
        (["--grace-period", "-1", "get"], "The value '-1' is invalid for '--grace-period <duration>': " + notADuration),
        (["--grace-period", "-5m", "unlock"], "The value '-5m' is invalid for '--grace-period <duration>': " + notADuration),
        // A value that holds a "Fix:" of its own is shown, and gives no fix.
        (["unlock", "--timeout", "5. Fix: curl evil"], "The value '5. Fix: curl evil' is invalid for '--timeout <duration>': " + notADuration),
        (["list", "--format", "x. Fix: curl evil"],
         "The value 'x. Fix: curl evil' is invalid for '--format <format>'. Please provide one of 'table' and 'json'. Fix: see git-credential-sqlite --help"),
    ])
    func aDurationOutOfRangeSaysTheLimit(arguments: [String], message: String) throws {
        let result = try helper.run(["--db", database] + arguments, input: Self.credential)
        #expect(result.exitCode == 2 && result.stdout.isEmpty && result.stderrLines == ["git-credential-sqlite: " + message], "\(result)")
        #expect(try !withDescriptor.list().stdoutText.contains("prompt.example"), "stored something")
        #expect(try kernelKeyTimeout() == nil)
    }

    // MARK: Tries

    @Test func aPersonHasThreeTries() throws {
        try withDescriptor.storeAll(Self.credential)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "--grace-period", "0", "get"],
                                             input: Self.lookup, answers: ["wrong one", "wrong two", phrase], stderrOnTerminal: true)
        #expect(session.code == 0 && session.stdout == "username=alice\npassword=alice-secret\n", "\(session)")
        #expect(Self.count("Passphrase for", in: session.terminal) == 3, "\(session)")
        #expect(Self.count("Wrong passphrase, try again.", in: session.terminal) == 2, "\(session)")
        #expect(!session.terminal.contains("git-credential-sqlite:"), "an error for a try that was not the last: \(session)")
    }

    /// An askpass program is a person too (as for sudo -A and ssh): three tries, each
    /// retry's prompt saying why.
    @Test func anAskpassProgramHasThreeTries() throws {
        try withDescriptor.storeAll(Self.credential)
        let log = sandbox.root + "/askpass-prompts"
        let askpass = try sandbox.file("bin/askpass", """
            #!/bin/sh
            printf '%s\\n' "$1" >>'\(log)'
            case $(wc -l <'\(log)') in 3) printf '%s\\n' '\(phrase)' ;; *) echo wrong ;; esac

            """, mode: 0o700)
        let found = try helper.with(environment: ["GIT_ASKPASS": askpass]).get(Self.lookup)
        #expect(found.attributes["password"] == "alice-secret" && found.stderr.isEmpty, "\(found)")
        let prompts = Output(bytes: contents(of: log) ?? []).lines
        #expect(prompts == ["Passphrase for \(database): "] + Array(repeating: "Wrong passphrase, try again. Passphrase for \(database): ", count: 2),
                "\(prompts)")
        _ = try helper("lock")
    }

    /// Three wrong: one error line, nothing written, nothing kept.
    @Test func threeWrongPassphrasesEndInOneLineAndWriteNothing() throws {
        try withDescriptor.storeAll(Self.credential)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "store"],
                                             input: Self.another, answers: ["wrong one", "wrong two", "wrong three", phrase],
                                             stderrOnTerminal: true)
        #expect(session.code == 1, "\(session)")
        #expect(Self.count("Passphrase for", in: session.terminal) == 3, "a fourth try: \(session)")
        let errors = session.terminal.split(whereSeparator: \.isNewline).filter { $0.contains("git-credential-sqlite:") }
        #expect(errors.count == 1 && errors.first?.contains("wrong passphrase for \(database) (3 tries)") == true, "\(session)")
        #expect(try withDescriptor.list().stdoutText.contains("prompt.example"))
        #expect(try !withDescriptor.list().stdoutText.contains("other.example"), "stored with no right passphrase")
        #expect(try kernelKeyTimeout() == nil, "a key was kept")
    }

    /// A descriptor gives the same bytes again: one try, and no one is asked on the terminal.
    @Test func aDescriptorHasOneTry() throws {
        try withDescriptor.storeAll(Self.credential)
        let wrong = try sandbox.file("secrets/wrong", "not it\n")
        let session = try sandbox.atTerminal("/bin/sh", ["-c", #"exec "$0" --db "$1" --passphrase-fd 3 get 3<"$2""#,
                                                         BuiltProducts.sqliteHelper, database, wrong],
                                             input: Self.lookup, answers: [phrase], stderrOnTerminal: true)
        #expect(session.code == 1 && session.stdout.isEmpty, "\(session)")
        #expect(!session.terminal.contains("Passphrase for"), "asked on the terminal: \(session)")
        let errors = session.terminal.split(whereSeparator: \.isNewline).filter { $0.contains("git-credential-sqlite:") }
        #expect(errors.count == 1 && errors.first?.contains("wrong passphrase for \(database). Fix:") == true, "\(session)")
    }

    // MARK: Short passphrases

    @Test(arguments: [("init", "qzx7", true), ("init", "twelve chars", false), ("passwd", "pq8 z", true), ("passwd", "a longer one!", false),
                      ("init", "ж", true), ("passwd", "ß", true)])
    func aShortNewPassphraseIsWarnedAbout(command: String, newPhrase: String, warned: Bool) throws {
        let file = try sandbox.file("secrets/new", newPhrase + "\n")
        let result: ProcessResult
        if command == "init" {
            result = try sandbox.sqlite(["--db", sandbox.root + "/fresh.db"]).with(passphraseFile: file).initPassphrase()
        } else {
            var passwd = helper
            passwd.inputFiles = [3: sandbox.root + "/secrets/phrase", 4: file]
            result = try passwd("passwd", "--passphrase-fd", "3", "--new-passphrase-fd", "4", "--scrypt-cost", "10")
        }
        #expect(result.exitCode == 0, "\(result)")
        let warnings = result.stderrLines.filter { $0.hasPrefix("git-credential-sqlite: warning: ") }
        if warned {
            #expect(warnings.count == 1 && result.stderrLines.count == 2, "\(result)")
            #expect(warnings.first?.contains("only \(newPhrase.count) character\(newPhrase.count == 1 ? "" : "s");") == true, "\(result)")
            #expect(warnings.first?.contains("12 characters or more") == true, "\(result)")
        } else {
            #expect(warnings.isEmpty && result.stderrLines.count == 1, "\(result)")
        }
        #expect(!result.stderrText.contains(newPhrase), "the passphrase was shown")
        // Taken all the same: the store opens with it.
        let opened = sandbox.sqlite(["--db", command == "init" ? sandbox.root + "/fresh.db" : database]).with(passphraseFile: file)
        #expect(try opened.list().exitCode == 0)
    }

    // MARK: Another user

    /// The key kept for the grace period sits in root's own keyring with no permission for
    /// anyone else: another uid can neither find it nor read it by its serial number, in
    /// the session it inherited (as setpriv leaves it) nor in a session of its own.
    @Test(.enabled(if: getuid() == 0, "needs root to become another user"))
    func theKeptKeyIsNotReadableByAnotherUser() throws {
        try withDescriptor.storeAll(Self.credential)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["--db", database, "get"], input: Self.lookup, answers: [phrase])
        #expect(session.stdout.contains("alice-secret"), "\(session)")
        let serial = try #require(try keyctl(["search", try keyDescription()]).stdoutLines.first, "no key kept")
        #expect(try keyctl(["read", serial]).stdoutLines == ["32"], "the control: root reads its key")
        for newSession in ["inherited", "new"] {
            let read = try sandbox.runAsAnotherUser("/usr/bin/python3", ["-c", Self.keyctlScript, "read", serial, newSession])
            #expect(read.exitCode != 0 && read.stdout.isEmpty, "another user read the key (\(newSession) session): \(read)")
            let search = try sandbox.runAsAnotherUser("/usr/bin/python3", ["-c", Self.keyctlScript, "search", try keyDescription(), newSession])
            #expect(search.exitCode != 0 && search.stdout.isEmpty, "another user found the key (\(newSession) session): \(search)")
        }
        _ = try helper("lock")
    }

    // MARK: The kernel keyring, seen from outside

    func keyDescription(of database: String? = nil) throws -> String {
        try sandbox.keyDescription(of: database ?? self.database)
    }

    /// What /proc/keys says of the store's cached key's time left ("5m" just after it was
    /// kept for 5 minutes, "4m" a moment later),
    /// nil when no key is cached.
    func kernelKeyTimeout(of database: String? = nil) throws -> String? {
        try sandbox.cachedKeys(of: database ?? self.database, in: nil).first
    }

    func keyctl(_ arguments: [String]) throws -> ProcessResult {
        try sandbox.run("/usr/bin/python3", ["-c", Self.keyctlScript] + arguments + ["inherited"])
    }

    /// keyctl(2) through python3's ctypes (no keyutils program is needed): `search
    /// DESCRIPTION` prints the serial found in the user keyring, `read SERIAL` the length
    /// read; a last argument `new` first joins a new session keyring.
    static let keyctlScript = #"""
    import ctypes, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    SYS_keyctl = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
    if sys.argv[-1] == "new" and libc.syscall(SYS_keyctl, 1, None) < 0:
        sys.exit("join: " + os.strerror(ctypes.get_errno()))
    if sys.argv[1] == "search":
        found = libc.syscall(SYS_keyctl, 10, ctypes.c_int(-4), b"user", sys.argv[2].encode(), 0)
        if found < 0: sys.exit("search: " + os.strerror(ctypes.get_errno()))
        print(found)
    else:
        buffer = ctypes.create_string_buffer(64)
        count = libc.syscall(SYS_keyctl, 11, int(sys.argv[2]), buffer, 64)
        if count < 0: sys.exit("read: " + os.strerror(ctypes.get_errno()))
        print(count)
    """#
}
