import GRDB

extension UploadBuckets {
    /// Each region's distinct photographers and photos uploaded after `start`, by region row
    /// id, read from the buckets: true of a window from `start` when no photo with a region
    /// was uploaded after its end (`reachesNewest`). Regions with none are left out.
    static func countsAfter(_ start: Int64, _ db: Database) throws -> [Int64: (photographers: Int, photos: Int)] {
        let first = start + 1  // the first second the window holds
        let firstWholeSlot = ceilDivide(first, secondsPerSlot)
        let firstWholeHour = ceilDivide(firstWholeSlot, slotsPerHour)
        let firstWholeDay = ceilDivide(firstWholeHour, hoursPerDay)
        let partialEnd = firstWholeSlot * secondsPerSlot
        var photographers: [Int64: Int] = [:], photos: [Int64: Int] = [:]
        // Its whole days, hours and slots, summed here: as one query, SQLite's grouping of
        // their few thousand rows cost more than the reads.
        let wholeParts: [(sql: String, arguments: [Int64])] = [
            ("SELECT region, photographers, photos FROM region_day WHERE day >= ?", [firstWholeDay]),
            ("SELECT region, photographers, photos FROM region_hour WHERE hour >= ? AND hour < ?", [firstWholeHour, firstWholeDay * hoursPerDay]),
            ("SELECT region, photographers, photos FROM region_slot WHERE slot >= ? AND slot < ?", [firstWholeSlot, firstWholeHour * slotsPerHour]),
        ]
        for part in wholeParts {
            let statement = try BulkStatement(db, sql: part.sql)
            for (index, value) in part.arguments.enumerated() { statement.bind(Int32(index + 1), value) }
            try statement.forEachRow { row in
                let region = row.int(0)!
                photographers[region, default: 0] += Int(row.int(1)!)
                photos[region, default: 0] += Int(row.int(2)!)
            }
        }
        // Then the part of a slot it starts in, read once in upload order from an index of its
        // own: its photos, and the pairs among them whose newest upload falls in it (later
        // ones are in the buckets), each pair's newest looked up by key.
        let partial = try BulkStatement(db, sql: """
            SELECT p.region, p.photographer, rp.latest FROM photo p INDEXED BY photo_window
            JOIN region_photographer rp ON rp.region = p.region AND rp.photographer = p.photographer
            WHERE p.region IS NOT NULL AND p.uploaded >= ?1 AND p.uploaded < ?2
            """)
        partial.bind(1, first)
        partial.bind(2, partialEnd)
        struct Pair: Hashable { var region, photographer: Int64 }
        var pairsEndingHere = Set<Pair>()
        try partial.forEachRow { row in
            let region = row.int(0)!
            photos[region, default: 0] += 1
            if row.int(2)! < partialEnd, pairsEndingHere.insert(Pair(region: region, photographer: row.int(1)!)).inserted {
                photographers[region, default: 0] += 1
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
