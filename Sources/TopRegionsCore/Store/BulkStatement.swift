import GRDB
import GRDBSQLite

/// A cached prepared statement driven through SQLite's C API, for the one place where a
/// statement runs once per record: staging a batch into a temporary table. Binding through
/// `StatementArguments` boxes every value, which costs more than the insert itself.
struct BulkStatement {
    private let statement: SQLiteStatement
    private let connection: SQLiteConnection
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        connection = db.sqliteConnection!
    }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(statement, index); return }
        if value.isEmpty {
            sqlite3_bind_text(statement, index, "", 0, Self.transient)
            return
        }
        var text = value
        text.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count), Self.transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { sqlite3_bind_null(statement, index); return }
        sqlite3_bind_int64(statement, index, value)
    }

    func bind(_ index: Int32, _ value: Double?) {
        guard let value else { sqlite3_bind_null(statement, index); return }
        sqlite3_bind_double(statement, index, value)
    }

    /// Runs the statement once with the bound values, then clears them.
    func run() throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
