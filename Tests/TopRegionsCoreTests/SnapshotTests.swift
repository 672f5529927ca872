import Foundation
import GRDB
import Synchronization
import Testing
@testable import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

/// Questions asked together are answered from one snapshot of the store, whatever another
/// connection commits meanwhile.
@Suite struct SnapshotTests {
    /// Photos of one region, all at one spot (its map: one cluster, numbered with them all).
    static func records(_ range: Range<Int>) -> [PhotoRecord] {
        range.map { index in
            PhotoRecord(
                id: String(9_000 + index), owner: "\(index % 50)@N01", title: "Photo \(index)",
                latitude: 44.65, longitude: -63.57, uploaded: 1_700_000_000 + Int64(index),
                regionID: "R", region: "Nova Scotia, Canada")
        }
    }

    static let count = "SELECT COUNT(*) FROM photo"

    /// A read inside a read (each question of a list reads by itself) and a one-statement read
    /// inside it answer from the outer read's snapshot, not from what was committed since.
    @Test func aReadInsideAReadSeesItsSnapshot() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        _ = try PhotoWriter(store: store).store(Self.records(0..<10), now: 1_700_100_000)
        let seen = try store.read { db in
            let before = try Int.fetchOne(db, sql: Self.count)!
            try Self.commitElsewhere(store, Self.records(10..<15))
            let inner = try store.read { try Int.fetchOne($0, sql: Self.count)! }
            let statement = try store.readStatement { try Int.fetchOne($0, sql: Self.count)! }
            return [before, inner, statement]
        }
        #expect(seen == [10, 10, 10])
        #expect(try store.read { try Int.fetchOne($0, sql: Self.count)! } == 15)
        #expect(try store.readStatement { try Int.fetchOne($0, sql: Self.count)! } == 15)
    }

    /// A list's count and its map agree while a load commits beside them: the map's one
    /// cluster holds exactly the photos the list counts, summary after summary (before, the
    /// count and the map were read in two snapshots, and a commit between them made them differ).
    @Test func aListsCountAndMapAreOfOneSnapshotWhileALoadCommits() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        _ = try PhotoWriter(store: store).store(Self.records(0..<20), now: 1_700_100_000)
        let queries = Queries(store: store)
        let list = PhotoList(.region(try #require(try queries.region(id: "R"))))

        let stop = Atomic<Bool>(false)
        let commits = Atomic<Int>(0)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            let writer = PhotoWriter(store: store)
            var next = 20
            while !stop.load(ordering: .relaxed) {
                if (try? writer.store(Self.records(next..<next + 2), now: 1_700_100_000)) != nil {
                    next += 2
                    commits.add(1, ordering: .relaxed)
                }
            }
            stopped.signal()
        }.start()
        defer {
            stop.store(true, ordering: .relaxed)
            stopped.wait()
        }

        var summaries = 0
        var differing: [String] = []
        // Summaries until the load has committed often among them (at least 300 of each).
        while summaries < 300 || commits.load(ordering: .relaxed) < 300, summaries < 20_000 {
            let summary = try ListSummary(list, queries)
            let drawing = try #require(summary.map).drawing
            let mapped = drawing.components(separatedBy: "<title>").dropFirst().first?.prefix { $0 != " " }
            if mapped.map(String.init) != String(summary.total) {
                differing.append("\(summary.total) counted, \(mapped ?? "none") on the map")
            }
            summaries += 1
        }
        #expect(commits.load(ordering: .relaxed) >= 300, "the load committed \(commits.load(ordering: .relaxed)) times")
        #expect(differing.count == 0, "\(differing.count) of \(summaries) summaries differ: \(differing.prefix(3))")
    }

    /// `records` written and committed by another thread, waited for.
    static func commitElsewhere(_ store: Store, _ records: [PhotoRecord]) throws {
        let result = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outcome = Result { _ = try PhotoWriter(store: store).store(records, now: 1_700_100_000) }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
        done.wait()
        try result.withLock { $0! }.get()
    }
}
