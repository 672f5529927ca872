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

/// The loader's fast way from an NDJSON line to a batch: reads the common line (one flat
/// photo record) straight into the batch's byte buffer, without a JSON tree, a record, or a
/// string per field.
///
/// It accepts a line only when `RecordDecoder` would make exactly one record of it, and then
/// yields exactly that record's values; anything else (a syntax error, a field that is not
/// valid, an escape in a string, a nested `description`, a Flickr page, a repeated member,
/// image URLs to fill in, a number `Int64` does not read as written) it leaves to
/// `RecordDecoder`, which makes the record or says what is wrong, line and column, as it
/// always has. So the two cannot disagree on what is valid or on what is stored.
public enum RecordScanner {
    private static let thumbURL = PhotoRecord.plainSlot("thumb_url")
    private static let photoURL = PhotoRecord.plainSlot("photo_url")

    /// The record's spans, its texts appended to `bytes`; nil (and `bytes` as it was) when
    /// the line must go through `RecordDecoder`.
    public static func scan(_ line: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> RecordSpans? {
        let mark = bytes.count
        if let spans = scanRecord(line, into: &bytes) { return spans }
        bytes.removeLast(bytes.count - mark)
        return nil
    }

    /// A member's value, as far as the known fields care.
    private enum Scalar {
        case null
        /// The bytes between the quotes: no escape, no control character, valid UTF-8.
        case string(start: Int, count: Int)
        /// A string with escapes, already unescaped into the batch's bytes (not empty).
        case unescaped(TextSpan)
        /// JSON number text; `plain` when it has no sign, fraction or exponent (digits only).
        case number(start: Int, count: Int, plain: Bool)
    }

    private static func scanRecord(_ line: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> RecordSpans? {
        guard let base = line.baseAddress else { return nil }
        let end = line.count
        var i = 0
        func skipWhitespace() {
            while i < end, base[i] == 0x20 || base[i] == 0x09 || base[i] == 0x0A || base[i] == 0x0D { i += 1 }
        }
        func append(_ start: Int, _ count: Int) -> TextSpan {
            let at = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count))
            return TextSpan(start: Int32(at), count: Int32(count))
        }
        let empty = TextSpan(start: Int32(bytes.count), count: 0)

        skipWhitespace()
        guard i < end, base[i] == UInt8(ascii: "{") else { return nil }
        i += 1

        var spans = RecordSpans()
        var ownerName = TextSpan.none, flickrOwnerName = TextSpan.none
        var uploaded: Int64?, flickrUploaded: Int64?
        var flickrPlain = PlainSpans()
        var seen: UInt64 = 0
        var extra: JSONObjectBuilder?

        while true {
            skipWhitespace()
            // The member name: plain ASCII without escapes (any other goes the long way).
            guard i < end, base[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            let keyStart = i
            while i < end, base[i] != UInt8(ascii: "\"") {
                guard base[i] >= 0x20, base[i] < 0x80, base[i] != UInt8(ascii: "\\") else { return nil }
                i += 1
            }
            guard i < end else { return nil }
            let keyCount = i - keyStart
            i += 1
            skipWhitespace()
            guard i < end, base[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipWhitespace()
            guard i < end else { return nil }

            if let field = PhotoRecord.Field(utf8: base + keyStart, count: keyCount) {
                let bit = field.bit
                guard seen & bit == 0 else { return nil }
                seen |= bit
                guard let value = scalar(base, end, &i, &bytes) else { return nil }
                switch field {
                case .id:
                    // 1 to 32 decimal digits, quoted or not.
                    switch value {
                    case .string(let start, let count), .number(let start, let count, true):
                        guard count >= 1, count <= PhotoRecord.maxIDDigits,
                              UnsafeBufferPointer(start: base + start, count: count).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                        else { return nil }
                        spans.id = append(start, count)
                    default: return nil
                    }
                case .owner:
                    guard let span = identifier(value, base, maxLength: PhotoRecord.maxOwnerLength, append) else { return nil }
                    spans.owner = span
                case .placeID, .regionID:
                    guard let span = optionalIdentifier(value, base, maxLength: PhotoRecord.maxPlaceIDLength, append) else { return nil }
                    // A region id that cannot name a page: the full decoder says why.
                    if field == .regionID, case .string(let start, let count) = value, count > 0,
                       !PhotoRecord.isRegionID(UnsafeBufferPointer(start: base + start, count: count)) { return nil }
                    if field == .placeID { spans.placeID = span } else { spans.regionID = span }
                case .ownerName: ownerName = text(value, append)
                case .flickrOwnerName: flickrOwnerName = text(value, append)
                case .region: spans.region = text(value, append)
                case .plain(let slot, let flickr):
                    let span: TextSpan
                    switch PhotoRecord.plainFields[slot].kind {
                    case .textOrEmpty, .nestedTextOrEmpty: span = text(value, append)
                    case .url: span = url(value, append)
                    case .code:
                        guard let known = optionalIdentifier(value, base, maxLength: RecordField.maxCodeLength, append) else { return nil }
                        span = known
                    case .structural: return nil
                    }
                    if flickr { flickrPlain[slot] = span } else { spans.plain[slot] = span }
                case .latitude, .longitude:
                    let limit: Double = field == .latitude ? 90 : 180
                    var coordinate: Double?
                    switch value {
                    case .null: coordinate = nil
                    case .number(let start, let count, _):
                        guard let number = Double(String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)),
                              abs(number) <= limit
                        else { return nil }
                        coordinate = number
                    case .string, .unescaped: return nil
                    }
                    if field == .latitude { spans.latitude = coordinate } else { spans.longitude = coordinate }
                case .uploaded, .flickrUploaded:
                    var seconds: Int64?
                    switch value {
                    case .null: seconds = nil
                    case .number(let start, let count, _):
                        guard let exact = Int64(String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)),
                              exact >= 0
                        else { return nil }
                        seconds = exact
                    case .string, .unescaped: return nil
                    }
                    if field == .uploaded { uploaded = seconds } else { flickrUploaded = seconds }
                }
            } else {
                // A member the toolkit does not know: kept as its JSON value. A Flickr page or
                // error response is the decoder's.
                let key = String(decoding: UnsafeBufferPointer(start: base + keyStart, count: keyCount), as: UTF8.self)
                guard key != "photos", key != "stat" else { return nil }
                guard let value = try? JSONParser.parseValue(in: line, at: &i, depth: 1) else { return nil }
                if extra == nil { extra = JSONObjectBuilder() }
                guard extra!.addIfNew(key, value) else { return nil }
            }
            skipWhitespace()
            guard i < end else { return nil }
            if base[i] == UInt8(ascii: ",") { i += 1; continue }
            guard base[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            break
        }
        skipWhitespace()
        guard i == end else { return nil }

        // What PhotoRecord(json:) makes of the fields, and would refuse.
        guard !spans.id.isNone, !spans.owner.isNone else { return nil }
        if !spans.region.isNone, spans.regionID.isNone { return nil }
        spans.ownerName = !ownerName.isNone ? ownerName : !flickrOwnerName.isNone ? flickrOwnerName : empty
        spans.uploaded = uploaded ?? flickrUploaded
        for (slot, field) in PhotoRecord.plainFields.enumerated() where spans.plain[slot].isNone {
            spans.plain[slot] = flickrPlain[slot]
            if spans.plain[slot].isNone, field.kind.isNeverAbsent { spans.plain[slot] = empty }
        }
        if spans.regionID.isNone {
            spans.region = .none
        } else if spans.region.isNone {
            spans.region = empty
        }
        if let extra {
            // Image URLs made from `server` and `secret` are `fillImageURLs`' to make.
            guard !spans.plain[thumbURL].isNone, !spans.plain[photoURL].isNone else { return nil }
            let start = bytes.count
            JSONWriter.append(.object(extra.object), to: &bytes)
            spans.extra = TextSpan(start: Int32(start), count: Int32(bytes.count - start))
        }
        return spans
    }

    /// A place or region id, or a code: as `identifier`, but absent (`.none`) when null or
    /// empty; nil when it is not valid.
    private static func optionalIdentifier(
        _ value: Scalar, _ base: UnsafePointer<UInt8>, maxLength: Int, _ append: (Int, Int) -> TextSpan
    ) -> TextSpan? {
        if case .null = value { return TextSpan.none }
        if case .string(_, 0) = value { return TextSpan.none }
        return identifier(value, base, maxLength: maxLength, append)
    }

    /// An owner, place or region id: a string without spaces or control characters, or a
    /// number of digits, at most `maxLength` bytes; nil when it is not (an error, or empty).
    private static func identifier(
        _ value: Scalar, _ base: UnsafePointer<UInt8>, maxLength: Int, _ append: (Int, Int) -> TextSpan
    ) -> TextSpan? {
        switch value {
        case .string(let start, let count):
            guard count >= 1, count <= maxLength,
                  !UnsafeBufferPointer(start: base + start, count: count).contains(where: { $0 <= 0x20 || $0 == 0x7F })
            else { return nil }
            return append(start, count)
        case .number(let start, let count, true):
            guard count <= maxLength else { return nil }
            return append(start, count)
        default: return nil
        }
    }

    /// A text field: a string or a number's text; absent when null.
    private static func text(_ value: Scalar, _ append: (Int, Int) -> TextSpan) -> TextSpan {
        switch value {
        case .null: .none
        case .string(let start, let count), .number(let start, let count, _): append(start, count)
        case .unescaped(let span): span
        }
    }

    /// A URL: as a text, but absent when empty.
    private static func url(_ value: Scalar, _ append: (Int, Int) -> TextSpan) -> TextSpan {
        if case .string(_, 0) = value { return .none }
        return text(value, append)
    }

    /// Reads a null, a string or a number at `i`; nil for anything else, or anything not
    /// valid. A string with escapes is unescaped into `bytes`.
    private static func scalar(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int, _ bytes: inout [UInt8]) -> Scalar? {
        let first = base[i]
        if first == UInt8(ascii: "\"") {
            i += 1
            let start = i
            var ascii = true
            while i < end {
                let byte = base[i]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") { return unescape(base, end, start, &i, &bytes) }
                guard byte >= 0x20 else { return nil }
                if byte >= 0x80 { ascii = false }
                i += 1
            }
            guard i < end else { return nil }
            let count = i - start
            i += 1
            guard ascii || JSONStringEscapes.isValidUTF8(base + start, count) else { return nil }
            return .string(start: start, count: count)
        }
        if first == UInt8(ascii: "n") {
            guard i + 4 <= end, base[i + 1] == UInt8(ascii: "u"), base[i + 2] == UInt8(ascii: "l"), base[i + 3] == UInt8(ascii: "l")
            else { return nil }
            i += 4
            return .null
        }
        // A number, as RFC 8259 writes one.
        let start = i
        var plain = true
        func digits() -> Int {
            let from = i
            while i < end, base[i] >= 0x30, base[i] <= 0x39 { i += 1 }
            return i - from
        }
        if base[i] == UInt8(ascii: "-") { i += 1; plain = false }
        guard i < end else { return nil }
        let leadingZero = base[i] == UInt8(ascii: "0")
        let integer = digits()
        guard integer > 0, !(leadingZero && integer > 1) else { return nil }
        if i < end, base[i] == UInt8(ascii: ".") {
            i += 1
            plain = false
            guard digits() > 0 else { return nil }
        }
        if i < end, base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E") {
            i += 1
            plain = false
            if i < end, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        return .number(start: start, count: i - start, plain: plain)
    }

    /// The rest of a string from `start` (its content), where an escape is at `i`: unescaped
    /// into `bytes` as `JSONParser` unescapes; nil where the parser would report an error.
    private static func unescape(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ start: Int, _ i: inout Int, _ bytes: inout [UInt8]
    ) -> Scalar? {
        let at = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
        do throws(JSONStringFault) {
            try JSONStringEscapes.unescape(base, end, &i, into: &bytes, from: at)
        } catch {
            return nil
        }
        return .unescaped(TextSpan(start: Int32(at), count: Int32(bytes.count - at)))
    }
}
