import Foundation
import Testing

/// The key file and passphrase protection of git-credential-sqlite (damaged stores and
/// key files: ReliabilityFaultTests).
@Suite struct KeyManagementTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite()
    }

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
        let result = try helper.with(passphraseFile: file).run(
            ["init", "--passphrase", "--passphrase-fd", "3", "--scrypt-cost", "10"])
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
        let (oldFile, unlocked) = try passphraseStore("old phrase")
        try unlocked.storeAll(Self.credential)
        let newFile = try passphraseFile("new phrase")
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
