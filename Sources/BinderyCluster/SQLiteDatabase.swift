import CSQLite

/// A failed SQLite call: the operation, SQLite's result code and its message.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_FULL`, `SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
    package var code: Int32
    /// What was being done (`open /var/lib/bindery/sessions.db`, `COMMIT`, ...).
    package var operation: String
    /// SQLite's message for it.
    package var message: String

    /// An error from `code` while doing `operation`.
    package init(code: Int32, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = message
    }

    /// The file is unusable as it is (a new connection will not help until someone looks).
    package var isCorrupt: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }

    /// A readable message: `COMMIT: database or disk is full (SQLITE_FULL)`.
    package var description: String { "\(operation): \(message) (\(Self.name(code)))" }

    static func name(_ code: Int32) -> String {
        switch code & 0xff {
        case SQLITE_FULL: return "SQLITE_FULL"
        case SQLITE_BUSY: return "SQLITE_BUSY"
        case SQLITE_LOCKED: return "SQLITE_LOCKED"
        case SQLITE_CORRUPT: return "SQLITE_CORRUPT"
        case SQLITE_NOTADB: return "SQLITE_NOTADB"
        case SQLITE_CANTOPEN: return "SQLITE_CANTOPEN"
        case SQLITE_IOERR: return "SQLITE_IOERR"
        case SQLITE_READONLY: return "SQLITE_READONLY"
        case SQLITE_PERM: return "SQLITE_PERM"
        default: return "SQLite error \(code)"
        }
    }
}

/// One connection to an SQLite file, with just what the session store needs: run SQL,
/// prepare statements, bind text and integers, step, read columns.
///
/// Not thread-safe: confined to whichever thread uses it (``SQLiteSessionPersistence``'s
/// worker). Statements are cached by their SQL and finalised on ``close()``.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The file's path.
    package let path: String

    /// Opens (creating) the file at `path`; waits up to `busyTimeout` ms for another
    /// connection's lock before a call fails `SQLITE_BUSY`.
    package init(path: String, busyTimeout: Int32) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            throw SQLiteError(code: rc, operation: "open \(path)", message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 0)
        sqlite3_busy_timeout(handle, busyTimeout)
    }

    deinit { close() }

    /// Finalises the statements and closes the connection. Idempotent.
    package func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL without parameters or results (several statements allowed).
    package func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// A value bound to a `?` parameter.
    package enum Value {
        /// Text (copied by SQLite).
        case text(String)
        /// A 64-bit integer.
        case integer(Int64)
        /// A double.
        case real(Double)
        /// NULL.
        case null
    }

    /// One result row's columns, read while the statement is on that row.
    package struct Row {
        fileprivate let statement: OpaquePointer

        /// Column `index` as text; nil for NULL.
        package func text(_ index: Int32) -> String? {
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index) else { return nil }
            return String(cString: text)
        }

        /// Column `index` as an integer; nil for NULL.
        package func integer(_ index: Int32) -> Int64? {
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, index)
        }

        /// Column `index` as a double; nil for NULL.
        package func real(_ index: Int32) -> Double? {
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
        }
    }

    /// Runs one statement with `values` bound, calling `row` for each result row.
    package func run(_ sql: String, _ values: [Value] = [], row: (Row) -> Void = { _ in }) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .text(let text): rc = bindery_sqlite_bind_text(statement, index, text)
            case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
            case .real(let number): rc = sqlite3_bind_double(statement, index, number)
            case .null: rc = sqlite3_bind_null(statement, index)
            }
            guard rc == SQLITE_OK else { throw error(rc, sql) }
        }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(rc, sql) }
            row(Row(statement: statement))
        }
    }

    /// The first row's first column as an integer (nil for no row or NULL).
    package func integer(_ sql: String, _ values: [Value] = []) throws(SQLiteError) -> Int64? {
        var found: Int64?
        try run(sql, values) { row in if found == nil { found = row.integer(0) } }
        return found
    }

    /// Rows changed by the last statement.
    package var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(rc, sql)
        }
        statements[sql] = statement
        return statement
    }

    private func error(_ rc: Int32, _ operation: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        // The first words of the SQL are enough to say which step failed.
        let short = operation.split(separator: " ").prefix(3).joined(separator: " ")
        return SQLiteError(code: rc, operation: short, message: message)
    }
}
