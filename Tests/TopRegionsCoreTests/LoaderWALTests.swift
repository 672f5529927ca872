import Foundation
import Synchronization
import Testing
@testable import TopRegionsStore
import TopRegionsRecords
import TopRegionsSupport

/// A load keeps the write-ahead log bounded: the checkpoint that runs beside the writer is
/// let catch up whenever the log passes `maxWALBytes`, so SQLite starts it over instead of
/// growing it by every page the load writes (it reached twice the database's size at 1M records, four times at 40k).
@Suite struct LoaderWALTests {
    @Test func theWriteAheadLogStaysBoundedWhileLoading() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("store.db")
        let store = try Store.open(path: path)
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
        #expect(report.batch.new == 40_000)
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
