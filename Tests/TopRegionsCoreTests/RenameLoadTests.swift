import Foundation
import GRDB
import Testing
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

/// Records whose photographers' names go back and forth (as when old and new pages of a
/// renamed account meet): a load ends with each photographer's last name on every photo, and
/// rewrites each photo's name at most once, not in every transaction that renames its
/// photographer again (issue 35, item 13: that took 2.2 times the time, and memory grew).
@Suite struct RenameLoadTests {
    static let now: Int64 = 1_800_000_000

    /// 3,000 records of 100 photographers, each one's records alternating between "Pat N" and
    /// "Pat N (new)", in batches of about a dozen records and transactions of 60: many
    /// transactions, each renaming most photographers again. Every third has no region.
    static func input(lines: Int = 3_000) -> (text: String, lastName: [String: String]) {
        var seen: [String: Int] = [:]
        var lastName: [String: String] = [:]
        let text = (1...lines).map { id -> String in
            let owner = "\(id * 7 % 100)@N01"
            seen[owner, default: 0] += 1
            let name = "Pat \(id * 7 % 100)" + (seen[owner]! % 2 == 0 ? " (new)" : "")
            lastName[owner] = name
            // A third without a region: a rename finds those photos through another index.
            let region = id % 3 == 0 ? "" : #","region_id":"R\#(id % 5)","region":"Region \#(id % 5)""#
            return #"{"id":"\#(id)","owner":"\#(owner)","owner_name":"\#(name)","title":"Harbour at dusk"\#(region)}"# + "\n"
        }.joined()
        return (text, lastName)
    }

    static var options: LoadOptions {
        var options = LoadOptions()
        options.batchBytes = 2_000
        options.batchSize = 60
        return options
    }

    /// A store holding one photo of someone else, with a trigger counting every rewrite of a
    /// photo's photographer name (`store_state`'s 'test_name_rewrites').
    static func countingStore(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.file("store.db")
        _ = try PhotoWriter(store: try Store.open(path: path)).store([PhotoRecord(id: "0", owner: "z@N09", ownerName: "Zed")], now: now)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                INSERT INTO store_state (key, value) VALUES ('test_name_rewrites', 0);
                CREATE TRIGGER test_count_name_rewrites AFTER UPDATE OF owner_name ON photo
                WHEN old.owner_name IS NOT new.owner_name
                BEGIN UPDATE store_state SET value = value + 1 WHERE key = 'test_name_rewrites'; END;
                """)
        }
        return path
    }

    @Test func aLoadRenamingBackAndForthRewritesEachPhotoOnceAndEndsWithTheLastNames() throws {
        let directory = TemporaryDirectory()
        let path = try Self.countingStore(directory)
        let (text, lastName) = Self.input()
        let loader = Loader(database: try StoreOnFirstWrite(path: path), options: Self.options)
        let report = try loader.load([.bytes("records", Array(text.utf8))], now: Self.now) { _ in }
        #expect(report.read == 3_000 && report.batch.new == 3_000)

        let store = try Store.open(path: path)
        try store.read { db in
            let names = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT nsid, name FROM photographer WHERE nsid <> 'z@N09'")
                .map { ($0[0] as String, $0[1] as String) })
            #expect(names == lastName)
            #expect(try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN photographer g ON g.id = p.photographer WHERE p.owner_name <> g.name
                """) == 0)
            // The search index says the same: "new" finds exactly the photos of those whose
            // last name has it.
            let renamedPhotos = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN photographer g ON g.id = p.photographer WHERE g.name LIKE '%(new)'
                """)!
            #expect(renamedPhotos > 1_000)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH 'owner_name:new'") == renamedPhotos)
            // Each photo's name rewritten at most once: before, every transaction renaming its
            // photographer rewrote all of their photos again (about 50 rewrites a photo here).
            let rewrites = try Int.fetchOne(db, sql: "SELECT value FROM store_state WHERE key = 'test_name_rewrites'")!
            #expect(rewrites <= 3_000, "\(rewrites) rewrites of 3,000 photos' names")
        }
        try store.write { try $0.execute(sql: "INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1)") }
    }

    /// A bad line stops the load after the batches before it are committed: the renames
    /// those records made are written too.
    @Test func aLoadStoppedByABadLineStillRenamesWhatItsStoredRecordsRenamed() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("store.db")
        let (text, _) = Self.input(lines: 600)
        let loader = Loader(database: try StoreOnFirstWrite(path: path), options: Self.options)
        #expect(throws: (any Error).self) {
            _ = try loader.load([.bytes("records", Array((text + "{not json\n").utf8))], now: Self.now) { _ in }
        }
        let store = try Store.open(path: path)
        try store.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") ?? 0 > 0)
            // Photographer 7's records are lines 1, 101, 201, ...: the last committed one
            // decides. Whatever was committed, every photo carries its photographer's name,
            // and that name is the one on the photographer's last stored record.
            #expect(try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN photographer g ON g.id = p.photographer WHERE p.owner_name <> g.name
                """) == 0)
            let stored = try Set(String.fetchAll(db, sql: "SELECT id FROM photo").compactMap(Int.init))
            var expected: [String: String] = [:]
            var seen: [String: Int] = [:]
            for id in 1...600 {
                let owner = "\(id * 7 % 100)@N01"
                seen[owner, default: 0] += 1
                if stored.contains(id) { expected[owner] = "Pat \(id * 7 % 100)" + (seen[owner]! % 2 == 0 ? " (new)" : "") }
            }
            let names = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT nsid, name FROM photographer")
                .map { ($0[0] as String, $0[1] as String) })
            #expect(names == expected)
        }
    }
}
