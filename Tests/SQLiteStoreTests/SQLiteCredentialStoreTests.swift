import CredentialCore
import Foundation
import Testing
@testable import SQLiteStore

@Suite struct SQLiteCredentialStoreTests {
    let directory = ThrowawayStoreDirectory()

    @Test func storesAndFindsByTheMatchingRule() throws {
        let store = try directory.store()
        try store.replace(with: credential("example.com", user: "alice", password: "a1"))
        try store.replace(with: credential("example.com", user: "bob", password: "b1"))
        try store.replace(with: credential("example.com:8443", user: "carol", password: "c1"))

        let all = try store.items(matching: Credential(protocol: "https", host: "example.com"), for: .lookup)
        #expect(all.map(\.username) == ["bob", "alice"], "newest first, exact host:port")
        let bob = try store.items(matching: Credential(protocol: "https", host: "example.com", username: "bob"), for: .lookup)
        #expect(bob.map(\.password) == ["b1"])
        let byUser = try store.items(matching: Credential(username: "carol"), for: .lookup)
        #expect(byUser.map(\.host) == ["example.com:8443"], "a request without host scans every row")
    }

    @Test func replacesTheItemWithTheSameKeyOnly() throws {
        let store = try directory.store()
        try store.replace(with: credential("h", user: "alice", password: "old", path: "repo"))
        try store.replace(with: credential("h", user: "alice", password: "other-path"))
        var updated = credential("h", user: "alice", password: "new", path: "repo")
        updated.passwordExpiryUTC = 4_000_000_000
        try store.replace(with: updated)

        let items = try store.items(matching: Credential(protocol: "https", host: "h"), for: .lookup)
        #expect(items.count == 2)
        #expect(items.first == updated)
        #expect(items.last?.password == "other-path")
    }

    @Test func removeHonoursThePassword() throws {
        let store = try directory.store()
        try store.replace(with: credential("h", user: "alice", password: "shared"))
        try store.replace(with: credential("h", user: "bob", password: "different"))
        let removed = try store.remove(matching: Credential(protocol: "https", host: "h", password: "shared"))
        #expect(removed == 1)
        #expect(try store.list().map(\.credential.username) == ["bob"])
    }

    @Test func listNeverCarriesSecrets() throws {
        let store = try directory.store()
        var item = credential("h", user: "alice", password: "secret")
        item.oauthRefreshToken = "refresh"
        item.authtype = "Bearer"
        item.credential = "token"
        try store.replace(with: item)
        let stored = try #require(try store.list().first)
        let listed = stored.credential
        #expect(listed.password == nil && listed.oauthRefreshToken == nil && listed.credential == nil)
        #expect(listed.username == "alice" && listed.authtype == "Bearer" && stored.backend == "sqlite")
    }

    @Test func allCarriesSecretsAndRemoveAllEmptiesTheStore() throws {
        let store = try directory.store()
        try store.replace(with: [credential("a.example", user: "alice", password: "pa"), credential("b.example", user: "bob", password: "pb")])
        #expect(Set(try store.all().compactMap(\.password)) == ["pa", "pb"])
        #expect(try store.removeAll() == 2)
        #expect(try store.all().isEmpty && store.removeAll() == 0)
    }

    @Test func everyFieldSurvivesTheRoundTrip() throws {
        let store = try directory.store()
        let item = Credential(protocol: "cert", host: "", path: "/home/u/cert.p12", username: "",
                              password: Value([0xFF, 0x00, 0x41]), passwordExpiryUTC: 1_900_000_000,
                              oauthRefreshToken: "r", authtype: "Bearer", credential: "c")
        try store.replace(with: item)
        #expect(try store.items(matching: Credential(protocol: "cert", host: ""), for: .lookup) == [item])
    }

    @Test func aSealedRecordMovedToAnotherRowFailsAuthentication() throws {
        let store = try directory.store()
        try store.replace(with: credential("a.example", user: "alice", password: "pa"))
        try store.replace(with: credential("b.example", user: "bob", password: "pb"))
        try directory.tamper("UPDATE credential SET sealed = (SELECT sealed FROM credential WHERE id = 1) WHERE id = 2")
        #expect(throws: HelperError.self) { try store.list() }
    }

    @Test func aTagMovedToAnotherRowFailsAuthentication() throws {
        let store = try directory.store()
        try store.replace(with: credential("a.example", user: "alice", password: "pa"))
        try store.replace(with: credential("b.example", user: "bob", password: "pb"))
        try directory.tamper("UPDATE credential SET tag = (SELECT tag FROM credential WHERE id = 1) WHERE id = 2")
        #expect(throws: HelperError.self) {
            try store.items(matching: Credential(protocol: "https", host: "a.example"), for: .lookup)
        }
    }

    @Test func theDatabaseIsConfiguredAsDesigned() throws {
        let store = try directory.store()
        try store.replace(with: credential("h", user: "u", password: "p"))
        #expect(try directory.scalar("PRAGMA journal_mode") == "wal")
        #expect(try directory.scalar("PRAGMA user_version") == "2")
        #expect(try directory.scalar("PRAGMA integrity_check") == "ok")
        let connection = store.database.connection
        for (pragma, expected) in [("secure_delete", "1"), ("synchronous", "2"), ("temp_store", "2")] {
            let statement = try connection.prepare("PRAGMA \(pragma)")
            _ = try statement.step()
            #expect(statement.text(0) == expected, "PRAGMA \(pragma)")
        }
    }

    @Test func aNewerFormatIsRefusedClearly() throws {
        try directory.store().replace(with: credential("h", user: "u", password: "p"))
        try directory.tamper("PRAGMA user_version = 3")
        let before = directory.bytes(directory.location.database)
        let error = try #require(throws: HelperError.self) { try SQLiteCredentialStore.openExisting(directory.location) }
        #expect(error.message == "\(directory.location.database) has store format 3, and this release (\(Version.number)) reads store formats 1 and 2")
        #expect(error.fix == "use a newer release of the git credential helpers, which reads it; this one changed nothing")
        #expect(throws: error) { try directory.store() }
        #expect(directory.bytes(directory.location.database) == before)
    }

    /// A record sealed by a later release (its version byte authenticated with it) is
    /// refused as a later format, not taken for damage.
    @Test func aRecordOfALaterFormatIsRefusedClearly() throws {
        let store = try directory.store()
        try store.replace(with: credential("h", user: "u", password: "p"))
        var plaintext = RecordCodec.encode(credential("h", user: "u", password: "p"), stored: 0)
        plaintext[0] = 3
        let tag = store.tag(of: credential("h", user: "u", password: "p"))
        let sealed = try store.keys.seal(plaintext, rowID: 1, tag: tag)
        try directory.tamper("UPDATE credential SET sealed = x'\(Hex.encode(sealed))' WHERE id = 1")
        let error = try #require(throws: HelperError.self) { try directory.store().list() }
        #expect(error.message == "record 1 of \(directory.location.database) has record format 3, and this release (\(Version.number)) reads record formats 1 and 2")
        #expect(error.fix == "use a newer release of the git credential helpers, which reads it; this one changed nothing")
    }

    @Test func anotherSQLiteDatabaseIsNotTakenForAStore() throws {
        try FileManager.default.createDirectory(atPath: directory.root + "/data", withIntermediateDirectories: true)
        let other = try SQLiteDatabase(path: directory.location.database, create: true)
        try other.execute("CREATE TABLE notes(text)")
        let before = directory.bytes(directory.location.database)
        let error = try #require(throws: HelperError.self) { try directory.store() }
        #expect(error.message.contains("not a git-credential-sqlite store"))
        #expect(directory.bytes(directory.location.database) == before)
    }

    @Test func getOnAMissingStoreCreatesNothing() throws {
        #expect(try SQLiteCredentialStore.openExisting(directory.location) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.root + "/data"))
        #expect(!FileManager.default.fileExists(atPath: directory.location.keyFile))
    }

    @Test func importIsOneTransaction() throws {
        let store = try directory.store()
        let many = (0..<500).map { credential(Value("host-\($0).example"), user: "u", password: Value("p\($0)")) }
        try store.replace(with: many)
        #expect(try store.list().count == 500)
        #expect(try store.items(matching: Credential(protocol: "https", host: "host-321.example"), for: .lookup).first?.password == "p321")
    }
}
