import Foundation
import GRDB

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

/// A region as Flickr describes it: its own place id, display name and, when known, centre.
public struct RegionInfo: Sendable, Equatable {
    public var placeID: String
    public var name: String
    public var latitude: Double?
    public var longitude: Double?

    public init(placeID: String, name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.placeID = placeID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The answer to "which region is this place in?": a region, or none (country-level places,
/// and places Flickr does not know).
public struct PlaceResolution: Sendable, Equatable {
    public var placeID: String
    public var region: RegionInfo?

    public init(placeID: String, region: RegionInfo?) {
        self.placeID = placeID
        self.region = region
    }
}

/// A batch made ready for the store: repeats removed (the last copy of an id wins), the
/// photographers, regions and places it mentions collected once each, unknown fields
/// serialized. Preparing is pure work on the records, so the loader does it on its decoding
/// thread, leaving the writer's thread to the database.
public struct PreparedBatch: Sendable {
    var records: [PhotoRecord] = []
    /// Records repeated within the batch (the earlier copies).
    var duplicates = 0
    var photographers: [(nsid: String, name: String)] = []
    var regions: [RegionInfo] = []
    /// Places the records name; `answered` when a record tells the place's region.
    var places: [(placeID: String, regionPlaceID: String?, answered: Bool)] = []
    /// Each record's unknown fields as a JSON object, or nil.
    var extras: [String?] = []

    public var count: Int { records.count + duplicates }

    public init(_ batch: [PhotoRecord]) {
        var latest: [String: Int] = [:]
        latest.reserveCapacity(batch.count)
        for index in batch.indices where latest.updateValue(index, forKey: batch[index].id) != nil {
            duplicates += 1
        }
        records = duplicates == 0 ? batch : batch.indices.filter { latest[batch[$0].id] == $0 }.map { batch[$0] }

        var names: [String: String] = [:]
        var regionNames: [String: String] = [:]
        var placeRegions: [String: String?] = [:]
        var writer = JSONWriter(capacity: 256)
        extras.reserveCapacity(records.count)
        for record in records {
            if !record.ownerName.isEmpty || names[record.owner] == nil { names[record.owner] = record.ownerName }
            if let regionID = record.regionID, let name = record.region, !name.isEmpty || regionNames[regionID] == nil {
                regionNames[regionID] = name
            }
            if let placeID = record.placeID {
                if let regionID = record.regionID {
                    placeRegions[placeID] = .some(regionID)
                } else if placeRegions[placeID] == nil {
                    placeRegions[placeID] = .some(nil)
                }
            }
            if record.extra.isEmpty {
                extras.append(nil)
            } else {
                writer.removeAll()
                writer.value(.object(record.extra))
                extras.append(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
        photographers = names.map { ($0.key, $0.value) }
        regions = regionNames.map { RegionInfo(placeID: $0.key, name: $0.value) }
        // A record without a region says nothing about its place: only look it up.
        places = placeRegions.map { ($0.key, $0.value, $0.value != nil) }
    }
}

/// Writes photos and place resolutions with set-based statements: each batch is staged
/// into temporary tables, then a fixed handful of INSERT ... SELECT / UPDATE ... FROM
/// statements applies it, whatever the batch size. One transaction per batch.
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
        var result = BatchResult()
        result.duplicates = batch.duplicates
        try store.write { db in
            try Self.prepareStaging(db)
            // Photographers, regions and places first, deduplicated in memory, so each photo
            // is staged with the ids it counts for and no statement resolves them row by row.
            let photographers = try Self.upsertPhotographers(batch.photographers, db)
            let regions = try Self.upsertRegions(batch.regions, db)
            let places = try Self.placeRegions(batch.places, now: now, db)
            try Self.stage(batch, photographers: photographers, regions: regions, places: places, db)

            // (Each step below is skipped when it has nothing to do: a fresh load meets no
            // deleted and no stored photos, and scanning the staged batch for them costs.)
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
            if stored < batch.records.count - result.deletedEarlier {
                try db.execute(sql: """
                    INSERT INTO photo (id, photographer, title, description, latitude, longitude, place_id, region,
                                       uploaded, thumb_url, photo_url, extra, added_at)
                        SELECT id, photographer, title, description, latitude, longitude, place_id, region,
                               uploaded, thumb_url, photo_url, extra, ?
                        FROM incoming WHERE old_rowid IS NULL
                    """, arguments: [now])
                result.new = db.changesCount
            }
            result.unchanged = batch.records.count - result.deletedEarlier - result.new - result.updated

            try CountDeltas.apply(db)

            if let newest = try Int64.fetchOne(db, sql: "SELECT MAX(uploaded) FROM incoming") {
                try db.execute(sql: """
                    INSERT INTO store_state (key, value) VALUES ('newest_upload', ?1)
                    ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value IS NULL OR value < ?1
                    """, arguments: [newest])
            }
            try Self.clearStaging(db)
        }
        return result
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

    /// Case-insensitive ordering key for region names (ties in the ranking sort by it).
    public static func sortKey(_ name: String) -> String {
        name.lowercased()
    }

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
            stage.bind(3, region.name.isEmpty ? nil : sortKey(region.name))
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

    /// The only per-record statement: one cached INSERT per photo into `temp.incoming`.
    private static func stage(
        _ batch: PreparedBatch, photographers: [String: Int64], regions: [String: Int64], places: [String: Int64],
        _ db: Database
    ) throws {
        // Rows go in `rowsPerInsert` at a time: one statement step per group instead of per
        // row (each step has a fixed cost).
        let rowsPerInsert = 32
        func insert(rows: Int) throws -> BulkStatement {
            let row = "(" + Array(repeating: "?", count: 12).joined(separator: ",") + ")"
            return try BulkStatement(db, sql: """
                INSERT INTO incoming (id, photographer, region, title, description, latitude, longitude, place_id,
                                      uploaded, thumb_url, photo_url, extra)
                VALUES \(Array(repeating: row, count: rows).joined(separator: ","))
                """)
        }
        let full = try insert(rows: rowsPerInsert)
        var texts = TextRow()
        try batch.records.withUnsafeBufferPointer { records in
            for groupStart in stride(from: 0, to: records.count, by: rowsPerInsert) {
                let groupEnd = min(groupStart + rowsPerInsert, records.count)
                let statement = groupEnd - groupStart == rowsPerInsert ? full : try insert(rows: groupEnd - groupStart)
                texts.removeAll()
                for index in groupStart..<groupEnd {
                    let record = records[index]
                    let base = Int32((index - groupStart) * 12)
                    texts.set(base + 1, record.id)
                    texts.set(base + 4, record.title)
                    texts.set(base + 5, record.description)
                    texts.set(base + 8, record.placeID)
                    texts.set(base + 10, record.thumbURL)
                    texts.set(base + 11, record.photoURL)
                    texts.set(base + 12, batch.extras[index])
                    statement.bind(base + 2, photographers[record.owner]!)
                    // The record's own region wins; else what the store knows of its place.
                    statement.bind(base + 3, record.regionID.flatMap { regions[$0] } ?? record.placeID.flatMap { places[$0] })
                    statement.bind(base + 6, record.latitude)
                    statement.bind(base + 7, record.longitude)
                    statement.bind(base + 9, record.uploaded)
                }
                try statement.run(texts: texts)
            }
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
