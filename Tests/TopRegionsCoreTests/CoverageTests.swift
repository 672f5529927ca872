import Testing
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsSupport

/// What a window's answer says of the refreshes that fed it, as pure logic: the spans no run
/// fetched, a window after the newest photo, a window before the first.
@Suite struct CoverageTests {
    static let hour: Int64 = 3600
    /// 2025-11-22 08:00 UTC.
    static let now: Int64 = 1_763_798_400

    static func run(_ from: Int64, _ to: Int64) -> RefreshRun {
        RefreshRun(startedAt: to, from: from, to: to, flickrTotal: nil, photos: 1, complete: true)
    }

    static func window(_ text: String, end: Int64 = now) throws -> TimeWindow {
        try TimeWindow(text, end: end, endsNow: true)
    }

    @Test func aWindowFetchedWholeHasNothingToSay() throws {
        let coverage = Coverage(runs: [Self.run(Self.now - 30 * Self.hour, Self.now)], oldestUpload: Self.now - 30 * Self.hour,
                                newestUpload: Self.now - 60, knownFrom: Self.now - 30 * Self.hour)
        for text in ["1h", "24h", "all"] {
            let window = try Self.window(text)
            #expect(coverage.findings(start: window.start, end: window.end, endsNow: true).isEmpty, "\(text)")
        }
    }

    @Test func aSpanNoRunFetchedIsAGapAndSaidInWords() throws {
        let hour = Self.hour, now = Self.now
        // Fetched 24h to 8h ago and 5h ago to now: 8h to 5h ago is a gap.
        let coverage = Coverage(runs: [Self.run(now - 24 * hour, now - 8 * hour), Self.run(now - 5 * hour + 1, now)],
                                oldestUpload: now - 24 * hour, newestUpload: now - 10, knownFrom: now - 24 * hour)
        let day = try Self.window("24h")
        #expect(coverage.findings(start: day.start, end: day.end, endsNow: true)
            == [.gap(.init(from: now - 8 * hour + 1, to: now - 5 * hour, isRecent: false))])
        #expect(coverage.sentences(for: day, times: .utc) == ["no refresh covered 2025-11-22 00:00–03:00 UTC: counts in that span are missing"])
        // The last 4 hours lie after it, the last 30 days around it (but before the first
        // run, nothing is known: not a gap, yet the stored photos begin there).
        let four = try Self.window("4h")
        #expect(coverage.findings(start: four.start, end: four.end, endsNow: true).isEmpty)
        let month = try Self.window("30d")
        #expect(coverage.findings(start: month.start, end: month.end, endsNow: true) == [
            .beginsAt(now - 24 * hour), .gap(.init(from: now - 8 * hour + 1, to: now - 5 * hour, isRecent: false)),
        ])
    }

    @Test func aShortSpanBetweenRunsIsNoGapButTheTimeSinceTheLastOneIs() throws {
        let hour = Self.hour, now = Self.now
        // Cron every 20 minutes, the last run 2 hours ago.
        let ends: [Int64] = Array(stride(from: now - 24 * hour, to: now - 2 * hour, by: 1200))
        let runs: [RefreshRun] = ends.map { end in Self.run(end - 600, end) }
        let coverage = Coverage(runs: runs, oldestUpload: now - 24 * hour, newestUpload: now - 2 * hour - 300, knownFrom: runs.first!.from)
        let day = try Self.window("24h")
        let findings = coverage.findings(start: day.start, end: day.end, endsNow: true)
        #expect(findings.count == 1)
        guard case .gap(let gap) = findings.first else { Issue.record("\(findings)"); return }
        #expect(gap.isRecent && gap.to == now)
        #expect(coverage.sentences(for: day, times: .utc)
            == ["no refresh has fetched the uploads since 2025-11-22 05:40 UTC: counts since then are missing (regions-load --refresh fetches them)"])
        // A window ending in the past (--until) before that: fetched whole.
        let earlier = try TimeWindow("6h", end: now - 3 * hour, endsNow: false)
        #expect(coverage.findings(start: earlier.start, end: earlier.end, endsNow: false).isEmpty)
        // The tolerance is a tenth of a short window: a 10-minute-old last run shows in the
        // last hour, not in the last 24.
        let fresh = Coverage(runs: [Self.run(now - 24 * hour, now - 600)], oldestUpload: now - 24 * hour, newestUpload: now - 700, knownFrom: now - 24 * hour)
        let hourWindow = try Self.window("1h")
        #expect(fresh.findings(start: hourWindow.start, end: hourWindow.end, endsNow: true).count == 1)
        #expect(fresh.findings(start: day.start, end: day.end, endsNow: true).isEmpty)
    }

    @Test func aWindowAfterTheNewestPhotoSaysHowOldItIs() throws {
        let hour = Self.hour, now = Self.now
        let coverage = Coverage(runs: [Self.run(now - 12 * hour, now - 5 * hour)], oldestUpload: now - 12 * hour,
                                newestUpload: now - 5 * hour - 120, knownFrom: now - 12 * hour)
        let last = try Self.window("1h")
        #expect(coverage.findings(start: last.start, end: last.end, endsNow: true) == [.stale(newest: now - 5 * hour - 120)])
        #expect(coverage.sentences(for: last, times: .utc) == [
            "the newest stored photo is 5 hours old (uploaded 2025-11-22 02:58 UTC): nothing newer was fetched; refresh with regions-load --refresh",
        ])
        // A run that fetched up to now and found nothing newer: the empty window is the truth.
        var quiet = coverage
        quiet.runs.append(Self.run(now - 5 * hour, now))
        #expect(quiet.findings(start: last.start, end: last.end, endsNow: true).isEmpty)
    }

    @Test func photosStoredWithoutRecordedRunsAreNotGaps() throws {
        let hour = Self.hour, now = Self.now
        // Loaded from a file: no run recorded, so nothing is known of gaps.
        let loaded = Coverage(runs: [], oldestUpload: now - 24 * hour, newestUpload: now - 600, knownFrom: nil)
        let day = try Self.window("24h")
        #expect(loaded.findings(start: day.start, end: day.end, endsNow: true).isEmpty)
        #expect(loaded.findings(start: nil, end: now, endsNow: true).isEmpty)
        // Nothing stored: nothing to say (the empty answer says it).
        #expect(Coverage(runs: [], oldestUpload: nil, newestUpload: nil, knownFrom: nil).findings(start: day.start, end: now, endsNow: true).isEmpty)
    }

    @Test func manyGapsAreCountedPastTheFirstThree() throws {
        let hour = Self.hour, now = Self.now
        // One hour fetched in every three.
        let starts: [Int64] = Array(stride(from: now - 24 * hour, to: now, by: Int(3 * hour)))
        let runs: [RefreshRun] = starts.map { start in Self.run(start, start + hour - 1) }
        let coverage = Coverage(runs: runs, oldestUpload: now - 24 * hour, newestUpload: now - 2 * hour, knownFrom: now - 24 * hour)
        let day = try Self.window("24h")
        #expect(coverage.findings(start: day.start, end: day.end, endsNow: true).count == 8)
        let sentences = coverage.sentences(for: day, times: .utc)
        #expect(sentences.count == 4 && sentences.last == "and 5 more gaps in the window")
    }

    @Test func everyStoredPhotoIsSaidWithItsCountAndDays() throws {
        let coverage = Coverage(runs: [], oldestUpload: 1_761_004_800, newestUpload: 1_764_288_000, knownFrom: nil)
        #expect(coverage.phrase(for: TimeWindow.all(now: 1_764_300_000), stored: 912_004, times: TimeFormat.utc)
            == "among all 912,004 stored photos, uploaded 2025-10-21 – 2025-11-28")
        #expect(coverage.phrase(for: try Self.window("24h", end: 1_764_338_400), stored: nil, times: .utc) == "in the 24 hours to 2025-11-28 14:00 UTC")
        #expect(Grammar.grouped(0) == "0" && Grammar.grouped(999) == "999" && Grammar.grouped(1000) == "1,000" && Grammar.grouped(-1_234_567) == "-1,234,567")
        #expect(Grammar.duration(119) == "119 seconds" && Grammar.duration(7199) == "119 minutes" && Grammar.duration(7200) == "2 hours"
            && Grammar.duration(3 * 86_400 + 5) == "3 days")
    }
}
