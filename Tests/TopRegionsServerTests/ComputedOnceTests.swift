import Foundation
import Synchronization
import Testing
@testable import TopRegionsServer
@testable import TopRegionsStore

/// The server's cache of what pages compute from whole lists.
@Suite struct ComputedOnceTests {
    static func stamp(_ content: Int64) -> ChangeStamp { ChangeStamp(content: content, views: nil) }

    /// Whatever is asked, what is kept stays within its bytes, least recently used out first;
    /// a value larger than the whole cap is served, not kept. Regression: 64 entries of any
    /// size (200 broad searches of 7 MB each made the server 490 MB).
    @Test func whatIsKeptStaysWithinItsBytes() throws {
        let cache = ComputedOnce<[UInt8]>(capacityBytes: 1_000) { $0.count }
        for index in 0..<200 {
            let value = try cache.value(for: "search \(index)", stamp: Self.stamp(1)) { [UInt8](repeating: 1, count: 300) }
            #expect(value.count == 300)
            #expect(cache.keptBytes <= 1_000)
        }
        #expect(cache.keptBytes == 900)
        // The three last used are kept: asked again, they are not computed.
        for index in 197..<200 {
            _ = try cache.value(for: "search \(index)", stamp: Self.stamp(1)) { Issue.record("computed again"); return [] }
        }
        let huge = try cache.value(for: "huge", stamp: Self.stamp(1)) { [UInt8](repeating: 2, count: 5_000) }
        #expect(huge.count == 5_000 && cache.keptBytes == 900)
    }

    /// What another site's page asks for is computed for it and never kept.
    @Test func aValueNotToBeKeptTakesNoPlace() throws {
        let cache = ComputedOnce<[UInt8]>(capacityBytes: 1_000) { $0.count }
        _ = try cache.value(for: "mine", stamp: Self.stamp(1)) { [1, 2, 3] }
        for index in 0..<50 {
            _ = try cache.value(for: "theirs \(index)", stamp: Self.stamp(1), keep: false) { [UInt8](repeating: 0, count: 900) }
        }
        #expect(cache.keptBytes == 3)
        let computed = Atomic(0)
        _ = try cache.value(for: "mine", stamp: Self.stamp(1)) { computed.add(1, ordering: .relaxed); return [] }
        #expect(computed.load(ordering: .relaxed) == 0)
    }

    /// After a change, one request computes the value again; the others asking meanwhile get
    /// the value from before the change at once instead of waiting for it. With nothing
    /// kept, they wait for the one computing, and nobody computes it twice.
    @Test func othersGetThePreviousValueWhileOneComputes() throws {
        // What is kept is older than `staleFor` when the change comes: the first request
        // after it computes (and waits).
        let clock = Mutex<Double>(0)
        let cache = ComputedOnce<Int>(capacityBytes: 1_000, staleFor: 5, now: { clock.withLock { $0 } }) { _ in 8 }
        _ = try cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        clock.withLock { $0 = 60 }
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let computing = Thread {
            defer { done.signal() }
            let fresh = try? cache.value(for: "all", stamp: Self.stamp(2)) {
                started.signal()
                release.wait()
                return 200
            }
            #expect(fresh == 200)
        }
        computing.start()
        started.wait()
        #expect(try cache.value(for: "all", stamp: Self.stamp(2)) { Issue.record("computed twice"); return 0 } == 100)
        release.signal()
        // Once computed, every request gets the new value.
        done.wait()
        #expect(try cache.value(for: "all", stamp: Self.stamp(2)) { Issue.record("computed again"); return 0 } == 200)
    }

    /// While changes follow one another (a load committing every second), what was computed
    /// less than `staleFor` ago is served at once, even to the first request after a change,
    /// and computed again beside it: no request waits for a whole list (p99 beside a 200k
    /// load: 913 ms before). `forget` (the server's own changes) makes the next one exact.
    @Test func aRecentValueIsServedAtOnceAndComputedAgainBesideTheAnswer() throws {
        let clock = Mutex<Double>(0)
        let cache = ComputedOnce<Int>(capacityBytes: 1_000, staleFor: 5, now: { clock.withLock { $0 } }) { _ in 8 }
        _ = try cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        clock.withLock { $0 = 2 }
        let computed = DispatchSemaphore(value: 0)
        let answer = try cache.value(for: "all", stamp: Self.stamp(2)) {
            defer { computed.signal() }
            return 200
        }
        #expect(answer == 100)
        computed.wait()
        // Kept once computed beside: the next request gets it without computing. (The
        // semaphore is signalled as the value is returned; asking until it is kept.)
        var next = 0
        repeat {
            next = try cache.value(for: "all", stamp: Self.stamp(2)) { 200 }
        } while next != 200
        #expect(try cache.value(for: "all", stamp: Self.stamp(2)) { Issue.record("computed again"); return 0 } == 200)

        cache.forget()
        #expect(try cache.value(for: "all", stamp: Self.stamp(3)) { 300 } == 300)
    }
    /// While a load commits again and again, a value computed less than `recomputeAfter` ago
    /// is served after each change without being computed again; the first request after
    /// that computes it beside the answer (once, however many changes came). Before, every
    /// change had each list computed again, each outdated by the next commit.
    @Test func aValueIsComputedAgainAtMostEveryRecomputeAfterWhileChangesFollow() throws {
        let clock = Mutex<Double>(0)
        let cache = ComputedOnce<Int>(capacityBytes: 1_000, staleFor: 5, recomputeAfter: 2, now: { clock.withLock { $0 } }) { _ in 8 }
        let never: @Sendable () throws -> Int = { Issue.record("computed"); return 0 }
        _ = try cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        // Commits at 0.5, 1 and 1.9 s: each served what was kept, nothing computed.
        for (time, stamp) in [(0.5, Int64(2)), (1.0, 3), (1.9, 4)] {
            clock.withLock { $0 = time }
            #expect(try cache.value(for: "all", stamp: Self.stamp(stamp), never) == 100)
            #expect(cache.kept(for: "all", stamp: Self.stamp(stamp), never) == 100)
        }
        // 2 s after it was computed: served, and computed again beside the answer.
        clock.withLock { $0 = 2.1 }
        let computed = DispatchSemaphore(value: 0)
        #expect(cache.kept(for: "all", stamp: Self.stamp(5)) { defer { computed.signal() }; return 500 } == 100)
        computed.wait()
        // Kept once computed beside (the semaphore is signalled as the value is returned).
        var next: Int?
        let deadline = Date().addingTimeInterval(10)
        repeat { next = cache.kept(for: "all", stamp: Self.stamp(5)) { 500 } } while next != 500 && Date() < deadline
        #expect(next == 500)
        // The next commit soon after is served that value, not computed again.
        clock.withLock { $0 = 2.5 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(6), never) == 500)
    }

    /// What was computed long ago but asked for since with the database unchanged is as
    /// recent as that asking: the first change after it (a cron load's first commit while
    /// people browse lists computed minutes before) is served at once and computed beside.
    /// Regression: that one request per list waited for it (650 ms for All beside a load).
    @Test func aValueAskedForUnchangedIsRecentFromThen() throws {
        let clock = Mutex<Double>(0)
        let cache = ComputedOnce<Int>(capacityBytes: 1_000, staleFor: 5, now: { clock.withLock { $0 } }) { _ in 8 }
        let never: @Sendable () throws -> Int = { Issue.record("computed"); return 0 }
        _ = try cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        clock.withLock { $0 = 58 }
        #expect(try cache.value(for: "all", stamp: Self.stamp(1), never) == 100)
        clock.withLock { $0 = 60 }
        let computed = DispatchSemaphore(value: 0)
        #expect(cache.kept(for: "all", stamp: Self.stamp(2)) { defer { computed.signal() }; return 200 } == 100)
        computed.wait()
        var next: Int?
        repeat { next = cache.kept(for: "all", stamp: Self.stamp(2), never) } while next != 200
        // Nobody asked for 5 s before the next change: its first request computes and waits.
        clock.withLock { $0 = 66 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(3), never) == nil)
        #expect(try cache.value(for: "all", stamp: Self.stamp(3)) { 300 } == 300)
    }

    /// `kept` answers what `value` would answer at once and nothing else: nil where `value`
    /// would compute (nothing kept, a change past `staleFor`, `exact`) or wait (another request
    /// computing it with nothing kept); never computing in the caller's thread. A served page
    /// reads quick pages on its readers' threads by it and sends the others where waiting costs nothing.
    @Test func keptAnswersOnlyWhatNeedsNoComputingNorWaiting() throws {
        let clock = Mutex<Double>(0)
        let cache = ComputedOnce<Int>(capacityBytes: 1_000, staleFor: 5, now: { clock.withLock { $0 } }) { _ in 8 }
        let never: @Sendable () throws -> Int = { Issue.record("computed"); return 0 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(1), never) == nil)
        _ = try cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(1), never) == 100)
        #expect(cache.kept(for: "region", stamp: Self.stamp(1), never) == nil)
        // A change long after it was computed, or a list that must be exact: computed by `value`.
        clock.withLock { $0 = 10 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(2), never) == nil)
        #expect(try cache.value(for: "all", stamp: Self.stamp(2)) { 200 } == 200)
        // A change soon after: served as kept, computed again beside the answer.
        clock.withLock { $0 = 12 }
        #expect(cache.kept(for: "all", stamp: Self.stamp(3), exact: true, never) == nil)
        let computed = DispatchSemaphore(value: 0)
        #expect(cache.kept(for: "all", stamp: Self.stamp(3)) { defer { computed.signal() }; return 300 } == 200)
        computed.wait()
        var next: Int?
        repeat { next = cache.kept(for: "all", stamp: Self.stamp(3), never) } while next != 300
    }
}
