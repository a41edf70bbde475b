import CredentialCore
import CredentialCrypto
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The encrypted SQLite store. Each row holds a keyed-hash tag of (protocol, host) for
/// look-ups and one sealed record with every field; the file alone reveals no host,
/// path, username, secret or expiry. Matching happens after decryption, with the one
/// rule of CredentialCore.
public final class SQLiteCredentialStore: ManagedStore {
    public let location: StoreLocation
    /// The settings in `database.meta` are those `key` was verified against: every
    /// transaction checks that the file still has them (`transaction`).
    private(set) var database: StoreDatabase
    private(set) var key: UnlockedKey
    var keys: StoreKeys { key.keys }

    init(location: StoreLocation, database: StoreDatabase, key: UnlockedKey) {
        self.location = location
        self.database = database
        self.key = key
        Trace.note("opened \(Trace.quoted(location.database)) (" + (database.meta[Meta.keyMode] == Meta.keyFileMode
            ? "key file \(Trace.quoted(location.keyFile)))" : "passphrase-protected)"))
    }

    /// The store for get, erase and list: `nil` when there is none yet (nothing is created).
    public static func openExisting(_ location: StoreLocation, passphrase: PassphraseSource = .init()) throws -> SQLiteCredentialStore? {
        for attempt in 1...2 {
            guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else {
                Trace.note("no store at \(Trace.quoted(location.database)) yet")
                return nil
            }
            if let key = try key(of: database, location: location, passphrase: passphrase, lastAttempt: attempt == 2) {
                return SQLiteCredentialStore(location: location, database: database, key: key)
            }
        }
        return nil
    }

    /// The store when it opens without asking anyone (a key file, or a passphrase store
    /// unlocked in the kernel keyring); `nil` when there is none or it is locked.
    public static func openWithoutAsking(_ location: StoreLocation) throws -> SQLiteCredentialStore? {
        guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else { return nil }
        try KeyAccess.checkShape(database)
        guard let key = try KeyAccess.keyWithoutAsking(of: database, location: location) else {
            Trace.note("\(Trace.quoted(location.database)) is locked: not asked for its passphrase here")
            return nil
        }
        return SQLiteCredentialStore(location: location, database: database, key: key)
    }

    /// The store for store and import: on first use, creates the database and, in its
    /// own directory, the key file.
    public static func openOrCreate(_ location: StoreLocation, passphrase: PassphraseSource = .init()) throws -> SQLiteCredentialStore {
        for attempt in 1...2 {
            // A new store needs its key file: both checked before either is created, and a
            // key file already there read first (one damaged, or of a later format, leaves
            // no empty database behind).
            if !PrivateFiles.exists(location.database) {
                try StoreFiles.checkKeyFile(location.keyFile)
                if PrivateFiles.exists(location.keyFile) { _ = try KeyFile.read(location.keyFile) }
            }
            var database = try StoreDatabase.open(location.database, create: true)!
            if database.meta.isEmpty {
                try database.initialize { try KeyAccess.keyFileMeta(location: location) }
                Trace.note("created the store \(Trace.quoted(location.database))")
            }
            guard let key = try key(of: database, location: location, passphrase: passphrase, lastAttempt: attempt == 2) else { continue }
            // Before anything is written: a conversion of another store must see that this
            // one needs the key file (KeyFileUsers).
            if database.meta[Meta.keyMode] == Meta.keyFileMode {
                try KeyFileUsers.record(location.database, keyFile: location.keyFile, key: key.bytes, keyFileIsNew: false)
            }
            return SQLiteCredentialStore(location: location, database: database, key: key)
        }
        throw HelperError(.failure, "\(location.database) kept changing while it was opened", fix: "run the command again")
    }

    /// The key of the store just opened; `nil` (open it again) when finding it failed
    /// because another process re-keyed the store after its settings were read: a
    /// conversion wipes the key file those settings name, and that is no damage.
    static func key(of database: StoreDatabase, location: StoreLocation, passphrase: PassphraseSource, lastAttempt: Bool) throws -> UnlockedKey? {
        do {
            return try KeyAccess.dataKey(of: database, location: location, passphrase: passphrase)
        } catch {
            if !lastAttempt, let now = try? database.readMeta(), now != database.meta {
                Trace.note("\(Trace.quoted(location.database)) was re-keyed while it was opened: opening it again")
                return nil
            }
            throw error
        }
    }

    // MARK: CredentialStore

    public func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential] {
        do {
            return try transaction(writing: false) {
                try rows(near: request).map(\.credential).filter { $0.isMatched(by: request, for: purpose) }
            }
        } catch let error as HelperError where error.message == rekeyedMeanwhile.message {
            // A get racing with a conversion or passwd misses; git asks the next helper.
            Trace.note(error.message)
            return []
        }
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        try transaction(writing: true) {
            let insert = try database.connection.prepare("INSERT INTO credential(tag, sealed) VALUES (?, x'')")
            let seal = try database.connection.prepare("UPDATE credential SET sealed = ? WHERE id = ?")
            // Each tag's rows are decrypted once per replace, then kept current: an import
            // of N usernames for one host would otherwise decrypt N rows N times.
            var rowsByTag: [[UInt8]: [[UInt8]: [Int64]]] = [:]
            for credential in credentials {
                // A row with the same key has the same protocol and host, so the same tag.
                let tag = tag(of: credential), identity = Self.identity(of: credential)
                if rowsByTag[tag] == nil { rowsByTag[tag] = try sameKeyIndex(tag: tag) }
                for id in rowsByTag[tag]![identity] ?? [] { try delete(id) }
                try insert.bind(.blob(tag)).run()
                // The row id is part of the sealed record's additional data, so the
                // record is sealed once the row exists.
                let id = database.connection.lastInsertedRowID
                let sealed = try keys.seal(RecordCodec.encode(credential, stored: StoredTime.now()), rowID: id, tag: tag)
                try seal.bind(.blob(sealed), .integer(id)).run()
                rowsByTag[tag]![identity] = [id]
                progress?.advance()
            }
        }
    }

    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        try transaction(writing: true) {
            let doomed = try rows(near: request).filter { $0.credential.isMatched(by: request, for: .erase) }
            for row in doomed { try delete(row.id) }
            return doomed.count
        }
    }

    public func list() throws -> [StoredItem] {
        try all().map { StoredItem(backend: "sqlite", credential: $0.withoutSecrets) }
    }

    public func all() throws -> [Credential] {
        try transaction(writing: false) { try rows(near: Credential()).map(\.credential) }
    }

    @discardableResult
    public func removeAll() throws -> Int {
        try transaction(writing: true) {
            let count = try database.connection.prepare("SELECT count(*) FROM credential")
            _ = try count.step()
            let removed = Int(count.integer(0))
            try database.connection.prepare("DELETE FROM credential").run()
            return removed
        }
    }

    // MARK: The key of the moment

    /// Runs `body` in a transaction (BEGIN IMMEDIATE when writing) that first re-reads
    /// the settings, in the same snapshot as what `body` reads or writes. Another process
    /// may have re-keyed the store since it was opened (init --passphrase, passwd): then
    /// the key is found again the ways that ask no one (the key file, the kernel
    /// keyring), or the command fails; nothing is ever sealed, deleted or read with a
    /// stale key.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try guarding {
            try database.connection.transaction(writing: writing) {
                try followSettings()
                return try body()
            }
        }
    }

    /// The settings are read again only if the file changed since they were read (a get
    /// reads them once, at open).
    private func followSettings() throws {
        let point = try database.readPoint()
        guard point != database.metaReadAt else { return }
        let meta = try database.readMeta()
        guard meta != database.meta else {
            database.metaReadAt = point
            return
        }
        var current = database
        current.meta = meta
        current.metaReadAt = point
        current.format = try database.readFormat()
        try KeyAccess.checkShape(current)
        // The same key under rewritten settings (a format upgrade), or the key again.
        guard let found = try KeyAccess.verified(key.bytes, for: current) ?? KeyAccess.keyWithoutAsking(of: current, location: location) else {
            throw rekeyedMeanwhile
        }
        Trace.note("the settings of \(Trace.quoted(location.database)) changed since it was opened; continuing with the key they name")
        (database, key) = (current, found)
    }

    var rekeyedMeanwhile: HelperError {
        HelperError(.failure, "\(location.database) was re-keyed by another process meanwhile (init --passphrase or passwd), so nothing was done with its old key",
                    fix: "run the command again")
    }

    // MARK: Rows

    struct Row {
        let id: Int64
        let credential: Credential
        /// When it was stored; `nil` for a record of an earlier release (version 1).
        let stored: UInt64?
    }

    /// The items `get` finds, each with when it was stored (`nil`: before this release
    /// kept it), newest first: what git-credential-keyring compares with the keyring's.
    public func datedItems(matching request: Credential) throws -> [(credential: Credential, stored: UInt64?)] {
        try transaction(writing: false) {
            try rows(near: request).filter { $0.credential.isMatched(by: request, for: .lookup) }.map { (credential: $0.credential, stored: $0.stored) }
        }
    }

    /// The ids of the rows of `tag`, by their key (protocol, host, path, username).
    func sameKeyIndex(tag: [UInt8]) throws -> [[UInt8]: [Int64]] {
        let statement = try database.connection.prepare("SELECT id, sealed FROM credential WHERE tag = ?")
        try statement.bind(.blob(tag))
        var index: [[UInt8]: [Int64]] = [:]
        while try statement.step() {
            let id = statement.integer(0)
            index[Self.identity(of: try decrypt(id: id, tag: tag, sealed: statement.blob(1)).credential), default: []].append(id)
        }
        return index
    }

    /// What Credential.hasSameKey compares, as one hashable value.
    static func identity(of credential: Credential) -> [UInt8] {
        [credential.protocol, credential.host, credential.path, credential.username].flatMap { RecordCodec.field($0?.bytes) }
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
            let (credential, stored) = try decrypt(id: id, tag: statement.blob(1), sealed: statement.blob(2))
            rows.append(Row(id: id, credential: credential, stored: stored))
        }
        return rows
    }

    func decrypt(id: Int64, tag: [UInt8], sealed: [UInt8]) throws -> (credential: Credential, stored: UInt64?) {
        func damaged() -> HelperError {
            HelperError(.failure, "record \(id) of \(location.database) fails authentication: the file was damaged or altered",
                        fix: "restore the database from a backup")
        }
        guard let plaintext = try? keys.open(sealed, rowID: id, tag: tag) else { throw damaged() }
        // Authentic, so its version is what a release wrote.
        if let version = plaintext.first { try RecordCodec.format.check(Int64(version), in: "record \(id) of \(location.database)") }
        guard let record = RecordCodec.decodeDated(plaintext) else { throw damaged() }
        return record
    }

    /// Gives the store a new data key: every record resealed under `newKey` and the
    /// settings replaced by `settings`, in one transaction (all or nothing: a record that
    /// fails to open midway leaves the store as it was). The WAL is then emptied, so the
    /// records sealed under the old key do not linger beside the database.
    func rekey(to newKey: UnlockedKey, settings: [String: [UInt8]]) throws {
        try transaction(writing: true) {
            var ids: [Int64] = []
            let list = try database.connection.prepare("SELECT id FROM credential ORDER BY id")
            while try list.step() { ids.append(list.integer(0)) }
            let read = try database.connection.prepare("SELECT tag, sealed FROM credential WHERE id = ?")
            let update = try database.connection.prepare("UPDATE credential SET tag = ?, sealed = ? WHERE id = ?")
            for id in ids {
                try read.bind(.integer(id))
                guard try read.step() else { continue }
                let (credential, stored) = try decrypt(id: id, tag: read.blob(0), sealed: read.blob(1))
                let tag = newKey.keys.tag(protocol: credential.protocol?.bytes, host: credential.host?.bytes)
                // A record of version 1 has no time: it stays the oldest (0) it was.
                let sealed = try newKey.keys.seal(RecordCodec.encode(credential, stored: stored ?? 0), rowID: id, tag: tag)
                try update.bind(.blob(tag), .blob(sealed), .integer(id)).run()
            }
            try database.write(settings: settings, keys: newKey.keys)
        }
        try guarding { try database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        database.meta = try guarding { try database.readMeta() }
        database.format = StoreDatabase.formatVersion
        key = newKey
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
