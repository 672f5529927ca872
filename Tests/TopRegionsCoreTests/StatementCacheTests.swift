import GRDB
import GRDBSQLite
import Testing
import TopRegionsRecords
@testable import TopRegionsStore

/// The SQL a writer runs in every transaction is prepared once per connection
/// (`Database.executeCached`): preparing it again each time was half of place-resolve's CPU.
@Suite struct StatementCacheTests {
    /// A script is cut where SQLite says a statement ends: not at a semicolon in a string, a
    /// quoted name or a comment; what follows the last one, if only a comment, is none.
    @Test func aScriptIsCutIntoItsStatementsAsSQLiteReadsThem() throws {
        let script = """
            INSERT INTO t (a) VALUES ('x;y');  -- a comment; with a semicolon
            /* another; */ INSERT INTO "t" (a) VALUES ('it''s; here');
            INSERT INTO t (a) VALUES ('last')
            -- the end; nothing
            """
        #expect(Database.statementsOfScript(script) == [
            "INSERT INTO t (a) VALUES ('x;y');",
            "  -- a comment; with a semicolon\n/* another; */ INSERT INTO \"t\" (a) VALUES ('it''s; here');",
            "\nINSERT INTO t (a) VALUES ('last')\n-- the end; nothing",
        ])
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            try db.executeCached(sql: script)
            try db.executeCached(sql: script)
            try db.executeCached(sql: "INSERT INTO t (a) VALUES (?)", arguments: ["bound"])
            #expect(try String.fetchAll(db, sql: "SELECT a FROM t ORDER BY rowid") == [
                "x;y", "it's; here", "last", "x;y", "it's; here", "last", "bound",
            ])
        }
    }

    /// Three places learned in three transactions: the statements that fold the count
    /// changes in ran three times each, as the same prepared statements. (Were the staging
    /// tables' `CREATE TEMP TABLE IF NOT EXISTS` run in each transaction again, GRDB would
    /// empty its statement cache and each would have run once.)
    @Test func eachTransactionRunsTheStatementsTheFirstOnePrepared() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        for n in 1...3 {
            try writer.record([PlaceResolution(placeID: "P\(n)", region: RegionInfo(placeID: "R\(n)", name: "Region \(n)"))], now: Int64(n))
        }
        let runs = try store.pool.writeWithoutTransaction { db -> [String: Int32] in
            var runs: [String: Int32] = [:]
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                let sql = String(cString: sqlite3_sql(current))
                if sql.contains("INTO count_change") || sql.contains("INTO learned_place") || sql.contains("FROM bucket_delta") {
                    runs[sql, default: 0] += sqlite3_stmt_status(current, Int32(SQLITE_STMTSTATUS_RUN), 0)
                }
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            return runs
        }
        #expect(runs.count >= 4, "\(runs.keys)")
        for (sql, count) in runs {
            #expect(count == 3, "\(sql)")
        }
    }
}
