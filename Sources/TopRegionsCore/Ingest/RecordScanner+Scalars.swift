import TopRegionsRecords

/// The scanner's reading of one member value: a null, a string or a number, as RFC 8259
/// writes them (anything else goes the long way, through `RecordDecoder`).
extension RecordScanner {
    /// A member's value, as far as the known fields care.
    enum Scalar {
        case null
        /// The bytes between the quotes: no escape, no control character, valid UTF-8.
        case string(start: Int, count: Int)
        /// A string with escapes, already unescaped into the batch's bytes (not empty).
        case unescaped(TextSpan)
        /// JSON number text; `plain` when it has no sign, fraction or exponent (digits only).
        case number(start: Int, count: Int, plain: Bool)
    }

    /// Reads a null, a string or a number at `i`; nil for anything else, or anything not
    /// valid. A string with escapes is unescaped into `bytes`.
    static func scalar(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int, _ bytes: inout [UInt8]) -> Scalar? {
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
