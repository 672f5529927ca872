import CSupport
import Foundation
import TopRegionsIngest
import TopRegionsRecords
import TopRegionsSupport

/// How `regions-load` reads and stores its input.
public struct LoadOptions: Sendable {
    /// Records per transaction, at most (and never more than `maxTransactionRecords`).
    /// Consecutive batches the decoder has ready share a transaction: the pages a load
    /// changes all over the store (the NSID index, the (region, photographer) counts) are
    /// written once per transaction, so fewer, larger transactions write them less often.
    /// With many photographers stored, 40,000 records per transaction loaded 1M records in
    /// 10% less time than a transaction per batch (about 6,000 records), for 6 MB more.
    public var batchSize = 40_000
    /// The most records a transaction holds whatever `batchSize` says: what waits in memory
    /// for its end (its new photographers and counts, about 150 bytes a record) grows with it.
    public static let maxTransactionRecords = 50_000
    /// What waits in memory for a transaction's end ends it sooner when photographers are
    /// many: no batch joins one whose new photographers and (region, photographer) counts
    /// number this many (about 100 bytes each in memory). With Flickr's many photographers
    /// nearly every record brings one of each, 40,000 records about 68,000, and the load's
    /// peak passed 64 MB; bench's shape brings 16,000 in its first 40,000 records.
    var maxWaitingRows = 24_000
    /// Bytes of record text per batch, at most (about): what bounds a batch's memory,
    /// whatever the records hold. Typical records take about 520 bytes, so a batch of them
    /// is about 4,000 records (2 MB of text, about 3 MB in all; two batches in memory at
    /// most). Each batch flushes the search index's new entries (its statement opens a
    /// savepoint), so smaller batches mean more, smaller index segments to merge: 1 MB
    /// batches took 21% more instructions than 4 MB ones; 2 MB ones loaded 1M records in
    /// the time 3 MB ones took (within 2%), 5 MB less at the peak.
    public var batchBytes = 2 << 20
    /// How far the write-ahead log may grow while loading before the writer lets the
    /// checkpoint catch up, so that SQLite starts the log over (`WALCheckpointer`).
    public var maxWALBytes = 64 << 20
    /// How the decoder cuts the input into batches (the first smaller, so the writer starts
    /// while the decoder fills the next).
    var batching: Batching {
        Batching(firstSize: min(batchSize, 1_000), size: batchSize, bytes: batchBytes, skipBadLines: skipBadLines, staticBase: staticBase)
    }
    /// Whether the decoder finds each batch's stored photographers while the writer stores
    /// the batch before (`PhotographerLookAhead`); off, the writer finds them (the way to
    /// compare the two).
    var looksPhotographersUpAhead = true
    /// Report bad lines and carry on, instead of stopping at the first.
    public var skipBadLines = false
    /// Where image URLs point when a raw Flickr photo has none (see `FlickrEndpoints`).
    public var staticBase = "https://live.staticflickr.com"
    /// Told of each committed transaction: records read, what they did, the last line
    /// covered (for --verbose).
    public var onBatch: (@Sendable (Int, BatchResult, (source: String, line: Int)?) -> Void)?

    public init() {}
}

/// What a load did, for the one-line summary.
public struct LoadReport: Sendable, Equatable {
    public var read = 0
    public var batch = BatchResult()
    public var bad = 0
    /// Records uploaded more than a day after the load's time (stored, not used for the
    /// watermark).
    public var future = 0
    /// Batches whose stored photographers the decoder found (`PhotographerLookAhead`).
    var batchesLookedUpAhead = 0

    public var skipped: Int { batch.unchanged + batch.duplicates + batch.deletedEarlier }

    public init() {}

    /// Counts what a batch read and, once stored, did.
    mutating func add(_ decoded: DecodedBatch, _ result: BatchResult = BatchResult()) {
        read += decoded.read
        bad += decoded.bad
        future += decoded.future
        batch += result
    }

    mutating func add(_ other: LoadReport) {
        read += other.read
        bad += other.bad
        future += other.future
        batch += other.batch
    }
}

/// Reads records from `inputs` and stores them batch by batch.
///
/// Decoding runs on its own thread, one batch ahead of the writer, so the two cores of a
/// small machine share the work; the decoder also finds which of a batch's photographers are
/// stored (`PhotographerLookAhead`), which the writer trusts as far as it can tell nothing
/// changed since (`LookAheadLedger`). A bad line (in strict mode) stops everything: batches
/// before it are committed, the batch holding it is not written at all.
public struct Loader: Sendable {
    /// Where the records go: opened (created, when new) when the first batch is ready, so
    /// that input without a record (empty, or a bad first line) creates no database.
    public let database: StoreOnFirstWrite
    public let options: LoadOptions

    public init(writer: PhotoWriter, options: LoadOptions) {
        self.init(database: StoreOnFirstWrite(writer.store), options: options)
    }

    public init(database: StoreOnFirstWrite, options: LoadOptions) {
        self.database = database
        self.options = options
    }

    /// `onFuture` hears of each record uploaded more than a day after `now` (stored, but
    /// not trusted for the watermark), with where it was read.
    public func load(
        _ inputs: [InputSource], now: Int64, onBadLine: @escaping @Sendable (InputError) -> Void,
        onFuture: @escaping @Sendable (_ source: String, _ line: Int, _ record: PhotoRecord) -> Void = { _, _, _ in }
    ) throws -> LoadReport {
        // Batch buffers are megabytes, allocated on the decoding thread and freed on the
        // writer's. glibc maps such blocks and unmaps them when freed, until the first free
        // raises its threshold: then they come from the heap, where freed memory stays with
        // the process (about 10 MB more at the peak). A fixed threshold keeps them mapped.
        _ = tr_malloc_mmap_threshold(256 << 10)
        let writing = Writing(database: database, options: options)
        let loaded = Result { try loadBatches(inputs, now: now, writing: writing, onBadLine: onBadLine, onFuture: onFuture) }
        try writing.finish()
        return try loaded.get()
    }

    /// The writer's page cache while loading, KiB.
    static let loadCacheKiB = 8 << 10

    /// The store's writer set up for loading, from the first batch to the end of the load.
    ///
    /// Every reference a batch writes (photographer, region) was looked up or created earlier
    /// in the same transaction, so SQLite's per-row foreign key checks can only pass; off on
    /// the writer's connection while the loader runs, they save about 6% of a load. The pragma
    /// cannot change inside a transaction, hence around the load; it must be back on before
    /// anything else writes (deletes cascade to thumbnails).
    ///
    /// A load appends: the pages it changes are the ends of the photo indexes, one leaf per
    /// region in photo_in_region, and the search index's new segments, so a page cache of
    /// `loadCacheKiB` holds them; the store's usual 64 MB (for merges into a big store) fills
    /// with pages a load touches once, and was most of its memory (a load of 1M records
    /// peaked at 177 MB; with 12 MB, 59 MB). With many photographers stored, the pages a
    /// batch touches at random (the NSID index, region_photographer) outgrow any cache that
    /// fits the memory budget, so the cache is always full, at a size that does not grow with
    /// the store: 20k records peak at 49 MB into a store of 610k photographers as into one of
    /// 124k (8 MB cost about 2% more CPU time than 12 MB; 24 MB took 12 MB more, no faster).
    /// (What grew with the store was SQLite's statement journal: see `upsertPhotographers`.)
    private final class Writing {
        private let database: StoreOnFirstWrite
        private let options: LoadOptions
        private var started: (writer: PhotoWriter, checkpointer: WALCheckpointer, usualCacheSize: Int)?

        init(database: StoreOnFirstWrite, options: LoadOptions) {
            self.database = database
            self.options = options
        }

        /// The writer, set up (and the database opened or created) on the first call.
        func writer() throws -> (PhotoWriter, WALCheckpointer) {
            if let started { return (started.writer, started.checkpointer) }
            let store = try database.store()
            let usual = try Self.setLoadPragmas(store, foreignKeys: false, cacheSize: -Loader.loadCacheKiB)
            let checkpointer = try WALCheckpointer(store: store, maxWALBytes: options.maxWALBytes)
            started = (PhotoWriter(store: store), checkpointer, usual)
            return (started!.writer, checkpointer)
        }

        /// The last checkpoint, and the writer's connection as it was.
        func finish() throws {
            guard let started else { return }
            self.started = nil
            started.checkpointer.finish()
            _ = try Self.setLoadPragmas(started.writer.store, foreignKeys: true, cacheSize: started.usualCacheSize)
        }

        /// Sets the writer connection's foreign key checks and page cache size; returns the
        /// cache size it had.
        private static func setLoadPragmas(_ store: Store, foreignKeys on: Bool, cacheSize: Int) throws -> Int {
            try store.pool.writeWithoutTransaction { db in
                let before = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? cacheSize
                try db.execute(sql: "PRAGMA foreign_keys = \(on ? "ON" : "OFF"); PRAGMA cache_size = \(cacheSize)")
                return before
            }
        }
    }

    private func loadBatches(
        _ inputs: [InputSource], now: Int64, writing: Writing, onBadLine: @escaping @Sendable (InputError) -> Void,
        onFuture: @escaping @Sendable (String, Int, PhotoRecord) -> Void
    ) throws -> LoadReport {
        let options = self.options
        let latest = now + PhotoWriter.futureUploadTolerance
        let lookAhead = PhotographerLookAhead(database: database, enabled: options.looksPhotographersUpAhead)
        defer { lookAhead.close() }
        let ledger = LookAheadLedger(lookAhead)
        let renames = PendingRenames()
        let (batches, spare) = BatchDecoder.start(inputs, options: options.batching, latest: latest, onBadLine: onBadLine, isFuture: { source, line, record in
            guard let uploaded = record.uploaded, uploaded > latest else { return false }
            onFuture(source, line, record)
            return true
        }, lookAhead: { lookAhead.lookUp($0) })

        var report = LoadReport()
        var storedBeforeLine: (source: String, line: Int)?
        var writeError: (any Error)?
        let transactionRecords = min(options.batchSize, LoadOptions.maxTransactionRecords)
        while var batch = batches.pop() {
            do {
                let (writer, checkpointer) = try writing.writer()
                // The batches the decoder has ready go in one transaction, up to batchSize
                // records (see `LoadOptions.batchSize`). A batch not ready yet ends it: a slow
                // upstream (a pipe) never keeps the database's write lock held while it
                // waits. A batch is still stored whole or not at all: a bad line fails its
                // batch in the decoder, so the batches before it are committed.
                var stored = LoadReport()
                try writer.transaction(now: now, ledger: ledger, renames: renames) { group in
                    while true {
                        let result = try group.store(batch.prepared, known: batch.known)
                        let bytes = batch.prepared.takeTextBytes()
                        spare.withLock { $0 = bytes }
                        stored.add(batch, result)
                        // One that does not fit stays queued for the next transaction: the
                        // decoder reads on (and looks ahead) once a transaction takes it.
                        guard group.waitingRows < options.maxWaitingRows,
                              let next = batches.popIfReady(where: { stored.read + $0.read <= transactionRecords })
                        else { break }
                        batch = next
                    }
                }
                report.add(stored)
                checkpointer.committed()
                checkpointer.bound()
                options.onBatch?(stored.read, stored.batch, batch.end)
                storedBeforeLine = batch.end
            } catch {
                writeError = error
                batches.cancel()  // the decoder stops at its next batch
                break
            }
        }
        if let writeError {
            // The decoder stops at its next line; it may be waiting for upstream input, so
            // do not wait for it: the error is the answer now.
            throw writeError
        }
        // The renames the committed records made, written once (`PendingRenames`), also
        // when a bad line stopped the load after them.
        if !renames.names.isEmpty || !renames.heldBack.isEmpty {
            let (writer, checkpointer) = try writing.writer()
            try writer.transaction(now: now, ledger: ledger) { try $0.writeRenames(renames) }
            checkpointer.committed()
        }
        switch batches.outcome {
        case .finished(let tail):
            report.add(tail)
            report.batchesLookedUpAhead = ledger.trusted
            return report
        case .failed(let inputError):
            var message = inputError.description
            if report.read > 0, let stored = storedBeforeLine {
                message += "\n(stored the \(report.read) records up to \(stored.source) line \(stored.line); nothing after that was written)"
            } else {
                message += "\n(nothing was written)"
            }
            throw Failure(.invalidData, message)
        case .thrown(let error):
            throw error
        }
    }
}
