import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    // MARK: Text

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 (RFC 4648, padded, one line): what `Data.base64EncodedString()` gives.
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        base64(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 of `bytes` appended to `out`, written in place (a page's thumbnails go
    /// straight into the page's bytes).
    static func base64(_ bytes: [UInt8], into out: inout [UInt8]) {
        var at = out.count
        out.append(contentsOf: repeatElement(0, count: (bytes.count + 2) / 3 * 4))
        // Unchecked buffers: the loop is a tenth of a page of thumbnails' time.
        base64Alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { bytes in
                out.withUnsafeMutableBufferPointer { out in
                    var index = 0
                    while index + 3 <= bytes.count {
                        let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                        out[at] = alphabet[Int(group >> 18)]
                        out[at + 1] = alphabet[Int(group >> 12 & 63)]
                        out[at + 2] = alphabet[Int(group >> 6 & 63)]
                        out[at + 3] = alphabet[Int(group & 63)]
                        at += 4
                        index += 3
                    }
                    let left = bytes.count - index
                    if left > 0 {
                        let group = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                        out[at] = alphabet[Int(group >> 18)]
                        out[at + 1] = alphabet[Int(group >> 12 & 63)]
                        out[at + 2] = left == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "=")
                        out[at + 3] = UInt8(ascii: "=")
                    }
                }
            }
        }
    }

    /// Text for HTML content and quoted attribute values: markup characters become
    /// references, and control characters and noncharacters (which HTML forbids) become U+FFFD.
    public static func escape(_ text: String) -> String {
        // Text with nothing to change, as most titles and names are (in any script), is its
        // own escape: no copy. (A native string's bytes are contiguous; a bridged one's are copied.)
        let escaped = text.utf8.withContiguousStorageIfAvailable(escaped) ?? Array(text.utf8).withUnsafeBufferPointer(escaped)
        return escaped ?? text
    }

    /// `escape` of valid UTF-8, or nil when it changes nothing.
    private static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = firstByteToEscape(bytes, from: 0) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        escape(bytes, from: first, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `escape` of `text` appended to `out`: a page's text written in place, with no string
    /// of it in between.
    static func escape(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            guard let first = firstByteToEscape(bytes, from: 0) else {
                out.append(contentsOf: bytes)
                return
            }
            escape(bytes, from: first, into: &out)
        }
    }

    /// The escape of valid UTF-8 whose first byte to change is at `first`, appended to `out`.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int, into out: inout [UInt8]) {
        var copied = 0
        var at: Int? = first
        while let index = at {
            out.append(contentsOf: bytes[copied..<index])
            switch bytes[index] {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            case UInt8(ascii: "\r"): out.append(UInt8(ascii: "\n"))
            default: out.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
            }
            copied = index + scalarLength(bytes, at: index)
            at = firstByteToEscape(bytes, from: copied)
        }
        out.append(contentsOf: bytes[copied...])
    }

    /// Where the next scalar `escape` changes starts in valid UTF-8, from `start`: a markup
    /// character, a control but tab and line feed (C0, DEL, C1: C2 80–9F), a noncharacter
    /// (U+FDD0–FDEF: EF B7 90–AF; U+xFFFE and U+xFFFF in every plane: EF BF BE–BF, or four
    /// bytes ending xF BF BE–BF).
    private static func firstByteToEscape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F: return index
            case 0x00..<0x20 where byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n"): return index
            case 0xC2 where bytes[index + 1] <= 0x9F: return index
            case 0xEF where (bytes[index + 1] == 0xB7 && (0x90...0xAF).contains(bytes[index + 2]))
                || (bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE): return index
            case 0xF0...0xF4 where bytes[index + 1] & 0x0F == 0x0F && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE: return index
            default: index += 1
            }
        }
        return nil
    }

    /// The length in bytes of the scalar starting at `index` (valid UTF-8).
    private static func scalarLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        switch bytes[index] {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// A coordinate with at most `places` decimals, no trailing zeros: the same number
    /// always gives the same text.
    static func number(_ value: Double, places: Int = 2) -> String {
        FixedPoint.text(value, places: places)
    }

}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
