import TopRegionsRecords

/// Where one of a record's texts lies in a batch's byte buffer; `count` < 0: absent (NULL).
public struct TextSpan: Sendable, Equatable {
    public var start: Int32
    public var count: Int32

    public init(start: Int32, count: Int32) {
        self.start = start
        self.count = count
    }

    public static let none = TextSpan(start: 0, count: -1)
    public var isNone: Bool { count < 0 }
}

/// One photo record as a batch holds it: its texts as spans of the batch's one byte buffer
/// (no string per field), its numbers as numbers. The same values `PhotoRecord` holds,
/// after its defaults (`title`, `description` and `owner_name` are never absent; `region` is
/// present exactly when `region_id` is); `extra` is the unknown members as the canonical
/// JSON object `JSONWriter` writes, absent when there are none.
public struct RecordSpans: Sendable {
    public var id = TextSpan.none, owner = TextSpan.none, ownerName = TextSpan.none, placeID = TextSpan.none
    public var regionID = TextSpan.none, region = TextSpan.none, extra = TextSpan.none
    /// The plain fields' texts, by slot (`PhotoRecord.plainFields`).
    public var plain = PlainSpans()
    public var latitude: Double?
    public var longitude: Double?
    public var uploaded: Int64?

    public init() {}

    /// Appends a decoded record's texts to `bytes`.
    public init(_ record: PhotoRecord, into bytes: inout [UInt8]) {
        func put(_ text: String?) -> TextSpan {
            guard let text else { return .none }
            let start = bytes.count
            if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                bytes.append(contentsOf: text.utf8)
            }
            return TextSpan(start: Int32(start), count: Int32(bytes.count - start))
        }
        id = put(record.id)
        owner = put(record.owner)
        ownerName = put(record.ownerName)
        placeID = put(record.placeID)
        for slot in PhotoRecord.plainFields.indices {
            plain[slot] = put(record.text(ofPlain: slot))
        }
        regionID = put(record.regionID)
        // A region id without a name stores an empty name (as `PreparedBatch` always did).
        region = put(record.region ?? (record.regionID == nil ? nil : ""))
        if !record.extra.isEmpty {
            let start = bytes.count
            JSONWriter.append(.object(record.extra), to: &bytes)
            extra = TextSpan(start: Int32(start), count: Int32(bytes.count - start))
        }
        latitude = record.latitude
        longitude = record.longitude
        uploaded = record.uploaded
    }
}

/// The plain fields' spans of a record, by slot: inline (no allocation per record), room for
/// `capacity` plain fields.
public struct PlainSpans: Sendable {
    public static let capacity = 8
    private var spans: (TextSpan, TextSpan, TextSpan, TextSpan, TextSpan, TextSpan, TextSpan, TextSpan) =
        (.none, .none, .none, .none, .none, .none, .none, .none)

    public init() {}

    public subscript(slot: Int) -> TextSpan {
        get {
            precondition(slot >= 0 && slot < Self.capacity)
            return withUnsafeBytes(of: spans) { $0.load(fromByteOffset: slot * MemoryLayout<TextSpan>.stride, as: TextSpan.self) }
        }
        set {
            precondition(slot >= 0 && slot < Self.capacity)
            withUnsafeMutableBytes(of: &spans) { $0.storeBytes(of: newValue, toByteOffset: slot * MemoryLayout<TextSpan>.stride, as: TextSpan.self) }
        }
    }
}
