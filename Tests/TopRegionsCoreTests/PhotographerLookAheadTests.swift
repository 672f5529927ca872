import Foundation
import GRDB
import Testing
import TopRegionsIngest
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

/// The decoder looks a batch's photographers up in a snapshot while the writer stores the
/// batch before (`PhotographerLookAhead`). The snapshot misses what changed since: the
/// writer's later commits, its open transaction, other connections' commits. Each test makes
/// one such change between a look-ahead and the store of its batch, in the order the loader's
/// threads can produce it; the store must end as if the writer had looked the batch up
/// itself (and without the guard the test names, it does not).
@Suite struct PhotographerLookAheadTests {
    /// A store written as the loader writes it (foreign key checks off, so new photographers
    /// wait for the end of their transaction), with a look-ahead and its ledger.
    struct Loading {
        let directory = TemporaryDirectory()
        let store: Store
        let writer: PhotoWriter
        let lookAhead: PhotographerLookAhead
        let ledger: LookAheadLedger

        /// With foreign key checks on, a batch writes its new photographers at once.
        init(foreignKeys: Bool = false) throws {
            store = try Store.open(path: directory.file("store.db"))
            try store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF")") }
            writer = PhotoWriter(store: store)
            lookAhead = PhotographerLookAhead(database: StoreOnFirstWrite(store), enabled: true)
            ledger = LookAheadLedger(lookAhead)
        }

        /// Stores the batches in one transaction, each with its look-ahead (if any).
        func transaction(_ batches: [(records: [PhotoRecord], known: KnownPhotographers?)]) throws {
            try writer.transaction(now: 1_800_000_000, ledger: ledger) { group in
                for (records, known) in batches {
                    _ = try group.store(PreparedBatch(records), known: known)
                }
            }
        }

        func lookUp(_ records: [PhotoRecord]) throws -> KnownPhotographers {
            try #require(lookAhead.lookUp(PreparedBatch(records)))
        }

        /// NSID → (row id, name) of every photographer.
        func photographers() throws -> [String: String] {
            try store.read { db in
                try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT nsid, id, name FROM photographer").map {
                    ($0[0] as String, "\($0[1] as Int64) \($0[2] as String)")
                })
            }
        }

        /// Every photo carries its photographer's name, refers to a stored photographer, and
        /// the counts equal a recomputation.
        func expectConsistent(_ context: Comment) throws {
            try store.read { db in
                let stale = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM photo p LEFT JOIN photographer g ON g.id = p.photographer
                    WHERE g.id IS NULL OR g.name <> p.owner_name
                    """)
                #expect(stale == 0, "photos whose photographer is missing or named otherwise (\(context))")
                let counts = try String.fetchAll(db, sql: "SELECT region || ' ' || photographer || ' ' || photos FROM region_photographer ORDER BY 1")
                let recomputed = try String.fetchAll(db, sql: """
                    SELECT region || ' ' || photographer || ' ' || COUNT(*) FROM photo WHERE region IS NOT NULL
                    GROUP BY region, photographer ORDER BY 1
                    """)
                #expect(counts == recomputed, "\(context)")
            }
        }
    }

    static func photo(_ id: Int, _ owner: String, _ name: String = "") -> PhotoRecord {
        PhotoRecord(id: "\(id)", owner: owner, ownerName: name, regionID: "R", region: "Somewhere")
    }

    /// Looked up before the last commit, a batch names a photographer that commit added:
    /// the ledger still has it (it is not new again: a second row would break the NSID's
    /// uniqueness and fail the transaction). Looked up two commits back, the batch is looked
    /// up again. Added earlier in its own transaction, the photographer is waiting there
    /// (or, with foreign key checks on, written).
    @Test(arguments: [false, true])
    func aPhotographerAddedSinceTheSnapshotIsNotAddedTwice(foreignKeys: Bool) throws {
        let loading = try Loading(foreignKeys: foreignKeys)
        try loading.transaction([([Self.photo(1, "a@N01", "Ann")], nil)])
        let batch = [Self.photo(3, "b@N01"), Self.photo(4, "a@N01")]
        let known = try loading.lookUp(batch)
        try loading.transaction([([Self.photo(2, "b@N01", "Bo")], nil)])
        try loading.transaction([(batch, known)])
        #expect(try loading.photographers() == ["a@N01": "1 Ann", "b@N01": "2 Bo"])

        let old = try loading.lookUp([Self.photo(7, "d@N01")])
        try loading.transaction([([Self.photo(5, "d@N01", "Di")], nil)])
        try loading.transaction([([Self.photo(6, "c@N01", "Cy")], nil)])
        try loading.transaction([([Self.photo(7, "d@N01")], old)])
        #expect(try loading.photographers()["d@N01"] == "3 Di")

        let sameTransaction = [Self.photo(9, "e@N01")]
        let knownBefore = try loading.lookUp(sameTransaction)
        try loading.transaction([([Self.photo(8, "e@N01", "Ed")], nil), (sameTransaction, knownBefore)])
        #expect(try loading.photographers()["e@N01"] == "5 Ed")
        try loading.expectConsistent("added since")
    }

    /// A rename after the snapshot, in the same transaction or in the one before: the
    /// snapshot's name is not the stored one any more, so a batch carrying it renames back.
    @Test func aRenameSinceTheSnapshotIsNotMissed() throws {
        let loading = try Loading()
        try loading.transaction([([Self.photo(1, "a@N01", "Old"), Self.photo(2, "b@N01", "Old")], nil)])

        let sameTransaction = [Self.photo(4, "a@N01", "Old")]
        let known = try loading.lookUp(sameTransaction)
        try loading.transaction([([Self.photo(3, "a@N01", "New")], nil), (sameTransaction, known)])
        #expect(try loading.photographers()["a@N01"] == "1 Old")
        try loading.expectConsistent("renamed in the same transaction")

        let nextTransaction = [Self.photo(6, "b@N01", "Old")]
        let before = try loading.lookUp(nextTransaction)
        try loading.transaction([([Self.photo(5, "b@N01", "New")], nil)])
        try loading.transaction([(nextTransaction, before)])
        #expect(try loading.photographers()["b@N01"] == "2 Old")
        try loading.expectConsistent("renamed in the transaction before")
    }

    /// Another connection commits between a look-ahead and its batch's store (a second load,
    /// a rename): the writer notices (`PRAGMA data_version`) and trusts no look-ahead after.
    @Test func anotherConnectionsCommitIsNotMissed() throws {
        let loading = try Loading()
        try loading.transaction([([Self.photo(1, "a@N01", "Ann")], nil)])
        let batch = [Self.photo(2, "x@N01", "Xu"), Self.photo(3, "a@N01", "Ann")]
        let known = try loading.lookUp(batch)
        let other = try DatabaseQueue(path: loading.store.path)
        try other.write { db in
            try db.execute(sql: "INSERT INTO photographer (id, nsid, name) VALUES (7, 'x@N01', 'Xavier')")
            try db.execute(sql: "UPDATE photographer SET name = 'Anna' WHERE nsid = 'a@N01'")
        }
        try loading.transaction([(batch, known)])
        #expect(try loading.photographers() == ["a@N01": "1 Ann", "x@N01": "7 Xu"])
        try loading.expectConsistent("after another connection's commit")

        // And later look-aheads are not trusted either (the writer cannot tell when the
        // other commit happened relative to their snapshots).
        let later = [Self.photo(4, "y@N01", "Yo")]
        let laterKnown = try loading.lookUp(later)
        try other.write { try $0.execute(sql: "INSERT INTO photographer (id, nsid, name) VALUES (9, 'y@N01', 'Y')") }
        try loading.transaction([(later, laterKnown)])
        #expect(try loading.photographers()["y@N01"] == "9 Yo")
    }

    /// A whole load with the look-ahead and one without it, of input that now and then renames
    /// its photographers back and forth, in small batches and transactions: the same store,
    /// and most batches were looked up ahead.
    @Test func aLoadLookingAheadStoresWhatTheWriterAloneStores() throws {
        var generator = SeededGenerator(seed: 24)
        let names = ["", "Ann", "Bo", "Cy"]
        let input: String = (1...3_000).map { id -> String in
            let owner = "\(Int.random(in: 1...400, using: &generator))@N0\(Int.random(in: 1...3, using: &generator))"
            let name = Int.random(in: 0..<300, using: &generator) == 0 ? names.randomElement(using: &generator)! : "Ann"
            return #"{"id":"\#(id)","owner":"\#(owner)","owner_name":"\#(name)","title":"Harbour at dusk, from the north pier","region_id":"R\#(id % 5)","region":"Region \#(id % 5)"}"# + "\n"
        }.joined()
        let directory = TemporaryDirectory()
        var dumps: [[String]] = []
        for lookingAhead in [true, false] {
            var options = LoadOptions()
            options.batchBytes = 2_000  // a batch every dozen records
            options.batchSize = 60
            options.looksPhotographersUpAhead = lookingAhead
            let path = directory.file("store-\(lookingAhead).db")
            let loader = Loader(database: try StoreOnFirstWrite(path: path), options: options)
            let report = try loader.load([.bytes("records", Array(input.utf8))], now: 1_800_000_000) { _ in }
            #expect(report.read == 3_000)
            if lookingAhead {
                // Not the first batch (nothing is written yet), nor those after a rename.
                let batches = LoaderTransactionTests.cuts(input, firstSize: 60, size: 60, bytes: 2_000).count + 1
                #expect(batches > 60 && report.batchesLookedUpAhead >= batches / 2, "\(report.batchesLookedUpAhead) of \(batches) batches looked up ahead")
            } else {
                #expect(report.batchesLookedUpAhead == 0)
            }
            let store = try Store.open(path: path)
            dumps.append(try store.read { db in
                try ["photographer", "photo", "region_photographer", "region"].flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { "\(table) \($0)" }
                }
            })
        }
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].count > 3_000)
    }
}
