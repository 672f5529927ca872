import GRDB
import TopRegionsRecords

// Places and regions: what Flickr answered (or records carry) about which region a place
// is in, remembered once and for all, and the stored photos waiting for that answer.

extension PhotoWriter {
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

    /// Upserts regions: new ones get their name (or their id while the name is unknown);
    /// known ones take a newer non-empty name and coordinates. Returns place id → row id.
    static func upsertRegions(_ regions: [RegionInfo], _ db: Database) throws -> [String: Int64] {
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
    static func placeRegions(_ places: [(placeID: String, regionPlaceID: String?, answered: Bool)], now: Int64, _ db: Database) throws -> [String: Int64] {
        guard !places.isEmpty else { return [:] }
        _ = try learnPlaces(places, now: now, db)
        return try idMap(db, sql: "SELECT pl.place_id, pl.region FROM incoming_place i JOIN place pl ON pl.place_id = i.place_id WHERE pl.region IS NOT NULL")
    }

    /// Stages places and remembers the `answered` ones not known yet (their region, or
    /// none when `regionPlaceID` is nil; a place never changes), then gives stored photos
    /// waiting for those places their region. Returns how many photos gained one.
    static func learnPlaces(_ places: [(placeID: String, regionPlaceID: String?, answered: Bool)], now: Int64, _ db: Database) throws -> Int {
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

    /// Stored photos in a place that `learned_place` just resolved get that place's region.
    @discardableResult
    static func attachPhotosAwaitingLearnedPlaces(_ db: Database) throws -> Int {
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
