import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore

/// A rising list with what it must say beside its rows, read once for every form that shows
/// it (regions-top, the served page and feed, the export): what the refreshes missed of its
/// two windows, and whether nothing of the window before was ever fetched (then no region is
/// ranked, and it says why instead of "no region rose").
public struct RisingAnswer: Sendable {
    public var window: TimeWindow
    public var rows: [RisingRegion]
    /// `Coverage.sentences` for the window and the one before it together.
    public var coverage: [String]
    /// Nothing of the window before was ever fetched (`Queries.rising(window:limit:)`).
    public var noBaseline: Bool

    /// `sentences`: at most this many gaps said (every one with -v).
    public init(_ window: TimeWindow, _ queries: Queries, limit: Int, times: TimeFormat, sentences: Int = 3) throws {
        self.window = window
        (rows, coverage, noBaseline) = try queries.store.read { _ in
            let counted = window.withPrevious
            let (rows, noBaseline) = try queries.rising(window: window, limit: limit)
            return (rows, try queries.coverage(start: counted.start, end: counted.end).sentences(for: counted, times: times, limit: sentences), noBaseline)
        }
    }

    /// Everything it says of its coverage, as the feed's subtitle says it.
    public func notes(_ times: TimeFormat) -> [String] {
        coverage + (noBaseline ? [window.noBaselineSentence(times)] : [])
    }
}
