import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 3: the unlocked key in the kernel keyring exists only with its timeout,
/// and every session of the user finds it, a tmux or screen that outlived its login too
/// (pam_keyinit's `revoke` revoked its session keyring). It used to be added to the user
/// keyring first and given its timeout after: from a revoked session that was refused
/// ("Permission denied"), and so was removing it, so `unlock --timeout 8h` failed and a
/// typed passphrase's grace period failed silently, both leaving the key readable by
/// every other session of the user, with no expiry, until `lock`. Real keyctl(1) makes
/// the sessions (KernelSession); /proc/keys says how long each key is kept.
@Suite struct UnlockAcrossSessionsTests {
    let sandbox: Sandbox
    let database: String
    let phrase = "a passphrase long enough"
    let phraseFile: String

    static let credential = wire("protocol=https", "host=session.example", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=session.example")

    init() throws {
        sandbox = try Sandbox()
        database = sandbox.root + "/store/credentials.db"
        phraseFile = try sandbox.file("secrets/phrase", phrase + "\n")
        let created = try sandbox.sqlite(["--db", database]).with(passphraseFile: phraseFile).initPassphrase()
        try #require(created.exitCode == 0, "init: \(created)")
        try sandbox.sqlite(["--db", database]).with(passphraseFile: phraseFile).storeAll(Self.credential)
    }

    /// The helper in a new `session`, the passphrase on descriptor 3 when `withPassphrase`
    /// (else no one to ask: no terminal, GIT_TERMINAL_PROMPT=0, no askpass).
    /// `user`, `store` and `environment`: another user's (`store(of:)`), else the test's own.
    func helper(in session: String, _ arguments: [String], input: [UInt8] = [], withPassphrase: Bool = false,
                store: String? = nil, environment: [String: String] = [:], as user: [String] = []) throws -> ProcessResult {
        try sandbox.run(in: session, BuiltProducts.sqliteHelper,
                        ["--db", store ?? database] + (withPassphrase ? ["--passphrase-fd", "3"] : []) + arguments,
                        input: input, environment: environment, inputFiles: withPassphrase ? [3: phraseFile] : [:], as: user)
    }

    /// The control: from a login, the key is kept for the time asked, and another login
    /// finds it without asking.
    @Test func anUnlockInALoginIsFoundFromAnotherLoginUntilItsTimeout() throws {
        let unlocked = try helper(in: KernelSession.login, ["unlock", "--timeout", "8h"], withPassphrase: true)
        #expect(unlocked.exitCode == 0 && unlocked.stderrText == "unlocked \(database) for 8 hours\n", "\(unlocked)")
        #expect(try [["8h"], ["7h"]].contains(sandbox.cachedKeys(of: database)))
        let found = try helper(in: KernelSession.login, ["get"], input: Self.lookup)
        #expect(found.attributes["password"] == "alice-secret", "another login did not find the key: \(found)")
        #expect(try helper(in: KernelSession.login, ["lock"]).stderrText == "locked \(database)\n")
        #expect(try sandbox.cachedKeys(of: database) == [])
    }

    /// `unlock --timeout 8h` in a tmux whose login ended: kept for 8 hours, found there and
    /// from a new login, and `lock` there drops it.
    @Test func anUnlockInARevokedSessionKeepsTheKeyForItsTimeoutOnly() throws {
        let unlocked = try helper(in: KernelSession.revoked, ["unlock", "--timeout", "8h"], withPassphrase: true)
        #expect(unlocked.exitCode == 0 && unlocked.stderrText == "unlocked \(database) for 8 hours\n", "\(unlocked)")
        #expect(try [["8h"], ["7h"]].contains(sandbox.cachedKeys(of: database)), "not one key with its timeout")
        let there = try helper(in: KernelSession.revoked, ["get"], input: Self.lookup)
        #expect(there.attributes["password"] == "alice-secret", "the tmux still finds the store locked: \(there)")
        let elsewhere = try helper(in: KernelSession.login, ["get"], input: Self.lookup)
        #expect(elsewhere.attributes["password"] == "alice-secret", "a new login does not find the key: \(elsewhere)")
        let locked = try helper(in: KernelSession.revoked, ["lock"])
        #expect(locked.exitCode == 0 && locked.stderrText == "locked \(database)\n", "\(locked)")
        #expect(try sandbox.cachedKeys(of: database) == [], "lock left a key")
    }

    /// A passphrase typed for a get in a tmux whose login ended: kept for the grace period
    /// (5 minutes), not for ever; the next get there does not ask again.
    @Test func aPassphraseTypedInARevokedSessionIsKeptForTheGracePeriodOnly() throws {
        let session = try sandbox.atTerminal("/bin/sh", ["-c", KernelSession.revoked, "sh", BuiltProducts.sqliteHelper, "--db", database, "get"],
                                             input: Self.lookup, answers: [phrase], stderrOnTerminal: true)
        #expect(session.code == 0 && session.stdout.contains("password=alice-secret"), "\(session)")
        #expect(session.terminal.components(separatedBy: "Passphrase for").count == 2, "\(session)")
        #expect(!session.terminal.contains("git-credential-sqlite:"), "a complaint: \(session)")
        #expect(try [["5m"], ["4m"]].contains(sandbox.cachedKeys(of: database)), "not one key kept for the grace period")
        let again = try helper(in: KernelSession.revoked, ["get"], input: Self.lookup)
        #expect(again.attributes["password"] == "alice-secret", "the tmux still finds the store locked: \(again)")
        _ = try helper(in: KernelSession.login, ["lock"])
    }

    /// A key an earlier version left with no timeout (as the revoked session left it: the
    /// kernel's default permissions, no expiry) is not used: the store counts as locked,
    /// and the passphrase typed replaces it with a key that expires.
    @Test func aKeyLeftWithoutATimeoutIsNotUsed() throws {
        #expect(try helper(in: KernelSession.login, ["unlock", "--timeout", "8h"], withPassphrase: true).exitCode == 0)
        let description = try sandbox.keyDescription(of: database)
        let leftover = try sandbox.run(in: KernelSession.login, "/bin/sh",
                                       ["-c", #"id=$(keyctl search @u user "$0") && keyctl timeout "$id" 0 && keyctl setperm "$id" 0x3f010000"#, description])
        #expect(leftover.exitCode == 0, "\(leftover)")
        #expect(try sandbox.cachedKeys(of: database) == ["perm"])

        let session = try sandbox.atTerminal("/bin/sh", ["-c", KernelSession.login, "sh", BuiltProducts.sqliteHelper, "--db", database, "get"],
                                             input: Self.lookup, answers: [phrase], stderrOnTerminal: true)
        #expect(session.code == 0 && session.stdout.contains("password=alice-secret"), "\(session)")
        #expect(session.terminal.contains("Passphrase for"), "the key with no timeout was used: \(session)")
        #expect(try [["5m"], ["4m"]].contains(sandbox.cachedKeys(of: database)), "the key with no timeout is still there")
        _ = try helper(in: KernelSession.login, ["lock"])
    }

    // MARK: Another user than root

    /// Users of these tests' own (not nobody, whose keyring other tests use), one per
    /// test: one test uses up its user's kernel keyring quota, which must be no one else's.
    static let revokedSessionUser: uid_t = 64917, quotaUser: uid_t = 64918

    /// setpriv's command to run as `uid`.
    static func becoming(_ uid: uid_t) -> [String] {
        [Sandbox.which("setpriv") ?? "/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
    }

    /// A passphrase store of user `uid` with the credential in it, and their environment.
    func store(of uid: uid_t) throws -> (database: String, environment: [String: String]) {
        let home = sandbox.root + "/home-\(uid)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(chown(home, uid, gid_t(uid)) == 0 && chmod(sandbox.root, 0o711) == 0)
        let environment = ["HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_CONFIG_HOME": home + "/.config"]
        let database = home + "/credentials.db"
        for (arguments, input) in [(["init", "--passphrase", "--scrypt-cost", "10"], []), (["store"], Self.credential)] {
            let made = try sandbox.run(in: KernelSession.login, BuiltProducts.sqliteHelper, ["--db", database, "--passphrase-fd", "3"] + arguments,
                                       input: input, environment: environment, inputFiles: [3: phraseFile], as: Self.becoming(uid))
            try #require(made.exitCode == 0, "\(arguments): \(made)")
        }
        return (database, environment)
    }

    /// Root's keyrings behave as any user's: a user other than root, in a revoked session,
    /// keeps the key for its timeout only, found from a new login of theirs.
    @Test(.enabled(if: geteuid() == 0, "needs root to act as another user (setpriv)"))
    func anotherUsersUnlockInARevokedSessionKeepsTheKeyForItsTimeoutOnly() throws {
        let user = Self.becoming(Self.revokedSessionUser)
        let (database, environment) = try store(of: Self.revokedSessionUser)
        let unlocked = try helper(in: KernelSession.revoked, ["unlock", "--timeout", "8h"], withPassphrase: true,
                                  store: database, environment: environment, as: user)
        #expect(unlocked.exitCode == 0 && unlocked.stderrText == "unlocked \(database) for 8 hours\n", "\(unlocked)")
        #expect(try [["8h"], ["7h"]].contains(sandbox.cachedKeys(of: database, as: user)), "not one key with its timeout")
        let found = try helper(in: KernelSession.login, ["get"], input: Self.lookup, store: database, environment: environment, as: user)
        #expect(found.attributes["password"] == "alice-secret", "a new login does not find the key: \(found)")
        let locked = try helper(in: KernelSession.login, ["lock"], store: database, environment: environment, as: user)
        #expect(locked.stderrText == "locked \(database)\n", "\(locked)")
    }

    // MARK: A key that cannot be kept

    /// With the user's keyring quota used up, `unlock` says in one line that the store
    /// stays locked and why, with a fix, and keeps nothing; a typed passphrase still opens
    /// the store for the get, and one warning line says the grace period could not be kept.
    @Test(.enabled(if: geteuid() == 0, "needs root to act as another user (setpriv)"))
    func aKeyThatCannotBeKeptLeavesNothingAndSaysSo() throws {
        let user = Self.becoming(Self.quotaUser)
        let (database, environment) = try store(of: Self.quotaUser)
        let unlock = try helper(in: KernelSession.quotaUsedUp, ["unlock", "--timeout", "8h"], withPassphrase: true,
                                store: database, environment: environment, as: user)
        expectOneLineFailure(unlock, exitCode: 1, mentioning: [
            "git-credential-sqlite: cannot keep the key of \(database) in the kernel keyring for 8 hours: this user's kernel keyring quota is used up, so the store stays locked. Fix: ",
            "keyctl", "kernel.keys.maxbytes"])
        #expect(try sandbox.cachedKeys(of: database, in: nil, as: user) == [], "unlock left a key")

        let get = try sandbox.atTerminal(user[0], Array(user.dropFirst())
                                             + ["/bin/sh", "-c", KernelSession.quotaUsedUp, "sh", BuiltProducts.sqliteHelper, "--db", database, "get"],
                                         input: Self.lookup, answers: [phrase], stderrOnTerminal: true, environment: environment)
        #expect(get.code == 0 && get.stdout.contains("password=alice-secret"), "\(get)")
        let lines = get.terminal.split(whereSeparator: \.isNewline).filter { $0.contains("git-credential-sqlite:") }
        #expect(lines.count == 1 && lines.first?.contains(
            "git-credential-sqlite: warning: cannot keep the key of \(database) in the kernel keyring for 5 minutes: this user's kernel keyring quota is used up, so the store stays locked. Fix: ") == true,
                "\(get)")
        #expect(lines.first?.contains("--grace-period 0") == true, "no way to stop trying: \(get)")
        #expect(try sandbox.cachedKeys(of: database, in: nil, as: user) == [], "the grace period left a key")
    }
}
