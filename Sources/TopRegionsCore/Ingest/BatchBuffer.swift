import Foundation
import TopRegionsRecords

/// The photos of a batch as the loader reads them: every text of every photo in one byte
/// buffer, each photo's fields as spans of it. A line is read straight into it
/// (`RecordScanner`), so a batch costs a few large allocations, not a string per field.
/// Its size in bytes is what bounds a batch's memory, whatever the records hold.
public struct BatchBuffer: Sendable {
    package private(set) var bytes: [UInt8] = []
    package private(set) var photos: [RecordSpans] = []
    /// The bytes its texts get at once, for every batch it reads (`reuse`).
    private let reservedBytes: Int

    public init(reservingPhotos photos: Int = 0, bytes: Int = 0) {
        reservedBytes = bytes
        self.photos.reserveCapacity(photos)
        self.bytes.reserveCapacity(bytes)
    }

    public var count: Int { photos.count }
    public var isEmpty: Bool { photos.isEmpty }
    /// The bytes its texts take.
    public var byteCount: Int { bytes.count }

    /// Reads a line holding one plain photo record uploaded at `latest` or before (or at no
    /// known time); false, and nothing added, when the line needs `RecordDecoder` (anything
    /// else, including every line that is not valid).
    public mutating func append(line: UnsafeBufferPointer<UInt8>, uploadedAtMost latest: Int64) -> Bool {
        let mark = bytes.count
        guard let spans = RecordScanner.scan(line, into: &bytes) else { return false }
        if let uploaded = spans.uploaded, uploaded > latest {
            bytes.removeLast(bytes.count - mark)
            return false
        }
        photos.append(spans)
        return true
    }

    public mutating func append(_ record: PhotoRecord) {
        photos.append(RecordSpans(record, into: &bytes))
    }

    /// Lays out its photos for the store (the batch takes its bytes), and empties it for
    /// the next batch, keeping the memory of its spans.
    package mutating func prepare() -> PreparedBatch {
        let batch = PreparedBatch(self)
        photos.removeAll(keepingCapacity: true)
        bytes = []
        return batch
    }

    /// Takes `bytes` (a stored batch's, given back) for the texts of the next batch, or
    /// without them reserves the bytes it was made with; call it before reading any.
    package mutating func reuse(_ bytes: [UInt8]?) {
        guard self.bytes.isEmpty else { return }
        guard var bytes else {
            self.bytes.reserveCapacity(reservedBytes)
            return
        }
        bytes.removeAll(keepingCapacity: true)
        self.bytes = bytes
    }

    /// The bytes of `span` (which must be present).
    package func withBytes<R>(of span: TextSpan, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(span.start)..<Int(span.start + span.count)]))
        }
    }

    package func string(_ span: TextSpan) -> String? {
        span.isNone ? nil : withBytes(of: span) { String(decoding: $0, as: UTF8.self) }
    }
}

/// Numbers the distinct texts (ids, NSIDs, place ids) of a batch's byte buffer in the order
/// first seen: an open-addressing table of spans, so no string is made to look one up.
struct SpanTable {
    private var slots: [Int32]  // -1: empty, else an index into `keys`
    private(set) var keys: [TextSpan] = []
    private var mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        keys.reserveCapacity(capacity)
    }

    /// The number of `span`'s text, and whether it was new (then it is `keys.count - 1`).
    mutating func insert(_ span: TextSpan, in bytes: UnsafeBufferPointer<UInt8>) -> (index: Int32, new: Bool) {
        let base = bytes.baseAddress!
        let key = UnsafeBufferPointer(start: base + Int(span.start), count: Int(span.count))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var position = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let slot = slots[position]
            if slot < 0 { break }
            let other = keys[Int(slot)]
            if other.count == span.count, memcmp(base + Int(other.start), key.baseAddress!, key.count) == 0 {
                return (slot, false)
            }
            position = (position + 1) & mask
        }
        let index = Int32(keys.count)
        slots[position] = index
        keys.append(span)
        if keys.count * 2 > slots.count { grow(bytes) }
        return (index, true)
    }

    private mutating func grow(_ bytes: UnsafeBufferPointer<UInt8>) {
        let old = keys
        self = SpanTable(capacity: slots.count)
        for span in old { _ = insert(span, in: bytes) }
    }
}
