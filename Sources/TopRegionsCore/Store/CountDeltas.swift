import GRDB
import TopRegionsSupport

/// Keeps `region_photographer` and the counts on `region` exact, set-based.
///
/// Whoever changes which region or photographer a photo counts for first records the change
/// in `temp.count_delta` (-1 for what it counted for before, +1 for what it counts for now),
/// then calls `apply`, which folds all deltas of the transaction in with a handful of
/// statements, whatever their number.
enum CountDeltas {
    static func prepare(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS count_delta (
                region INTEGER NOT NULL,
                photographer INTEGER NOT NULL,
                n INTEGER NOT NULL
            );
            CREATE TEMP TABLE IF NOT EXISTS count_change (
                region INTEGER NOT NULL,
                photographer INTEGER NOT NULL,
                n INTEGER NOT NULL,        -- net change of this photographer's photos in the region
                before INTEGER NOT NULL,   -- their photos there before the change
                PRIMARY KEY (region, photographer)
            ) WITHOUT ROWID;
            """)
    }

    static func apply(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO count_change (region, photographer, n, before)
                SELECT d.region, d.photographer, SUM(d.n), COALESCE(rp.photos, 0)
                FROM count_delta d
                LEFT JOIN region_photographer rp ON rp.region = d.region AND rp.photographer = d.photographer
                GROUP BY d.region, d.photographer
                HAVING SUM(d.n) <> 0
            """)
        if let broken = try Row.fetchOne(db, sql: "SELECT region, photographer FROM count_change WHERE before + n < 0 LIMIT 1") {
            // A delta removed more photos than were counted: a bug, not bad input. Failing
            // rolls the whole transaction back rather than storing a wrong count.
            throw Failure(.internalError, "internal error: photo counts would go negative for region \(broken[0] as Int64) photographer \(broken[1] as Int64)")
        }
        try db.execute(sql: """
            UPDATE region
            SET photographers = photographers + c.photographer_change, photos = photos + c.photo_change
            FROM (
                SELECT region, SUM((before + n > 0) - (before > 0)) AS photographer_change, SUM(n) AS photo_change
                FROM count_change GROUP BY region
            ) AS c
            WHERE region.id = c.region;

            DELETE FROM region_photographer
            WHERE (region, photographer) IN (SELECT region, photographer FROM count_change WHERE before + n = 0);

            INSERT INTO region_photographer (region, photographer, photos)
                SELECT region, photographer, before + n FROM count_change WHERE before + n > 0
                ON CONFLICT (region, photographer) DO UPDATE SET photos = excluded.photos;

            DELETE FROM count_change;
            DELETE FROM count_delta;
            """)
    }
}
