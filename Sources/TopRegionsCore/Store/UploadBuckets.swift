import GRDB
import TopRegionsSupport

/// Right now, kept by the writer: each region's photographers and photos by the hour and the
/// day they were uploaded, so that a window reaching the newest upload is summed from a few
/// rows per region instead of counted from every photo in it.
///
/// A photographer is in a region's window when one of their photos there was uploaded in it.
/// With nothing stored after the window's end, that is when their latest upload there
/// (`region_photographer.latest`) falls after the window's start. So `region_hour` and
/// `region_day` count each (region, photographer) pair once, in the hour and in the day of its
/// latest upload, and each photo in the hour and the day of its own upload; both sum to the
/// region's counts (photos without an upload time are in neither). A window is then its
/// whole days, its whole hours before the first of those, and the part of an hour it starts
/// in, counted from those photos (`countsAfter`).
///
/// Every change is made in the transaction that changes the photos, so the buckets are exact
/// whenever the counts are: through `temp.bucket_delta` and `flush` by `CountDeltas.apply`,
/// through `add` by the new photos' counts (`PhotoWriter.addNewPhotoCounts`).
enum UploadBuckets {
    static let secondsPerHour: Int64 = 3600
    static let hoursPerDay: Int64 = 24

    /// The hour (counted from 1970, rounding down, before 1970 too) of Unix time `seconds`.
    static func hour(of seconds: Int64) -> Int64 {
        floorDivide(seconds, secondsPerHour)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// `floorDivide` in SQL (SQLite's `/` rounds toward zero).
    static func floorDivideSQL(_ value: String, _ divisor: Int64) -> String {
        "((\(value)) - (((\(value)) % \(divisor) + \(divisor)) % \(divisor))) / \(divisor)"
    }

    static func hourSQL(_ seconds: String) -> String { floorDivideSQL(seconds, secondsPerHour) }

    /// The tables, filled from what is stored (the migration that adds them).
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            -- Each pair's newest upload time in the region (NULL: none of its photos has one).
            ALTER TABLE region_photographer ADD COLUMN latest INTEGER;
            -- Per region and hour (or day) since 1970: the pairs whose latest upload falls in
            -- it, and the photos uploaded in it. Rows that would hold two zeros are removed.
            CREATE TABLE region_hour (
                hour INTEGER NOT NULL,
                region INTEGER NOT NULL REFERENCES region(id),
                photographers INTEGER NOT NULL,
                photos INTEGER NOT NULL,
                PRIMARY KEY (hour, region)
            ) WITHOUT ROWID;
            CREATE TABLE region_day (
                day INTEGER NOT NULL,
                region INTEGER NOT NULL REFERENCES region(id),
                photographers INTEGER NOT NULL,
                photos INTEGER NOT NULL,
                PRIMARY KEY (day, region)
            ) WITHOUT ROWID;
            -- The pairs by newest upload: those of the part of an hour a window starts in.
            -- (Made empty, and filled as each region's pairs are: building it after would
            -- sort every pair at once.)
            CREATE INDEX region_photographer_by_latest ON region_photographer (latest) WHERE latest IS NOT NULL;
            """)
        // Region by region, so that what is sorted is one region's photos at a time, not
        // the store's (a million photos sorted at once took 150 MB).
        try prepare(db)
        for region in try Int64.fetchAll(db, sql: "SELECT id FROM region ORDER BY id") {
            try db.execute(sql: """
                UPDATE region_photographer SET latest = l.latest
                FROM (SELECT photographer, MAX(uploaded) AS latest FROM photo INDEXED BY photo_in_region
                      WHERE region = ?1 GROUP BY photographer) AS l
                WHERE region_photographer.region = ?1 AND region_photographer.photographer = l.photographer
                """, arguments: [region])
            try db.execute(sql: """
                INSERT INTO bucket_delta (hour, region, photographers, photos)
                    SELECT \(hourSQL("latest")), region, COUNT(*), 0 FROM region_photographer
                    WHERE region = ? AND latest IS NOT NULL GROUP BY 1
                """, arguments: [region])
            try db.execute(sql: """
                INSERT INTO bucket_delta (hour, region, photographers, photos)
                    SELECT \(hourSQL("uploaded")), region, 0, COUNT(*) FROM photo INDEXED BY photo_in_region
                    WHERE region = ? AND uploaded IS NOT NULL GROUP BY 1
                """, arguments: [region])
            try flush(db)
        }
    }

    /// A count below zero: a bug, not bad input.
    static var wentNegative: Failure {
        Failure(.internalError, "internal error: the photo counts by upload time would go negative")
    }

    /// The transaction's changes to the buckets, by hour, waiting for `flush`.
    static func prepare(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS bucket_delta (
                hour INTEGER NOT NULL,
                region INTEGER NOT NULL,
                photographers INTEGER NOT NULL,
                photos INTEGER NOT NULL
            )
            """)
    }

    /// Adds the waiting changes to `region_hour` and `region_day`, and removes the rows
    /// left at zero. A count going below zero is a bug, and fails the transaction rather
    /// than store a wrong count. (Not a CHECK on the tables: SQLite checks the row an upsert
    /// would insert, a change below zero, before it finds the row to add it to.)
    static func flush(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO region_hour (hour, region, photographers, photos)
                SELECT hour, region, SUM(photographers), SUM(photos) FROM bucket_delta
                GROUP BY hour, region HAVING SUM(photographers) <> 0 OR SUM(photos) <> 0
                ON CONFLICT (hour, region) DO UPDATE SET
                    photographers = photographers + excluded.photographers, photos = photos + excluded.photos;
            DELETE FROM region_hour
                WHERE (hour, region) IN (SELECT hour, region FROM bucket_delta) AND photographers = 0 AND photos = 0;
            INSERT INTO region_day (day, region, photographers, photos)
                SELECT \(floorDivideSQL("hour", hoursPerDay)) AS day, region, SUM(photographers), SUM(photos) FROM bucket_delta
                GROUP BY day, region HAVING SUM(photographers) <> 0 OR SUM(photos) <> 0
                ON CONFLICT (day, region) DO UPDATE SET
                    photographers = photographers + excluded.photographers, photos = photos + excluded.photos;
            DELETE FROM region_day
                WHERE (day, region) IN (SELECT \(floorDivideSQL("hour", hoursPerDay)), region FROM bucket_delta)
                  AND photographers = 0 AND photos = 0;
            """)
        let negative = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM region_hour WHERE (hour, region) IN (SELECT hour, region FROM bucket_delta)
                                                       AND (photographers < 0 OR photos < 0))
                OR EXISTS (SELECT 1 FROM region_day WHERE (day, region) IN (SELECT \(floorDivideSQL("hour", hoursPerDay)), region FROM bucket_delta)
                                                      AND (photographers < 0 OR photos < 0))
            """)!
        try db.execute(sql: "DELETE FROM bucket_delta")
        if negative {
            throw wentNegative
        }
    }

    /// Adds changes counted in memory (a load's new photos) straight to the tables, without
    /// `bucket_delta`: already summed per hour and region here, so each row is upserted once,
    /// in key order, and its counts come back, so that rows left at zero go and a count below
    /// zero fails the transaction, as in `flush`. (Through `bucket_delta`, the few thousand
    /// rows of each transaction of a load were summed, upserted and checked once per pass,
    /// seven passes: a tenth of a 1M load's time.)
    static func add(_ changes: [HourRegion: Change], _ db: Database) throws {
        var days: [HourRegion: Change] = [:]
        for (key, change) in changes {
            let day = HourRegion(hour: floorDivide(key.hour, hoursPerDay), region: key.region)
            days[day, default: .init()].photographers += change.photographers
            days[day, default: .init()].photos += change.photos
        }
        try upsert(changes, into: "region_hour", key: "hour", db)
        try upsert(days, into: "region_day", key: "day", db)
    }

    private static func upsert(_ changes: [HourRegion: Change], into table: String, key: String, _ db: Database) throws {
        let rows = changes.filter { $0.value.photographers != 0 || $0.value.photos != 0 }
            .sorted { ($0.key.hour, $0.key.region) < ($1.key.hour, $1.key.region) }
        let rowsPerUpsert = 100
        var emptied: [HourRegion] = []
        for groupStart in stride(from: 0, to: rows.count, by: rowsPerUpsert) {
            let group = rows[groupStart..<min(groupStart + rowsPerUpsert, rows.count)]
            var arguments = StatementArguments()
            for (bucket, change) in group { arguments += [bucket.hour, bucket.region, change.photographers, change.photos] }
            let statement = try db.cachedStatement(sql: """
                INSERT INTO \(table) (\(key), region, photographers, photos)
                    VALUES \(Array(repeating: "(?, ?, ?, ?)", count: group.count).joined(separator: ", "))
                    ON CONFLICT (\(key), region) DO UPDATE SET
                        photographers = photographers + excluded.photographers, photos = photos + excluded.photos
                    RETURNING \(key), region, photographers, photos
                """)
            let after = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try after.next() {
                let photographers: Int64 = row[2], photos: Int64 = row[3]
                if photographers < 0 || photos < 0 {
                    throw wentNegative
                }
                if photographers == 0 && photos == 0 { emptied.append(HourRegion(hour: row[0], region: row[1])) }
            }
        }
        let delete = try BulkStatement(db, sql: "DELETE FROM \(table) WHERE \(key) = ? AND region = ?")
        for bucket in emptied {
            delete.bind(1, bucket.hour)
            delete.bind(2, bucket.region)
            try delete.run()
        }
    }

    /// An hour (or, for `region_day`, a day) and a region.
    struct HourRegion: Hashable {
        var hour: Int64
        var region: Int64
    }

    struct Change {
        var photographers: Int64 = 0
        var photos: Int64 = 0
    }
}
