import GRDB
import TopRegionsRecords

extension Queries {
    /// The `limit` regions rising most in `window` against the window before it (`RisingRule`),
    /// each with both counts; both counted from the photos in each window.
    public func risingRegions(window: TimeWindow, limit: Int) throws -> [RisingRegion] {
        guard let previous = window.previous else { return [] }
        return try store.read { db in
            let now = try Self.windowCounts(db, window)
            let then = try Self.windowCounts(db, previous)
            var earlier: [Int64: Int] = [:]
            for (region, counts) in now {
                let before = then[region]?.photographers ?? 0
                if RisingRegion.Rule.rises(now: counts.photographers, before: before) { earlier[region] = before }
            }
            guard !earlier.isEmpty else { return [] }
            let ranked = try Self.regionsCounted(now, ids: Array(earlier.keys), db).map { entry -> (RisingRegion, String) in
                let before = earlier[entry.id]!
                let growth = RisingRegion.Rule.growth(now: entry.region.photographers, before: before)
                return (RisingRegion(region: entry.region, before: before, growth: growth), entry.sortKey)
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
