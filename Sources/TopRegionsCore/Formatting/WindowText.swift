import TopRegionsRecords

/// How answers say which span of upload time they cover.
extension TimeWindow {
    /// "in the 24 hours to 2026-11-28 14:00 UTC", "in the hour to ...", "among the photos
    /// uploaded up to ...", "among all stored photos".
    public func phrase(_ times: TimeFormat) -> String {
        guard length != nil else {
            return endsNow ? "among all stored photos" : "among the photos uploaded up to \(times.string(end))"
        }
        return "in the \(spanWords) to \(times.string(end))"
    }

    /// What the photos in it are: "uploaded in the 24 hours to 2026-11-28 14:00 UTC",
    /// "uploaded up to ...", "stored".
    public func uploadedPhrase(_ times: TimeFormat) -> String {
        guard length != nil else { return endsNow ? "stored" : "uploaded up to \(times.string(end))" }
        return "uploaded " + phrase(times)
    }

    /// "24 hours", "hour", "7 days", "90 minutes": the length as a person says it.
    public var spanWords: String {
        guard let seconds = length else { return "all" }
        let units: [(seconds: Int64, name: String)] = [(604_800, "week"), (86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
        // The unit it was given in, when it divides it; else the largest that does.
        let given: [Character: Int64] = ["w": 604_800, "d": 86_400, "h": 3600, "m": 60, "s": 1]
        var unit: Int64 = 1
        if let last = lengthText.last, let asGiven = given[last], seconds % asGiven == 0 {
            unit = asGiven
        } else if let largest = units.first(where: { seconds % $0.seconds == 0 }) {
            unit = largest.seconds
        }
        let name = units.first { $0.seconds == unit }?.name ?? "second"
        let count = seconds / unit
        return count == 1 ? name : "\(count) \(name)s"
    }
}

extension TimeWindow {
    /// Why a rising list in this window is empty when nothing of the window before it was
    /// ever fetched (`Queries.rising(window:limit:)`): "nothing uploaded in the 3 hours before
    /// (2025-11-22 02:26–05:26 +00:00) was fetched: no region can be said to rise against them".
    public func noBaselineSentence(_ times: TimeFormat) -> String {
        guard let previous, let start = previous.start else { return "" }
        return "nothing uploaded in the \(spanWords) before (\(times.span(start, previous.end))) was fetched: "
            + "no region can be said to rise against \(spanWords.contains(" ") ? "them" : "it")"
    }
}
