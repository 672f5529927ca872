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
    @Test func whatIsKeptStaysWithinItsBytes() {
        let cache = ComputedOnce<[UInt8]>(capacityBytes: 1_000) { $0.count }
        for index in 0..<200 {
            let value = cache.value(for: "search \(index)", stamp: Self.stamp(1)) { [UInt8](repeating: 1, count: 300) }
            #expect(value.count == 300)
            #expect(cache.keptBytes <= 1_000)
        }
        #expect(cache.keptBytes == 900)
        // The three last used are kept: asked again, they are not computed.
        for index in 197..<200 {
            _ = cache.value(for: "search \(index)", stamp: Self.stamp(1)) { Issue.record("computed again"); return [] }
        }
        let huge = cache.value(for: "huge", stamp: Self.stamp(1)) { [UInt8](repeating: 2, count: 5_000) }
        #expect(huge.count == 5_000 && cache.keptBytes == 900)
    }

    /// What another site's page asks for is computed for it and never kept.
    @Test func aValueNotToBeKeptTakesNoPlace() {
        let cache = ComputedOnce<[UInt8]>(capacityBytes: 1_000) { $0.count }
        _ = cache.value(for: "mine", stamp: Self.stamp(1)) { [1, 2, 3] }
        for index in 0..<50 {
            _ = cache.value(for: "theirs \(index)", stamp: Self.stamp(1), keep: false) { [UInt8](repeating: 0, count: 900) }
        }
        #expect(cache.keptBytes == 3)
        let computed = Atomic(0)
        _ = cache.value(for: "mine", stamp: Self.stamp(1)) { computed.add(1, ordering: .relaxed); return [] }
        #expect(computed.load(ordering: .relaxed) == 0)
    }

    /// After a change, one request computes the value again; the others asking meanwhile get
    /// the value from before the change at once instead of waiting for it. With nothing
    /// kept, they wait for the one computing, and nobody computes it twice.
    @Test func othersGetThePreviousValueWhileOneComputes() {
        let cache = ComputedOnce<Int>(capacityBytes: 1_000) { _ in 8 }
        _ = cache.value(for: "all", stamp: Self.stamp(1)) { 100 }
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let computing = Thread {
            defer { done.signal() }
            let fresh = cache.value(for: "all", stamp: Self.stamp(2)) {
                started.signal()
                release.wait()
                return 200
            }
            #expect(fresh == 200)
        }
        computing.start()
        started.wait()
        #expect(cache.value(for: "all", stamp: Self.stamp(2)) { Issue.record("computed twice"); return 0 } == 100)
        release.signal()
        // Once computed, every request gets the new value.
        done.wait()
        #expect(cache.value(for: "all", stamp: Self.stamp(2)) { Issue.record("computed again"); return 0 } == 200)
    }
}
