import Foundation
import Testing

/// git-credential-keyring: the Secret Service when it works, the encrypted SQLite store
/// otherwise, decided on every call; get reads both (the keyring first), erase both.
/// "Over SSH" is the same sandbox (same SQLite files) without a session bus; "at the
/// desktop" is that sandbox on the bus of the test keyring.
@Suite struct KeyringHelperTests {
    let keyring: SharedKeyring
    let host: String
    /// On the test keyring's bus.
    let atDesktop: KeyringHelper
    /// No DBUS_SESSION_BUS_ADDRESS, an empty XDG_RUNTIME_DIR, no DISPLAY.
    let overSSH: KeyringHelper

    /// On gnome-keyring; the tests of both Secret Service providers make one for each.
    init(_ provider: SecretServiceProvider = .gnomeKeyring) throws {
        keyring = try SharedKeyring(provider)
        host = keyring.names("example.com")
        atDesktop = KeyringHelper(sandbox: keyring.sandbox, environment: keyring.bus.environment)
        overSSH = KeyringHelper(sandbox: keyring.sandbox, environment: try keyring.sandbox.noSessionBus())
    }

    var sandbox: Sandbox { keyring.sandbox }
    func credential(password: String, username: String = "alice") -> [UInt8] {
        wire("protocol=https", "host=\(host)", "username=\(username)", "password=\(password)")
    }
    var lookup: [UInt8] { wire("protocol=https", "host=\(host)") }
    var itemsInKeyring: Int { get throws { try keyring.count(["server": host]) } }
    /// git-credential-sqlite on the same files: what the SQLite store holds.
    var sqliteStore: SQLiteHelper { sandbox.sqlite() }

    /// New-user finding (stop 20): an import into the keyring of what the SQLite store
    /// (its fallback) held already counted "unchanged", and wrote it into the keyring.
    /// The counts are of the backend the import writes to.
    @Test func anImportCountsWhatChangesWhereItWrites() throws {
        try sqliteStore.storeAll(credential(password: "pw"))
        let file = try sandbox.file("one.gitcred", "https://alice:pw@\(host)\n")
        let imported = try atDesktop("import", file)
        #expect(imported.exitCode == 0 && imported.stderrText == "read 1 credential from \(file): 1 new, 0 replaced, 0 unchanged\n", "\(imported)")
        #expect(try itemsInKeyring == 1)
        let again = try atDesktop("import", file)
        #expect(again.stderrText == "read 1 credential from \(file): 0 new, 0 replaced, 1 unchanged\n", "\(again)")
    }

    @Test func whichSaysSecretServiceWithAWorkingKeyring() throws {
        #expect(try atDesktop.which().contains("secretservice"))
    }

    @Test func whichSaysSQLiteWithoutASessionBus() throws {
        #expect(try overSSH.which().contains("sqlite"))
    }

    // MARK: which HOST-OR-URL

    @Test func whichSaysWhereAGetIsAnsweredFromWithAWorkingKeyring() throws {
        #expect(try atDesktop.which(host) == ["get \(host): nothing found that a get would answer with",
                                              "store: secretservice: the Secret Service answers and its default keyring is unlocked"])
        // Stored over SSH first: the newest of the two stores answers a get without a user.
        try overSSH.storeAll(credential(password: "ssh-secret", username: "bob"))
        try atDesktop.storeAll(credential(password: "desktop-secret"))
        #expect(try atDesktop.which(host).first == "get \(host): the keyring answers, with https://alice@\(host)")
        #expect(try atDesktop.which("https://bob@\(host)").first
                == "get https://bob@\(host): the SQLite store \(sandbox.database) answers, with https://bob@\(host)")
        #expect(try atDesktop.which("http://\(host)").first == "get http://\(host): nothing found that a get would answer with")
        let expiry = try storeExpiringToken(atDesktop, host: keyring.names("token.example"))
        #expect(try atDesktop.which(keyring.names("token.example")).first?.contains("has only an expired token") == true, "\(expiry)")
        // A password typed into the URL is refused, as list and erase refuse it (HostOrURL),
        // and not echoed; hostile bytes come out escaped.
        let typed = try atDesktop("which", "https://alice:typed-secret@\(host)")
        expectOneLineFailure(typed, exitCode: 2, mentioning: ["holds a password"])
        #expect(!typed.stderrText.contains("typed-secret") && typed.stdoutText.isEmpty, "\(typed)")
        let hostile = try atDesktop.which("evil\u{1b}[31m.\(host)")
        #expect(!hostile.joined().contains("\u{1b}"), "\(hostile)")
        let wrong = try atDesktop("which", "https://")
        expectOneLineFailure(wrong, exitCode: 2, mentioning: ["names no host"])
    }

    @Test func whichWithoutASessionBusSaysSQLite() throws {
        try overSSH.storeAll(credential(password: "ssh-secret"))
        #expect(try overSSH.which(host) == ["get \(host): the SQLite store \(sandbox.database) answers, with https://alice@\(host)",
                                            "store: sqlite: cannot reach the Secret Service on the session bus: there is none here (no DBUS_SESSION_BUS_ADDRESS, no $XDG_RUNTIME_DIR/bus: not a desktop session)"])
    }

    /// A locked passphrase store: which says so and asks no one, with no terminal and at
    /// one (where a get would ask).
    @Test func whichAsksNoOneForALockedPassphraseStore() throws {
        try leftoverPassphraseStore(password: "in-sqlite")
        let alone = try overSSH.which(host)
        #expect(alone.first == "get \(host): nothing can be read now: the store \(sandbox.database) is locked, and there is no terminal or askpass program to ask for its passphrase", "\(alone)")
        #expect(try atDesktop.which(host).first == "get \(host): nothing found that a get would answer with; the SQLite store \(sandbox.database) was not read: the store \(sandbox.database) is locked, and there is no terminal or askpass program to ask for its passphrase")
        for environment in [overSSH.environment, atDesktop.environment] {
            let session = try sandbox.atTerminal(BuiltProducts.keyringHelper, ["which", host], answers: [Self.phrase],
                                                 stderrOnTerminal: true, environment: environment)
            #expect(session.code == 0 && !session.terminal.contains("Passphrase for"), "\(session)")
            #expect(session.stdout.contains("is locked, and which asks no one (a get from here would ask to unlock it)"), "\(session)")
            #expect(!session.stdout.contains("in-sqlite"))
        }
    }

    /// A locked keyring: which says so within seconds, asks no one, and names the SQLite
    /// store where it answers.
    @Test func whichWithALockedKeyring() throws {
        let world = try KeyringWorld(), sandbox = world.sandbox, session = world.session
        let helper = world.keyringHelper
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=in-the-keyring"))
        try session.lockLoginCollection()
        let start = Date()
        #expect(try helper.which("example.com") == ["get example.com: nothing found that a get would answer with; the keyring was not read: the keyring is locked, and no one could answer the prompt to unlock it",
                                                    "store: sqlite: the default keyring is locked"])
        try sandbox.sqlite().storeAll(wire("protocol=https", "host=example.com", "username=bob", "password=in-sqlite"))
        #expect(try helper.which("example.com").first?.hasPrefix("get example.com: the SQLite store \(sandbox.database) answers, with https://bob@example.com; the keyring was not read") == true)
        #expect(Date().timeIntervalSince(start) < 20, "took \(Date().timeIntervalSince(start)) s")
    }

    /// Every situation in which git-credential-secretservice cannot store: the keyring
    /// helper says sqlite within seconds, and stores there.
    @Test(arguments: SecretServiceUnavailableTests.Situation.allCases)
    func withoutAUsableSecretServiceItUsesSQLite(situation: SecretServiceUnavailableTests.Situation) throws {
        let setup = try SecretServiceUnavailableTests.Setup(situation)
        let helper = KeyringHelper(sandbox: setup.helper.sandbox, environment: setup.helper.bus.environment)
        let start = Date()
        #expect(try helper.which().contains("sqlite"))
        expectSuccess(try helper.store(wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")))
        #expect(Date().timeIntervalSince(start) < 20, "took \(Date().timeIntervalSince(start)) s")
        #expect(fileExists(setup.helper.sandbox.database), "not stored in the SQLite store")
        #expect(try helper.password(for: wire("protocol=https", "host=example.com")) == "alice-secret")
    }

    /// A locked collection that no one can unlock (no display for the prompt, or a prompt
    /// no one answers): SQLite, within seconds, and the keyring's items stay as they were.
    @Test(arguments: [PrivateSessionBus.Services.desktop, .unansweredPrompter])
    func aLockedKeyringThatNoOneUnlocksMeansSQLite(services: PrivateSessionBus.Services) throws {
        let sandbox = try Sandbox()
        let session = try PrivateSessionBus(sandbox: sandbox, services: services)
        try session.startKeyring()
        let helper = KeyringHelper(sandbox: sandbox, environment: session.bus.environment)
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=in-the-keyring"))
        #expect(!fileExists(sandbox.database), "stored in SQLite although the keyring was unlocked")
        try session.lockLoginCollection()

        let start = Date()
        #expect(try helper.which().contains("sqlite"))
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=bob", "password=in-sqlite"))
        #expect(Date().timeIntervalSince(start) < 20, "took \(Date().timeIntervalSince(start)) s")
        #expect(fileExists(sandbox.database), "not stored in the SQLite store")
        #expect(try sandbox.sqlite().password(for: wire("protocol=https", "host=example.com", "username=bob")) == "in-sqlite")
        try session.restartKeyring()
        #expect(try SecretTool(sandbox: sandbox, bus: session.bus).items(["server": "example.com"]).count == 1)
    }

    @Test(arguments: SecretServiceProvider.allCases)
    func storeWithAWorkingKeyringGoesToTheKeyring(provider: SecretServiceProvider) throws {
        let on = try Self(provider)
        try on.atDesktop.storeAll(on.credential(password: "desktop-secret"))
        #expect(try on.itemsInKeyring == 1)
        #expect(try on.keyring.secretTool.lookup(["server": on.host, "user": "alice"]) == "desktop-secret")
        #expect(!fileExists(on.sandbox.database), "the SQLite store was created too")
    }

    @Test func storeWithoutABusGoesToSQLiteEncrypted() throws {
        let username = "ssh-user-\(keyring.names.tag)", password = awkwardPassword()
        try overSSH.storeAll(credential(password: password, username: username))
        #expect(try itemsInKeyring == 0)
        #expect(fileExists(sandbox.database) && fileExists(sandbox.keyFile))
        #expect(try sqliteStore.password(for: lookup) == password)
        let storeFiles = files(in: sandbox.databaseDirectory)
        #expect(!storeFiles.isEmpty)
        for file in storeFiles {
            let bytes = try #require(contents(of: file))
            for plaintext in [host, username, password, "example.com"] {
                #expect(!bytes.containsBytes(Array(plaintext.utf8)), "\(file) holds \(plaintext) in plaintext")
            }
        }
    }

    /// Stored over SSH, found later at the desktop (and still over SSH).
    @Test func getAtTheDesktopFindsWhatWasStoredOverSSH() throws {
        try overSSH.storeAll(credential(password: "stored-over-ssh"))
        #expect(try atDesktop.password(for: lookup) == "stored-over-ssh")
        #expect(try overSSH.password(for: lookup) == "stored-over-ssh")
        #expect(try itemsInKeyring == 0, "get moved or copied the credential")
    }

    /// Whichever was stored last answers at the desktop, from either store, whichever
    /// provider holds the keyring: a password changed over SSH (into the SQLite store)
    /// wins over the old one the keyring still holds (issue 26; the keyring's answered,
    /// whatever its age). Both stores keep nanoseconds (`StoredTime`): no wait between.
    @Test(arguments: SecretServiceProvider.allCases, [false, true])
    func theNewestOfTheTwoStoresAnswers(provider: SecretServiceProvider, keyringStoredLast: Bool) throws {
        let on = try Self(provider)
        let stores = [{ try on.overSSH.storeAll(on.credential(password: "in-sqlite")) },
                      { try on.atDesktop.storeAll(on.credential(password: "in-the-keyring")) }]
        for store in keyringStoredLast ? stores : stores.reversed() { try store() }
        #expect(try on.atDesktop.password(for: on.lookup) == (keyringStoredLast ? "in-the-keyring" : "in-sqlite"))
        #expect(try on.overSSH.password(for: on.lookup) == "in-sqlite")
        #expect(try on.atDesktop.which(on.host).first == "get \(on.host): " + (keyringStoredLast ? "the keyring" : "the SQLite store \(on.sandbox.database)")
                    + " answers, with https://alice@\(on.host)")
    }

    // MARK: get asks for nothing it does not need

    static let phrase = "leftover phrase"

    /// A passphrase store left over from an SSH session, at the default place the keyring
    /// helper uses too, holding `password` for alice; locked (no key cached).
    func leftoverPassphraseStore(password: String = "in-sqlite") throws {
        let file = try sandbox.file("secrets/\(UUID().uuidString)", Self.phrase + "\n")
        let unlocked = sqliteStore.with(passphraseFile: file)
        let created = try unlocked.initPassphrase()
        #expect(created.exitCode == 0, "init: \(created)")
        try unlocked.storeAll(credential(password: password))
        let status = try sqliteStore("get", input: lookup)
        #expect(status.stdout.isEmpty && status.stderrText.contains("locked"), "the store is not locked: \(status)")
    }

    /// (a) The keyring answers: the SQLite store is not opened, so a person at a terminal
    /// is not asked for its passphrase.
    @Test func theKeyringsAnswerAsksForNoPassphraseAtATerminal() throws {
        try atDesktop.storeAll(credential(password: "in-the-keyring"))
        try leftoverPassphraseStore()
        let session = try sandbox.atTerminal(BuiltProducts.keyringHelper, ["get"], input: lookup, answers: [Self.phrase],
                                             stderrOnTerminal: true, environment: atDesktop.environment)
        #expect(session.code == 0 && session.stdout == "username=alice\npassword=in-the-keyring\n", "\(session)")
        #expect(!session.terminal.contains("Passphrase for"), "asked for the SQLite passphrase: \(session)")
    }

    /// (b) No one to ask (no terminal, GIT_TERMINAL_PROMPT=0): the keyring's answer comes
    /// out, exit 0, nothing on stderr; a locked SQLite store does not hide it.
    @Test func aLockedSQLiteStoreDoesNotHideTheKeyringsAnswer() throws {
        try atDesktop.storeAll(credential(password: "in-the-keyring"))
        try leftoverPassphraseStore()
        let result = try atDesktop.get(lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=in-the-keyring"])
    }

    /// (c) The keyring has nothing: an unlocked SQLite store answers; a locked one asks a
    /// person at a terminal once, and with no one to ask is passed over silently (git
    /// asks its next helper or the user).
    @Test func withoutAnAnswerInTheKeyringTheSQLiteStoreAnswersOrIsPassedOverSilently() throws {
        try leftoverPassphraseStore()
        expectSilentMiss(try atDesktop.get(lookup))

        let session = try sandbox.atTerminal(BuiltProducts.keyringHelper, ["get"], input: lookup, answers: [Self.phrase, Self.phrase],
                                             stderrOnTerminal: true, environment: atDesktop.environment)
        #expect(session.code == 0 && session.stdout == "username=alice\npassword=in-sqlite\n", "\(session)")
        #expect(session.terminal.components(separatedBy: "Passphrase for").count == 2, "not asked exactly once: \(session)")

        let file = try sandbox.file("secrets/unlock", Self.phrase + "\n")
        let unlock = try sqliteStore.with(passphraseFile: file).run(["unlock", "--timeout", "60", "--passphrase-fd", "3"])
        #expect(unlock.exitCode == 0, "unlock: \(unlock)")
        defer { _ = try? sqliteStore("lock") }
        let unlocked = try atDesktop.get(lookup)
        expectSuccess(unlocked)
        #expect(unlocked.stdoutLines == ["username=alice", "password=in-sqlite"])
    }

    /// With no keyring at all (over SSH) the SQLite store is the only source: a locked one
    /// still says why once, as git-credential-sqlite does, and exits 0.
    @Test func overSSHALockedSQLiteStoreStillSaysWhy() throws {
        try leftoverPassphraseStore()
        let result = try overSSH.get(lookup)
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrText.contains("locked"), "\(result)")
    }

    /// git's reject after a 401: the keyring's stale credential goes even though a locked
    /// passphrase store that no one can unlock cannot be cleaned (which erase reports).
    @Test func eraseCleansTheKeyringEvenWhenTheSQLiteStoreIsLocked() throws {
        try atDesktop.storeAll(credential(password: "in-the-keyring"))
        try leftoverPassphraseStore()
        let result = try atDesktop.erase(wire("protocol=https", "host=\(host)", "username=alice"))
        expectOneLineFailure(result, mentioning: ["is locked"])
        #expect(try itemsInKeyring == 0, "the keyring's credential was kept")
    }

    /// An expired token in the keyring: the refresh answer, unless the SQLite store has a
    /// whole one (then that wins).
    @Test func anExpiredTokenIsAnsweredForRefreshUnlessTheOtherStoreHasAWholeAnswer() throws {
        let expiry = try storeExpiringToken(atDesktop, host: host)
        let refresh = try atDesktop.get(lookup)
        expectSuccess(refresh)
        #expect(refresh.stdoutLines == ["username=alice", "password_expiry_utc=\(expiry)", "oauth_refresh_token=refresh-1"])
        try overSSH.storeAll(credential(password: "in-sqlite"))
        #expect(try atDesktop.get(lookup).stdoutLines == ["username=alice", "password=in-sqlite"])
    }

    @Test func listShowsBothStoresAndNoSecret() throws {
        try overSSH.storeAll(credential(password: "ssh-secret", username: "ssh-user"))
        try atDesktop.storeAll(credential(password: "desktop-secret", username: "desktop-user"))
        let listed = try atDesktop.list()
        expectSuccess(listed)
        #expect(listed.stdoutText.contains("ssh-user") && listed.stdoutText.contains("desktop-user"), "\(listed)")
        #expect(!listed.stdoutText.contains("ssh-secret") && !listed.stdoutText.contains("desktop-secret"),
                "list shows a secret: \(listed)")
    }

    @Test(arguments: SecretServiceProvider.allCases, [false, true])
    func eraseRemovesFromBoth(provider: SecretServiceProvider, withPassword: Bool) throws {
        let on = try Self(provider)
        try on.overSSH.storeAll(on.credential(password: "same-secret"))
        try on.atDesktop.storeAll(on.credential(password: "same-secret"))
        #expect(try on.itemsInKeyring == 1 && on.sqliteStore.password(for: on.lookup) == "same-secret")

        let request = withPassword ? on.credential(password: "same-secret")
                                   : wire("protocol=https", "host=\(on.host)", "username=alice")
        expectSuccess(try on.atDesktop.erase(request))
        expectSilentMiss(try on.atDesktop.get(on.lookup))
        expectSilentMiss(try on.sqliteStore.get(on.lookup))
        #expect(try on.itemsInKeyring == 0)
    }

    /// Through git: approved over SSH (SQLite), filled at the desktop, rejected at the
    /// desktop, and then gone over SSH too.
    @Test(arguments: SecretServiceProvider.allCases)
    func gitCredentialRejectAtTheDesktopErasesWhatWasStoredOverSSH(provider: SecretServiceProvider) throws {
        let on = try Self(provider), host = on.host
        let desktop = GitCredential(sandbox: on.sandbox, helper: BuiltProducts.keyringHelper, environment: on.atDesktop.environment)
        let ssh = GitCredential(sandbox: on.sandbox, helper: BuiltProducts.keyringHelper, environment: on.overSSH.environment)
        try ssh.approve("protocol=https", "host=\(host)", "username=alice", "password=ssh-secret")
        #expect(try desktop.filledPassword("protocol=https", "host=\(host)") == "ssh-secret")
        try desktop.reject("protocol=https", "host=\(host)", "username=alice", "password=ssh-secret")
        #expect(try ssh.filledPassword("protocol=https", "host=\(host)") == nil)
    }
}

private extension KeyringHelper {
    /// What `which HOST-OR-URL` says: two lines, no secret, nothing on stderr.
    func which(_ target: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try self("which", target)
        #expect(result.exitCode == 0 && result.stdoutLines.count == 2 && result.stderr.isEmpty,
                "which \(target): \(result)", sourceLocation: sourceLocation)
        for secret in ["desktop-secret", "ssh-secret", "in-sqlite", "in-the-keyring", "expired-access", "expired-bearer", "refresh-1"] {
            #expect(!result.stdoutText.contains(secret), "which printed a secret: \(result)", sourceLocation: sourceLocation)
        }
        return result.stdoutLines
    }
}
