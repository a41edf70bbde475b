import Foundation
import Testing

/// Management commands on the Secret Service and between the backends, on a keyring of
/// the test's own (erase-all must not touch other tests' items).
@Suite struct ManagementAcrossBackendsTests: InKeyringWorld {
    let world: KeyringWorld
    var sqlite: SQLiteHelper { sandbox.sqlite() }

    static let alice = wire("protocol=https", "host=a.example", "username=alice", "password=pa", "password_expiry_utc=4102444800")
    static let bob = wire("protocol=https", "host=b.example", "username=bob", "password=pb")

    @Test func importMovesCredentialsBetweenBackendsBothWays() throws {
        try secretService.storeAll(Self.alice)
        try sqlite.storeAll(Self.bob)
        let intoSQLite = try sqlite.with(environment: session.bus.environment).run(["import", "--from", "secretservice"])
        #expect(intoSQLite.exitCode == 0 && intoSQLite.stderrText == "read 1 credential from secretservice: 1 new, 0 replaced, 0 unchanged\n", "\(intoSQLite)")
        let found = try sqlite.get(wire("protocol=https", "host=a.example"))
        #expect(found.stdoutLines == ["username=alice", "password=pa", "password_expiry_utc=4102444800"], "\(found)")

        let intoKeyring = try secretService("import", "--from", "sqlite")
        #expect(intoKeyring.exitCode == 0 && intoKeyring.stderrText == "read 2 credentials from sqlite: 1 new, 0 replaced, 1 unchanged\n", "\(intoKeyring)")
        #expect(try secretService.password(for: wire("protocol=https", "host=b.example")) == "pb")
        #expect(try secretService.list().stdoutLines.dropFirst().allSatisfy { $0.hasSuffix("  secretservice") })
    }

    @Test func importFromAnUnavailableBackendSaysWhy() throws {
        let noBus = try sandbox.noSessionBus()
        let result = try sqlite.with(environment: noBus).run(["import", "--from", "secretservice"])
        expectOneLineFailure(result, exitCode: 1, mentioning: ["git-credential-secretservice could not export", "Secret Service"])
        #expect(!fileExists(sandbox.database), "a failed import created the store")
    }

    @Test func eraseAllAndExportOnTheSecretService() throws {
        try secretService.storeAll(Self.alice, Self.bob)
        let phrase = try sandbox.file("phrase", "keyring export\n")
        let file = sandbox.root + "/keyring.gitcred"
        let exported = try sandbox.run(BuiltProducts.secretServiceHelper,
                                       ["export", "-o", file, "--file-passphrase-fd", "3", "--scrypt-cost", "10"],
                                       environment: session.bus.environment, inputFiles: [3: phrase])
        #expect(exported.exitCode == 0, "\(exported)")
        let erased = try secretService("erase-all", "--yes")
        #expect(erased.stderrText == "erased 2 credentials\n", "\(erased)")
        #expect(try secretService.list().stdout.isEmpty)
        let imported = try sqlite.with(passphraseFile: phrase).run(["import", "--file-passphrase-fd", "3", file])
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(try sqlite.password(for: wire("protocol=https", "host=b.example")) == "pb")
    }

    @Test func doctorNamesTheKeyringDaemonAndItsLockState() throws {
        let healthy = try secretService("doctor")
        #expect(healthy.stdoutText.contains("ok    Secret Service: org.freedesktop.secrets is owned by"), "\(healthy)")
        #expect(healthy.stdoutText.contains("gnome-keyring-d"), "\(healthy)")
        #expect(healthy.stdoutText.contains("ok    round trip"), "\(healthy)")
        try session.lockLoginCollection()
        let locked = try secretService("doctor")
        #expect(locked.exitCode == 1, "\(locked)")
        #expect(locked.stdoutLines.contains { $0.hasPrefix("warn  keyring:") && $0.contains("locked") }, "\(locked)")
        #expect(locked.stdoutLines.contains { $0.hasPrefix("FAIL  round trip:") && $0.contains("locked") }, "\(locked)")
    }

    @Test func theKeyringHelperListsBothBackends() throws {
        try secretService.storeAll(Self.alice)
        try sqlite.storeAll(Self.bob)
        let listed = try sandbox.run(BuiltProducts.directory + "/git-credential-keyring", ["list"], environment: session.bus.environment)
        expectSuccess(listed)
        #expect(listed.stdoutLines.contains { $0.contains("a.example") && $0.hasSuffix("  secretservice") }, "\(listed)")
        #expect(listed.stdoutLines.contains { $0.contains("b.example") && $0.hasSuffix("  sqlite") }, "\(listed)")
    }
}
