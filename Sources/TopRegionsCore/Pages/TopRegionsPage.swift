import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore

extension HTMLPage {
    /// The top regions' page (`regions`) with its window said as the store knows it: how many
    /// photos are stored and since when (every stored photo, the window ending at `end`), and
    /// what the refreshes missed of it (at most `sentences` gaps). The same for the served
    /// page, the export and regions-top's.
    public static func regions(
        _ rows: [RegionRank], window: TimeWindow?, end: Int64, queries: Queries, site: Site = .files, times: TimeFormat, sentences: Int = 3
    ) throws -> [UInt8] {
        let counted = window ?? .all(now: end)
        let coverage = try queries.coverage(start: counted.start, end: counted.end)
        return regions(
            rows, site: site, window: window, times: times,
            phrase: coverage.phrase(for: counted, stored: window == nil ? try queries.photoCount() : nil, times: times),
            coverage: coverage.sentences(for: counted, times: times, limit: sentences))
    }
}
