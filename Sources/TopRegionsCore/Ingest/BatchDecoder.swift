import Foundation
import TopRegionsRecords
import TopRegionsSupport

/// How a load cuts its input into batches.
package struct Batching: Sendable {
    /// The first batch's records, at most: smaller, so the writer starts while the decoder
    /// fills the next.
    package var firstSize: Int
    /// Records per batch, at most.
    package var size: Int
    /// Bytes of record text per batch, at most (about).
    package var bytes: Int
    /// Report bad lines and carry on, instead of stopping at the first.
    package var skipBadLines: Bool
    /// Where image URLs point when a raw Flickr photo has none.
    package var staticBase: String

    package init(firstSize: Int, size: Int, bytes: Int, skipBadLines: Bool, staticBase: String) {
        self.firstSize = firstSize
        self.size = size
        self.bytes = bytes
        self.skipBadLines = skipBadLines
        self.staticBase = staticBase
    }
}

package struct DecodedBatch: Sendable {
    /// Filled on the decoding thread just before the batch is queued.
    package var prepared = PreparedBatch([])
    package var read = 0
    package var bad = 0
    package var future = 0
    /// The last line this batch covers.
    package var end: (source: String, line: Int)?
    /// The batch's photographers the store held when the decoder looked (nil: not looked up).
    package var known: KnownPhotographers?
}

/// Photographers looked up on the decoding thread, in a snapshot taken after `commitsBefore`
/// of the load's own transactions.
package struct KnownPhotographers: Sendable {
    package var commitsBefore: Int
    package var found: [String: (id: Int64, name: String)]
    package init(commitsBefore: Int, found: [String: (id: Int64, name: String)]) {
        self.commitsBefore = commitsBefore
        self.found = found
    }
}

package enum DecodeOutcome: Sendable {
    /// All input read; what is left after the last full batch has been queued.
    case finished(DecodedBatch)
    /// A bad line in strict mode; the partial batch is not written.
    case failed(InputError)
    case thrown(any Error)
}

/// Reads records into batches on a thread of its own, one batch ahead of whoever stores them.
package enum BatchDecoder {
    /// The decoding thread's nice value: the least priority, whatever the load was started
    /// with (the writing thread keeps that). A load uses more than a core (records read while
    /// the last batch is stored: 2.45 s of CPU in 2.0 s for 200k), and on two cores a server
    /// beside it answered slower for that second core (the serve bench's mix of pages beside a
    /// 200k load, by hand: p99 66.3 ms, the median of 16 rounds, and 49.6 with this;
    /// docs/PERFORMANCE.md, "A load's reading at a lower priority"). With a core to spare the
    /// decoder runs as fast as before (the load alone took as long); where the core is wanted,
    /// it yields it, and the load still gets its share: the writer waits for the decoder's
    /// batch, and then the decoder runs as the load's only thread. The writer keeps its
    /// priority: it holds the database's write lock, which others wait for.
    static let decoderNice = ThisThread.leastPriority

    /// Starts reading `inputs` on a new thread. The batches come out of the queue it returns;
    /// a stored batch's text bytes go back through `spare` for the decoder's next batch to
    /// reuse. `isFuture` says whether a record read through `RecordDecoder` was uploaded
    /// after `latest` (and hears of it).
    package static func start(
        _ inputs: [InputSource], options: Batching, latest: Int64, onBadLine: @escaping @Sendable (InputError) -> Void,
        isFuture: @escaping @Sendable (String, Int, PhotoRecord) -> Bool,
        lookAhead: @escaping @Sendable (PreparedBatch) -> KnownPhotographers? = { _ in nil }
    ) -> (batches: BoundedQueue<DecodedBatch, DecodeOutcome>, spare: Guarded<[UInt8]?>) {
        // Two batches in memory at most: the one being written, and the next, read meanwhile
        // (queued, the decoder waits until the writer takes it before reading on). The
        // decoder is the faster of the two, so more would only hold memory.
        let batches = BoundedQueue<DecodedBatch, DecodeOutcome>(capacity: 1)
        // The text buffer of the batch last written, for the decoder's next batch to reuse.
        let spare = Guarded<[UInt8]?>(nil)
        let decoder = Thread {
            ThisThread.setNice(decoderNice)
            ThisThread.setName("decoder")
            batches.finish(with: decode(inputs, options: options, into: batches, spare: spare, onBadLine: onBadLine, latest: latest, isFuture: isFuture, lookAhead: lookAhead))
        }
        decoder.stackSize = 8 << 20
        decoder.start()
        return (batches, spare)
    }

    private static func decode(
        _ inputs: [InputSource], options: Batching, into batches: BoundedQueue<DecodedBatch, DecodeOutcome>,
        spare: Guarded<[UInt8]?>, onBadLine: (InputError) -> Void, latest: Int64,
        isFuture: (String, Int, PhotoRecord) -> Bool, lookAhead: (PreparedBatch) -> KnownPhotographers?
    ) -> DecodeOutcome {
        var current = DecodedBatch()
        var limit = options.firstSize
        // The photos of the batch being read; its memory serves every batch in turn. Its
        // texts get the batch's bytes at once: grown as needed, an array doubles, and each
        // of the two batches in memory took 4 MB for 3 MB of text (`Batching.bytes` then).
        var photos = BatchBuffer(reservingPhotos: limit, bytes: options.bytes)
        /// Queues the batch read so far, and starts the next once the writer takes it.
        func queue() throws {
            current.prepared = photos.prepare()
            current.known = lookAhead(current.prepared)
            guard batches.push(current) else { throw DecodeStop.cancelled }
            limit = options.size
            current = DecodedBatch()
            batches.waitUntilTaken()
            // The writer gave back the previous batch's buffer before taking this one.
            photos.reuse(spare.withLock { $0.take() })
        }
        do {
            for input in inputs {
                let name = input.name
                try LineReader.forEachLine(in: input) { number, line in
                    if batches.isCancelled { throw DecodeStop.cancelled }
                    // A plain record's texts take no more bytes than its line, so one that
                    // could overflow the buffer starts the next batch instead. (A raw Flickr
                    // photo's may take more, its image URLs made here: then it grows.)
                    if !photos.isEmpty && photos.byteCount + line.count > options.bytes { try queue() }
                    // The common line, a plain record, goes straight into the batch; any
                    // other (a Flickr page, a bad line, a photo from the future) through
                    // the record decoder, which says what is wrong with it.
                    if photos.append(line: line, uploadedAtMost: latest) {
                        current.read += 1
                    } else {
                        do throws(InputError) {
                            let records = try RecordDecoder.decode(line: line, number: number, source: name)
                            for var record in records {
                                record.fillImageURLs(staticBase: options.staticBase)
                                if isFuture(name, number, record) { current.future += 1 }
                                photos.append(record)
                            }
                            current.read += records.count
                        } catch {
                            guard options.skipBadLines else { throw DecodeStop.bad(error) }
                            onBadLine(error)
                            current.bad += 1
                        }
                    }
                    current.end = (name, number)
                    if photos.count >= limit || photos.byteCount >= options.bytes { try queue() }
                }
            }
        } catch DecodeStop.bad(let error) {
            return .failed(error)
        } catch DecodeStop.cancelled {
            return .finished(DecodedBatch())
        } catch {
            return .thrown(error)
        }
        if !photos.isEmpty {
            current.prepared = photos.prepare()
            current.known = lookAhead(current.prepared)
            batches.push(current)
            return .finished(DecodedBatch())
        }
        return .finished(current)
    }

    private enum DecodeStop: Error {
        case bad(InputError)
        case cancelled
    }
}
