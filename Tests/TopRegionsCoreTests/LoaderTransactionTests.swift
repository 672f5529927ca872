import Foundation
import GRDB
import Synchronization
import Testing
import TopRegionsIngest
import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsSupport
import TopRegionsTestSupport

/// The loader stores the batches its decoder has ready in one transaction (up to
/// `batchSize` records): it never waits for input inside one, and a batch is still stored
/// whole or not at all.
@Suite struct LoaderTransactionTests {
    static func line(_ n: Int) -> String {
        #"{"id":"\#(n)","owner":"\#(n % 7)@N01","title":"Harbour \#(n)","region_id":"R\#(n % 3)","region":"Region \#(n % 3)"}"# + "\n"
    }

    /// Records arrive through a pipe, then the pipe pauses: every whole batch read so far is
    /// committed, and the database's write lock is free while the loader waits for more (a
    /// transaction that waited for its next batch would keep it, and keep the batches it
    /// holds from being seen).
    @Test func aPauseInTheInputCommitsAndFreesTheWriteLock() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.file("records")
        try #require(mkfifo(fifo, 0o600) == 0)
        let path = directory.file("store.db")
        let store = try Store.open(path: path)
        var options = LoadOptions()
        options.batchBytes = 300  // a batch every few records
        options.batchSize = 1_000
        let loader = Loader(writer: PhotoWriter(store: store), options: options)
        let outcome = Mutex<Result<LoadReport, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { try loader.load([.file(fifo)], now: 1_800_000_000) { _ in } }
            outcome.withLock { $0 = result }
            finished.signal()
        }.start()

        let pipe = try #require(FileHandle(forWritingAtPath: fifo))
        let first = (1...40).map(Self.line).joined()
        pipe.write(Data(first.utf8))
        // The batches cut so far: the records after the last cut wait in the decoder for more.
        let cut = try #require(Self.cuts(first, firstSize: 1_000, size: 1_000, bytes: 300).last)
        try #require(cut > 20 && cut < 40)

        let reader = try DatabaseQueue(path: path)
        var stored = 0
        let deadline = Date().addingTimeInterval(20)
        while stored < cut && Date() < deadline {
            stored = try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo") } ?? 0
            if stored < cut { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(stored == cut, "the batches read before the pause were not all committed")

        // Nothing waits for the lock: another writer begins at once (no busy timeout).
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "ROLLBACK")
        }

        let rest = (41...60).map(Self.line).joined()
        pipe.write(Data(rest.utf8))
        try pipe.close()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let report = try #require(outcome.withLock { $0 }).get()
        #expect(report.read == 60 && report.batch.new == 60)
    }

    /// A bad line in the fourth batch of input that is all ready at once: the three batches
    /// before it are stored (in whatever transactions they shared), nothing of its own.
    @Test func aBadLineStoresTheBatchesBeforeItsOwn() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        var options = LoadOptions()
        options.batchSize = 10  // batches of 10 records
        var input = (1...35).map(Self.line).joined()
        input += #"{"id":"36","owner":"x@N01","latitude":"north"}"# + "\n"
        // A transaction of up to 10 records holds one batch; one of up to 1,000 holds the
        // three together when they are ready together.
        for batchSize in [10, 1_000] {
            options.batchSize = batchSize
            options.batchBytes = batchSize == 10 ? 3 << 20 : 200  // with 1,000: a batch every few records
            let path = directory.file("store-\(batchSize).db")
            let loader = Loader(writer: PhotoWriter(store: try Store.open(path: path)), options: options)
            #expect(throws: Failure.self) {
                _ = try loader.load([.bytes("records", Array(input.utf8))], now: 1_800_000_000) { _ in }
            }
            let cuts = Self.cuts(input, firstSize: min(batchSize, 1_000), size: batchSize, bytes: options.batchBytes)
            try #require(cuts.filter { $0 < 36 }.count >= 3)
            let expected = cuts.filter { $0 < 36 }.last ?? 0
            let stored = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo") }
            #expect(stored == expected, "batch size \(batchSize)")
        }
        _ = store
    }

    /// Photographers are many (each record a new one, as in Flickr's stream): a transaction
    /// takes no more batches once its new photographers and (region, photographer) counts,
    /// which wait in memory for its end, reach `maxWaitingRows`, whatever `batchSize` allows.
    @Test func manyNewPhotographersEndATransactionSooner() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        var options = LoadOptions()
        options.batchSize = 1_000
        options.batchBytes = 200  // a batch every few records
        options.maxWaitingRows = 20  // 10 records' worth: each brings a photographer and a pair
        let transactions = Mutex<[Int]>([])
        options.onBatch = { read, _, _ in transactions.withLock { $0.append(read) } }
        let input = (1...300).map { n in
            #"{"id":"\#(n)","owner":"\#(n)@N01","title":"Harbour \#(n)","region_id":"R1","region":"Region 1"}"# + "\n"
        }.joined()
        let cuts = Self.cuts(input, firstSize: 1_000, size: 1_000, bytes: 200)
        let largestBatch = zip([0] + cuts, cuts).map { $1 - $0 }.max() ?? 0
        try #require(largestBatch > 1 && largestBatch < 10)
        let loader = Loader(writer: PhotoWriter(store: store), options: options)
        let report = try loader.load([.bytes("records", Array(input.utf8))], now: 1_800_000_000) { _ in }
        #expect(report.read == 300 && report.batch.new == 300)
        let sizes = transactions.withLock { $0 }
        #expect(sizes.reduce(0, +) == 300)
        // Batches join while fewer than 20 rows wait (under 10 records), the last one whole.
        #expect(sizes.allSatisfy { $0 < 10 + largestBatch }, "transactions of \(sizes) records")
    }

    /// A batch's texts stay within the bytes the decoder reserved for them: a line that could
    /// overflow them starts the next batch (were it appended first, the buffer would double,
    /// each of the two batches in memory taking twice its bytes).
    @Test func aBatchsTextsNeverOutgrowItsBytes() throws {
        let input = (1...200).map(Self.line).joined()
        let bytes = 1_000
        let (batches, spare) = BatchDecoder.start(
            [.bytes("records", Array(input.utf8))],
            options: Batching(firstSize: 1_000, size: 1_000, bytes: bytes, skipBadLines: false, staticBase: "https://live.staticflickr.com"),
            latest: .max, onBadLine: { _ in }, isFuture: { _, _, _ in false })
        var read = 0
        var cuts: [Int] = []
        while var batch = batches.pop() {
            read += batch.read
            cuts.append(read)
            let texts = batch.prepared.takeTextBytes()
            #expect(texts.count <= bytes && texts.capacity <= bytes + 64, "a batch's texts took \(texts.capacity) bytes of memory")
            spare.withLock { $0 = texts }
        }
        #expect(read == 200 && cuts.count > 5)
        #expect(cuts == Self.cuts(input, firstSize: 1_000, size: 1_000, bytes: bytes) + [200])
    }

    /// The lines after which the decoder cuts a batch: at `size` records (`firstSize` for the
    /// first), once its texts take `bytes`, or before a line that could take it past them, as
    /// `BatchDecoder` measures them.
    static func cuts(_ input: String, firstSize: Int, size: Int, bytes: Int) -> [Int] {
        var cuts: [Int] = []
        var buffer = BatchBuffer(reservingPhotos: 16)
        var limit = firstSize
        func cut(after lines: Int) {
            cuts.append(lines)
            buffer = BatchBuffer(reservingPhotos: 16)
            limit = size
        }
        for (index, line) in input.split(separator: "\n").enumerated() {
            var text = String(line)
            if !buffer.isEmpty && buffer.byteCount + text.utf8.count > bytes { cut(after: index) }
            let scanned = text.withUTF8 { buffer.append(line: $0, uploadedAtMost: .max) }
            guard scanned else { break }  // the bad line: the decoder stops there
            if buffer.count >= limit || buffer.byteCount >= bytes { cut(after: index + 1) }
        }
        return cuts
    }
}
