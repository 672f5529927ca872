import GRDB
import Testing
@testable import TopRegionsRecords
@testable import TopRegionsStore
@testable import TopRegionsSupport

/// The store's maintained counts against two independent answers, after every step of
/// random histories of loads, reloads, place resolutions, prunes and deletes:
/// - SQL recomputation from the photos (`COUNT(DISTINCT photographer)` per region);
/// - a model of the documented semantics, kept in plain Swift dictionaries.
@Suite struct StoreInvariantTests {
    /// What the store should hold, by the rules in topregions-record(7) and regions-load(1).
    struct Model {
        struct Photo { var owner: String; var place: String?; var region: String?; var addedAt: Int64 }
        var photos: [String: Photo] = [:]
        /// Known places: place → region (nil = known to have no region).
        var places: [String: String?] = [:]
        var deleted: Set<String> = []

        mutating func load(_ records: [PhotoRecord], now: Int64) {
            var last: [String: PhotoRecord] = [:]
            for record in records { last[record.id] = record }
            // Places whose region the records tell: learned first, for stored photos too.
            for record in last.values {
                if let place = record.placeID, let region = record.regionID, places[place] == nil {
                    places[place] = .some(region)
                    attach(place)
                }
            }
            for record in last.values where !deleted.contains(record.id) {
                let known: String? = record.placeID.flatMap { places[$0] ?? nil }
                let stored = photos[record.id]
                let kept = stored?.place == record.placeID ? stored?.region : nil
                let region = record.regionID ?? known ?? kept
                let addedAt = photos[record.id]?.addedAt ?? now
                photos[record.id] = Photo(owner: record.owner, place: record.placeID, region: region, addedAt: addedAt)
            }
        }

        mutating func resolve(_ resolutions: [PlaceResolution]) {
            for resolution in resolutions where places[resolution.placeID] == nil {
                places[resolution.placeID] = .some(resolution.region?.placeID)
                attach(resolution.placeID)
            }
        }

        private mutating func attach(_ place: String) {
            guard let region = places[place] ?? nil else { return }
            for (id, photo) in photos where photo.region == nil && photo.place == place {
                photos[id]?.region = region
            }
        }

        mutating func prune(before cutoff: Int64) {
            photos = photos.filter { $0.value.addedAt >= cutoff }
        }

        mutating func delete(_ ids: [String]) {
            for id in ids {
                photos[id] = nil
                deleted.insert(id)
            }
        }

        /// region → (distinct photographers, photos)
        var counts: [String: (Int, Int)] {
            var owners: [String: Set<String>] = [:]
            var photoCounts: [String: Int] = [:]
            for photo in photos.values {
                guard let region = photo.region else { continue }
                owners[region, default: []].insert(photo.owner)
                photoCounts[region, default: 0] += 1
            }
            return owners.mapValues { ($0.count, 0) }.merging(photoCounts.mapValues { (0, $0) }) { ($0.0, $1.1) }
        }
    }

    /// A small world where collisions are frequent: few ids, owners, places and regions.
    struct World {
        var generator: SeededGenerator
        let regions = (0..<8).map { "REG\($0)" }
        /// Place → its true region (the last three are country-level: none).
        let placeRegion: [String: String?]

        init(seed: UInt64) {
            generator = SeededGenerator(seed: seed)
            var places: [String: String?] = [:]
            for i in 0..<20 { places["PL\(i)"] = i >= 17 ? .some(nil) : .some("REG\(i % 8)") }
            placeRegion = places
        }

        mutating func record() -> PhotoRecord {
            let id = "\(1000 + Int.random(in: 0..<60, using: &generator))"
            let owner = "\(Int.random(in: 0..<15, using: &generator))@N0\(Int.random(in: 0..<2, using: &generator))"
            var record = PhotoRecord(id: id, owner: owner, ownerName: "Owner \(owner)", title: "t\(Int.random(in: 0..<3, using: &generator))")
            let roll = Int.random(in: 0..<10, using: &generator)
            if roll < 8 {
                let place = "PL\(Int.random(in: 0..<20, using: &generator))"
                record.placeID = place
                if let region = placeRegion[place] ?? nil, Bool.random(using: &generator) {
                    record.regionID = region
                    record.region = "Region \(region)"
                }
            } else if roll == 8 {
                // A region known without a place (a hand-made record).
                let region = regions.randomElement(using: &generator)!
                record.regionID = region
                record.region = "Region \(region)"
            }
            record.latitude = Double(Int.random(in: -80...80, using: &generator))
            record.longitude = Double(Int.random(in: -170...170, using: &generator))
            record.uploaded = Int64(Int.random(in: 1_700_000_000...1_700_100_000, using: &generator))
            return record
        }

        mutating func resolutions() -> [PlaceResolution] {
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                let place = "PL\(Int.random(in: 0..<20, using: &generator))"
                let region = (placeRegion[place] ?? nil).map { RegionInfo(placeID: $0, name: "Region \($0)", latitude: 1, longitude: 2) }
                return PlaceResolution(placeID: place, region: region)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func maintainedCountsEqualRecomputationAfterRandomHistory(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        var world = World(seed: seed)
        var model = Model()
        var now: Int64 = 1_700_000_000

        for step in 0..<120 {
            now += Int64.random(in: 1...600, using: &world.generator)
            switch Int.random(in: 0..<10, using: &world.generator) {
            case 0..<5:
                let batch = (0..<Int.random(in: 1...25, using: &world.generator)).map { _ in world.record() }
                _ = try writer.store(batch, now: now)
                model.load(batch, now: now)
            case 5..<7:
                let resolutions = world.resolutions()
                try writer.record(resolutions, now: now)
                model.resolve(resolutions)
            case 7:
                let cutoff = now - Int64.random(in: 0...20_000, using: &world.generator)
                _ = try writer.prune(storedBefore: cutoff)
                model.prune(before: cutoff)
            default:
                let ids = (0..<Int.random(in: 1...3, using: &world.generator)).map { _ in "\(1000 + Int.random(in: 0..<60, using: &world.generator))" }
                _ = try writer.delete(ids: ids, now: now)
                model.delete(ids)
            }
            try expectConsistent(store, model, context: "seed \(seed), step \(step)")
        }
    }

    private func expectConsistent(_ store: Store, _ model: Model, context: Comment) throws {
        try store.read { db in
            // 1. The maintained table and counters equal a recomputation from the photos.
            let recomputed = try Row.fetchAll(db, sql: """
                SELECT r.place_id, COUNT(DISTINCT p.photographer), COUNT(*)
                FROM photo p JOIN region r ON r.id = p.region GROUP BY r.place_id ORDER BY r.place_id
                """).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
            let maintained = try Row.fetchAll(db, sql: """
                SELECT place_id, photographers, photos FROM region WHERE photographers > 0 ORDER BY place_id
                """).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
            #expect(maintained == recomputed, context)
            let pairs = try Row.fetchAll(db, sql: """
                SELECT region, photographer, COUNT(*) FROM photo WHERE region IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
                """).map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int)" }
            let maintainedPairs = try Row.fetchAll(db, sql: "SELECT region, photographer, photos FROM region_photographer ORDER BY 1, 2")
                .map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int)" }
            #expect(maintainedPairs == pairs, context)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM region WHERE photographers = 0 AND photos <> 0") == 0, context)

            // 2. The store holds what the documented rules say.
            let expected = model.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.0) \($0.value.1)" }
            #expect(maintained == expected, context)
            let storedIDs = try String.fetchAll(db, sql: "SELECT id FROM photo ORDER BY id")
            #expect(storedIDs == model.photos.keys.sorted(), context)
            let unattached = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN place pl ON pl.place_id = p.place_id
                WHERE p.region IS NULL AND pl.region IS NOT NULL
                """)
            #expect(unattached == 0, "a photo in a resolved place has no region (\(context))")
        }
    }

    @Test func loadingTheSameInputTwiceChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        var world = World(seed: 99)
        let batch = (0..<50).map { _ in world.record() }
        // Both loads after every upload in the batch (an upload more than a day ahead of a
        // load does not count for the watermark until a later load).
        let first = try writer.store(batch, now: 1_700_100_000)
        let snapshot = try dump(store)
        let second = try writer.store(batch, now: 1_700_109_999)
        #expect(first.new > 0)
        #expect(second.new == 0 && second.updated == 0)
        #expect(second.unchanged + second.duplicates == 50)
        #expect(try dump(store) == snapshot)
    }

    @Test func aDeletedPhotoStaysDeleted() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        let photo = PhotoRecord(id: "42", owner: "a@N01", placeID: "P", regionID: "R", region: "Somewhere")
        _ = try writer.store([photo], now: 1)
        #expect(try writer.delete(ids: ["42", "43"], now: 2) == ["42"])
        let again = try writer.store([photo, PhotoRecord(id: "43", owner: "b@N01")], now: 3)
        #expect(again.new == 0 && again.deletedEarlier == 2)
        #expect(try Queries(store: store).topRegions(limit: 50).isEmpty)
    }

    /// The loader turns SQLite's per-row foreign key checks off while it runs (a batch only
    /// writes references it has just looked up); they must be back on after it, whether it
    /// finished or stopped at a bad line, or deleting a photo would leave its thumbnail.
    @Test func foreignKeyChecksAreBackOnAfterALoad() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let loader = Loader(writer: PhotoWriter(store: store), options: LoadOptions())
        func danglingInsertFails() -> Bool {
            (try? store.write { db in
                try db.execute(sql: "INSERT INTO photo (id, photographer, title, description, added_at) VALUES ('x', 999, '', '', 1)")
            }) == nil
        }
        let good = #"{"id":"1","owner":"a@N01","place_id":"P","region_id":"R","region":"Somewhere"}"# + "\n"
        let report = try loader.load([.bytes("good", Array(good.utf8))], now: 1) { _ in }
        #expect(report.batch.new == 1)
        #expect(danglingInsertFails())

        #expect(throws: Failure.self) {
            _ = try loader.load([.bytes("bad", Array((good + "{\n").utf8))], now: 2) { _ in }
        }
        #expect(danglingInsertFails())
        #expect(try Queries(store: store).topRegions(limit: 50).map(\.photographers) == [1])
    }

    @Test func topRegionsTiesGoByCaseInsensitiveNameThenRegionID() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        let regions = [("R3", "beta"), ("R1", "Beta"), ("R2", "alpha"), ("R4", "Émile"), ("R5", "zeta")]
        var records = regions.enumerated().map { index, region in
            PhotoRecord(id: "\(index)", owner: "o\(index)@N01", regionID: region.0, region: region.1)
        }
        records.append(PhotoRecord(id: "99", owner: "x@N01", regionID: "R5", region: "zeta"))
        _ = try writer.store(records, now: 1)
        let top = try Queries(store: store).topRegions(limit: 50)
        #expect(top.map(\.regionID) == ["R5", "R2", "R1", "R3", "R4"])
        #expect(top.map(\.rank) == [1, 2, 3, 4, 5])
        #expect(try Queries(store: store).topRegions(limit: 2).count == 2)
    }

    /// The plan of the very query `Queries.topRegions` runs, on a store with photos in it:
    /// a search of the ranking index in its own order, with no temporary B-tree (a sort) and
    /// no photo table anywhere.
    @Test func theTopQueryReadsTheRankingIndexNotThePhotos() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let records = (0..<200).map { PhotoRecord(id: "\($0)", owner: "o\($0 % 17)@N01", regionID: "R\($0 % 9)", region: "Region \($0 % 9)") }
        _ = try PhotoWriter(store: store).store(records, now: 1)
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Queries.topRegionsSQL, arguments: [50]).map { $0["detail"] as String }
        }
        #expect(plan == ["SEARCH region USING INDEX region_ranking (photographers>?)"])
        #expect(try Queries(store: store).topRegions(limit: 50).count == 9)
    }

    private func dump(_ store: Store) throws -> [String] {
        try store.read { db in
            var lines: [String] = []
            for table in ["photo", "photographer", "region", "place", "region_photographer", "store_state"] {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table) \($0)" }
            }
            return lines
        }
    }
}
