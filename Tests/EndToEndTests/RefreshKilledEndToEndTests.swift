import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 26.5 through the built binaries: the flickr-recent | place-resolve | regions-load
/// that regions-top runs to fill an empty database dies with it, and a regions-top waiting
/// for that refresh does not start its own beside it.
@Suite struct RefreshKilledEndToEndTests {
    /// The fake holds every answer back for 10 s (under the tools' 15 s stall limit, with
    /// room for the steps before the kill on a machine running many tests at once), so a
    /// regions-top killed while its flickr-recent waits for the first page has asked exactly
    /// that page. Its three stages end within a moment of it (before the fake could answer),
    /// and the regions-top started
    /// meanwhile refreshes alone once they are gone: the fake's log holds one refresh's
    /// requests, the same as the pipeline typed in a shell makes, plus the one page the killed
    /// refresh had asked. (Before: the stages ran on as orphans, and the waiting regions-top
    /// refreshed beside them, every search asked twice.)
    @Test func killingARefreshingRegionsTopEndsItsStagesAndTheNextRefreshesAlone() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(RefreshWhenEmptyEndToEndTests.world + ["--latency-ms", "10000"], scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let arguments = ["--db", db, "--format", "ndjson", "-q"]

        let killed = try Tools.start("regions-top", arguments, environment: environment)
        #expect(try Processes.within(30) { try fake.received() == 1 }, "flickr-recent never asked")
        var stages: [pid_t] = []
        #expect(Processes.within(10) {
            stages = Processes.children(of: killed.pid)
            return stages.count == 3
        }, "regions-top's stages: \(stages)")
        let waiting = try Tools.start("regions-top", arguments, environment: environment)
        #expect(kill(killed.pid, SIGKILL) == 0)
        // (Foundation's Process says a process has ended only once every descriptor it gave it
        // is closed, by its children too: /proc tells at once.)
        #expect(Processes.within(2) { Processes.hasEnded(killed.pid) })
        #expect(Processes.within(2) { stages.allSatisfy(Processes.hasEnded) }, "stages still running after their regions-top was killed: \(stages.filter { !Processes.hasEnded($0) })")
        // What the killed refresh asked is checked in the log below: the waiting one may
        // already have asked its first page here (its refresh starts as the stages end).

        // The waiting regions-top's refresh, without the latency.
        try fake.control("/_fake/faults?latency_ms=0")
        let answer = try waiting.wait()
        #expect(answer.status == 0, "\(answer.stderr)")
        let expected = try RefreshWhenEmptyEndToEndTests.byHand(scratch, db: scratch.file("by-hand.db"), arguments: ["--format", "ndjson"])
        #expect(answer.stdout == expected.answer.stdout && !answer.stdout.isEmpty)
        // Every request answered (the killed refresh's first page too, to nobody).
        #expect(try Processes.within(30) { try fake.requests().count == fake.received() })
        let requests = RefreshWhenEmptyEndToEndTests.summaries(try fake.requests())
        let firstPage = try #require(expected.requests.first { $0.contains("flickr.photos.search") && $0.contains("&page=1&") })
        #expect(requests == (expected.requests + [firstPage]).sorted())
        #expect(stages.allSatisfy(Processes.hasEnded))
        _ = try killed.wait()
        #expect(killed.process.terminationReason == .uncaughtSignal && killed.process.terminationStatus == SIGKILL)
    }
}

