import Foundation
import Testing

/// The key file and passphrase protection of git-credential-sqlite (damaged stores and
/// key files: ReliabilityFaultTests).
@Suite struct KeyManagementTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=example.com")
    static let another = wire("protocol=https", "host=new.example", "username=bob", "password=bob-secret")

    // MARK: Key file

    @Test func theKeyFileIsCreatedOnFirstStoreApartFromTheDatabase() throws {
        #expect(!fileExists(sandbox.keyFile))
        try helper.storeAll(Self.credential)
        #expect(fileExists(sandbox.keyFile))
        #expect(permissions(of: sandbox.keyFile) == 0o600)
        let keyBefore = try #require(contents(of: sandbox.keyFile))
        #expect(files(in: sandbox.databaseDirectory).allSatisfy { contents(of: $0) != keyBefore },
                "a copy of the key sits beside the database")
        try helper.storeAll(Self.another)
        #expect(contents(of: sandbox.keyFile) == keyBefore, "a later store replaced the key file")
    }

    // MARK: Passphrase

    /// A store protected by `passphrase`, created with fd 3 and a cheap scrypt.
    func passphraseStore(_ passphrase: String = "correct horse") throws -> (file: String, helper: SQLiteHelper) {
        let file = try passphraseFile(passphrase)
        let result = try helper.with(passphraseFile: file).initPassphrase()
        #expect(result.exitCode == 0 && result.stderrLines.count == 1 && result.stdout.isEmpty, "init: \(result)")
        return (file, helper.with(passphraseFile: file))
    }

    func passphraseFile(_ passphrase: String) throws -> String {
        try sandbox.file("secrets/\(UUID().uuidString)", passphrase + "\n")
    }

    /// A get of a locked store: nothing on stdout, exit 0, one line saying why.
    func expectLocked(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1 && result.stderrText.contains("locked"), "\(result)", sourceLocation: sourceLocation)
    }

    @Test func aPassphraseStoreWorksWithTheDescriptor() throws {
        let (_, unlocked) = try passphraseStore()
        #expect(!fileExists(sandbox.keyFile), "a passphrase store made a key file")
        try unlocked.storeAll(Self.credential)
        let result = try unlocked.get(Self.lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func withoutPassphraseAGetSaysLockedOnce() throws {
        let (_, unlocked) = try passphraseStore()
        try unlocked.storeAll(Self.credential)
        expectLocked(try helper.get(Self.lookup))
        expectOneLineFailure(try helper.store(Self.another), exitCode: 1, mentioning: ["locked"])
        #expect(try unlocked.get(wire("protocol=https", "host=new.example")).stdout.isEmpty, "a locked store stored")
    }

    @Test func unlockKeepsTheKeyUntilLock() throws {
        let (file, unlocked) = try passphraseStore()
        try unlocked.storeAll(Self.credential)
        defer { _ = try? helper("lock") }

        let unlock = try helper.with(passphraseFile: file).run(["unlock", "--timeout", "60", "--passphrase-fd", "3"])
        #expect(unlock.exitCode == 0 && unlock.stdout.isEmpty, "\(unlock)")
        let get = try helper.get(Self.lookup)
        expectSuccess(get)
        #expect(get.attributes["password"] == "alice-secret")
        // New-user finding (stop 20): a later unlock asked the passphrase again and
        // shortened the time. Unlocked already, it asks nothing (no descriptor 3 here),
        // keeps the time without --timeout, and sets it with one.
        let again = try helper.run(["unlock"])
        #expect(again.exitCode == 0 && again.stderrText.hasSuffix("is unlocked already (unlock --timeout DURATION sets how long from now; lock locks it)\n"), "\(again)")
        let longer = try helper.run(["unlock", "--timeout", "2h"])
        #expect(longer.exitCode == 0 && longer.stderrText.hasSuffix(" for 2 hours (it was unlocked already: no passphrase needed)\n"), "\(longer)")

        let lock = try helper("lock")
        #expect(lock.exitCode == 0 && lock.stderrLines.count == 1, "\(lock)")
        expectLocked(try helper.get(Self.lookup))
    }

    @Test func aWrongPassphraseFailsWithOneLine() throws {
        let (_, unlocked) = try passphraseStore()
        try unlocked.storeAll(Self.credential)
        let wrong = helper.with(passphraseFile: try passphraseFile("incorrect horse"))
        let result = try wrong.get(Self.lookup)
        expectOneLineFailure(result, mentioning: ["wrong passphrase", "Fix:"])
        #expect(result.stdout.isEmpty)
        expectOneLineFailure(try wrong.store(Self.another), mentioning: ["wrong passphrase"])
    }

    @Test func passwdChangesThePassphraseAndKeepsTheCredentials() throws {
        let (oldFile, unlocked) = try passphraseStore("the old phrase")
        try unlocked.storeAll(Self.credential)
        let newFile = try passphraseFile("the new phrase")
        var passwd = helper
        passwd.inputFiles = [3: oldFile, 4: newFile]
        let result = try passwd.run(["passwd", "--passphrase-fd", "3", "--new-passphrase-fd", "4", "--scrypt-cost", "10"])
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")

        expectOneLineFailure(try unlocked.get(Self.lookup), mentioning: ["wrong passphrase"])
        let withNew = try helper.with(passphraseFile: newFile).get(Self.lookup)
        expectSuccess(withNew)
        #expect(withNew.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func anAskpassProgramIsAskedForThePassphrase() throws {
        let (_, unlocked) = try passphraseStore("asked phrase")
        try unlocked.storeAll(Self.credential)
        let askpass = try sandbox.file("bin/askpass", "#!/bin/sh\nprintf '%s\\n' 'asked phrase'\n", mode: 0o700)
        let result = try helper.with(environment: ["GIT_ASKPASS": askpass]).get(Self.lookup)
        expectSuccess(result)
        #expect(result.attributes["password"] == "alice-secret")
    }

    // MARK: Converting a key-file store to a passphrase (issue 10, item 4)

    /// `init --passphrase` on the store, with the passphrase on fd 3.
    func convert(_ store: SQLiteHelper, passphrase: String = "correct horse") throws -> (result: ProcessResult, helper: SQLiteHelper) {
        let file = try passphraseFile(passphrase)
        let result = try store.with(passphraseFile: file).initPassphrase()
        return (result, store.with(passphraseFile: file))
    }

    var storeFiles: StoreFiles { StoreFiles(sandbox: sandbox, database: sandbox.database) }

    func meta(_ name: String) throws -> String? {
        try storeFiles.query("SELECT hex(value) FROM meta WHERE name = '\(name)'").first
    }

    /// The issue's attack: a copy of the old key file, and the key mode flipped back with
    /// sqlite3 after the conversion. Nothing stored before or after opens with the old
    /// key, however much of the old settings the attacker puts back; the flip is named.
    @Test func afterAConversionTheOldKeyFileOpensNothing() throws {
        try helper.storeAll(Self.credential)
        let oldKey = try #require(contents(of: sandbox.keyFile))
        let backup = sandbox.root + "/key-backup"  // a hard link, as a backup on the same disk may be
        #expect(link(sandbox.keyFile, backup) == 0)
        let (oldCheck, oldID) = (try meta("key_check"), try meta("database_id"))

        let (result, unlocked) = try convert(helper)
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.contains("new key") && result.stderrText.contains("wiped")
                && result.stderrText.contains("backups of it no longer open the store"), "\(result)")
        #expect(!fileExists(sandbox.keyFile), "the old key file is still there")
        #expect(contents(of: backup) == [UInt8](repeating: 0, count: oldKey.count), "the old key file was not overwritten with zeros")
        #expect(try meta("key_check") != oldCheck, "the data key did not change")
        #expect(try unlocked.password(for: Self.lookup) == "alice-secret")
        try unlocked.storeAll(Self.another)

        try sandbox.file("config/git-credential-sqlite/key", oldKey)
        let attacks: [(sql: String, phrase: String)] = [
            ("UPDATE meta SET value = CAST('file' AS BLOB) WHERE name = 'key_mode'", "the store's settings were altered"),
            ("DELETE FROM meta WHERE name = 'passphrase_wrap'", "does not belong"),
            ("UPDATE meta SET value = X'\(oldCheck ?? "")' WHERE name = 'key_check'; UPDATE meta SET value = X'\(oldID ?? "")' WHERE name = 'database_id'",
             "the store's settings were altered"),
        ]
        for attack in attacks {
            _ = try storeFiles.query(attack.sql)
            for request in [Self.lookup, wire("protocol=https", "host=new.example")] {
                let get = try helper.get(request)
                expectOneLineFailure(get, exitCode: 1, mentioning: [attack.phrase])
                #expect(get.stdout.isEmpty && !get.stderrText.contains("secret"), "after \(attack.sql): \(get)")
            }
            expectOneLineFailure(try helper.list(), exitCode: 1, mentioning: [attack.phrase])
        }
        // Last, the format downgraded to 1 (no settings MAC): the old key's look-up tags
        // find no record, and every record fails to open with it.
        _ = try storeFiles.query("DELETE FROM meta WHERE name = 'settings_mac'; PRAGMA user_version = 1")
        for request in [Self.lookup, wire("protocol=https", "host=new.example")] {
            let get = try helper.get(request)
            #expect(get.stdout.isEmpty, "after the downgrade: \(get)")
        }
        let list = try helper.list()
        expectOneLineFailure(list, exitCode: 1, mentioning: ["fails authentication"])
        #expect(list.stdout.isEmpty)
    }

    /// A record that fails to open midway through the conversion (the first one already
    /// resealed): nothing changes, not the records, not the settings, not the key file.
    @Test func aConversionThatFailsMidwayLeavesTheStoreAsItWas() throws {
        let hosts = ["a.example", "b.example", "c.example"]
        for host in hosts { try helper.storeAll(wire("protocol=https", "host=\(host)", "username=u", "password=\(host)-secret")) }
        _ = try storeFiles.query("UPDATE credential SET sealed = zeroblob(length(sealed)) WHERE id = (SELECT id FROM credential ORDER BY id LIMIT 1 OFFSET 1)")
        let state = { [storeFiles] in
            try storeFiles.query("SELECT id, hex(tag), hex(sealed) FROM credential ORDER BY id")
                + storeFiles.query("SELECT name, hex(value) FROM meta ORDER BY name") + storeFiles.query("PRAGMA user_version")
        }
        let before = try state(), keyBefore = contents(of: sandbox.keyFile)

        let (result, _) = try convert(helper)
        expectOneLineFailure(result, exitCode: 1, mentioning: ["fails authentication"])
        #expect(try state() == before, "the failed conversion changed the database")
        #expect(contents(of: sandbox.keyFile) == keyBefore, "the failed conversion touched the key file")
        for host in [hosts[0], hosts[2]] {
            #expect(try helper.password(for: wire("protocol=https", "host=\(host)")) == "\(host)-secret")
        }
    }

    /// The default key file is shared by every --db without --key-file: converting one
    /// of those stores keeps it while the default store still needs it, and says so.
    @Test func aConversionKeepsAKeyFileTheDefaultStoreStillUses() throws {
        try helper.storeAll(Self.credential)
        let other = sandbox.sqlite(["--db", sandbox.root + "/other/other.db"])
        try other.storeAll(Self.another)
        let keyBefore = try #require(contents(of: sandbox.keyFile))

        let (result, unlocked) = try convert(other)
        #expect(result.exitCode == 0 && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.contains("was kept, because \(sandbox.database) still uses it"), "\(result)")
        #expect(contents(of: sandbox.keyFile) == keyBefore)
        #expect(try helper.password(for: Self.lookup) == "alice-secret")
        #expect(try unlocked.password(for: wire("protocol=https", "host=new.example")) == "bob-secret")
    }

    /// The same for a store git's configuration names (as the help suggests:
    /// `credential.helper "sqlite --db ..."`), when the default store is converted.
    @Test func aConversionKeepsAKeyFileAConfiguredStoreStillUses() throws {
        let otherDatabase = sandbox.root + "/other/other.db"
        try sandbox.sqlite(["--db", otherDatabase]).storeAll(Self.another)
        expectSuccess(try sandbox.git(["config", "--global", "credential.https://example.com.helper", "sqlite --db '\(otherDatabase)'"]))
        try helper.storeAll(Self.credential)
        let keyBefore = try #require(contents(of: sandbox.keyFile))

        // Named: with no store named, init would follow git's line to the other store.
        let (result, unlocked) = try convert(sandbox.sqlite(["--db", sandbox.database]))
        #expect(result.exitCode == 0 && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.contains("was kept, because \(otherDatabase) still uses it"), "\(result)")
        #expect(contents(of: sandbox.keyFile) == keyBefore)
        #expect(try sandbox.sqlite(["--db", otherDatabase]).password(for: wire("protocol=https", "host=new.example")) == "bob-secret")
        #expect(try unlocked.password(for: Self.lookup) == "alice-secret")
    }

    /// A store as the previous version wrote it (format 1: the same tables, no settings
    /// MAC) opens, and is upgraded so that editing its settings is seen from then on.
    @Test func aStoreOfTheFormerFormatOpensAndIsUpgraded() throws {
        try helper.storeAll(Self.credential)
        _ = try storeFiles.query("DELETE FROM meta WHERE name = 'settings_mac'; PRAGMA user_version = 1")
        #expect(try helper.password(for: Self.lookup) == "alice-secret")
        #expect(try storeFiles.query("PRAGMA user_version") == ["2"])
        #expect(try meta("settings_mac") != nil)
        _ = try storeFiles.query("INSERT INTO meta VALUES ('passphrase_wrap', X'00')")
        expectOneLineFailure(try helper.get(Self.lookup), exitCode: 1, mentioning: ["the store's settings were altered"])
    }

    /// passwd on a passphrase store of format 1 upgrades it and keeps the MAC right.
    @Test func passwdOnAStoreOfTheFormerFormatKeepsItsSettingsAuthenticated() throws {
        let (oldFile, unlocked) = try passphraseStore("the old phrase")
        try unlocked.storeAll(Self.credential)
        _ = try storeFiles.query("DELETE FROM meta WHERE name = 'settings_mac'; PRAGMA user_version = 1")
        let newFile = try passphraseFile("the new phrase")
        var passwd = helper
        passwd.inputFiles = [3: oldFile, 4: newFile]
        let result = try passwd.run(["passwd", "--passphrase-fd", "3", "--new-passphrase-fd", "4", "--scrypt-cost", "10"])
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
        #expect(try storeFiles.query("PRAGMA user_version") == ["2"])
        #expect(try helper.with(passphraseFile: newFile).password(for: Self.lookup) == "alice-secret")
        _ = try storeFiles.query("UPDATE meta SET value = CAST('file' AS BLOB) WHERE name = 'key_mode'")
        expectOneLineFailure(try helper.with(passphraseFile: newFile).get(Self.lookup), exitCode: 1,
                             mentioning: ["the store's settings were altered"])
    }

    // MARK: What the files reveal

    @Test(arguments: [false, true])
    func theDatabaseFilesRevealNothing(withPassphrase: Bool) throws {
        let store = withPassphrase ? try passphraseStore().helper : helper
        let secrets = ["zq-host-7781.example", "zq-user-4410", "zq-pass-9923", "zq-path-5512", "zq-token-3306", "4102444801"]
        try store.storeAll(
            wire("protocol=https", "host=zq-host-7781.example", "path=zq-path-5512/repo.git", "username=zq-user-4410",
                 "password=zq-pass-9923", "password_expiry_utc=4102444801", "oauth_refresh_token=zq-token-3306"),
            wire("capability[]=authtype", "protocol=https", "host=zq-host-7781.example", "authtype=Bearer",
                 "credential=zq-token-3306"))
        expectSuccess(try store.erase(wire("protocol=https", "host=zq-host-7781.example", "username=zq-user-4410")))
        try store.storeAll(wire("protocol=https", "host=zq-host-7781.example", "username=zq-user-4410", "password=zq-pass-9923"))
        #expect(try store.get(wire("protocol=https", "host=zq-host-7781.example", "username=zq-user-4410"))
            .attributes["password"] == "zq-pass-9923")

        let databaseFiles = files(in: sandbox.databaseDirectory)
        #expect(databaseFiles.contains(sandbox.database))
        for file in databaseFiles {
            let bytes = try #require(contents(of: file))
            for secret in secrets {
                let revealed = bytes.containsUTF8(secret)
                #expect(!revealed, "\(file) contains \(secret)")
            }
        }
    }
}
