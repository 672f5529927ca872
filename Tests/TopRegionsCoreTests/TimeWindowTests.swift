import Testing
@testable import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsSupport

/// Windows of upload time, and the rule of rising regions, as pure logic.
@Suite struct TimeWindowTests {
    @Test func aWindowHoldsWhatWasUploadedAfterItsStartUpToItsEnd() throws {
        let window = try TimeWindow("1h", end: 10_000, endsNow: true)
        #expect(window.length == 3600 && window.start == 6400)
        #expect(!window.holds(6400) && window.holds(6401) && window.holds(10_000) && !window.holds(10_001) && !window.holds(nil))
        let until = try TimeWindow("all", end: 10_000, endsNow: false)
        #expect(until.holds(1) && until.holds(10_000) && !until.holds(10_001) && !until.holds(nil))
        let everything = try TimeWindow("all", end: 10_000, endsNow: true)
        #expect(everything.isEverything && everything.holds(nil) && everything.holds(99_999))
        #expect(window.previous == TimeWindow(length: 3600, lengthText: "1h", end: 6400, endsNow: false))
    }

    @Test(arguments: [("1h", "hour"), ("24h", "24 hours"), ("7d", "7 days"), ("90m", "90 minutes"), ("1d", "day"), ("2w", "2 weeks"), ("3600s", "3600 seconds")])
    func aWindowSaysItsSpanAsAPersonWould(_ text: String, _ words: String) throws {
        #expect(try TimeWindow(text, end: 0, endsNow: true).spanWords == words)
    }

    @Test(arguments: ["0h", "7", "-3d", "1y2", "", "h", "1.5.2h"])
    func aWindowThatCannotMeanAnythingSaysWhatWouldWork(_ text: String) {
        #expect(throws: QuantityProblem.self) { try TimeWindow(text, end: 0, endsNow: true) }
        do {
            _ = try TimeWindow(text, end: 0, endsNow: true)
        } catch {
            #expect(error.description.hasSuffix("; a window is a number and a unit (1h, 6h, 24h, 7d, 30d, 90m) or all"), "\(text)")
        }
    }

    /// What is wrong is said as it is: a sign, a unit that could be a month or a minute, a
    /// length past what any window holds, a zero (whose example is not itself refused).
    @Test(arguments: [
        ("-1h", "'-1h' is negative: an age counts back from now, and is written without a sign (e.g. 1h)"),
        ("1M", "'1M': M is not a unit of time here (minutes are m; for months give days, e.g. 30d)"),
        ("1000000w", "'1000000w' is too long: an age is at most about 3,000 years"),
        ("0", "'0' is no time at all: give more than 0 (e.g. 1h, 24h, 7d)"),
        ("12", "'12' has no unit: write it with one of s, m, h, d, w (e.g. 12d for days)"),
    ])
    func aWindowsProblemIsSaidAsItIs(_ text: String, _ problem: String) {
        do {
            _ = try TimeWindow(text, end: 0, endsNow: true)
            Issue.record("'\(text)' was taken")
        } catch {
            #expect(error.description == problem + TimeWindow.forms)
        }
    }

    /// A feed's id names its window's length one way whatever it was written as, and a window
    /// ending in the past is another feed.
    @Test func aFeedsIdNamesItsWindowOneWay() throws {
        #expect(AtomFeed.canonicalLength(try TimeWindow("1w", end: 0, endsNow: true)) == "7d")
        #expect(AtomFeed.canonicalLength(try TimeWindow("168h", end: 0, endsNow: true)) == "7d")
        #expect(AtomFeed.canonicalLength(try TimeWindow("24h", end: 0, endsNow: true)) == "24h")
        #expect(AtomFeed.canonicalLength(try TimeWindow("1d", end: 0, endsNow: true)) == "24h")
        #expect(AtomFeed.canonicalLength(try TimeWindow("90m", end: 0, endsNow: true)) == "90m")
        let region = RegionRank(rank: 1, regionID: "R1", name: "Somewhere", photographers: 3, photos: 4, latitude: nil, longitude: nil)
        let list = PhotoList(.region(region), window: try TimeWindow("1w", end: 1_800_000_000, endsNow: false))
        let feed = String(decoding: AtomFeed.photos([], list: list, links: .files(list), now: 1_800_000_000), as: UTF8.self)
        #expect(feed.contains("<id>tag:topregions,2026:region/R1/7d/to/1800000000</id>"))
    }

    /// 1 -> 3 photographers does not outrank 40 -> 90: the floor.
    @Test func risingNeedsHalfAgainAsManyCountingFewerThanTenAsTen() {
        typealias Rule = RisingRegion.Rule
        #expect(!Rule.rises(now: 3, before: 1))
        #expect(Rule.rises(now: 90, before: 40))
        #expect(Rule.growth(now: 90, before: 40) > Rule.growth(now: 3, before: 1))
        #expect(Rule.rises(now: 15, before: 0) && !Rule.rises(now: 14, before: 0))
        #expect(Rule.rises(now: 15, before: 10) && !Rule.rises(now: 14, before: 10))
        #expect(!Rule.rises(now: 510, before: 500), "a large region that stays as it is")
    }
}
