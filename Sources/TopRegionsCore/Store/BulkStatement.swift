import GRDB
import GRDBSQLite
import Synchronization
import TopRegionsIngest
import TopRegionsRecords

/// A cached prepared statement driven through SQLite's C API, for the places where a
/// statement runs once per record or photographer: staging a batch into a temporary table,
/// looking a batch's photographers up (`PhotographerLookAhead`). Binding through
/// `StatementArguments` boxes every value, which costs more than the statement itself.
struct BulkStatement {
    private let statement: SQLiteStatement
    private let connection: SQLiteConnection
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        connection = db.sqliteConnection!
    }

    /// `INSERT INTO table (columns) VALUES (...), ...` for `rows` rows at once: one step
    /// per group of rows instead of per row (each step has a fixed cost). Parameters are
    /// numbered row by row: row r (from 0), column c (from 1) is `r * columns.count + c`;
    /// the optional `sameInEveryRow` column takes one more parameter, the last.
    init(_ db: Database, insertInto table: String, columns: [String], rows: Int, sameInEveryRow shared: String? = nil) throws {
        let shape = Shape(table: table, columns: columns, rows: rows, shared: shared)
        // Writing out the SQL of 32 rows of 14 columns cost more than some of the inserts it
        // ran (a load asks for it once per batch, the count deltas once per 100 rows): each
        // shape is written once per process.
        let sql = Self.sqlByShape.withLock { known in
            if let sql = known[shape] { return sql }
            let sql = shape.sql
            known[shape] = sql
            return sql
        }
        try self.init(db, sql: sql)
    }

    private struct Shape: Hashable {
        var table: String
        var columns: [String]
        var rows: Int
        var shared: String?

        var sql: String {
            let width = columns.count
            let tail = shared == nil ? "" : ",?\(rows * width + 1)"
            let values = (0..<rows).map { row in
                "(" + (1...width).map { "?\(row * width + $0)" }.joined(separator: ",") + tail + ")"
            }
            return """
                INSERT INTO \(table) (\((columns + (shared.map { [$0] } ?? [])).joined(separator: ", ")))
                VALUES \(values.joined(separator: ","))
                """
        }
    }

    private static let sqlByShape = Mutex<[Shape: String]>([:])

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

    /// Binds the texts in `row` without SQLite copying them (they stay put in the row's
    /// buffer until the step is done), then runs. For long texts such as descriptions this
    /// saves an allocation and a copy per field.
    func run(texts row: TextRow) throws {
        try row.bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { chars in
                let base = chars.baseAddress
                for field in row.fields {
                    if field.start < 0 {
                        sqlite3_bind_null(statement, field.index)
                    } else if let base {
                        sqlite3_bind_text(statement, field.index, base + Int(field.start), field.count, Self.static)
                    } else {
                        sqlite3_bind_text(statement, field.index, "", 0, Self.transient)
                    }
                }
                try run()
            }
        }
    }

    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)

    /// Runs the statement once with the bound values, handing each row it returns to `row`
    /// (read in place: valid only during the call), then clears them.
    func forEachRow(_ row: (ColumnReader) throws -> Void) throws {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
            }
            try row(ColumnReader(statement: statement))
        }
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

extension BulkStatement {
    /// Runs a statement over `rows` rows of parameters, `width` to a row, handing each row
    /// it returns to `row`: `groupSize` rows at a time through the statement `sql(groupSize)`
    /// writes, the rest one by one through `sql(1)`; `bind` binds a row's parameters from
    /// the one numbered `first`; after each run, `afterEachRun`. Each step has a fixed cost,
    /// and binding through `StatementArguments` and reading through GRDB's `Row` cost more
    /// than the upsert of a counted row itself.
    static func forEachReturnedRow(
        _ db: Database, rows: Int, width: Int, groupSize: Int = 100,
        sql: (_ rows: Int) -> String,
        bind: (_ statement: BulkStatement, _ first: Int32, _ row: Int) -> Void,
        _ row: (ColumnReader) throws -> Void,
        afterEachRun: () throws -> Void = {}
    ) throws {
        let grouped = rows / groupSize * groupSize
        let whole = grouped > 0 ? try BulkStatement(db, sql: sql(groupSize)) : nil
        let single = grouped < rows ? try BulkStatement(db, sql: sql(1)) : nil
        var start = 0
        while start < rows {
            let (statement, count) = start < grouped ? (whole!, groupSize) : (single!, 1)
            for offset in 0..<count {
                bind(statement, Int32(offset * width + 1), start + offset)
            }
            try statement.forEachRow(row)
            try afterEachRun()
            start += count
        }
    }

    /// `(?, ?, …)` for each of `rows` rows of `width` parameters: a VALUES list.
    static func valuesList(rows: Int, width: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
