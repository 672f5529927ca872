import GRDB
import GRDBSQLite
import Testing
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

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

    /// Pages of photos read twice on one connection: the second read runs the statements the
    /// first prepared, none prepared again. (The title order's SQL function was added to the
    /// connection on every read, which expires every statement it has prepared.)
    @Test func readingPhotosAgainPreparesNothingAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("store.db")
        do {
            let writer = PhotoWriter(store: try Store.open(path: path))
            _ = try writer.store((1...40).map { PhotoRecord(id: "\($0)", owner: "a@N01", title: "Photo \($0)", regionID: "R", region: "Somewhere") }, now: 1)
        }
        let store = try Store.openForReading(path: path)  // one connection
        let queries = Queries(store: store)
        let region = RegionRank(rank: 1, regionID: "R", name: "Somewhere", photographers: 1, photos: 40, latitude: nil, longitude: nil)
        for _ in 1...2 {
            #expect(try queries.photos(in: PhotoList(.region(region)), limit: 30).count == 30)
            #expect(try queries.photos(in: PhotoList(.region(region), order: .title), limit: 30, offset: 30).count == 10)
        }
        let statements = try store.read { db -> [(sql: String, runs: Int32, reprepared: Int32)] in
            var found: [(sql: String, runs: Int32, reprepared: Int32)] = []
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                found.append((String(cString: sqlite3_sql(current)), sqlite3_stmt_status(current, Int32(SQLITE_STMTSTATUS_RUN), 0),
                              sqlite3_stmt_status(current, Int32(SQLITE_STMTSTATUS_REPREPARE), 0)))
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            return found
        }
        let pages = statements.filter { $0.sql.contains("FROM photo") }
        #expect(pages.count >= 3, "\(statements.map(\.sql))")
        for page in pages {
            #expect(page.runs == 2 && page.reprepared == 0, "\(page)")
        }
    }
}
