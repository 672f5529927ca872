import GRDB
import GRDBSQLite
import Synchronization

// The SQL a writer runs in every transaction, prepared once per connection. Preparing it
// each time (SQLite's parser, and GRDB's authorizer noting every table and column a
// statement reads) was half of place-resolve's CPU, which writes each place it learns in a
// transaction of its own; and a `CREATE TEMP TABLE IF NOT EXISTS` run in every transaction
// made GRDB empty the connection's statement cache each time (any schema statement does).

extension Database {
    /// `execute(sql:arguments:)` through this connection's statement cache: each statement
    /// of `sql` (one, or several separated by semicolons) prepared once per connection.
    /// Arguments go to a script of one statement only. For SQL written once in the source:
    /// text that varies with the data would fill the cache.
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        let statements = Self.statementsOfScript(sql)
        precondition(statements.count == 1 || arguments.isEmpty, "arguments for a script of \(statements.count) statements")
        for text in statements {
            try cachedStatement(sql: text).execute(arguments: arguments)
        }
    }

    /// Runs `sql` (a script of `CREATE TEMP TABLE IF NOT EXISTS` statements) unless this
    /// connection already has the temporary table `last`, the last one it creates.
    func createTemporaryTablesOnce(last: String, sql: String) throws {
        let has = try Bool.fetchOne(
            cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = ?)"),
            arguments: [last])!
        if !has { try execute(sql: sql) }
    }

    /// A script cut into its statements, where SQLite's own tokenizer says one is complete
    /// (`sqlite3_complete`, so a semicolon in a string or a comment does not cut), once per
    /// script and process.
    static func statementsOfScript(_ sql: String) -> [String] {
        if let known = scripts.withLock({ $0[sql] }) { return known }
        var statements: [String] = []
        var current = ""
        for character in sql {
            current.append(character)
            if character == ";", sqlite3_complete(current) != 0 {
                appendStatement(current, to: &statements)
                current = ""
            }
        }
        appendStatement(current, to: &statements)
        scripts.withLock { $0[sql] = statements }
        return statements
    }

    private static func appendStatement(_ text: String, to statements: inout [String]) {
        // A piece holding only spaces or comments (after the last semicolon) is none.
        let lines = text.split(separator: "\n").map { $0.drop(while: \.isWhitespace) }
        guard lines.contains(where: { !$0.isEmpty && !$0.hasPrefix("--") }) else { return }
        statements.append(text)
    }

    private static let scripts = Mutex<[String: [String]]>([:])
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// `fetchOne(_:sql:arguments:)` through the connection's statement cache (see
    /// `executeCached`).
    static func fetchOneCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Row {
    /// `fetchOne(_:sql:arguments:)` through the connection's statement cache (see
    /// `executeCached`).
    static func fetchOneCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// `fetchAll(_:sql:arguments:)` through the connection's statement cache: for reads a
    /// page asks on every request (preparing them was an eighth of a served region page).
    static func fetchAllCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchCursorCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Row {
    /// `fetchAll(_:sql:arguments:)` through the connection's statement cache.
    static func fetchAllCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// `fetchCursor(_:sql:arguments:)` through the connection's statement cache: not for a
    /// read that runs the same SQL again while the cursor is open.
    static func fetchCursorCached(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
