import TopRegionsRecords
import TopRegionsSupport

/// How answers say what the refreshes covered of their window: on stderr, and as notices on
/// the pages, in the same words.
extension Coverage {
    /// At most `limit` sentences on what `window`'s counts lack: a span no refresh fetched,
    /// a window after the newest stored photo, a window reaching before the first.
    public func sentences(for window: TimeWindow, times: TimeFormat, limit: Int = 3) -> [String] {
        let findings = self.findings(start: window.start, end: window.end, endsNow: window.endsNow)
        var sentences = findings.prefix(limit).map { $0.sentence(times, now: window.end, endsNow: window.endsNow) }
        if findings.count > limit {
            sentences.append("and \(Grammar.count(findings.count - limit, "more gap")) in the window")
        }
        return sentences
    }

    /// "among all 912,004 stored photos, uploaded 2026-10-21 – 2026-11-28" for every stored
    /// photo (`stored`: how many), else the window's own phrase.
    public func phrase(for window: TimeWindow, stored: Int?, times: TimeFormat) -> String {
        guard window.isEverything, let stored, let oldest = oldestUpload, let newest = newestUpload else { return window.phrase(times) }
        return "among all \(Grammar.grouped(stored)) stored \(stored == 1 ? "photo" : "photos"), uploaded \(times.days(oldest, newest))"
    }
}

extension Coverage.Finding {
    /// The finding in words; `now`: where the window ends, the present unless `endsNow` is
    /// false (--until).
    public func sentence(_ times: TimeFormat, now: Int64, endsNow: Bool = true) -> String {
        switch self {
        case .stale(let newest) where !endsNow:
            "the newest stored photo was uploaded \(Grammar.duration(now - newest)) before the window's end "
                + "(at \(times.string(newest))): nothing newer was fetched"
        case .stale(let newest):
            "the newest stored photo is \(Grammar.duration(now - newest)) old (uploaded \(times.string(newest))): "
                + "nothing newer was fetched; refresh with regions-load --refresh"
        case .beginsAt(let first):
            "nothing uploaded before \(times.string(first)) was fetched: counts before then are missing"
        case .gap(let gap) where gap.isRecent:
            "no refresh has fetched the uploads since \(times.string(gap.from)): counts since then are missing "
                + "(regions-load --refresh fetches them)"
        case .gap(let gap):
            "no refresh covered \(times.span(gap.from, gap.to + 1)): counts in that span are missing"
        }
    }
}
