import GRDB

extension UploadBuckets {
    /// Each region's distinct photographers and photos uploaded after `start`, by region row
    /// id, read from the buckets: true of a window from `start` when no photo with a region
    /// was uploaded after its end (`reachesNewest`). Regions with none are left out.
    static func countsAfter(_ start: Int64, _ db: Database) throws -> [Int64: (photographers: Int, photos: Int)] {
        let first = start + 1  // the first second the window holds
        let firstWholeSlot = -floorDivide(-first, secondsPerSlot)  // rounding up
        let firstWholeHour = -floorDivide(-firstWholeSlot, slotsPerHour)
        let firstWholeDay = -floorDivide(-firstWholeHour, hoursPerDay)
        let partialEnd = firstWholeSlot * secondsPerSlot
        var photographers: [Int64: Int] = [:], photos: [Int64: Int] = [:]
        // Its whole days, hours and slots; then the part of a slot it starts in: its photos,
        // read in upload order from an index of its own, and the pairs among them whose
        // newest upload falls in it (later ones are in the buckets), each looked up by key.
        // Plain reads summed here: as one query, SQLite's grouping of their few thousand rows
        // cost more than the reads.
        let parts: [(sql: String, arguments: [Int64])] = [
            ("SELECT region, photographers, photos FROM region_day WHERE day >= ?", [firstWholeDay]),
            ("SELECT region, photographers, photos FROM region_hour WHERE hour >= ? AND hour < ?", [firstWholeHour, firstWholeDay * hoursPerDay]),
            ("SELECT region, photographers, photos FROM region_slot WHERE slot >= ? AND slot < ?", [firstWholeSlot, firstWholeHour * slotsPerHour]),
            ("""
             SELECT region, 1, 0 FROM (
                 SELECT DISTINCT p.region, p.photographer FROM photo p INDEXED BY photo_window
                 JOIN region_photographer rp ON rp.region = p.region AND rp.photographer = p.photographer
                 WHERE p.region IS NOT NULL AND p.uploaded >= ?1 AND p.uploaded < ?2 AND rp.latest < ?2)
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
