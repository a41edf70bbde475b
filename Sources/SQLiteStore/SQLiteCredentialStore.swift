import CredentialCore
import CredentialCrypto
import FoundationEssentials

/// The encrypted SQLite store. Each row holds a keyed-hash tag of (protocol, host) for
/// look-ups and one sealed record with every field; the file alone reveals no host,
/// path, username, secret or expiry. Matching happens after decryption, with the one
/// rule of CredentialCore.
public final class SQLiteCredentialStore: CredentialStore {
    public let location: StoreLocation
    let database: StoreDatabase
    let keys: StoreKeys

    init(location: StoreLocation, database: StoreDatabase, key: UnlockedKey) {
        self.location = location
        self.database = database
        self.keys = key.keys
        Trace.note("opened \(Trace.quoted(location.database)) (" + (database.meta[Meta.keyMode] == Meta.keyFileMode
            ? "key file \(Trace.quoted(location.keyFile)))" : "passphrase-protected)"))
    }

    /// The store for get, erase and list: `nil` when there is none yet (nothing is created).
    public static func openExisting(_ location: StoreLocation, passphrase: PassphraseSource = .init()) throws -> SQLiteCredentialStore? {
        guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else {
            Trace.note("no store at \(Trace.quoted(location.database)) yet")
            return nil
        }
        return SQLiteCredentialStore(location: location, database: database,
                                     key: try KeyAccess.dataKey(of: database, location: location, passphrase: passphrase))
    }

    /// The store for store and import: on first use, creates the database and, in its
    /// own directory, the key file.
    public static func openOrCreate(_ location: StoreLocation, passphrase: PassphraseSource = .init()) throws -> SQLiteCredentialStore {
        // A new store needs its key file: both checked before either is created.
        if !PrivateFiles.exists(location.database) { try StoreFiles.checkKeyFile(location.keyFile) }
        var database = try StoreDatabase.open(location.database, create: true)!
        if database.meta.isEmpty {
            try database.initialize { try KeyAccess.keyFileMeta(location: location) }
            Trace.note("created the store \(Trace.quoted(location.database))")
        }
        return SQLiteCredentialStore(location: location, database: database,
                                     key: try KeyAccess.dataKey(of: database, location: location, passphrase: passphrase))
    }

    // MARK: CredentialStore

    public func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential] {
        try guarding { try rows(near: request).map(\.credential).filter { $0.isMatched(by: request, for: purpose) } }
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        try guarding {
            try database.connection.transaction(writing: true) {
                let insert = try database.connection.prepare("INSERT INTO credential(tag, sealed) VALUES (?, x'')")
                let seal = try database.connection.prepare("UPDATE credential SET sealed = ? WHERE id = ?")
                for credential in credentials {
                    for row in try rows(near: credential) where row.credential.hasSameKey(as: credential) {
                        try delete(row.id)
                    }
                    let tag = tag(of: credential)
                    try insert.bind(.blob(tag)).run()
                    // The row id is part of the sealed record's additional data, so the
                    // record is sealed once the row exists.
                    let id = database.connection.lastInsertedRowID
                    let sealed = try keys.seal(RecordCodec.encode(credential), rowID: id, tag: tag)
                    try seal.bind(.blob(sealed), .integer(id)).run()
                    progress?.advance()
                }
            }
        }
    }

    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        try guarding {
            try database.connection.transaction(writing: true) {
                let doomed = try rows(near: request).filter { $0.credential.isMatched(by: request, for: .erase) }
                for row in doomed { try delete(row.id) }
                return doomed.count
            }
        }
    }

    public func list() throws -> [StoredItem] {
        try all().map { StoredItem(backend: "sqlite", credential: $0.withoutSecrets) }
    }

    public func all() throws -> [Credential] {
        try guarding { try rows(near: Credential()).map(\.credential) }
    }

    @discardableResult
    public func removeAll() throws -> Int {
        try guarding {
            try database.connection.transaction(writing: true) {
                let count = try database.connection.prepare("SELECT count(*) FROM credential")
                _ = try count.step()
                let removed = Int(count.integer(0))
                try database.connection.prepare("DELETE FROM credential").run()
                return removed
            }
        }
    }

    // MARK: Rows

    struct Row {
        let id: Int64
        let credential: Credential
    }

    /// The decrypted rows that can match `request`, newest first: those with its tag when
    /// it names protocol and host, else all of them.
    func rows(near request: Credential) throws -> [Row] {
        let statement: SQLiteStatement
        if request.protocol != nil && request.host != nil {
            statement = try database.connection.prepare("SELECT id, tag, sealed FROM credential WHERE tag = ? ORDER BY id DESC")
            try statement.bind(.blob(tag(of: request)))
        } else {
            statement = try database.connection.prepare("SELECT id, tag, sealed FROM credential ORDER BY id DESC")
        }
        var rows: [Row] = []
        while try statement.step() {
            let id = statement.integer(0)
            rows.append(Row(id: id, credential: try decrypt(id: id, tag: statement.blob(1), sealed: statement.blob(2))))
        }
        return rows
    }

    func decrypt(id: Int64, tag: [UInt8], sealed: [UInt8]) throws -> Credential {
        guard let plaintext = try? keys.open(sealed, rowID: id, tag: tag), let credential = RecordCodec.decode(plaintext) else {
            throw HelperError(.failure, "record \(id) of \(location.database) fails authentication: the file was damaged or altered",
                              fix: "restore the database from a backup")
        }
        return credential
    }

    /// Gives the store a new data key: every record resealed under `newKeys` and the
    /// settings replaced by `settings`, in one transaction (all or nothing: a record that
    /// fails to open midway leaves the store as it was). The WAL is then emptied, so the
    /// records sealed under the old key do not linger beside the database.
    func rekey(to newKeys: StoreKeys, settings: [String: [UInt8]]) throws {
        try guarding {
            try database.connection.transaction(writing: true) {
                guard try database.readMeta() == database.meta else {
                    throw HelperError(.failure, "another process changed the settings of \(location.database) meanwhile", fix: "run the command again")
                }
                var ids: [Int64] = []
                let list = try database.connection.prepare("SELECT id FROM credential ORDER BY id")
                while try list.step() { ids.append(list.integer(0)) }
                let read = try database.connection.prepare("SELECT tag, sealed FROM credential WHERE id = ?")
                let update = try database.connection.prepare("UPDATE credential SET tag = ?, sealed = ? WHERE id = ?")
                for id in ids {
                    try read.bind(.integer(id))
                    guard try read.step() else { continue }
                    let credential = try decrypt(id: id, tag: read.blob(0), sealed: read.blob(1))
                    let tag = newKeys.tag(protocol: credential.protocol?.bytes, host: credential.host?.bytes)
                    let sealed = try newKeys.seal(RecordCodec.encode(credential), rowID: id, tag: tag)
                    try update.bind(.blob(tag), .blob(sealed), .integer(id)).run()
                }
                try database.write(settings: settings, keys: newKeys)
            }
            try database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    func tag(of credential: Credential) -> [UInt8] {
        keys.tag(protocol: credential.protocol?.bytes, host: credential.host?.bytes)
    }

    func delete(_ id: Int64) throws {
        try database.connection.prepare("DELETE FROM credential WHERE id = ?").bind(.integer(id)).run()
    }

    func guarding<T>(_ body: () throws -> T) throws -> T {
        try StoreDatabase.guarding(location.database, body)
    }
}
