import Foundation
import GRDB
import TopRegionsRecords

/// What one batch did to the store.
public struct BatchResult: Sendable, Equatable {
    public var new = 0
    /// Stored photos whose record changed (title, place, region, ...).
    public var updated = 0
    /// Already stored exactly like this.
    public var unchanged = 0
    /// Repeated within the batch (the last copy wins).
    public var duplicates = 0
    /// Deleted earlier with `regions-load --delete`, so not brought back.
    public var deletedEarlier = 0

    public init() {}

    public static func += (lhs: inout BatchResult, rhs: BatchResult) {
        lhs.new += rhs.new
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
        lhs.duplicates += rhs.duplicates
        lhs.deletedEarlier += rhs.deletedEarlier
    }
}

/// A batch made ready for the store: repeats removed (the last copy of an id wins), the
/// photographers, regions and places it mentions collected once each, and the photos laid
/// out column by column as the staging statement binds them. Preparing is pure work on the
/// records, so the loader does it on its decoding thread: the writer's thread, the one a
/// load waits for, is left with the database work, and with freeing a few big buffers
/// rather than every record's strings.
public struct PreparedBatch: Sendable {
    /// How many photos one staging statement inserts: one statement step per group
    /// instead of per photo (each step has a fixed cost).
    static let rowsPerInsert = 32
    /// The staging table's columns, in parameter order: photo i of a group binds
    /// parameters `i * stagedColumns.count + 1 ...`.
    static let stagedColumns = [
        "id", "photographer", "region", "title", "description", "latitude", "longitude", "place_id",
        "uploaded", "thumb_url", "photo_url", "extra",
    ]

    /// Photos in the batch, after removing repeats.
    private(set) var photoCount = 0
    /// Records repeated within the batch (the earlier copies).
    private(set) var duplicates = 0
    private(set) var photographers: [(nsid: String, name: String)] = []
    private(set) var regions: [RegionInfo] = []
    /// Places the records name; `answered` when a record tells the place's region.
    private(set) var places: [(placeID: String, regionPlaceID: String?, answered: Bool)] = []

    // One entry per photo: indexes into the arrays above (-1: none), and the numbers.
    private(set) var photographerIndex: [Int32] = []
    private(set) var regionIndex: [Int32] = []
    private(set) var placeIndex: [Int32] = []
    private(set) var latitude: [Double?] = []
    private(set) var longitude: [Double?] = []
    private(set) var uploaded: [Int64?] = []
    /// The text parameters (id, title, description, place, URLs, unknown fields as a JSON
    /// object) of each group of `rowsPerInsert` photos, numbered for the staging statement.
    private(set) var texts: [TextRow] = []
    /// The newest upload time in the batch.
    private(set) var newestUpload: Int64?
    /// The photo ids as a JSON array, to ask the store about all of them in one statement.
    private(set) var idsJSON = "[]"
    /// The smallest and largest photo id, in SQLite's text order (bytewise UTF-8).
    private(set) var firstID: String?
    private(set) var lastID: String?

    public init(_ batch: [PhotoRecord]) {
        var latest: [String: Int] = [:]
        latest.reserveCapacity(batch.count)
        for index in batch.indices where latest.updateValue(index, forKey: batch[index].id) != nil {
            duplicates += 1
        }
        let records = duplicates == 0 ? batch : batch.indices.filter { latest[batch[$0].id] == $0 }.map { batch[$0] }
        photoCount = records.count

        var photographerSlots: [String: Int32] = [:]
        var regionSlots: [String: Int32] = [:]
        var placeSlots: [String: Int32] = [:]
        var extra = JSONWriter(capacity: 256)
        photographerIndex.reserveCapacity(records.count)
        regionIndex.reserveCapacity(records.count)
        placeIndex.reserveCapacity(records.count)
        latitude.reserveCapacity(records.count)
        longitude.reserveCapacity(records.count)
        uploaded.reserveCapacity(records.count)
        texts.reserveCapacity(records.count / Self.rowsPerInsert + 1)
        let columns = Int32(Self.stagedColumns.count)
        var group = TextRow()

        for (index, record) in records.enumerated() {
            // Photographers: the last non-empty name wins.
            if let slot = photographerSlots[record.owner] {
                if !record.ownerName.isEmpty { photographers[Int(slot)].name = record.ownerName }
                photographerIndex.append(slot)
            } else {
                let slot = Int32(photographers.count)
                photographerSlots[record.owner] = slot
                photographers.append((record.owner, record.ownerName))
                photographerIndex.append(slot)
            }
            // Regions the records name: the last non-empty name wins.
            if let regionID = record.regionID {
                let name = record.region ?? ""
                if let slot = regionSlots[regionID] {
                    if !name.isEmpty { regions[Int(slot)].name = name }
                    regionIndex.append(slot)
                } else {
                    let slot = Int32(regions.count)
                    regionSlots[regionID] = slot
                    regions.append(RegionInfo(placeID: regionID, name: name))
                    regionIndex.append(slot)
                }
            } else {
                regionIndex.append(-1)
            }
            // Places: a record with a region answers for its place; one without says
            // nothing about it, so the place is only looked up.
            if let placeID = record.placeID {
                if let slot = placeSlots[placeID] {
                    if let regionID = record.regionID { places[Int(slot)] = (placeID, regionID, true) }
                    placeIndex.append(slot)
                } else {
                    let slot = Int32(places.count)
                    placeSlots[placeID] = slot
                    places.append((placeID, record.regionID, record.regionID != nil))
                    placeIndex.append(slot)
                }
            } else {
                placeIndex.append(-1)
            }
            latitude.append(record.latitude)
            longitude.append(record.longitude)
            uploaded.append(record.uploaded)
            if let time = record.uploaded, time > newestUpload ?? .min { newestUpload = time }

            let row = index % Self.rowsPerInsert
            let base = Int32(row) * columns
            group.set(base + 1, record.id)
            group.set(base + 4, record.title)
            group.set(base + 5, record.description)
            group.set(base + 8, record.placeID)
            group.set(base + 10, record.thumbURL)
            group.set(base + 11, record.photoURL)
            if record.extra.isEmpty {
                group.set(base + 12, nil)
            } else {
                extra.removeAll()
                extra.value(.object(record.extra))
                group.set(base + 12, extra.bytes)
            }
            if row == Self.rowsPerInsert - 1 || index == records.count - 1 {
                texts.append(group)
                group = TextRow()
            }
        }
        extra.removeAll()
        extra.value(.array(records.map { .string($0.id) }))
        idsJSON = String(decoding: extra.bytes, as: UTF8.self)
        // Compared as UTF-8 bytes, as SQLite's BINARY collation does (Swift's own string
        // order treats canonically equivalent strings as equal).
        func bytewise(_ a: PhotoRecord, _ b: PhotoRecord) -> Bool { a.id.utf8.lexicographicallyPrecedes(b.id.utf8) }
        firstID = records.min(by: bytewise)?.id
        lastID = records.max(by: bytewise)?.id
    }
}

/// Writes photos and place resolutions with set-based statements, one transaction per
/// batch. The photos themselves go in 32 to a statement: straight into `photo` when none
/// of them is stored yet (a load, a refresh), else into a temporary table that a fixed
/// handful of INSERT ... SELECT / UPDATE ... FROM statements merges, whatever the batch size.
public struct PhotoWriter: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    // MARK: Photos

    /// Stores a batch of records in one transaction. Records for the same id: the last wins.
    public func store(_ records: [PhotoRecord], now: Int64) throws -> BatchResult {
        try store(PreparedBatch(records), now: now)
    }

    /// Stores a prepared batch in one transaction.
    public func store(_ batch: PreparedBatch, now: Int64) throws -> BatchResult {
        try store.write { db in
            try Self.prepareStaging(db)
            // Photographers, regions and places first, deduplicated in memory, so each photo
            // is written with the ids it counts for and no statement resolves them row by row.
            let photographers = try Self.upsertPhotographers(batch.photographers, db)
            let regions = try Self.upsertRegions(batch.regions, db)
            let places = try Self.placeRegions(batch.places, now: now, db)
            let references = References(batch, photographers: photographers, regions: regions, places: places)

            var result = BatchResult()
            result.duplicates = batch.duplicates
            let newest: Int64?
            if try Self.isAllNew(batch, db) {
                // The common case of a load or a refresh: no photo in the batch is stored or
                // deleted, so the photos go straight into `photo`, and what they count for
                // is what was counted while writing them.
                let counts = try Self.insert(batch, references, into: .photo(addedAt: now), db)
                try Self.insertDeltas(counts, db)
                result.new = batch.photoCount
                newest = batch.newestUpload
            } else {
                _ = try Self.insert(batch, references, into: .staging, db)
                try Self.merge(batch, now: now, into: &result, db)
                newest = try Int64.fetchOne(db, sql: "SELECT MAX(uploaded) FROM incoming")
            }
            try CountDeltas.apply(db)

            if let newest {
                try db.execute(sql: """
                    INSERT INTO store_state (key, value) VALUES ('newest_upload', ?1)
                    ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value IS NULL OR value < ?1
                    """, arguments: [newest])
            }
            try Self.clearStaging(db)
            return result
        }
    }

    /// Whether no photo of the batch is stored or was deleted.
    private static func isAllNew(_ batch: PreparedBatch, _ db: Database) throws -> Bool {
        guard let first = batch.firstID, let last = batch.lastID else { return true }
        // Photo ids grow with time, so the ids of a load or a refresh usually lie outside
        // every stored range: when nothing stored falls between the batch's first and last
        // id (two index probes), nothing in the batch is stored.
        let overlaps = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM photo WHERE id BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM deleted_photo WHERE id BETWEEN ?1 AND ?2)
            """, arguments: [first, last])!
        guard overlaps else { return true }
        // Else one indexed lookup per id, stopping at the first stored one.
        return try !Bool.fetchOne(db, sql: """
            SELECT EXISTS (
                SELECT 1 FROM json_each(?) j
                WHERE EXISTS (SELECT 1 FROM photo WHERE id = j.value)
                   OR EXISTS (SELECT 1 FROM deleted_photo WHERE id = j.value))
            """, arguments: [batch.idsJSON])!
    }

    /// Applies a batch staged in `temp.incoming` that holds stored or deleted photos: drops
    /// the deleted, updates the stored that changed, inserts the new, and records what each
    /// photo counted for before and counts for now in `temp.count_delta`.
    private static func merge(_ batch: PreparedBatch, now: Int64, into result: inout BatchResult, _ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM deleted_photo)")! {
            try db.execute(sql: "DELETE FROM incoming WHERE id IN (SELECT id FROM deleted_photo)")
            result.deletedEarlier = db.changesCount
        }

        // What the stored copy (if any) counted for. A record that knows no region for the
        // same place keeps the stored photo's region (a less informed copy does not take
        // it away); a photo that moved to another place takes that place's answer, or
        // waits for it.
        try db.execute(sql: """
            UPDATE incoming SET
                old_rowid = p.rowid, old_region = p.region, old_photographer = p.photographer,
                region = CASE
                    WHEN incoming.region IS NOT NULL THEN incoming.region
                    WHEN incoming.place_id IS p.place_id THEN p.region
                END
                FROM photo p WHERE p.id = incoming.id
            """)
        let stored = db.changesCount
        if stored > 0 {
            try db.execute(sql: """
                INSERT INTO count_delta (region, photographer, n)
                    SELECT old_region, old_photographer, -1 FROM incoming
                    WHERE old_region IS NOT NULL AND (old_region IS NOT region OR old_photographer <> photographer)
                """)
        }
        try db.execute(sql: """
            INSERT INTO count_delta (region, photographer, n)
                SELECT region, photographer, COUNT(*) FROM incoming
                WHERE region IS NOT NULL AND (old_rowid IS NULL OR old_region IS NOT region OR old_photographer <> photographer)
                GROUP BY region, photographer
            """)

        // (Each step is skipped when it has nothing to do: scanning the batch costs.)
        if stored > 0 {
            try db.execute(sql: """
                UPDATE photo SET
                    photographer = i.photographer, title = i.title, description = i.description,
                    latitude = i.latitude, longitude = i.longitude, place_id = i.place_id, region = i.region,
                    uploaded = i.uploaded, thumb_url = i.thumb_url, photo_url = i.photo_url, extra = i.extra
                FROM incoming i
                WHERE photo.rowid = i.old_rowid AND (
                    photo.photographer IS NOT i.photographer OR photo.title IS NOT i.title
                    OR photo.description IS NOT i.description OR photo.latitude IS NOT i.latitude
                    OR photo.longitude IS NOT i.longitude OR photo.place_id IS NOT i.place_id
                    OR photo.region IS NOT i.region OR photo.uploaded IS NOT i.uploaded
                    OR photo.thumb_url IS NOT i.thumb_url OR photo.photo_url IS NOT i.photo_url
                    OR photo.extra IS NOT i.extra)
                """)
            result.updated = db.changesCount
        }
        if stored < batch.photoCount - result.deletedEarlier {
            try db.execute(sql: """
                INSERT INTO photo (id, photographer, title, description, latitude, longitude, place_id, region,
                                   uploaded, thumb_url, photo_url, extra, added_at)
                    SELECT id, photographer, title, description, latitude, longitude, place_id, region,
                           uploaded, thumb_url, photo_url, extra, ?
                    FROM incoming WHERE old_rowid IS NULL
                """, arguments: [now])
            result.new = db.changesCount
        }
        result.unchanged = batch.photoCount - result.deletedEarlier - result.new - result.updated
    }

    // MARK: Places

    /// Remembers place lookups (once known, a place never changes) and gives stored photos
    /// in those places their region. Returns how many stored photos gained a region.
    @discardableResult
    public func record(_ resolutions: [PlaceResolution], now: Int64) throws -> Int {
        guard !resolutions.isEmpty else { return 0 }
        return try store.write { db in
            try Self.prepareStaging(db)
            _ = try Self.upsertRegions(resolutions.compactMap(\.region), db)
            let attached = try Self.learnPlaces(resolutions.map { ($0.placeID, $0.region?.placeID, true) }, now: now, db)
            try CountDeltas.apply(db)
            try Self.clearStaging(db)
            return attached
        }
    }

    // MARK: Staging

    private static func prepareStaging(_ db: Database) throws {
        try CountDeltas.prepare(db)
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS incoming (
                id TEXT NOT NULL,
                photographer INTEGER NOT NULL,
                region INTEGER,
                title TEXT NOT NULL,
                description TEXT NOT NULL,
                latitude REAL,
                longitude REAL,
                place_id TEXT,
                uploaded INTEGER,
                thumb_url TEXT,
                photo_url TEXT,
                extra TEXT,
                old_rowid INTEGER,
                old_region INTEGER,
                old_photographer INTEGER
            );
            CREATE TEMP TABLE IF NOT EXISTS incoming_photographer (
                nsid TEXT PRIMARY KEY, name TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS incoming_region (
                place_id TEXT PRIMARY KEY, name TEXT, sort_key TEXT, latitude REAL, longitude REAL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS incoming_place (
                place_id TEXT PRIMARY KEY, region_place_id TEXT, answered INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS learned_place (
                place_id TEXT PRIMARY KEY, region_place_id TEXT
            ) WITHOUT ROWID;
            """)
    }

    private static func clearStaging(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM incoming;
            DELETE FROM incoming_photographer;
            DELETE FROM incoming_region;
            DELETE FROM incoming_place;
            DELETE FROM learned_place;
            """)
    }

    /// Upserts photographers; returns NSID → row id.
    private static func upsertPhotographers(_ photographers: [(nsid: String, name: String)], _ db: Database) throws -> [String: Int64] {
        let stage = try BulkStatement(db, sql: "INSERT INTO incoming_photographer (nsid, name) VALUES (?, ?)")
        for (nsid, name) in photographers {
            stage.bind(1, nsid)
            stage.bind(2, name)
            try stage.run()
        }
        try db.execute(sql: """
            INSERT INTO photographer (nsid, name)
                SELECT nsid, name FROM incoming_photographer WHERE true
                ON CONFLICT (nsid) DO UPDATE SET name = excluded.name
                WHERE excluded.name <> '' AND name <> excluded.name
            """)
        return try idMap(db, sql: "SELECT p.nsid, p.id FROM incoming_photographer i JOIN photographer p ON p.nsid = i.nsid")
    }

    /// Upserts regions: new ones get their name (or their id while the name is unknown);
    /// known ones take a newer non-empty name and coordinates. Returns place id → row id.
    private static func upsertRegions(_ regions: [RegionInfo], _ db: Database) throws -> [String: Int64] {
        guard !regions.isEmpty else { return [:] }
        let stage = try BulkStatement(db, sql: "INSERT OR REPLACE INTO incoming_region (place_id, name, sort_key, latitude, longitude) VALUES (?, ?, ?, ?, ?)")
        for region in regions {
            stage.bind(1, region.placeID)
            stage.bind(2, region.name.isEmpty ? nil : region.name)
            stage.bind(3, region.name.isEmpty ? nil : RegionName.sortKey(region.name))
            stage.bind(4, region.latitude)
            stage.bind(5, region.longitude)
            try stage.run()
        }
        try db.execute(sql: """
            INSERT INTO region (place_id, name, sort_key, latitude, longitude)
                SELECT place_id, COALESCE(name, place_id), COALESCE(sort_key, lower(place_id)), latitude, longitude
                FROM incoming_region WHERE true
                ON CONFLICT (place_id) DO UPDATE SET
                    name = CASE WHEN excluded.name <> excluded.place_id THEN excluded.name ELSE name END,
                    sort_key = CASE WHEN excluded.name <> excluded.place_id THEN excluded.sort_key ELSE sort_key END,
                    latitude = COALESCE(excluded.latitude, latitude),
                    longitude = COALESCE(excluded.longitude, longitude)
                WHERE (excluded.name <> excluded.place_id AND excluded.name <> name)
                   OR excluded.latitude IS NOT NULL AND excluded.latitude IS NOT latitude
                   OR excluded.longitude IS NOT NULL AND excluded.longitude IS NOT longitude
            """)
        return try idMap(db, sql: "SELECT r.place_id, r.id FROM incoming_region i JOIN region r ON r.place_id = i.place_id")
    }

    /// The region of every place in the batch, as far as the store knows it, after learning
    /// the places whose region the records carry. Returns place id → region row id; absent
    /// = not known (or no region).
    private static func placeRegions(_ places: [(placeID: String, regionPlaceID: String?, answered: Bool)], now: Int64, _ db: Database) throws -> [String: Int64] {
        guard !places.isEmpty else { return [:] }
        _ = try learnPlaces(places, now: now, db)
        return try idMap(db, sql: "SELECT pl.place_id, pl.region FROM incoming_place i JOIN place pl ON pl.place_id = i.place_id WHERE pl.region IS NOT NULL")
    }

    /// Stages places and remembers the `answered` ones not known yet (their region, or
    /// none when `regionPlaceID` is nil; a place never changes), then gives stored photos
    /// waiting for those places their region. Returns how many photos gained one.
    private static func learnPlaces(_ places: [(placeID: String, regionPlaceID: String?, answered: Bool)], now: Int64, _ db: Database) throws -> Int {
        let stage = try BulkStatement(db, sql: "INSERT OR REPLACE INTO incoming_place (place_id, region_place_id, answered) VALUES (?, ?, ?)")
        for place in places {
            stage.bind(1, place.placeID)
            stage.bind(2, place.regionPlaceID)
            stage.bind(3, place.answered ? 1 : 0 as Int64)
            try stage.run()
        }
        try db.execute(sql: """
            INSERT INTO learned_place (place_id, region_place_id)
                SELECT place_id, region_place_id FROM incoming_place ip
                WHERE answered AND NOT EXISTS (SELECT 1 FROM place WHERE place_id = ip.place_id);
            INSERT INTO place (place_id, region, resolved_at)
                SELECT l.place_id, r.id, ? FROM learned_place l LEFT JOIN region r ON r.place_id = l.region_place_id;
            """, arguments: [now])
        return try attachPhotosAwaitingLearnedPlaces(db)
    }

    private static func idMap(_ db: Database, sql: String) throws -> [String: Int64] {
        var map: [String: Int64] = [:]
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            map[row[0]] = row[1]
        }
        return map
    }

    private struct RegionPhotographer: Hashable {
        var region: Int64
        var photographer: Int64
    }

    /// The row ids of what a batch names, looked up once per photographer, region and
    /// place rather than once per photo.
    private struct References {
        var photographers: [Int64]
        var regions: [Int64?]
        /// The region of each place, as far as the store knows it.
        var placeRegions: [Int64?]

        init(_ batch: PreparedBatch, photographers: [String: Int64], regions: [String: Int64], places: [String: Int64]) {
            self.photographers = batch.photographers.map { photographers[$0.nsid]! }
            self.regions = batch.regions.map { regions[$0.placeID] }
            placeRegions = batch.places.map { places[$0.placeID] }
        }

        /// The photo's own region wins; else what the store knows of its place.
        func region(of photo: Int, in batch: PreparedBatch) -> Int64? {
            let regionSlot = batch.regionIndex[photo], placeSlot = batch.placeIndex[photo]
            return (regionSlot >= 0 ? regions[Int(regionSlot)] : nil) ?? (placeSlot >= 0 ? placeRegions[Int(placeSlot)] : nil)
        }
    }

    /// Where `insert` writes a batch's photos.
    private enum Destination {
        /// Straight into `photo`, stamped with the load time.
        case photo(addedAt: Int64)
        /// Into `temp.incoming`, to be merged with what is stored.
        case staging
    }

    /// The only per-photo statement: the batch goes in a group of photos at a time.
    /// Writing straight into `photo`, returns the photos written per (region,
    /// photographer); staged photos are counted by the merge, so then it returns nothing.
    private static func insert(
        _ batch: PreparedBatch, _ references: References, into destination: Destination, _ db: Database
    ) throws -> [RegionPhotographer: Int64] {
        func statement(rows: Int) throws -> BulkStatement {
            switch destination {
            case .photo:
                try BulkStatement(db, insertInto: "photo", columns: PreparedBatch.stagedColumns, rows: rows, sameInEveryRow: "added_at")
            case .staging:
                try BulkStatement(db, insertInto: "incoming", columns: PreparedBatch.stagedColumns, rows: rows)
            }
        }
        let full = try statement(rows: PreparedBatch.rowsPerInsert)
        let columns = Int32(PreparedBatch.stagedColumns.count)
        var counts: [RegionPhotographer: Int64] = [:]
        let countsWhatItWrites = if case .photo = destination { true } else { false }
        for (group, texts) in batch.texts.enumerated() {
            let groupStart = group * PreparedBatch.rowsPerInsert
            let rows = min(PreparedBatch.rowsPerInsert, batch.photoCount - groupStart)
            let insert = rows == PreparedBatch.rowsPerInsert ? full : try statement(rows: rows)
            for index in groupStart..<groupStart + rows {
                let base = Int32(index - groupStart) * columns
                let photographer = references.photographers[Int(batch.photographerIndex[index])]
                let region = references.region(of: index, in: batch)
                insert.bind(base + 2, photographer)
                insert.bind(base + 3, region)
                insert.bind(base + 6, batch.latitude[index])
                insert.bind(base + 7, batch.longitude[index])
                insert.bind(base + 9, batch.uploaded[index])
                if countsWhatItWrites, let region {
                    counts[RegionPhotographer(region: region, photographer: photographer), default: 0] += 1
                }
            }
            if case .photo(let addedAt) = destination {
                insert.bind(Int32(rows) * columns + 1, addedAt)
            }
            try insert.run(texts: texts)
        }
        return counts
    }

    /// Adds photo counts to `temp.count_delta`, many rows per statement.
    private static func insertDeltas(_ counts: [RegionPhotographer: Int64], _ db: Database) throws {
        let rowsPerInsert = 100
        let deltas = Array(counts)
        for groupStart in stride(from: 0, to: deltas.count, by: rowsPerInsert) {
            let group = deltas[groupStart..<min(groupStart + rowsPerInsert, deltas.count)]
            let statement = try BulkStatement(db, insertInto: "count_delta", columns: ["region", "photographer", "n"], rows: group.count)
            for (offset, delta) in group.enumerated() {
                let base = Int32(offset * 3)
                statement.bind(base + 1, delta.key.region)
                statement.bind(base + 2, delta.key.photographer)
                statement.bind(base + 3, delta.value)
            }
            try statement.run()
        }
    }

    /// Stored photos in a place that `learned_place` just resolved get that place's region.
    @discardableResult
    private static func attachPhotosAwaitingLearnedPlaces(_ db: Database) throws -> Int {
        try db.execute(sql: """
            INSERT INTO count_delta (region, photographer, n)
                SELECT pl.region, p.photographer, 1
                FROM learned_place l
                JOIN place pl ON pl.place_id = l.place_id
                JOIN photo p ON p.place_id = l.place_id AND p.region IS NULL
                WHERE pl.region IS NOT NULL;
            UPDATE photo SET region = (SELECT region FROM place WHERE place_id = photo.place_id)
                WHERE region IS NULL AND place_id IS NOT NULL
                  AND place_id IN (SELECT l.place_id FROM learned_place l JOIN place pl USING (place_id) WHERE pl.region IS NOT NULL);
            """)
        return db.changesCount
    }
}
