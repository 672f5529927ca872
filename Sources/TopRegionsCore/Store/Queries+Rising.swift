import GRDB
import TopRegionsRecords

extension Queries {
    /// The `limit` regions rising most in `window` against the window before it (`RisingRule`),
    /// each with both counts; both counted from the photos in each window.
    public func risingRegions(window: TimeWindow, limit: Int) throws -> [RisingRegion] {
        guard let previous = window.previous else { return [] }
        return try store.read { db in
            let now = try Self.windowCounts(db, window)
            let before = try Self.windowCounts(db, previous)
            var rising: [(id: Int64, counts: (photographers: Int, photos: Int), before: Int)] = []
            for (region, counts) in now {
                let earlier = before[region]?.photographers ?? 0
                if RisingRegion.Rule.rises(now: counts.photographers, before: earlier) { rising.append((region, counts, earlier)) }
            }
            guard !rising.isEmpty else { return [] }
            var rows: [Int64: Row] = [:]
            try Self.inChunks(rising.map(\.id)) { marks, chunk in
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, place_id, name, sort_key, latitude, longitude FROM region WHERE id IN (\(marks))
                    """, arguments: StatementArguments(chunk)) {
                    rows[row[0]] = row
                }
            }
            let ranked = rising.compactMap { entry -> (RisingRegion, String)? in
                guard let row = rows[entry.id] else { return nil }
                let region = RegionRank(
                    rank: 0, regionID: row[1], name: row[2], photographers: entry.counts.photographers, photos: entry.counts.photos,
                    latitude: row[4], longitude: row[5])
                let growth = RisingRegion.Rule.growth(now: entry.counts.photographers, before: entry.before)
                return (RisingRegion(region: region, before: entry.before, growth: growth), row[3])
            }.sorted { a, b in
                (a.0.growth, a.0.region.photographers) != (b.0.growth, b.0.region.photographers)
                    ? (a.0.growth, a.0.region.photographers) > (b.0.growth, b.0.region.photographers)
                    : (a.1, a.0.region.regionID) < (b.1, b.0.region.regionID)
            }
            return ranked.prefix(limit).enumerated().map { index, entry in
                var rising = entry.0
                rising.region.rank = index + 1
                return rising
            }
        }
    }
}
