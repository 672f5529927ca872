import GRDB
import TopRegionsRecords

extension Queries {
    /// The `limit` regions rising most in `window` against the window before it (`RisingRule`),
    /// each with both counts; both counted from the photos in each window. None when nothing
    /// was ever fetched of the window before (`rising(window:limit:)`): its zeros are not counts.
    public func risingRegions(window: TimeWindow, limit: Int) throws -> [RisingRegion] {
        try rising(window: window, limit: limit).rows
    }

    /// The rising regions (`risingRegions`), and whether none can be ranked because nothing
    /// was ever fetched of the window before (no photo stored in it, no refresh reaching into
    /// it), from one reading of the window before.
    public func rising(window: TimeWindow, limit: Int) throws -> (rows: [RisingRegion], noBaseline: Bool) {
        guard let previous = window.previous else { return ([], false) }
        return try store.read { db in
            let then = try Self.windowCounts(db, previous)
            if then.isEmpty, try Self.neverFetched(db, previous) { return ([], true) }
            let now = try Self.windowCounts(db, window)
            var earlier: [Int64: Int] = [:]
            for (region, counts) in now {
                let before = then[region]?.photographers ?? 0
                if RisingRegion.Rule.rises(now: counts.photographers, before: before) { earlier[region] = before }
            }
            guard !earlier.isEmpty else { return ([], false) }
            let ranked = try Self.regionsCounted(now, ids: Array(earlier.keys), db).map { entry -> (RisingRegion, String) in
                let before = earlier[entry.id]!
                let growth = RisingRegion.Rule.growth(now: entry.region.photographers, before: before)
                return (RisingRegion(region: entry.region, before: before, growth: growth), entry.sortKey)
            }.sorted { a, b in
                (a.0.growth, a.0.region.photographers) != (b.0.growth, b.0.region.photographers)
                    ? (a.0.growth, a.0.region.photographers) > (b.0.growth, b.0.region.photographers)
                    : (a.1, a.0.region.regionID) < (b.1, b.0.region.regionID)
            }
            return (ranked.prefix(limit).enumerated().map { index, entry in
                var rising = entry.0
                rising.region.rank = index + 1
                return rising
            }, false)
        }
    }
}

extension Queries {
    /// Whether `window` holds no stored photo and was never fetched (`Coverage.neverFetched`).
    static func neverFetched(_ db: Database, _ window: TimeWindow) throws -> Bool {
        guard let start = window.start else { return false }
        let stored = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE uploaded > ? AND uploaded <= ?)", arguments: [start, window.end])!
        return try !stored && Self.coverage(db, start: start, end: window.end).neverFetched(start: start, end: window.end)
    }
}
