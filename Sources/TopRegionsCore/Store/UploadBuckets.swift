import GRDB
import TopRegionsSupport

/// Right now, kept by the writer: each region's photographers and photos by the ten minutes,
/// the hour and the day they were uploaded, so that a window reaching the newest upload is
/// summed from a few rows per region instead of counted from every photo in it.
///
/// A photographer is in a region's window when one of their photos there was uploaded in it.
/// With nothing stored after the window's end, that is when their latest upload there
/// (`region_photographer.latest`) falls after the window's start. So `region_slot` (ten
/// minutes), `region_hour` and `region_day` count each (region, photographer) pair once, in
/// the slot, hour and day of its latest upload, and each photo in those of its own upload;
/// each level sums to the region's counts (photos without an upload time are in none). A
/// window is then its whole days, its whole hours before the first of those, its whole slots
/// before the first whole hour, and the part of a slot it starts in, counted from that part's
/// photos (`countsAfter`).
///
/// Every change is made in the transaction that changes the photos, so the buckets are exact
/// whenever the counts are: through `temp.bucket_delta` and `flush` by `CountDeltas.apply`,
/// through `add` by the new photos' counts (`PhotoWriter.addNewPhotoCounts`).
enum UploadBuckets {
    static let secondsPerSlot: Int64 = 600
    static let slotsPerHour: Int64 = 6
    static let hoursPerDay: Int64 = 24
    static let slotsPerDay = slotsPerHour * hoursPerDay

    /// The levels, finest first: each one's table, its key column and its length in slots.
    static let levels: [(table: String, key: String, slots: Int64)] = [
        ("region_slot", "slot", 1), ("region_hour", "hour", slotsPerHour), ("region_day", "day", slotsPerDay),
    ]

    /// The ten-minute slot (counted from 1970, rounding down, before 1970 too) of Unix time
    /// `seconds`.
    static func slot(of seconds: Int64) -> Int64 {
        floorDivide(seconds, secondsPerSlot)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// `value / divisor` rounded up (towards +∞), for a positive `divisor`.
    static func ceilDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        -floorDivide(-value, divisor)
    }

    /// `floorDivide` in SQL (SQLite's `/` rounds toward zero).
    static func floorDivideSQL(_ value: String, _ divisor: Int64) -> String {
        "((\(value)) - (((\(value)) % \(divisor) + \(divisor)) % \(divisor))) / \(divisor)"
    }

    static func slotSQL(_ seconds: String) -> String { floorDivideSQL(seconds, secondsPerSlot) }

    /// The hour and day tables and each pair's newest upload, filled from what is stored
    /// (the migration that adds them, schema v12).
    static func createHoursAndDays(_ db: Database) throws {
        try db.execute(sql: """
            -- Each pair's newest upload time in the region (NULL: none of its photos has one).
            ALTER TABLE region_photographer ADD COLUMN latest INTEGER;
            \(bucketTable("region_hour", key: "hour"))
            \(bucketTable("region_day", key: "day"))
            """)
        // (Schema v12 also made an index of the pairs by newest upload, which v13 drops:
        // not made here, for the upgrade through both.)
        try forEachRegion(db) { region in
            try db.execute(sql: """
                UPDATE region_photographer SET latest = l.latest
                FROM (SELECT photographer, MAX(uploaded) AS latest FROM photo INDEXED BY photo_in_region
                      WHERE region = ?1 GROUP BY photographer) AS l
                WHERE region_photographer.region = ?1 AND region_photographer.photographer = l.photographer
                """, arguments: [region])
            try fill("region_hour", key: "hour", seconds: secondsPerSlot * slotsPerHour, region: region, db)
            try fill("region_day", key: "day", seconds: secondsPerSlot * slotsPerDay, region: region, db)
        }
    }

    /// The ten-minute table, filled from what is stored (schema v13), and the index of pairs
    /// by newest upload it replaces dropped: with slots, the pairs of the part of a window
    /// that is not a whole slot are found from that part's few photos, and a load no longer
    /// writes an index entry at a random place for each pair whose newest upload moves.
    static func createSlots(_ db: Database) throws {
        try db.execute(sql: """
            DROP INDEX IF EXISTS region_photographer_by_latest;
            \(bucketTable("region_slot", key: "slot"))
            """)
        try forEachRegion(db) { region in
            try fill("region_slot", key: "slot", seconds: secondsPerSlot, region: region, db)
        }
    }

    /// A level's table: per region and bucket (its ten minutes, hour or day since 1970) the
    /// pairs whose latest upload falls in it, and the photos uploaded in it. Rows that would
    /// hold two zeros are removed.
    private static func bucketTable(_ table: String, key: String) -> String {
        """
        CREATE TABLE \(table) (
            \(key) INTEGER NOT NULL,
            region INTEGER NOT NULL REFERENCES region(id),
            photographers INTEGER NOT NULL,
            photos INTEGER NOT NULL,
            PRIMARY KEY (\(key), region)
        ) WITHOUT ROWID;
        """
    }

    /// Region by region, so that what is sorted is one region's photos at a time, not the
    /// store's (a million photos sorted at once took 150 MB).
    private static func forEachRegion(_ db: Database, _ body: (Int64) throws -> Void) throws {
        for region in try Int64.fetchAll(db, sql: "SELECT id FROM region ORDER BY id") {
            try body(region)
        }
    }

    /// Fills one level's rows of `region` (none there yet) from its pairs' newest uploads and
    /// its photos.
    private static func fill(_ table: String, key: String, seconds: Int64, region: Int64, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO \(table) (\(key), region, photographers, photos)
                SELECT bucket, ?1, SUM(photographers), SUM(photos) FROM (
                    SELECT \(floorDivideSQL("latest", seconds)) AS bucket, 1 AS photographers, 0 AS photos
                    FROM region_photographer WHERE region = ?1 AND latest IS NOT NULL
                    UNION ALL
                    SELECT \(floorDivideSQL("uploaded", seconds)), 0, 1 FROM photo INDEXED BY photo_in_region
                    WHERE region = ?1 AND uploaded IS NOT NULL)
                GROUP BY bucket
            """, arguments: [region])
    }

    /// A count below zero: a bug, not bad input.
    static var wentNegative: Failure {
        Failure(.internalError, "internal error: the photo counts by upload time would go negative")
    }

    /// The transaction's changes to the buckets, by slot, waiting for `flush`.
    static func prepare(_ db: Database) throws {
        try db.createTemporaryTablesOnce(last: "bucket_delta", sql: """
            CREATE TEMP TABLE IF NOT EXISTS bucket_delta (
                slot INTEGER NOT NULL,
                region INTEGER NOT NULL,
                photographers INTEGER NOT NULL,
                photos INTEGER NOT NULL
            )
            """)
    }

    /// Adds the waiting changes to each level's table, and removes the rows left at zero. A
    /// count going below zero is a bug, and fails the transaction rather than store a wrong
    /// count. (Not a CHECK on the tables: SQLite checks the row an upsert would insert, a
    /// change below zero, before it finds the row to add it to.)
    static func flush(_ db: Database) throws {
        var negative = false
        for level in levels {
            let bucket = level.slots == 1 ? "slot" : floorDivideSQL("slot", level.slots)
            try db.executeCached(sql: """
                INSERT INTO \(level.table) (\(level.key), region, photographers, photos)
                    SELECT \(bucket) AS bucket, region, SUM(photographers), SUM(photos) FROM bucket_delta
                    GROUP BY bucket, region HAVING SUM(photographers) <> 0 OR SUM(photos) <> 0
                    ON CONFLICT (\(level.key), region) DO UPDATE SET
                        photographers = photographers + excluded.photographers, photos = photos + excluded.photos;
                DELETE FROM \(level.table)
                    WHERE (\(level.key), region) IN (SELECT \(bucket), region FROM bucket_delta)
                      AND photographers = 0 AND photos = 0;
                """)
            negative = try negative || Bool.fetchOneCached(db, sql: """
                SELECT EXISTS (SELECT 1 FROM \(level.table) WHERE (\(level.key), region) IN (SELECT \(bucket), region FROM bucket_delta)
                                                                AND (photographers < 0 OR photos < 0))
                """)!
        }
        try db.executeCached(sql: "DELETE FROM bucket_delta")
        if negative {
            throw wentNegative
        }
    }

    /// Adds changes counted in memory (a load's new photos), by slot, straight to each
    /// level's table, without `bucket_delta`: already summed per bucket and region here, so
    /// each row is upserted once, in key order, and its counts come back, so that rows left
    /// at zero go and a count below zero fails the transaction, as in `flush`. (Through
    /// `bucket_delta`, the few thousand rows of each transaction of a load were summed,
    /// upserted and checked once per pass, seven passes: a tenth of a 1M load's time.)
    static func add(_ changes: [BucketRegion: Change], _ db: Database) throws {
        for level in levels {
            var rows = changes
            if level.slots > 1 {
                rows = [:]
                for (key, change) in changes {
                    let bucket = BucketRegion(bucket: floorDivide(key.bucket, level.slots), region: key.region)
                    rows[bucket, default: .init()].photographers += change.photographers
                    rows[bucket, default: .init()].photos += change.photos
                }
            }
            try upsert(rows, into: level.table, key: level.key, db)
        }
    }

    private static func upsert(_ changes: [BucketRegion: Change], into table: String, key: String, _ db: Database) throws {
        let rows = changes.filter { $0.value.photographers != 0 || $0.value.photos != 0 }
            .sorted { ($0.key.bucket, $0.key.region) < ($1.key.bucket, $1.key.region) }
        var emptied: [BucketRegion] = []
        try BulkStatement.forEachReturnedRow(db, rows: rows.count, width: 4, sql: { count in
            """
            INSERT INTO \(table) (\(key), region, photographers, photos)
                VALUES \(BulkStatement.valuesList(rows: count, width: 4))
                ON CONFLICT (\(key), region) DO UPDATE SET
                    photographers = photographers + excluded.photographers, photos = photos + excluded.photos
                RETURNING \(key), region, photographers, photos
            """
        }, bind: { statement, first, index in
            let (bucket, change) = rows[index]
            statement.bind(first, bucket.bucket)
            statement.bind(first + 1, bucket.region)
            statement.bind(first + 2, change.photographers)
            statement.bind(first + 3, change.photos)
        }, { row in
            let photographers = row.requiredInt(2), photos = row.requiredInt(3)
            if photographers < 0 || photos < 0 {
                throw wentNegative
            }
            if photographers == 0 && photos == 0 { emptied.append(BucketRegion(bucket: row.requiredInt(0), region: row.requiredInt(1))) }
        })
        let delete = try BulkStatement(db, sql: "DELETE FROM \(table) WHERE \(key) = ? AND region = ?")
        for bucket in emptied {
            delete.bind(1, bucket.bucket)
            delete.bind(2, bucket.region)
            try delete.run()
        }
    }

    /// A slot (or an hour, or a day, by the level) and a region.
    struct BucketRegion: Hashable {
        var bucket: Int64
        var region: Int64
    }

    struct Change {
        var photographers: Int64 = 0
        var photos: Int64 = 0
    }
}
