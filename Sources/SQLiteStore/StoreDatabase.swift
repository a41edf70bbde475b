import CSQLite
import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The database file before its key is known: opening it, recognising it, creating
/// its schema, and turning SQLite's errors into one line with a fix.
struct StoreDatabase {
    static let applicationID: Int64 = 0x4743_5351  // "GCSQ"
    /// 2: the meta rows are authenticated (settings_mac); 1 (no MAC) is upgraded on open.
    static let format = FileFormat("store", reads: [1, 2])
    static var formatVersion: Int64 { format.current }
    /// Concurrent git processes wait for each other this long instead of failing.
    static let busyTimeoutMilliseconds: Int32 = 15_000

    let path: String
    let connection: SQLiteDatabase
    /// Empty when the file holds no store yet (new or zero-length).
    var meta: [String: [UInt8]]
    /// The file's user_version: 0 for an empty file.
    var format: Int64 = 0
    /// When `meta` was read: at the same read point later, no one has changed the
    /// settings since, and they need not be read again.
    var metaReadAt: ReadPoint?

    /// A point in the file's history as this connection sees it: SQLite's data version
    /// (changes when another connection commits) and this connection's own change count.
    struct ReadPoint: Equatable {
        let dataVersion: Int64
        let ownChanges: Int64
    }

    /// How many credentials the store at `path` holds: its records, counted without a key
    /// (nothing is decrypted, nothing created); nil when it cannot be opened.
    static func credentialCount(at path: String) -> Int? {
        let opened: StoreDatabase?
        do { opened = try open(path, create: false) } catch { return nil }
        guard let opened, !opened.meta.isEmpty else { return 0 }
        return (try? opened.connection.integer("SELECT count(*) FROM credential")).map(Int.init)
    }

    /// Opens the database at `path`; `nil` when it does not exist and `create` is false,
    /// so that get on a missing store creates nothing.
    static func open(_ path: String, create: Bool) throws -> StoreDatabase? {
        try StoreFiles.checkDatabase(path)
        if !PrivateFiles.exists(path) {
            guard create else { return nil }
            try StoreFiles.makeDirectories(for: path)
        }
        return try guarding(path) {
            let connection = try SQLiteDatabase(path: path, create: create)
            sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds)
            // What the file says it is, in one snapshot, by plain PRAGMAs: their table-valued
            // forms (pragma_user_version, ...) are virtual tables, each declared by parsing a
            // CREATE TABLE (139k instructions of a get's 2M).
            let (application, format, dataVersion, isEmpty) = try connection.transaction(writing: false) {
                let application = try connection.integer("PRAGMA application_id"), format = try connection.integer("PRAGMA user_version")
                let isEmpty = try application == 0 && format == 0 && connection.integer("SELECT count(*) FROM sqlite_master") == 0
                return (application, format, try connection.integer("PRAGMA data_version"), isEmpty)
            }
            if !isEmpty && application != applicationID {
                throw HelperError(.failure, "\(path) is an SQLite database, but not a git-credential-sqlite store",
                                  fix: "point --db or \(StoreLocation.databaseVariable) at the store, or move that file aside")
            }
            if !isEmpty { try Self.format.check(format, in: path) }
            // journal_size_limit=0: the WAL, kept between runs (SQLiteDatabase), is cut to
            // nothing whenever it is reset or the last connection closes, so no old page of
            // an erased or replaced record lingers in it.
            try connection.execute("PRAGMA synchronous=FULL; PRAGMA secure_delete=ON; PRAGMA temp_store=MEMORY; PRAGMA journal_size_limit=0")
            var database = StoreDatabase(path: path, connection: connection, meta: [:], format: format)
            if !isEmpty {
                // Taken before the meta is read: a commit in between makes it older, never newer.
                database.metaReadAt = ReadPoint(dataVersion: dataVersion, ownChanges: connection.totalChanges)
                database.meta = try database.readMeta()
            }
            return database
        }
    }

    func readMeta() throws -> [String: [UInt8]] {
        var meta: [String: [UInt8]] = [:]
        let rows = try connection.prepare("SELECT name, value FROM meta")
        while try rows.step() { meta[rows.text(0) ?? ""] = rows.blob(1) }
        return meta
    }

    /// Creates the schema and records `meta` (with its MAC: KeyAccess.settings), unless
    /// another process did so first; either way, returns the meta that is now in the file.
    mutating func initialize(_ makeMeta: () throws -> [String: [UInt8]]) throws {
        let path = self.path
        (meta, format) = try Self.guarding(path) {
            // WAL cannot be switched on inside a transaction; it is recorded in the file.
            try connection.execute("PRAGMA journal_mode=WAL")
            return try connection.transaction(writing: true) {
                let existing = try readMetaIfAny()
                if !existing.isEmpty { return (existing, try readFormat()) }
                try connection.execute("""
                    CREATE TABLE meta(name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE credential(id INTEGER PRIMARY KEY AUTOINCREMENT, tag BLOB NOT NULL, sealed BLOB NOT NULL);
                    CREATE INDEX credential_by_tag ON credential(tag);
                    PRAGMA application_id=\(Self.applicationID);
                    PRAGMA user_version=\(Self.formatVersion);
                    """)
                let fresh = try makeMeta()
                try write(meta: fresh)
                return (fresh, Self.formatVersion)
            }
        }
    }

    /// Replaces every meta row by `settings`, authenticated with `keys`, in the current
    /// format: the one way settings are written (init, conversion, passwd, upgrade).
    /// Call inside a write transaction.
    func write(settings: [String: [UInt8]], keys: StoreKeys) throws {
        var settings = settings
        settings[Meta.settingsMAC] = keys.settingsMAC(settings, format: Self.formatVersion)
        try connection.execute("DELETE FROM meta; PRAGMA user_version=\(Self.formatVersion)")
        try write(meta: settings)
    }

    private func write(meta: [String: [UInt8]]) throws {
        let insert = try connection.prepare("INSERT INTO meta(name, value) VALUES (?, ?)")
        for (name, value) in meta { try insert.bind(.text(name), .blob(value)).run() }
    }

    /// A store of format 1 (settings not authenticated) gets its settings MAC once its
    /// key is verified, so that from then on editing them is seen. Skipped if another
    /// process changed the settings meanwhile (the next open upgrades).
    func upgrade(with key: UnlockedKey) throws {
        guard format < Self.formatVersion else { return }
        try Self.guarding(path) {
            try connection.transaction(writing: true) {
                guard try readFormat() < Self.formatVersion, try readMeta() == meta else { return }
                try write(settings: meta, keys: key.keys)
            }
        }
        Trace.note("upgraded \(Trace.quoted(path)) to format \(Self.formatVersion): its settings are authenticated")
    }

    /// The read point of the current transaction's snapshot.
    func readPoint() throws -> ReadPoint {
        ReadPoint(dataVersion: try connection.integer("PRAGMA data_version"), ownChanges: connection.totalChanges)
    }

    func readFormat() throws -> Int64 {
        try connection.integer("PRAGMA user_version")
    }

    private func readMetaIfAny() throws -> [String: [UInt8]] {
        let tables = try connection.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'")
        _ = try tables.step()
        return tables.integer(0) == 0 ? [:] : try readMeta()
    }

    /// Runs `body`, turning SQLite's errors into one line that names the file and a fix.
    static func guarding<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SQLiteError { throw describe(error, path: path) }
    }

    static func describe(_ error: SQLiteError, path: String) -> HelperError {
        // SQLite reports a full disk or a read-only file system met on its -wal or -shm
        // file as an I/O error or "unable to open database file": the system says which.
        let ioFailure = [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY].contains(error.primaryCode)
        if ioFailure && isOnReadOnlyFileSystem(path) {
            return HelperError(.failure, "cannot use \(path): its file system is read-only, and SQLite writes beside the database even to read it",
                               fix: "remount the file system read-write, or copy the store somewhere writable and point --db at it")
        }
        // For other errors the errno may be left over from a call SQLite expected to fail.
        if ioFailure && [ENOSPC, EDQUOT].contains(error.systemError) {
            return HelperError(.failure, "cannot write to \(path): the disk is full", fix: "free some space and try again")
        }
        switch error.primaryCode {
        case SQLITE_NOTADB:
            return HelperError(.failure, "\(path) is not a git-credential-sqlite store (not an SQLite file, or its header is damaged)",
                               fix: "restore it from a backup, or move it aside to start a new store")
        case SQLITE_CORRUPT:
            return HelperError(.failure, "\(path) is damaged (\(error.message))",
                               fix: "restore it from a backup, or move it aside to start a new store")
        case SQLITE_READONLY:
            return HelperError(.failure, "cannot write to \(path): it or its directory is read-only (\(error.message))",
                               fix: "make the file and its directory writable by you (chmod u+w)")
        case SQLITE_FULL:
            return HelperError(.failure, "cannot write to \(path): the disk is full", fix: "free some space and try again")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return HelperError(.failure, "\(path) stayed locked by another process \(TimeSpan(seconds: UInt32(busyTimeoutMilliseconds / 1000)).phrase)",
                               fix: "find the process holding it (" + ShellWord.command(["fuser", path]) + ") and let it finish")
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return HelperError(.failure, "cannot open \(path): \(error.message)",
                               fix: "check that the file and its directory exist and are yours (ls -l)")
        default:
            return HelperError(.failure, "\(path): \(error.message)", fix: "check the disk and the file system")
        }
    }

    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(PrivateFiles.directory(of: path), &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }
}

extension StoreLocation {
    /// How many credentials the store holds, counted without its key (StoreDatabase.credentialCount).
    public func credentialCount() -> Int? { StoreDatabase.credentialCount(at: database) }
}
