import Foundation
import GRDB
import Synchronization
import Testing
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsSupport
import TopRegionsTestSupport

/// A load keeps the write-ahead log bounded: the checkpoint that runs beside the writer is
/// let catch up whenever the log passes `maxWALBytes`, so SQLite starts it over instead of
/// growing it by every page the load writes (it reached twice the database's size at 1M records, four times at 40k).
@Suite struct LoaderWALTests {
    @Test func theWriteAheadLogStaysBoundedWhileLoading() throws {
        try loadExpectingABoundedLog(readers: 0)
    }

    /// Readers one after another, each holding a snapshot (a page being rendered, Datasette),
    /// never let the log start over on their own: there is always one reading it when a
    /// write begins. The load waits for them (new readers read the database file once the
    /// log is copied) when the log passes its bound: 326–341 MB beside an 82 MB database
    /// with browsing clients, before.
    @Test func theWriteAheadLogStaysBoundedWhileReadersHoldSnapshots() throws {
        try loadExpectingABoundedLog(readers: 2)
    }

    func loadExpectingABoundedLog(readers: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("store.db")
        let store = try Store.open(path: path)
        _ = try PhotoWriter(store: store).store([PhotoRecord(id: "0", owner: "a@N01")], now: 1_800_000_000)
        let loading = Atomic<Bool>(true)
        let reads = Atomic<Int>(0)
        let readerThreads = (0..<readers).map { _ in
            let thread = Thread {
                guard let reader = try? Store.open(path: path) else { return }
                while loading.load(ordering: .relaxed) {
                    _ = try? reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE title LIKE '%lighthouse%'") }
                    reads.add(1, ordering: .relaxed)
                }
            }
            thread.start()
            return thread
        }
        _ = readerThreads
        defer { loading.store(false, ordering: .relaxed) }
        var lines = ""
        for n in 1...40_000 {
            lines += #"{"id":"\#(n)","owner":"\#(n % 300)@N01","title":"Harbour walk \#(n)","description":"Boats at dawn, \#(n * 7919 % 10007) gulls and a lighthouse","place_id":"P\#(n % 40)","region_id":"R\#(n % 40)","region":"Region \#(n % 40)","uploaded":\#(1_700_000_000 + n)}"# + "\n"
        }
        var options = LoadOptions()
        options.batchSize = 500
        options.maxWALBytes = 256 << 10
        let largest = Mutex<Int64>(0)
        options.onBatch = { _, _, _ in
            var info = stat()
            if stat(path + "-wal", &info) == 0 { largest.withLock { $0 = max($0, Int64(info.st_size)) } }
        }
        let report = try Loader(writer: PhotoWriter(store: store), options: options)
            .load([.bytes("records", Array(lines.utf8))], now: 1_800_000_000) { _ in }
        loading.store(false, ordering: .relaxed)
        #expect(report.batch.new == 40_000)
        if readers > 0 { #expect(reads.load(ordering: .relaxed) > 10, "the readers read while the load ran") }
        var database = stat()
        #expect(stat(path, &database) == 0)
        // The log's largest size against the database: unbounded it reached 47 MB beside
        // 11 MB (every page a batch wrote, FTS merges included, appended); bounded, the
        // limit and the largest transactions (merges of the search index) written beyond it.
        let wal = largest.withLock { $0 }
        #expect(wal > 0)
        #expect(wal * 2 < Int64(database.st_size), "WAL reached \(wal) bytes beside a database of \(database.st_size)")
    }
}
