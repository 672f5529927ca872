import Foundation
import GRDB
import Synchronization
import Testing
@testable import TopRegionsIngest
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

    /// The photos of a photographer a load renames wait to be indexed until the load writes
    /// the rename, and are indexed then, once, with the last name: indexed as they came,
    /// the rename took each out of the search index and put it back, which made renamed
    /// records load in 1.6 times the time of the same records without renames (issue 35.13).
    @Test func aLoadHoldsARenamedPhotographersNewPhotosBackFromTheSearchIndexUntilItsEnd() throws {
        let directory = TemporaryDirectory()
        let path = try Self.countingStore(directory)
        let (text, _) = Self.input()
        let waiting = Mutex<[Int]>([])
        var options = Self.options
        options.onBatch = { _, _, _ in
            // Between two of the load's transactions, as a reader sees the store.
            let store = try! Store.open(path: path)
            waiting.withLock { $0.append(try! store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo")! }) }
        }
        let loader = Loader(database: try StoreOnFirstWrite(path: path), options: options)
        _ = try loader.load([.bytes("records", Array(text.utf8))], now: Self.now) { _ in }
        let seen = waiting.withLock { $0 }
        // Each photographer's first photo is indexed as it comes; their later ones wait.
        #expect((seen.max() ?? 0) > 2_500, "\(seen)")
        let store = try Store.open(path: path)
        let (waitingAfter, found) = try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM unindexed_photo"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH 'harbour'"))
        }
        #expect(waitingAfter == 0 && found == 3_000)
        try store.write { try $0.execute(sql: "INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1)") }
    }

    /// A load killed before its end leaves the photos it held back from the search index
    /// listed as waiting; the next transaction of any writer indexes them (with the name
    /// stored, the rename never written), and a photo deleted meanwhile leaves the list.
    @Test func photosAKilledLoadHeldBackAreIndexedByTheNextWriter() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        // A load's transactions, renames waiting between them; its end (which writes them
        // and indexes what they held back) never comes.
        let renames = PendingRenames()
        for (ids, name) in [(1...2, "Ann"), (3...5, "Ann Lee"), (6...6, "Ann")] {
            try writer.transaction(now: Self.now, ledger: nil, renames: renames) { group in
                _ = try group.store(PreparedBatch(ids.map {
                    PhotoRecord(id: "\($0)", owner: "a@N01", ownerName: name, title: "Harbour \($0)", regionID: "R1", region: "Reef")
                }))
            }
        }
        func found(_ query: String) throws -> [String] {
            try store.read { try String.fetchAll($0, sql: """
                SELECT id FROM photo JOIN photo_fts ON photo_fts.rowid = photo.rowid WHERE photo_fts MATCH ? ORDER BY CAST(id AS INTEGER)
                """, arguments: [query]) }
        }
        #expect(try found("ann") == ["1", "2"])
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo") } == 4)

        // A delete before the next load, then a refresh's batch of someone else's photo.
        #expect(try writer.delete(ids: ["4"], now: Self.now) == ["4"])
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo") } == 3)
        _ = try writer.store([PhotoRecord(id: "7", owner: "b@N01", ownerName: "Bo", title: "Harbour 7")], now: Self.now)
        #expect(try found("ann") == ["1", "2", "3", "5", "6"])
        #expect(try found("harbour") == ["1", "2", "3", "5", "6", "7"])
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM unindexed_photo") } == 0)
        try store.write { try $0.execute(sql: "INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1)") }
    }
}
