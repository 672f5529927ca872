import GRDB

extension UploadBuckets {
    /// Each region's distinct photographers and photos uploaded after `start`, by region row
    /// id, read from the buckets: true of a window from `start` when no photo with a region
    /// was uploaded after its end (`reachesNewest`). Regions with none are left out.
    static func countsAfter(_ start: Int64, _ db: Database) throws -> [Int64: (photographers: Int, photos: Int)] {
        let first = start + 1  // the first second the window holds
        let firstWholeHour = -floorDivide(-first, secondsPerHour)  // rounding up
        let firstWholeDay = -floorDivide(-firstWholeHour, hoursPerDay)
        let partialEnd = firstWholeHour * secondsPerHour
        var photographers: [Int64: Int] = [:], photos: [Int64: Int] = [:]
        // Its whole days and hours; then the part of an hour it starts in: the pairs whose
        // newest upload falls in it (later ones are in the buckets), and its photos, each
        // read in upload order from an index of its own. Four plain reads summed here: as
        // one query, SQLite's grouping of their few thousand rows cost more than the reads.
        let parts: [(sql: String, arguments: [Int64])] = [
            ("SELECT region, photographers, photos FROM region_day WHERE day >= ?", [firstWholeDay]),
            ("SELECT region, photographers, photos FROM region_hour WHERE hour >= ? AND hour < ?", [firstWholeHour, firstWholeDay * hoursPerDay]),
            ("""
             SELECT region, 1, 0 FROM region_photographer INDEXED BY region_photographer_by_latest
             WHERE latest >= ? AND latest < ?
             """, [first, partialEnd]),
            ("""
             SELECT region, 0, 1 FROM photo INDEXED BY photo_window WHERE region IS NOT NULL AND uploaded >= ? AND uploaded < ?
             """, [first, partialEnd]),
        ]
        for part in parts {
            let statement = try BulkStatement(db, sql: part.sql)
            for (index, value) in part.arguments.enumerated() { statement.bind(Int32(index + 1), value) }
            try statement.forEachRow { row in
                let region = row.int(0)!
                photographers[region, default: 0] += Int(row.int(1)!)
                photos[region, default: 0] += Int(row.int(2)!)
            }
        }
        var counts: [Int64: (photographers: Int, photos: Int)] = [:]
        for (region, photos) in photos where photos > 0 { counts[region] = (photographers[region] ?? 0, photos) }
        return counts
    }

    /// Whether no photo with a region was uploaded after `end`: then a window ending at `end`
    /// holds everything after its start, and `countsAfter` answers it.
    static func reachesNewest(_ end: Int64, _ db: Database) throws -> Bool {
        // (NULL sorts first: the last row is the newest upload, unless none has one.)
        let newest = try Int64.fetchOne(db, sql: """
            SELECT uploaded FROM photo INDEXED BY photo_window WHERE region IS NOT NULL ORDER BY uploaded DESC LIMIT 1
            """)
        return newest.map { $0 <= end } ?? true
    }
}
