import GRDB
import Testing
@testable import TopRegionsIngest
@testable import TopRegionsRecords
@testable import TopRegionsStore
@testable import TopRegionsSupport
import TopRegionsTestSupport

/// The store's maintained counts and its full-text index against independent answers,
/// after every step of random histories of loads, reloads (with renamed photographers and
/// regions), place resolutions, prunes and deletes:
/// - SQL recomputation from the photos (`COUNT(DISTINCT photographer)` per region), and
///   FTS5's own integrity check of the index against the photos;
/// - a model of the documented semantics, kept in plain Swift dictionaries, which also
///   answers which photos each of a set of words finds.
@Suite struct StoreInvariantTests {
    /// What the store should hold, by the rules in topregions-record(7) and regions-load(1).
    struct Model {
        struct Photo {
            var owner: String; var place: String?; var region: String?; var addedAt: Int64
            var title = ""; var description = ""; var uploaded: Int64?
        }
        var photos: [String: Photo] = [:]
        /// Known places: place → region (nil = known to have no region).
        var places: [String: String?] = [:]
        var deleted: Set<String> = []
        /// What is kept of deleted photos for their undelete, with their photographer's name
        /// when deleted (until a prune of photos that old forgets them).
        var kept: [String: (photo: Photo, ownerName: String)] = [:]
        /// Stored photographers' names (a non-empty name replaces the stored one; a
        /// photographer left with no photo by a prune or delete is forgotten).
        var ownerNames: [String: String] = [:]
        /// Regions' names (a new region without a name is called by its id until one comes).
        var regionNames: [String: String] = [:]

        /// A region named by a record or a place lookup.
        mutating func nameRegion(_ region: String, _ name: String) {
            if regionNames[region] == nil {
                regionNames[region] = name.isEmpty ? region : name
            } else if !name.isEmpty && name != region {
                regionNames[region] = name
            }
        }

        mutating func load(_ records: [PhotoRecord], now: Int64) {
            var last: [String: PhotoRecord] = [:]
            var latest: [String: Int] = [:]
            for (index, record) in records.enumerated() {
                last[record.id] = record
                latest[record.id] = index
            }
            // The batch's photographers and regions, in the order of the last copies: the last
            // non-empty name wins, then meets the stored one.
            var batchOwners: [String: String] = [:], ownerOrder: [String] = []
            var batchRegions: [String: String] = [:], regionOrder: [String] = []
            for (index, record) in records.enumerated() where latest[record.id] == index {
                if batchOwners[record.owner] == nil { ownerOrder.append(record.owner); batchOwners[record.owner] = "" }
                if !record.ownerName.isEmpty { batchOwners[record.owner] = record.ownerName }
                if let region = record.regionID {
                    if batchRegions[region] == nil { regionOrder.append(region); batchRegions[region] = "" }
                    if let name = record.region, !name.isEmpty { batchRegions[region] = name }
                }
            }
            for owner in ownerOrder {
                let name = batchOwners[owner]!
                if ownerNames[owner] == nil || !name.isEmpty { ownerNames[owner] = name }
            }
            for region in regionOrder { nameRegion(region, batchRegions[region]!) }
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
                photos[record.id] = Photo(
                    owner: record.owner, place: record.placeID, region: region, addedAt: addedAt,
                    title: record.title, description: record.description, uploaded: record.uploaded)
            }
        }

        mutating func resolve(_ resolutions: [PlaceResolution]) {
            // Every answer names its region, known place or not; the last answer for a region wins.
            var answered: [String: String] = [:], order: [String] = []
            for region in resolutions.compactMap(\.region) {
                if answered[region.placeID] == nil { order.append(region.placeID) }
                answered[region.placeID] = region.name
            }
            for region in order { nameRegion(region, answered[region]!) }
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
            kept = kept.filter { $0.value.photo.addedAt >= cutoff }
            forgetOrphans()
        }

        mutating func delete(_ ids: [String]) {
            for id in ids {
                if let photo = photos.removeValue(forKey: id), kept[id] == nil {
                    kept[id] = (photo, ownerNames[photo.owner] ?? "")
                }
                deleted.insert(id)
            }
            forgetOrphans()
        }

        /// A kept photo comes back as it was, with the names its photographer and region have
        /// now (its photographer's then, if forgotten since), and its place's region if it
        /// had none and the place is known now.
        mutating func undelete(_ ids: [String]) {
            for id in Set(ids).sorted() where deleted.remove(id) != nil {
                guard let (photo, ownerName) = kept.removeValue(forKey: id) else { continue }
                var restored = photo
                if restored.region == nil, let place = photo.place { restored.region = places[place] ?? nil }
                photos[id] = restored
                if ownerNames[photo.owner] == nil { ownerNames[photo.owner] = ownerName }
            }
        }

        private mutating func forgetOrphans() {
            let owners = Set(photos.values.map(\.owner))
            ownerNames = ownerNames.filter { owners.contains($0.key) }
        }

        /// The photos a search for `word` finds: those with the word in their title,
        /// description, photographer's name or region's name, compared as the index's
        /// tokenizer does (letters and digits, without case or diacritics).
        /// The photos each of `words` finds in their title, description, photographer's or
        /// region's name (ids, sorted). Each text is folded once, however many words are
        /// looked for: folding is most of this suite's time otherwise.
        func photos(matching words: [String]) -> [String: [String]] {
            var found = Dictionary(uniqueKeysWithValues: words.map { ($0, [String]()) })
            var wordsOfText: [String: Set<String>] = [:]
            for (id, photo) in photos.sorted(by: { $0.key < $1.key }) {
                let texts = [photo.title, photo.description, ownerNames[photo.owner] ?? "", photo.region.flatMap { regionNames[$0] } ?? ""]
                var photoWords = Set<String>()
                for text in texts {
                    if wordsOfText[text] == nil { wordsOfText[text] = Self.words(text) }
                    photoWords.formUnion(wordsOfText[text]!)
                }
                for word in words where photoWords.contains(word) { found[word]!.append(id) }
            }
            return found
        }

        static func words(_ text: String) -> Set<String> {
            let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            return Set(folded.split { !($0.isLetter || $0.isNumber) }.map(String.init))
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

    /// Per region in `window`: its distinct photographers and photos, recounted from the
    /// model's photos; `holds` says whether an upload time is in the window (the rule under test).
    static func recount(_ model: Model, holds: (Int64?) -> Bool) -> [String: (photographers: Int, photos: Int)] {
        var owners: [String: Set<String>] = [:], photos: [String: Int] = [:]
        for photo in model.photos.values where holds(photo.uploaded) {
            guard let region = photo.region else { continue }
            owners[region, default: []].insert(photo.owner)
            photos[region, default: 0] += 1
        }
        return owners.mapValues { ($0.count, 0) }.merging(photos.mapValues { (0, $0) }) { ($0.0, $1.1) }
    }

    /// Where the store's windowed answers differ from `recount` with `holds` for `window`:
    /// the top list (its counts, and its order by photographers), each region's row, the
    /// number of photos in All and in each region. Empty when they agree.
    static func windowDifferences(_ store: Store, _ model: Model, _ window: TimeWindow, holds: (Int64?) -> Bool) throws -> [String] {
        let queries = Queries(store: store)
        var differences: [String] = []
        let expected = recount(model, holds: holds)
        let top = try queries.topRegions(limit: 1000, window: window)
        let answered = Dictionary(uniqueKeysWithValues: top.map { ($0.regionID, ($0.photographers, $0.photos)) })
        if answered.mapValues({ "\($0.0)/\($0.1)" }) != expected.mapValues({ "\($0.photographers)/\($0.photos)" }) {
            differences.append("top \(window.key): \(answered.sorted { $0.key < $1.key }) != \(expected.sorted { $0.key < $1.key })")
        }
        if top.map(\.photographers) != top.map(\.photographers).sorted(by: >) { differences.append("top \(window.key) out of order") }
        for (region, counts) in expected {
            let row = try queries.region(id: region, window: window)
            if row?.photographers != counts.photographers || row?.photos != counts.photos {
                differences.append("region \(region) \(window.key): \(String(describing: row)) != \(counts)")
            }
            if let row, try queries.count(of: PhotoList(.region(row), window: window)) != counts.photos {
                differences.append("region list \(region) \(window.key)")
            }
        }
        let all = model.photos.values.filter { holds($0.uploaded) }.count
        if try queries.count(of: PhotoList(.all, window: window)) != all { differences.append("all \(window.key)") }
        // Rising regions: both counts recounted, and exactly the regions the rule lets rise.
        if let previous = window.previous {
            let before = recount(model, holds: previous.holds)
            let rising = try queries.risingRegions(window: window, limit: 1000)
            let expectedRising = expected.filter { RisingRegion.Rule.rises(now: $0.value.photographers, before: before[$0.key]?.photographers ?? 0) }
            if Set(rising.map(\.region.regionID)) != Set(expectedRising.keys) { differences.append("rising \(window.key): which regions") }
            for row in rising where row.region.photographers != expected[row.region.regionID]?.photographers
                || row.before != (before[row.region.regionID]?.photographers ?? 0) {
                differences.append("rising \(window.key): \(row.region.regionID) \(row.region.photographers)/\(row.before)")
            }
            if rising.map(\.growth) != rising.map(\.growth).sorted(by: >) { differences.append("rising \(window.key) out of order") }
        }
        return differences
    }

    /// Where each pair's newest upload and the upload buckets (UploadBuckets) differ from a
    /// recount from the photos: the pairs by the ten minutes, hour and day of their newest
    /// upload, the photos by those of their own.
    static func bucketDifferences(_ db: Database) throws -> [String] {
        var differences: [String] = []
        let latest = try Row.fetchAll(db, sql: """
            SELECT region, photographer, MAX(uploaded) FROM photo WHERE region IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
            """).map { "\($0[0] as Int64)/\($0[1] as Int64)@\(String(describing: $0[2] as Int64?))" }
        let maintainedLatest = try Row.fetchAll(db, sql: "SELECT region, photographer, latest FROM region_photographer ORDER BY 1, 2")
            .map { "\($0[0] as Int64)/\($0[1] as Int64)@\(String(describing: $0[2] as Int64?))" }
        if maintainedLatest != latest { differences.append("newest uploads: \(maintainedLatest) != \(latest)") }
        for (table, seconds) in [("region_slot", 600), ("region_hour", 3_600), ("region_day", 86_400)] {
            let recounted = try Row.fetchAll(db, sql: """
                SELECT bucket, region, SUM(photographers), SUM(photos) FROM (
                    SELECT latest / \(seconds) AS bucket, region, 1 AS photographers, 0 AS photos FROM (
                        SELECT region, photographer, MAX(uploaded) AS latest FROM photo WHERE region IS NOT NULL GROUP BY 1, 2)
                    WHERE latest IS NOT NULL
                    UNION ALL
                    SELECT uploaded / \(seconds), region, 0, 1 FROM photo WHERE region IS NOT NULL AND uploaded IS NOT NULL)
                GROUP BY 1, 2 ORDER BY 1, 2
                """).map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int),\($0[3] as Int)" }
            let kept = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2")
                .map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int),\($0[3] as Int)" }
            if kept != recounted { differences.append("\(table): \(kept) != \(recounted)") }
        }
        return differences
    }

    /// A few windows over the world's upload times: short and long, some ending before its
    /// last upload, one of every photo up to a time; and windows reaching past the newest
    /// upload (`newest`), which are summed from the upload buckets, one of them starting on
    /// the hour and one on ten minutes.
    static func randomWindows(_ generator: inout SeededGenerator, newest: Int64?) -> [TimeWindow] {
        var windows = (0..<4).map { index in
            let end = Int64(Int.random(in: 1_700_000_000...1_700_110_000, using: &generator))
            if index == 3 { return TimeWindow(length: nil, lengthText: "all", end: end, endsNow: false) }
            let length = Int64([600, 5_000, 30_000, 200_000, 86_400].randomElement(using: &generator)!)
            return TimeWindow(length: length, lengthText: "\(length)s", end: end, endsNow: false)
        }
        if let newest {
            for _ in 0..<2 {
                let end = newest + Int64(Int.random(in: 0...3_600, using: &generator))
                let length = Int64([600, 5_000, 30_000, 200_000, 86_400].randomElement(using: &generator)!)
                windows.append(TimeWindow(length: length, lengthText: "\(length)s", end: end, endsNow: true))
            }
            let onTheHour = (newest / 3_600 + 1) * 3_600, hours = Int64(Int.random(in: 1...40, using: &generator))
            windows.append(TimeWindow(length: hours * 3_600, lengthText: "\(hours)h", end: onTheHour, endsNow: true))
            let onTheSlot = (newest / 600 + 1) * 600, slots = Int64(Int.random(in: 1...30, using: &generator))
            windows.append(TimeWindow(length: slots * 600, lengthText: "\(slots * 10)m", end: onTheSlot, endsNow: true))
        }
        return windows
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
            // Names change between loads (and are sometimes missing): renames.
            var record = PhotoRecord(
                id: id, owner: owner, ownerName: Self.ownerNames.randomElement(using: &generator)!,
                title: text(), description: Bool.random(using: &generator) ? "" : "<p>" + text() + "</p>")
            let roll = Int.random(in: 0..<10, using: &generator)
            if roll < 8 {
                let place = "PL\(Int.random(in: 0..<20, using: &generator))"
                record.placeID = place
                if let region = placeRegion[place] ?? nil, Bool.random(using: &generator) {
                    record.regionID = region
                    record.region = regionName(region)
                }
            } else if roll == 8 {
                // A region known without a place (a hand-made record).
                let region = regions.randomElement(using: &generator)!
                record.regionID = region
                record.region = regionName(region)
            }
            record.latitude = Double(Int.random(in: -80...80, using: &generator))
            record.longitude = Double(Int.random(in: -170...170, using: &generator))
            // Now and then without an upload time: in no window.
            record.uploaded = Int.random(in: 0..<12, using: &generator) == 0 ? nil : Int64(Int.random(in: 1_700_000_000...1_700_100_000, using: &generator))
            return record
        }

        mutating func resolutions() -> [PlaceResolution] {
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                let place = "PL\(Int.random(in: 0..<20, using: &generator))"
                let region = (placeRegion[place] ?? nil).map { region in
                    RegionInfo(placeID: region, name: Bool.random(using: &generator) ? "Region \(region)" : "Nova \(region)", latitude: 1, longitude: 2)
                }
                return PlaceResolution(placeID: place, region: region)
            }
        }

        static let ownerNames = ["", "Ann Lee", "Bob Marsh", "Cara Fog", "Île Night"]
        /// What titles and descriptions are made of; the words searched for.
        static let vocabulary = ["harbour", "fog", "night", "Île", "market", "Rock'n'roll", "東京"]
        static let searchWords = ["harbour", "fog", "night", "ile", "market", "rock", "n", "roll", "東京", "ann", "lee", "bob", "cara",
                                  "region", "nova", "coast", "reg0", "reg3", "reg7", "p"]

        mutating func text() -> String {
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }.joined(separator: " ")
        }

        /// A record's name for a region: mostly the same, sometimes another (a rename), or
        /// none (the region is then called by its id until a name comes).
        mutating func regionName(_ region: String) -> String {
            ["Region \(region)", "Region \(region)", "Nova \(region)", "Harbour Coast", ""].randomElement(using: &generator)!
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
                try Self.resolvePlaces(writer, &world, &model, now: now)
            case 7:
                try Self.prune(writer, &world, &model, now: now)
            case 8:
                try Self.deleteSome(writer, &world, &model, now: now)
            default:
                // Some of the deleted, and an id or two never deleted.
                let ids = model.deleted.sorted().filter { _ in Bool.random(using: &world.generator) }
                    + (0..<Int.random(in: 0...2, using: &world.generator)).map { _ in "\(1000 + Int.random(in: 0..<60, using: &world.generator))" }
                let outcomes = try writer.undelete(ids: ids, now: now)
                #expect(Set(outcomes.keys) == Set(ids).intersection(model.deleted), "seed \(seed), step \(step)")
                #expect(Set(outcomes.filter { $0.value == .restored }.keys) == Set(ids).intersection(model.kept.keys), "seed \(seed), step \(step)")
                model.undelete(ids)
            }
            try expectConsistent(store, model, context: "seed \(seed), step \(step)")
            // Right now: every windowed count equals a recount of the photos in the window.
            for window in Self.randomWindows(&world.generator, newest: model.photos.values.compactMap(\.uploaded).max()) {
                let differences = try Self.windowDifferences(store, model, window, holds: window.holds)
                #expect(differences.isEmpty, "seed \(seed), step \(step): \(differences.prefix(3))")
            }
        }
    }

    /// The property above is not one any rule passes: counting a window's first second too
    /// (uploads at `end - length`, which belong to the window before) is caught.
    @Test func aWindowThatCountsItsStartSecondFailsTheRecount() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        var world = World(seed: 42)
        var model = Model()
        // Photos uploaded on a few seconds only, so that windows start on them.
        var records = (0..<200).map { _ in world.record() }
        for index in records.indices { records[index].uploaded = 1_700_000_000 + Int64(index % 5) * 100 }
        _ = try PhotoWriter(store: store).store(records, now: 1_700_200_000)
        model.load(records, now: 1_700_200_000)
        let window = TimeWindow(length: 200, lengthText: "200s", end: 1_700_000_300, endsNow: false)
        #expect(try Self.windowDifferences(store, model, window, holds: window.holds).isEmpty)
        let broken: (Int64?) -> Bool = { uploaded in uploaded.map { $0 >= window.start! && $0 <= window.end } ?? false }
        #expect(!(try Self.windowDifferences(store, model, window, holds: broken)).isEmpty)
    }

    /// A load stores the batches its decoder has ready in one transaction, and writes their
    /// new photographers and new photos' counts at its end: the batches after the first must
    /// see the photographers waiting to be written as stored ones (renamed, or named by a
    /// record without a name), and merged batches and learned places must count against the
    /// counts still waiting. The same random world, several batches to a transaction.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func batchesSharingATransactionKeepCountsExact(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        // As the loader runs: foreign key checks off, so new photographers wait for the end
        // of the transaction (every reference is checked below instead).
        try store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA foreign_keys = OFF") }
        var world = World(seed: seed)
        var model = Model()
        var now: Int64 = 1_700_000_000

        for step in 0..<60 {
            now += Int64.random(in: 1...600, using: &world.generator)
            switch Int.random(in: 0..<10, using: &world.generator) {
            case 0..<7:
                var batches: [[PhotoRecord]] = []
                for _ in 0..<Int.random(in: 2...5, using: &world.generator) {
                    // New ids mostly (the fast path for new photos), sometimes stored ones.
                    batches.append((0..<Int.random(in: 1...12, using: &world.generator)).map { _ in
                        var record = world.record()
                        if Int.random(in: 0..<3, using: &world.generator) > 0 { record.id = "\(2000 + step * 100 + Int.random(in: 0..<90, using: &world.generator))" }
                        return record
                    })
                }
                let results = try writer.transaction(now: now) { group in try batches.map { try group.store(PreparedBatch($0)) } }
                #expect(results.count == batches.count)
                let dangling = try store.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }
                #expect(dangling.isEmpty, "references to rows that are not there: \(dangling) (seed \(seed), step \(step))")
                for batch in batches { model.load(batch, now: now) }
            case 7..<9:
                let resolutions = world.resolutions()
                try writer.record(resolutions, now: now)
                model.resolve(resolutions)
            default:
                let cutoff = now - Int64.random(in: 0...20_000, using: &world.generator)
                _ = try writer.prune(storedBefore: cutoff)
                model.prune(before: cutoff)
            }
            try expectConsistent(store, model, context: "seed \(seed), step \(step)")
        }
    }

    /// A transaction that fails in its third batch leaves nothing of its first two: their
    /// photographers and counts, waiting for its end, never reach the store.
    @Test func aFailedTransactionLeavesNoneOfItsBatches() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        _ = try writer.store([PhotoRecord(id: "1", owner: "a@N01", regionID: "R", region: "Somewhere")], now: 1)
        let before = try dump(store)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try writer.transaction(now: 2) { group in
                _ = try group.store(PreparedBatch([PhotoRecord(id: "2", owner: "b@N01", regionID: "R", region: "Somewhere")]))
                _ = try group.store(PreparedBatch([PhotoRecord(id: "3", owner: "c@N01", regionID: "Q", region: "Elsewhere")]))
                throw Stop()
            }
        }
        #expect(try dump(store) == before)
        // And the next transaction gives the same row ids as if the failed one never ran.
        _ = try writer.store([PhotoRecord(id: "2", owner: "b@N01", regionID: "R", region: "Somewhere")], now: 3)
        let ids = try store.read { try Row.fetchAll($0, sql: "SELECT nsid, id FROM photographer ORDER BY id").map { "\($0[0] as String)=\($0[1] as Int64)" } }
        #expect(ids == ["a@N01=1", "b@N01=2"])
    }

    /// A refresh's batches are new photos, mostly of photographers already counted in their
    /// region: the fast path for new photos (`addNewPhotoCounts`) must tell a photographer
    /// new to a region from one already there. (The random history above reuses 60 ids, so
    /// its batches mostly take the general path.)
    @Test(arguments: [7, 8, 9] as [UInt64])
    func newPhotosOfKnownPhotographersKeepCountsExact(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        var generator = SeededGenerator(seed: seed)
        var nextID = 10_000
        for batch in 0..<30 {
            let records = (0..<Int.random(in: 1...40, using: &generator)).map { _ -> PhotoRecord in
                nextID += 1
                let region = "R\(Int.random(in: 0..<4, using: &generator))"
                return PhotoRecord(id: "\(nextID)", owner: "\(Int.random(in: 0..<12, using: &generator))@N01", regionID: region, region: "Region \(region)")
            }
            _ = try writer.store(records, now: 1_700_000_000 + Int64(batch))
            try store.read { db in
                let recomputed = try Row.fetchAll(db, sql: """
                    SELECT r.place_id, COUNT(DISTINCT p.photographer), COUNT(*)
                    FROM photo p JOIN region r ON r.id = p.region GROUP BY r.place_id ORDER BY r.place_id
                    """).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
                let maintained = try Row.fetchAll(db, sql: "SELECT place_id, photographers, photos FROM region ORDER BY place_id")
                    .map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
                #expect(maintained == recomputed, "seed \(seed), batch \(batch)")
                let pairs = try Row.fetchAll(db, sql: "SELECT region, photographer, COUNT(*) FROM photo GROUP BY 1, 2 ORDER BY 1, 2")
                    .map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int)" }
                let maintainedPairs = try Row.fetchAll(db, sql: "SELECT region, photographer, photos FROM region_photographer ORDER BY 1, 2")
                    .map { "\($0[0] as Int64)/\($0[1] as Int64)=\($0[2] as Int)" }
                #expect(maintainedPairs == pairs, "seed \(seed), batch \(batch)")
            }
        }
    }

    func expectConsistent(_ store: Store, _ model: Model, context: Comment) throws {
        // FTS5's check reads like a query but is written as an INSERT: on the writer.
        do {
            try store.write { try $0.execute(sql: "INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1)") }
        } catch {
            Issue.record("the search index differs from the photos (\(context)): \(error)")
        }
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
            #expect(try Self.bucketDifferences(db).isEmpty, context)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM region WHERE photographers = 0 AND photos <> 0") == 0, context)

            // 2. The store holds what the documented rules say.
            let expected = model.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.0) \($0.value.1)" }
            #expect(maintained == expected, context)
            let storedIDs = try String.fetchAll(db, sql: "SELECT id FROM photo ORDER BY id")
            #expect(storedIDs == model.photos.keys.sorted(), context)
            // When each was first stored (what a prune ages), an undeleted photo's included.
            let storedAdded = try Row.fetchAll(db, sql: "SELECT id, added_at FROM photo ORDER BY id").map { "\($0[0] as String)@\($0[1] as Int64)" }
            #expect(storedAdded == model.photos.sorted { $0.key < $1.key }.map { "\($0.key)@\($0.value.addedAt)" }, context)
            let unattached = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN place pl ON pl.place_id = p.place_id
                WHERE p.region IS NULL AND pl.region IS NOT NULL
                """)
            #expect(unattached == 0, "a photo in a resolved place has no region (\(context))")

            // 3. The names photos carry are their photographer's and region's, and the
            //    full-text index holds exactly the photos' text (FTS5 compares every entry
            //    with the photo table), and finds what the model finds.
            let staleNames = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM photo p JOIN photographer g ON g.id = p.photographer LEFT JOIN region r ON r.id = p.region
                WHERE p.owner_name IS NOT g.name OR p.region_name IS NOT r.name
                """)
            #expect(staleNames == 0, "photos carry names that are not their photographer's or region's (\(context))")
            let storedOwnerNames = try Row.fetchAll(db, sql: "SELECT nsid, name FROM photographer ORDER BY nsid").map { "\($0[0] as String)=\($0[1] as String)" }
            #expect(storedOwnerNames == model.ownerNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }, context)
            let storedRegionNames = try Row.fetchAll(db, sql: "SELECT place_id, name FROM region ORDER BY place_id").map { "\($0[0] as String)=\($0[1] as String)" }
            #expect(storedRegionNames == model.regionNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }, context)
            let expectedMatches = model.photos(matching: World.searchWords)
            for word in World.searchWords {
                let found = try String.fetchAll(db, sql: """
                    SELECT p.id FROM photo_fts JOIN photo p ON p.rowid = photo_fts.rowid
                    WHERE photo_fts MATCH ? ORDER BY p.id
                    """, arguments: ["\"" + word + "\""])
                #expect(found == expectedMatches[word], "search for \(word) (\(context))")
            }
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

    /// Every statement a batch runs (new photos, stored ones changing, deleted ones coming
    /// back, places learned) reaches the stored tables through their keys and indexes, never
    /// by scanning one: a scan costs in proportion to what the store holds, each batch.
    /// Without statistics SQLite's plans do not depend on how much is stored, so a small
    /// store shows the plans a big one gets. (A plain JOIN of the batch's photographers to
    /// `photographer` was planned as a scan of `photographer`: a 1M-record load took 20%
    /// longer, growing with the photographers stored.)
    @Test func aBatchReadsStoredTablesThroughTheirIndexesNeverByScanning() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        func record(_ id: Int, title: String = "t", place: String? = nil, region: String? = nil) -> PhotoRecord {
            PhotoRecord(
                id: "\(id)", owner: "\(id % 7)@N01", ownerName: "Owner \(id % 7)", title: title,
                placeID: place, regionID: region, region: region.map { "Region \($0)" })
        }
        _ = try writer.store((0..<40).map { record($0, place: "P\($0 % 3)", region: $0 % 2 == 0 ? "R\($0 % 5)" : nil) }, now: 1)
        _ = try writer.delete(ids: ["3"], now: 2)

        let statements = Guarded<[String]>([])
        try store.pool.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
        _ = try writer.store((40..<80).map { record($0, place: "P\($0 % 4)", region: "R\($0 % 6)") }, now: 3)  // all new
        _ = try writer.store((30..<50).map { record($0, title: "changed", place: "P9", region: "R1") } + [record(3)], now: 4)  // a merge
        try writer.record([PlaceResolution(placeID: "P1", region: RegionInfo(placeID: "R8", name: "Region R8"))], now: 5)

        let scans = try store.pool.writeWithoutTransaction { db in
            db.trace(options: .statement, nil)
            // A plan shows the foreign key checks an update could run, even where the key
            // does not change and they never do (upserting a region keeps its id: place has
            // no index on region). The loader runs without them.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            var scans: [String] = []
            for sql in Set(statements.withLock { $0 }) where !sql.hasPrefix("PRAGMA") && !sql.hasPrefix("CREATE") && !sql.hasPrefix("--")
                && sql != "SELECT EXISTS (SELECT 1 FROM deleted_photo)" {
                // ("--": FTS5's own statements on its tables, as the trace shows them; the
                // EXISTS stops at the first row it scans.)
                let explain = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
                explain.setUncheckedArguments([])  // every parameter NULL: the plan is what is read
                let plan = try Row.fetchAll(explain).map { $0["detail"] as String }
                for step in plan where step.hasPrefix("SCAN ") && Self.storedTables.contains(String(step.dropFirst(5).prefix { $0 != " " })) {
                    scans.append("\(step) in: \(sql)")
                }
            }
            return scans
        }
        #expect(statements.withLock { $0.count } > 20)
        #expect(scans == [])
    }

    /// What grows with the photos, photographers and places stored, by name and by the
    /// aliases the writer's statements give them.
    private static let storedTables: Set<String> = ["photo", "p", "photographer", "region_photographer", "rp", "place", "pl", "deleted_photo"]

    private func dump(_ store: Store) throws -> [String] {
        try store.read { db in
            var lines: [String] = []
            for table in ["photo", "photographer", "region", "place", "region_photographer", "store_state"] {
                // The content version counts write transactions, whether they changed
                // anything or not (ChangeStamp): not data.
                let condition = table == "store_state" ? " WHERE key != 'content_version'" : ""
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table)\(condition) ORDER BY 1").map { "\(table) \($0)" }
            }
            return lines
        }
    }
}
