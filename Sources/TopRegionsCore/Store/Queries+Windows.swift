import GRDB
import TopRegionsRecords

// Counting in a time window: from the upload buckets when the window reaches the newest
// upload (the last hour, day or week to now), else from the photos in it.

extension Queries {
    /// Each region's distinct photographers and photos in `window`, by region row id; regions
    /// with none are left out.
    static func windowCounts(_ db: Database, _ window: TimeWindow) throws -> [Int64: (photographers: Int, photos: Int)] {
        if let start = window.start, try UploadBuckets.reachesNewest(window.end, db) {
            return try UploadBuckets.countsAfter(start, db)
        }
        return try scannedCounts(db, window)
    }

    /// `windowCounts` read from the photos in the window, through `photo_window` (their
    /// upload times with their region and photographer) alone. Each photo's pair goes into an
    /// array as one number, region in the high bits; sorted, a region's pairs lie together and
    /// each distinct pair once in a run, which costs less than SQLite's grouping for
    /// COUNT(DISTINCT) or a hashed set.
    static func scannedCounts(_ db: Database, _ window: TimeWindow) throws -> [Int64: (photographers: Int, photos: Int)] {
        let statement = try BulkStatement(db, sql: """
            SELECT region, photographer FROM photo INDEXED BY photo_window
            WHERE region IS NOT NULL AND uploaded > ?1 AND uploaded <= ?2
            """)
        statement.bind(1, window.start ?? Int64.min)
        statement.bind(2, window.end)
        var pairs: [UInt64] = []
        var wide: [PairKey] = []  // ids beyond the packing (never, in practice)
        try statement.forEachRow { row in
            // Neither is NULL: photo_window holds photos with a region, and every photo has a photographer.
            let region = row.requiredInt(0), photographer = row.requiredInt(1)
            if let packed = PairKey.packed(region: region, photographer: photographer) {
                pairs.append(packed)
            } else {
                wide.append(PairKey(region: region, photographer: photographer))
            }
        }
        pairs.sort()
        wide.sort()
        var counts: [Int64: (photographers: Int, photos: Int)] = [:]
        func count<Key: Comparable>(_ keys: [Key], region: (Key) -> Int64) {
            var index = 0
            while index < keys.count {
                let current = region(keys[index])
                var photographers = 0, photos = 0
                while index < keys.count, region(keys[index]) == current {
                    if photos == 0 || keys[index] != keys[index - 1] { photographers += 1 }
                    photos += 1
                    index += 1
                }
                counts[current, default: (0, 0)].photographers += photographers
                counts[current, default: (0, 0)].photos += photos
            }
        }
        count(pairs) { Int64($0 >> PairKey.photographerBits) }
        count(wide) { $0.region }
        return counts
    }

    /// A (region, photographer) pair, ordered by region, then photographer.
    struct PairKey: Comparable {
        var region: Int64
        var photographer: Int64

        static func < (a: PairKey, b: PairKey) -> Bool {
            (a.region, a.photographer) < (b.region, b.photographer)
        }

        static let photographerBits: UInt64 = 40

        /// The pair as one number ordered the same way, when both row ids fit (regions
        /// below 2^24, photographers below 2^40).
        static func packed(region: Int64, photographer: Int64) -> UInt64? {
            guard region >= 0, region < 1 << 24, photographer >= 0, photographer < 1 << 40 else { return nil }
            return UInt64(region) << photographerBits | UInt64(photographer)
        }
    }

    /// The `limit` regions with the most photographers in `counts`, then by name, then id.
    static func ranked(_ counts: [Int64: (photographers: Int, photos: Int)], limit: Int, _ db: Database) throws -> [RegionRank] {
        guard limit > 0, !counts.isEmpty else { return [] }
        // Only the regions that can be in the first `limit` (ties at the last place included)
        // are read and ordered by name.
        let byPhotographers = counts.sorted { $0.value.photographers > $1.value.photographers }
        let floor = byPhotographers[min(limit, byPhotographers.count) - 1].value.photographers
        let candidates = byPhotographers.prefix { $0.value.photographers >= floor }.map(\.key)
        let ordered = try regionsCounted(counts, ids: candidates, db).sorted { a, b in
            if a.region.photographers != b.region.photographers { return a.region.photographers > b.region.photographers }
            // As SQLite orders the texts (byte by byte), like the ranking without a window.
            return a.sortKey != b.sortKey ? a.sortKey.precedesInSQLite(b.sortKey) : a.region.regionID.precedesInSQLite(b.region.regionID)
        }
        return ordered.prefix(limit).enumerated().map { index, entry in
            var region = entry.region
            region.rank = index + 1
            return region
        }
    }

    /// The regions `ids` names (those still there), unranked, each with its row id, its counts
    /// from `counts` and the key its name sorts by.
    static func regionsCounted(
        _ counts: [Int64: (photographers: Int, photos: Int)], ids: [Int64], _ db: Database
    ) throws -> [(id: Int64, region: RegionRank, sortKey: String)] {
        var regions: [(id: Int64, region: RegionRank, sortKey: String)] = []
        // The ids bound as one JSON array: one statement, prepared once, whatever their number.
        for row in try Row.fetchAllCached(db, sql: """
            SELECT id, place_id, name, sort_key, latitude, longitude FROM region WHERE id IN (SELECT value FROM json_each(?))
            """, arguments: [jsonArray(ids)]) {
            let count = counts[row[0]] ?? (0, 0)
            regions.append((row[0], RegionRank(
                rank: 0, regionID: row[1], name: row[2], photographers: count.photographers, photos: count.photos,
                latitude: row[4], longitude: row[5]), row[3]))
        }
        return regions
    }
}
