/// What is wrong with a JSON string's text (RFC 8259 §7), in the parser's words.
package enum JSONStringFault: Error, Equatable {
    case notClosed
    case notUTF8
    /// A byte below U+0020, unescaped.
    case controlCharacter(UInt8)
    /// A backslash and a byte that begins no escape.
    case invalidEscape(UInt8)
    case incompleteHexEscape
    case invalidHexDigit
    /// A `\u` surrogate without its other half.
    case unpairedSurrogate(UInt32)

    /// Whether the fault is the whole string's (reported where it opens) rather than at the
    /// byte where reading stopped. (Where ill-formed UTF-8 starts, the reader finds: see
    /// `firstIllFormedUTF8`.)
    package var isTheWholeString: Bool { self == .notClosed || self == .notUTF8 }

    package var message: String {
        switch self {
        case .notClosed: "string is not closed"
        case .notUTF8: "string is not valid UTF-8"
        case .controlCharacter(let byte): "control character U+\(Self.hex4(UInt32(byte))) inside a string (escape it)"
        case .invalidEscape(let byte): "invalid escape '\\\(Character(Unicode.Scalar(byte)))'"
        case .incompleteHexEscape: "incomplete \\u escape"
        case .invalidHexDigit: "invalid hex digit in \\u escape"
        case .unpairedSurrogate(let scalar): "unpaired surrogate \\u\(Self.hex4(scalar))"
        }
    }

    package static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The one reader of JSON string escapes, for the parser and the record scanner alike, so
/// the two cannot disagree on what a string holds or on which strings are valid.
package enum JSONStringEscapes {
    /// Reads the rest of a string's content from `i` (inside the string: the first
    /// backslash, or any byte before it) to its closing quote, appending it unescaped to
    /// `bytes`, whose text from `start` (the content so far) must be valid UTF-8 at the end.
    /// `i` ends just past the closing quote, or, on a fault, where reading stopped (at the
    /// backslash of an invalid escape).
    package static func unescape(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int, into bytes: inout [UInt8], from start: Int
    ) throws(JSONStringFault) {
        while i < end {
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                let valid = bytes.withUnsafeBufferPointer { isValidUTF8($0.baseAddress! + start, $0.count - start) }
                guard valid else { throw .notUTF8 }
                return
            }
            guard byte >= 0x20 else { throw .controlCharacter(byte) }
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                i += 1
                continue
            }
            guard i + 1 < end else { throw .notClosed }
            let escape = base[i + 1]
            i += 2
            if let unescaped = singleCharacterEscape(escape) {
                bytes.append(unescaped)
                continue
            }
            guard escape == UInt8(ascii: "u") else {
                i -= 2
                throw .invalidEscape(escape)
            }
            var scalar = try hex4(base, end, &i)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard i + 1 < end, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") else {
                    throw .unpairedSurrogate(scalar)
                }
                i += 2
                let low = try hex4(base, end, &i)
                guard (0xDC00...0xDFFF).contains(low) else { throw .unpairedSurrogate(scalar) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .unpairedSurrogate(scalar)
            }
            bytes.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        }
        throw .notClosed
    }

    /// The four hex digits of a `\u` escape at `i`.
    private static func hex4(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int) throws(JSONStringFault) -> UInt32 {
        guard i + 4 <= end else { throw .incompleteHexEscape }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(base[i]) else { throw .invalidHexDigit }
            value = value << 4 | digit
            i += 1
        }
        return value
    }

    /// The byte a one-character escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
    /// RFC 8259 §7) stands for; nil for `\u` and for anything that is no escape.
    @inline(__always)
    private static func singleCharacterEscape(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of a hexadecimal digit (RFC 8259's HEXDIG, either case); nil for any other byte.
    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing
    /// past U+10FFFF), what `String(validating:)` accepts.
    package static func isValidUTF8(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        firstIllFormedUTF8(bytes, count) == nil
    }

    /// Where the first ill-formed sequence of `bytes` starts (nil: all well formed), for an
    /// error to point at the byte rather than at the string.
    package static func firstIllFormedUTF8(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                i + offset < count && bytes[i + offset] >= low && bytes[i + offset] <= high
            }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(1) else { return i }
                i += 2
            case 0xE0:
                guard continuation(1, 0xA0), continuation(2) else { return i }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard continuation(1), continuation(2) else { return i }
                i += 3
            case 0xED:
                guard continuation(1, 0x80, 0x9F), continuation(2) else { return i }
                i += 3
            case 0xF0:
                guard continuation(1, 0x90), continuation(2), continuation(3) else { return i }
                i += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return i }
                i += 4
            case 0xF4:
                guard continuation(1, 0x80, 0x8F), continuation(2), continuation(3) else { return i }
                i += 4
            default: return i
            }
        }
        return nil
    }
}
