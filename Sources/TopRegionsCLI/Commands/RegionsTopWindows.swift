import Foundation
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// regions-top's windows: the span of upload time --window and --until give, and what it
/// says on stderr of what the refreshes covered of it.
extension RegionsTop {
    /// Says on stderr which span of upload time the answer covers, and what the refreshes
    /// missed of it (every gap with -v, the first three otherwise).
    func sayCoverage(of window: TimeWindow, _ queries: Queries, times: TimeFormat, _ context: ToolContext) throws {
        let counted = rising ? window.withPrevious : window
        let coverage = try queries.coverage(start: counted.start, end: counted.end)
        if rising {
            context.note("the regions rising \(window.phrase(times)) against the \(window.spanWords) before")
        } else {
            // "the photos in the 24 hours to ...", "among all 912,004 stored photos, uploaded ...".
            let phrase = coverage.phrase(for: window, stored: window.isEverything ? try queries.photoCount() : nil, times: times)
            context.note(window.length == nil ? phrase : "the photos \(phrase)")
        }
        for sentence in coverage.sentences(for: counted, times: times, limit: context.isVerbose ? .max : 3) {
            context.note(sentence)
        }
    }

    /// The span of upload time --window and --until give; nil for every stored photo. An end
    /// in the future, or before the first photo stored, is a usage error.
    func timeWindow(_ queries: Queries, _ context: ToolContext, defaultSpan: String? = nil) throws -> TimeWindow? {
        guard window != nil || until != nil || defaultSpan != nil else { return nil }
        let now = context.nowSeconds
        var end = now
        if let until {
            let timeZone = utc ? TimeZone(identifier: "UTC")! : Units.localTimeZone(environment: context.environment)
            guard let time = Units.parseTime(until, now: context.now(), timeZone: timeZone) else {
                throw ToolError(.usage, "--until: cannot read '\(until)' as a time; give \(Units.timeForms)")
            }
            let times = utc ? TimeFormat.utc : TimeFormat.local
            // Before Unix time began no photo was uploaded (and its dates would not read right).
            guard time >= 0 else {
                throw ToolError(.usage, "--until: '\(until)' is before 1970-01-01, when Unix time begins; nothing is in that window")
            }
            guard time <= now else {
                throw ToolError(.usage, "--until: \(times.string(time)) is in the future; a window ends now at the latest (leave --until out)")
            }
            if let first = try queries.oldestUpload(), time < first {
                throw ToolError(.usage, "--until: \(times.string(time)) is before the first stored photo (uploaded \(times.string(first))); nothing is in that window")
            }
            end = time
        }
        do {
            let window = try TimeWindow(window ?? defaultSpan ?? "all", end: end, endsNow: until == nil)
            return window.isEverything ? nil : window
        } catch {
            throw ToolError(.usage, "--window: \(error)")
        }
    }
}
