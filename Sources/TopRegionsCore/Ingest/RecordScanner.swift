import TopRegionsRecords

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
    /// The record's spans, its texts appended to `bytes`; nil (and `bytes` as it was) when
    /// the line must go through `RecordDecoder`.
    public static func scan(_ line: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> RecordSpans? {
        let mark = bytes.count
        if let spans = scanRecord(line, into: &bytes) { return spans }
        bytes.removeLast(bytes.count - mark)
        return nil
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
        var fields = ScannedFields()
        while true {
            skipWhitespace()
            guard let (keyStart, keyCount) = memberName(base, end, &i) else { return nil }
            skipWhitespace()
            guard i < end, base[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipWhitespace()
            guard i < end else { return nil }
            if let field = PhotoRecord.Field(utf8: base + keyStart, count: keyCount) {
                guard fields.isNew(field), let value = scalar(base, end, &i, &bytes),
                      fields.take(field, value, base, append)
                else { return nil }
            } else {
                let key = String(decoding: UnsafeBufferPointer(start: base + keyStart, count: keyCount), as: UTF8.self)
                guard fields.keepUnknown(key, in: line, at: &i) else { return nil }
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
        return fields.record(empty: empty, into: &bytes)
    }

    /// A member name at `i` (its quote): plain ASCII without escapes (any other goes the
    /// long way); `i` ends past its closing quote.
    private static func memberName(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int) -> (start: Int, count: Int)? {
        guard i < end, base[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        let start = i
        while i < end, base[i] != UInt8(ascii: "\"") {
            guard base[i] >= 0x20, base[i] < 0x80, base[i] != UInt8(ascii: "\\") else { return nil }
            i += 1
        }
        guard i < end else { return nil }
        i += 1
        return (start, i - 1 - start)
    }
}
