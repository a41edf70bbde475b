import CSQLite
import CredentialCore
import Foundation
@testable import SQLiteStore

/// A throwaway directory with a database path and a key file path in separate folders
/// (not the end-to-end tests' Sandbox: no HOME, no environment, no process).
final class ThrowawayStoreDirectory {
    let root: String
    var location: StoreLocation { StoreLocation(database: root + "/data/store.db", keyFile: root + "/config/key") }

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-store-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func store() throws -> SQLiteCredentialStore { try SQLiteCredentialStore.openOrCreate(location) }

    func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    /// Runs SQL on the database behind the store's back, as an attacker or a bug would.
    func tamper(_ sql: String) throws {
        let database = try SQLiteDatabase(path: location.database, create: false)
        try database.execute(sql)
    }

    func scalar(_ sql: String) throws -> String {
        let database = try SQLiteDatabase(path: location.database, create: false)
        let statement = try database.prepare(sql)
        _ = try statement.step()
        return statement.text(0) ?? ""
    }
}

func credential(_ host: Value, user: Value, password: Value, path: Value? = nil) -> Credential {
    Credential(protocol: "https", host: host, path: path, username: user, password: password)
}
