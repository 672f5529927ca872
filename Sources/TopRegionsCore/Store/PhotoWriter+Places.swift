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
            let label = try BulkStatement(db, sql: "UPDATE place SET name = ?, latitude = ?, longitude = ? WHERE place_id = ? AND name IS NULL")
            for resolution in resolutions {
                guard let place = resolution.label else { continue }
                label.bind(1, place.name)
                label.bind(2, place.latitude)
                label.bind(3, place.longitude)
                label.bind(4, resolution.placeID)
                try label.run()
            }
            try CountDeltas.apply(db)
            try Self.clearStaging(db)
            return attached
        }
    }

    /// Upserts regions: new ones get their name (or their id while the name is unknown);
    /// known ones take a newer non-empty name and coordinates. Returns place id → row id and
    /// name. A renamed region's stored photos take the new name, in the search index too.
    static func upsertRegions(_ regions: [RegionInfo], _ db: Database) throws -> [String: Named] {
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
        // The same condition as the upsert's: who gets a new name.
        try db.executeCached(sql: """
            INSERT INTO renamed (id)
                SELECT r.id FROM incoming_region i JOIN region r ON r.place_id = i.place_id
                WHERE COALESCE(i.name, i.place_id) <> i.place_id AND COALESCE(i.name, i.place_id) <> r.name
            """)
        let renamed = db.changesCount > 0
        try db.executeCached(sql: """
            INSERT INTO region (place_id, name, sort_key, latin_parts, latitude, longitude)
                SELECT i.place_id, COALESCE(i.name, i.place_id), COALESCE(i.sort_key, lower(i.place_id)),
                    -- Only a name new to the store is transliterated (making ICU's
                    -- transliterator ready is slow, and every batch names its regions).
                    CASE WHEN i.name IS NULL OR i.name = i.place_id
                        OR EXISTS (SELECT 1 FROM region r WHERE r.place_id = i.place_id AND r.name = i.name) THEN NULL
                        ELSE topregions_latin_parts(i.name) END,
                    i.latitude, i.longitude
                FROM incoming_region i WHERE true
                ON CONFLICT (place_id) DO UPDATE SET
                    name = CASE WHEN excluded.name <> excluded.place_id THEN excluded.name ELSE name END,
                    sort_key = CASE WHEN excluded.name <> excluded.place_id THEN excluded.sort_key ELSE sort_key END,
                    latin_parts = CASE WHEN excluded.name <> excluded.place_id AND excluded.name <> name THEN excluded.latin_parts ELSE latin_parts END,
                    latitude = COALESCE(excluded.latitude, latitude),
                    longitude = COALESCE(excluded.longitude, longitude)
                WHERE (excluded.name <> excluded.place_id AND excluded.name <> name)
                   OR excluded.latitude IS NOT NULL AND excluded.latitude IS NOT latitude
                   OR excluded.longitude IS NOT NULL AND excluded.longitude IS NOT longitude
            """)
        if renamed {
            // Their photos, found through photo_in_region.
            let theirPhotos = "region IN (SELECT id FROM renamed)"
            try SearchIndex.reindexing(db, photosWhere: theirPhotos) {
                try db.executeCached(sql: "UPDATE photo SET region_name = (SELECT name FROM region WHERE id = photo.region) WHERE \(theirPhotos)")
            }
            try db.executeCached(sql: "DELETE FROM renamed")
        }
        return try namedMap(db, sql: "SELECT r.place_id, r.id, r.name FROM incoming_region i JOIN region r ON r.place_id = i.place_id")
    }

    /// `RegionName.latinParts` in SQL (added to every connection as it opens).
    static let latinParts = DatabaseFunction("topregions_latin_parts", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).flatMap { RegionName.latinParts($0) }
    }

    /// The region of every place in the batch, as far as the store knows it, after learning
    /// the places whose region the records carry. Returns place id → region row id and
    /// name; absent = not known (or no region).
    static func placeRegions(_ places: [(placeID: String, regionPlaceID: String?, answered: Bool)], now: Int64, _ db: Database) throws -> [String: Named] {
        guard !places.isEmpty else { return [:] }
        _ = try learnPlaces(places, now: now, db)
        return try namedMap(db, sql: """
            SELECT pl.place_id, r.id, r.name FROM incoming_place i
            JOIN place pl ON pl.place_id = i.place_id JOIN region r ON r.id = pl.region
            """)
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
        try db.executeCached(sql: """
            INSERT INTO learned_place (place_id, region_place_id)
                SELECT place_id, region_place_id FROM incoming_place ip
                WHERE answered AND NOT EXISTS (SELECT 1 FROM place WHERE place_id = ip.place_id)
            """)
        try db.executeCached(sql: """
            INSERT INTO place (place_id, region, resolved_at)
                SELECT l.place_id, r.id, ? FROM learned_place l LEFT JOIN region r ON r.place_id = l.region_place_id
            """, arguments: [now])
        return try attachPhotosAwaitingLearnedPlaces(db)
    }

    /// Stored photos in a place that `learned_place` just resolved get that place's region
    /// (its name, in the search index too). (CROSS JOIN: the places just learned lead, and
    /// each finds its photos in photo_awaiting_place; SQLite would read that whole index.)
    @discardableResult
    static func attachPhotosAwaitingLearnedPlaces(_ db: Database) throws -> Int {
        try db.executeCached(sql: """
            INSERT INTO attaching (photo, region)
                SELECT p.rowid, pl.region
                FROM learned_place l
                CROSS JOIN place pl ON pl.place_id = l.place_id
                CROSS JOIN photo p ON p.place_id = l.place_id AND p.region IS NULL
                WHERE pl.region IS NOT NULL
            """)
        let attached = db.changesCount
        guard attached > 0 else { return 0 }
        let theirPhotos = "rowid IN (SELECT photo FROM attaching)"
        try db.executeCached(sql: """
            INSERT INTO count_delta (region, photographer, n, uploaded)
                SELECT a.region, p.photographer, 1, p.uploaded FROM attaching a JOIN photo p ON p.rowid = a.photo
            """)
        try SearchIndex.reindexing(db, photosWhere: theirPhotos) {
            try db.executeCached(sql: """
                UPDATE photo SET region = a.region, region_name = r.name
                    FROM attaching a JOIN region r ON r.id = a.region
                    WHERE photo.rowid = a.photo
                """)
        }
        try db.executeCached(sql: "DELETE FROM attaching")
        return attached
    }
}
