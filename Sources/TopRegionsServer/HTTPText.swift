import TopRegionsFormatting

/// The small pieces of HTTP text the server reads itself: a query string or a form body as
/// name/value pairs (application/x-www-form-urlencoded, as browsers send them).
enum FormText {
    /// A pair that does not decode: a malformed `%` escape, or bytes that are not UTF-8.
    struct Malformed: Error {
        /// The pair as it came, cut to 40 characters.
        var piece: String
    }

    /// The pairs of `text` ("a=1&b=two+words"), in order; `+` is a space and `%XX` a byte.
    /// A pair that does not decode is an error naming it: never dropped in silence (with it,
    /// every other pair would be lost, or read without it).
    static func pairs(_ text: Substring) throws(Malformed) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw Malformed(piece: String(piece.prefix(40)))
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// What a page says of a pair that does not decode, as HTML.
    static func malformedText(_ problem: Malformed) -> String {
        "<q>\(HTMLPage.escape(problem.piece))</q> is not readable: a % must be followed by two hex digits (%20), and the text be UTF-8."
    }

    /// The first value of `name` in `pairs`.
    static func value(_ name: String, in pairs: [(String, String)]) -> String? {
        pairs.first { $0.0 == name }?.1
    }

    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether two tokens are equal, in time that does not depend on where they differ.
    static func sameToken(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
