import GRDB
import Testing
@testable import TopRegionsRecords
@testable import TopRegionsStore
@testable import TopRegionsSupport
import TopRegionsTestSupport

/// The upload buckets (`UploadBuckets`): what a window reaching the newest upload is summed
/// from. Random histories check them against recounts (StoreInvariantTests); these check the
/// edges a random world seldom lands on, and the upgrade that fills them.
@Suite struct UploadBucketsTests {
    /// Photos on, just before and just after ten minutes, the hour and the day, before 1970
    /// too, and without an upload time: every window starting or ending on any of those
    /// seconds counts what a recount counts.
    @Test func windowsStartingOnEveryEdgeCountWhatARecountCounts() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let hour: Int64 = 3_600, day: Int64 = 86_400, base: Int64 = 1_700_006_400  // a midnight (UTC)
        var uploads: [Int64?] = [nil, -hour - 1, -hour, -1, 0, 1]
        for edge in [base - day, base - hour, base, base + 600, base + hour, base + hour + 1_800, base + 3 * hour] { uploads += [edge - 1, edge, edge + 1] }
        var records: [PhotoRecord] = []
        for (index, uploaded) in uploads.enumerated() {
            // Three photographers over two regions, each with several photos in a region.
            var record = PhotoRecord(id: "\(100 + index)", owner: "\(index % 3)@N01", regionID: index % 2 == 0 ? "R1" : "R2", region: "Region \(index % 2)")
            record.uploaded = uploaded
            records.append(record)
        }
        // And a photographer for each edge with two photos there, just before it and on it:
        // newest on the edge, so counted in what starts there, not in what ends there.
        for (index, edge) in [-hour, 0, base - day, base - hour, base, base + 600, base + hour + 1_800].enumerated() {
            for (copy, uploaded) in [edge - 1, edge].enumerated() {
                var record = PhotoRecord(id: "\(9_000 + 2 * index + copy)", owner: "\(10 + index)@N01", regionID: "R1", region: "Region 0")
                record.uploaded = uploaded
                records.append(record)
            }
        }
        _ = try PhotoWriter(store: store).store(records, now: base + 4 * hour)
        let queries = Queries(store: store)
        let newest = records.compactMap(\.uploaded).max()!
        for start in Set(records.compactMap(\.uploaded).flatMap { [$0 - 1, $0, $0 + 1] }).sorted() {
            let window = TimeWindow(length: newest - start, lengthText: "test", end: newest, endsNow: true)
            var expected: [String: (photographers: Set<String>, photos: Int)] = [:]
            for record in records where window.holds(record.uploaded) {
                expected[record.regionID!, default: ([], 0)].photographers.insert(record.owner)
                expected[record.regionID!, default: ([], 0)].photos += 1
            }
            let answered = try queries.topRegions(limit: 10, window: window).map { "\($0.regionID) \($0.photographers) \($0.photos)" }.sorted()
            let recounted = expected.map { "\($0.key) \($0.value.photographers.count) \($0.value.photos)" }.sorted()
            #expect(answered == recounted, "window after \(start)")
        }
    }

    /// When many pairs lose their newest photo at once (a prune of photos stored long ago),
    /// their next newest are found in one read of the photos rather than one by one; when
    /// few, one by one. Both leave what a recount finds.
    @Test(arguments: [3, CountDeltas.pairsRecountedOneByOne + 8])
    func pairsLosingTheirNewestPhotoFindTheirNextNewest(pairs: Int) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        var records: [PhotoRecord] = []
        for index in 0..<pairs {
            for (copy, uploaded) in [(0, 1_700_000_000 + Int64(index)), (2, 1_700_050_000 + Int64(index)), (1, 1_700_090_000 + Int64(index))] {
                var record = PhotoRecord(id: "\(copy)\(1000 + index)", owner: "\(index)@N01", regionID: "R\(index % 2)", region: "Region \(index % 2)")
                record.uploaded = uploaded
                records.append(record)
            }
        }
        _ = try writer.store(records, now: 1_700_100_000)
        _ = try writer.delete(ids: (0..<pairs).map { "1\(1000 + $0)" }, now: 1_700_100_001)
        let (differences, nextNewest) = try store.read { db in
            (try StoreInvariantTests.bucketDifferences(db),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM region_photographer WHERE latest >= 1700050000 AND latest < 1700090000"))
        }
        #expect(differences.isEmpty)
        #expect(nextNewest == pairs)
    }

    /// A database written before the buckets (schema v11), or before the ten-minute ones
    /// (v12, with its index of pairs by newest upload), is given them, filled from its
    /// photos, by its upgrade: the same rows a store that always had them holds.
    @Test(arguments: ["v11", "v12"])
    func theUpgradeFillsTheBucketsFromWhatWasStored(from version: String) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        var records: [PhotoRecord] = []
        for index in 0..<40 {
            var record = PhotoRecord(id: "\(500 + index)", owner: "\(index % 7)@N01", regionID: "R\(index % 3)", region: "Region \(index % 3)")
            record.uploaded = index % 9 == 0 ? nil : 1_700_000_000 + Int64(index) * 4_000
            records.append(record)
        }
        _ = try PhotoWriter(store: store).store(records, now: 1_700_200_000)
        func buckets(_ store: Store) throws -> [String] {
            try store.read { db in
                try ["region_slot", "region_hour", "region_day"].flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { "\(table) \($0)" }
                } + Row.fetchAll(db, sql: "SELECT region, photographer, latest FROM region_photographer ORDER BY 1, 2").map { "\($0)" }
            }
        }
        let always = try buckets(store)
        #expect(always.count > 40)
        try store.write { db in
            try db.execute(sql: """
                DROP TABLE region_slot;
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v13 %';
                """)
            if version == "v11" {
                try db.execute(sql: """
                    DROP TABLE region_hour;
                    DROP TABLE region_day;
                    ALTER TABLE region_photographer DROP COLUMN latest;
                    DELETE FROM grdb_migrations WHERE identifier LIKE 'v12 %';
                    """)
            } else {
                try db.execute(sql: "CREATE INDEX region_photographer_by_latest ON region_photographer (latest) WHERE latest IS NOT NULL")
            }
        }
        let upgraded = try Store.open(path: directory.file("store.db"))
        #expect(try buckets(upgraded) == always)
        let indexes = try upgraded.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'region_photographer'")
        }
        #expect(!indexes.contains("region_photographer_by_latest"))
    }
}
