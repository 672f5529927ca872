import Dispatch
import GRDB
import Testing
@testable import TopRegionsCache
@testable import TopRegionsRecords
@testable import TopRegionsStore
@testable import TopRegionsSupport
import TopRegionsTestSupport

/// The writer that stores downloaded thumbnails in batches.
@Suite struct ThumbnailWriterTests {
    /// A thumbnail alone is committed on the writer's own clock, without a full batch and
    /// without `finish()`: a downloader waiting on another process's lock relies on that (the
    /// other process holds it until its commit), else two processes could wait for each
    /// other for ever. The writer sleeps until told of a batch's first thumbnail: thumbnails
    /// are added one at a time, each once the last is committed (the writer is then back
    /// asleep, or about to be, with nothing queued).
    @Test func aLoneThumbnailIsCommittedWithoutAFullBatchOrFinish() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let ids = (1...20).map(String.init)
        _ = try PhotoWriter(store: store).store(ids.map { PhotoRecord(id: $0, owner: "a@N01", ownerName: "", title: "", description: "") }, now: 1_000)
        let writer = ThumbnailWriter(store: store, batchSize: 100, interval: 0.05)
        defer { writer.finish() }
        for id in ids {
            let lock = try store.keyLocks.lock("thumb:" + id)
            let committed = DispatchSemaphore(value: 0)
            writer.add(.init(photoID: id, bytes: [0xFF, 0xD8, 0xFF, 0xD9], fetchedAt: 1_001, lock: lock) { failure in
                #expect(failure == nil)
                committed.signal()
            })
            // A deadlock detector, not a timing: the commit is due 0.05 s after the add.
            try #require(committed.wait(timeout: .now() + 30) == .success, "thumbnail \(id) was never committed")
            // Its lock went with the commit: another asker takes it at once.
            let again = try store.keyLocks.tryLock("thumb:" + id)
            #expect(again != nil)
            again?.unlock()
        }
        let stored = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM thumbnail") }
        #expect(stored == ids.count)
    }
}
