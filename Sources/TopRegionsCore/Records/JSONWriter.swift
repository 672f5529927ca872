/// Writes compact JSON (one line, no insignificant whitespace) into a byte buffer.
///
/// Used for every NDJSON line the tools print, and for the `extra` column, so output is
/// byte-for-byte stable: same record in, same bytes out.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: Objects built member by member

    /// Writes `{`, then `body` writes members through `ObjectWriter`, then `}`.
    public mutating func object(_ body: (inout ObjectWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        // The buffer moves into the member writer and back by swapping, so it never has two
        // owners: a copy held a moment too long made every append after it copy the whole
        // buffer (quadratic in the output: 12,000 records took 23 s).
        var writer = ObjectWriter(bytes: [])
        swap(&writer.bytes, &bytes)
        body(&writer)
        swap(&writer.bytes, &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func value(_ value: JSONValue) {
        Self.append(value, to: &bytes)
    }

    public mutating func newline() {
        bytes.append(0x0A)
    }

    public struct ObjectWriter {
        fileprivate var bytes: [UInt8]
        private var first = true

        fileprivate init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private mutating func key(_ key: String) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }

        public mutating func string(_ key: String, _ value: String?) {
            guard let value else { return }
            self.key(key)
            JSONWriter.appendString(value, to: &bytes)
        }

        public mutating func int(_ key: String, _ value: Int64?) {
            guard let value else { return }
            self.key(key)
            bytes.append(contentsOf: String(value).utf8)
        }

        public mutating func int(_ key: String, _ value: Int?) {
            int(key, value.map(Int64.init))
        }

        public mutating func double(_ key: String, _ value: Double?) {
            guard let value else { return }
            self.key(key)
            bytes.append(contentsOf: JSONWriter.format(value).utf8)
        }

        public mutating func bool(_ key: String, _ value: Bool?) {
            guard let value else { return }
            self.key(key)
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        }

        public mutating func null(_ key: String) {
            self.key(key)
            bytes.append(contentsOf: "null".utf8)
        }

        public mutating func value(_ key: String, _ value: JSONValue?) {
            guard let value else { return }
            self.key(key)
            JSONWriter.append(value, to: &bytes)
        }

        /// Writes a member whose value is itself written by `body`.
        public mutating func raw(_ key: String, _ body: (inout [UInt8]) -> Void) {
            self.key(key)
            body(&bytes)
        }
    }

    // MARK: Primitives

    /// Shortest text that reads back as the same Double; JSON has no NaN or infinity, so
    /// those become null.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    public static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let s): appendString(s, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(member.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            let count = utf8.count
            var runStart = 0
            var i = 0
            while i < count {
                // Most bytes need no escape: one comparison chain per byte, then the whole
                // run is copied at once (a listing's descriptions are most of its output).
                let byte = utf8[i]
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0x7F {
                    i += 1
                    continue
                }
                let escape: UInt8 = switch byte {
                case UInt8(ascii: "\""): UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                case 0x0A: UInt8(ascii: "n")
                case 0x0D: UInt8(ascii: "r")
                case 0x09: UInt8(ascii: "t")
                default: UInt8(ascii: "u")  // the other controls, and DEL
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escape)
                if escape == UInt8(ascii: "u") {
                    bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
                i += 1
                runStart = i
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
