import GRDB
import TopRegionsSupport

/// Keeps `region_photographer`, the counts on `region` and the upload buckets
/// (`UploadBuckets`) exact, set-based.
///
/// Whoever changes which region or photographer a photo counts for, or when it was uploaded,
/// first records the change in `temp.count_delta` (-1 for what it counted for before, +1 for
/// what it counts for now, each with its upload time), changes the photos, then calls
/// `apply`, which folds all deltas of the transaction in with a handful of statements,
/// whatever their number.
enum CountDeltas {
    static func prepare(_ db: Database) throws {
        try db.createTemporaryTablesOnce(last: "count_change", sql: """
            CREATE TEMP TABLE IF NOT EXISTS count_delta (
                region INTEGER NOT NULL,
                photographer INTEGER NOT NULL,
                n INTEGER NOT NULL,
                uploaded INTEGER           -- the photos' upload time (NULL: unknown)
            );
            CREATE TEMP TABLE IF NOT EXISTS count_change (
                region INTEGER NOT NULL,
                photographer INTEGER NOT NULL,
                n INTEGER NOT NULL,        -- net change of this photographer's photos in the region
                before INTEGER NOT NULL,   -- their photos there before the change
                before_latest INTEGER,     -- their newest upload there before
                added_latest INTEGER,      -- the newest upload among the photos added
                removed_latest INTEGER,    -- the newest upload among the photos taken away
                after_latest INTEGER,      -- their newest upload there after
                recount INTEGER,           -- whether that is to be found among their photos
                PRIMARY KEY (region, photographer)
            ) WITHOUT ROWID;
            """)
        try UploadBuckets.prepare(db)
    }

    static func apply(_ db: Database) throws {
        try db.executeCached(sql: """
            INSERT INTO count_change (region, photographer, n, before, before_latest, added_latest, removed_latest)
                SELECT d.region, d.photographer, SUM(d.n), COALESCE(rp.photos, 0), rp.latest,
                    MAX(CASE WHEN d.n > 0 THEN d.uploaded END), MAX(CASE WHEN d.n < 0 THEN d.uploaded END)
                FROM count_delta d
                LEFT JOIN region_photographer rp ON rp.region = d.region AND rp.photographer = d.photographer
                GROUP BY d.region, d.photographer
            """)
        if let broken = try Row.fetchOneCached(db, sql: "SELECT region, photographer FROM count_change WHERE before + n < 0 LIMIT 1") {
            // A delta removed more photos than were counted: a bug, not bad input. Failing
            // rolls the whole transaction back rather than storing a wrong count.
            throw Failure(.internalError, "internal error: photo counts would go negative for region \(broken[0] as Int64) photographer \(broken[1] as Int64)")
        }
        // The newest of what was there and what was added is still there unless a photo of
        // that upload time (or a later one) was taken away: an added one too, for a photo can
        // come and go, or change its time twice, in one transaction. Else the pair's newest is
        // found among its photos as they are now.
        let candidate = "max(COALESCE(before_latest, added_latest), COALESCE(added_latest, before_latest))"
        try db.executeCached(sql: """
            UPDATE count_change SET
                recount = before + n > 0 AND removed_latest >= \(candidate),
                after_latest = CASE WHEN before + n > 0 THEN \(candidate) END
            """)
        try recountLatest(db)
        try db.executeCached(sql: """
            INSERT INTO bucket_delta (slot, region, photographers, photos)
                SELECT \(UploadBuckets.slotSQL("before_latest")), region, -1, 0 FROM count_change
                WHERE before > 0 AND before_latest IS NOT NULL AND (before + n = 0 OR after_latest IS NOT before_latest);
            INSERT INTO bucket_delta (slot, region, photographers, photos)
                SELECT \(UploadBuckets.slotSQL("after_latest")), region, 1, 0 FROM count_change
                WHERE before + n > 0 AND after_latest IS NOT NULL AND (before = 0 OR after_latest IS NOT before_latest);
            INSERT INTO bucket_delta (slot, region, photographers, photos)
                SELECT \(UploadBuckets.slotSQL("uploaded")), region, 0, SUM(n) FROM count_delta
                WHERE uploaded IS NOT NULL GROUP BY 1, 2;

            UPDATE region
            SET photographers = photographers + c.photographer_change, photos = photos + c.photo_change
            FROM (
                SELECT region, SUM((before + n > 0) - (before > 0)) AS photographer_change, SUM(n) AS photo_change
                FROM count_change GROUP BY region
            ) AS c
            WHERE region.id = c.region AND (c.photographer_change <> 0 OR c.photo_change <> 0);

            DELETE FROM region_photographer
            WHERE (region, photographer) IN (SELECT region, photographer FROM count_change WHERE before + n = 0);

            INSERT INTO region_photographer (region, photographer, photos, latest)
                SELECT region, photographer, before + n, after_latest FROM count_change
                WHERE before + n > 0 AND (n <> 0 OR after_latest IS NOT before_latest)
                ON CONFLICT (region, photographer) DO UPDATE SET photos = excluded.photos, latest = excluded.latest;

            DELETE FROM count_change;
            DELETE FROM count_delta;
            """)
        try UploadBuckets.flush(db)
    }

    /// The newest upload of each pair `count_change` marks for a recount. A few are each
    /// found in their region's photos, newest first (no index leads to a photographer's
    /// photos, which every load would pay for): each read stops at the pair's newest, but may
    /// pass many of the region's. More (a prune of photos stored long ago) are found in one
    /// read of `photo_window`, a few bytes a photo, whatever their number.
    static func recountLatest(_ db: Database) throws {
        let recounts = try Int.fetchOneCached(db, sql: "SELECT COUNT(*) FROM count_change WHERE recount")!
        guard recounts > 0 else { return }
        if recounts <= pairsRecountedOneByOne {
            try db.executeCached(sql: """
                UPDATE count_change SET after_latest = (
                    SELECT p.uploaded FROM photo p INDEXED BY photo_in_region
                    WHERE p.region = count_change.region AND p.photographer = count_change.photographer AND p.uploaded IS NOT NULL
                    ORDER BY p.uploaded DESC LIMIT 1)
                WHERE recount
                """)
        } else {
            try db.executeCached(sql: """
                UPDATE count_change SET after_latest = NULL WHERE recount;
                UPDATE count_change SET after_latest = l.latest
                FROM (SELECT region, photographer, MAX(uploaded) AS latest FROM photo INDEXED BY photo_window
                      WHERE region IS NOT NULL AND uploaded IS NOT NULL
                        AND (region, photographer) IN (SELECT region, photographer FROM count_change WHERE recount)
                      GROUP BY region, photographer) AS l
                WHERE count_change.recount AND count_change.region = l.region AND count_change.photographer = l.photographer
                """)
        }
    }

    /// Up to how many pairs `recountLatest` looks up one by one.
    static let pairsRecountedOneByOne = 32
}
