import Testing
import TopRegionsFormatting
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
