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
    /// references, and control characters (which HTML forbids) become U+FFFD.
    public static func escape(_ text: String) -> String {
        // Printable ASCII without a markup character, as most titles and names are, is its
        // own escape.
        let plain = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): false
            default: (0x20...0x7E).contains(byte)
            }
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\r": out += "\n"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFDD0...0xFDEF).contains(scalar.value)
                    || scalar.value & 0xFFFE == 0xFFFE {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
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
