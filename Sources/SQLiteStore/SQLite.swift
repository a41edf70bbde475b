import CSQLite

/// A thin wrapper over the SQLite C API: just what the store needs, errors as values.
final class SQLiteDatabase {
    let handle: OpaquePointer

    /// Opens without creating unless `create`; never follows a symlink for the file.
    init(path: String, create: Bool) throws(SQLiteError) {
        var pointer: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        if create { flags |= SQLITE_OPEN_CREATE }
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let systemError = pointer.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(pointer)
            throw SQLiteError(code: code, message: message, systemError: systemError)
        }
        handle = pointer
        sqlite3_extended_result_codes(handle, 1)
        // The -wal and -shm stay when the last connection closes (emptied, see
        // StoreDatabase.open): otherwise every get creates and unlinks both, and needs
        // room in the directory to do so.
        var persistent: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persistent)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code != SQLITE_OK { throw error(code) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement, database: self)
    }

    /// The first column of the first row of `sql` (0 when it returns no row).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        _ = try statement.step()
        return statement.integer(0)
    }

    /// Runs `body` in a transaction. Writers take the write lock up front (IMMEDIATE), so
    /// two processes never deadlock upgrading read locks and the busy timeout applies.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows this connection has changed since it was opened (its own writes only).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), systemError: sqlite3_system_errno(handle))
    }
}

final class SQLiteStatement {
    let statement: OpaquePointer
    unowned let database: SQLiteDatabase

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds parameters by position (1-based), from a list of values.
    @discardableResult
    func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT)
            case .blob(let bytes):
                // A zero-length blob must still be a blob, not NULL.
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), SQLITE_TRANSIENT)
                }
            }
            if code != SQLITE_OK { throw database.error(code) }
        }
        return self
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) { while try step() {} }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    func text(_ column: Int32) -> String? {
        guard let base = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: base)
    }
}

enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

struct SQLiteError: Error {
    let code: Int32
    let message: String
    /// The errno of the system call that failed, 0 when none did: SQLite reports a full
    /// disk or a read-only file system met while mapping its -shm index as an I/O error
    /// or "unable to open database file", with the cause only here.
    var systemError: Int32 = 0

    var primaryCode: Int32 { code & 0xFF }
}

/// SQLite's "copy the buffer now" destructor, which C spells as a cast of -1.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
