import TopRegionsSupport

/// A JSON syntax error with the byte offset where the input stopped making sense.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String
}

/// A strict RFC 8259 parser for one JSON text held in memory.
///
/// Why not Foundation's JSONDecoder: on this toolchain it decodes a photo record in about
/// 6–8 µs and reports no position for syntax errors. This parser takes well under 1 µs per
/// record, keeps member order and number text (so unknown fields pass through unchanged),
/// and says where a line went wrong. Foundation's Codable is still used for Flickr's
/// responses, where speed does not matter.
public struct JSONParser: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private static let maxDepth = 256

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses exactly one JSON value (surrounded by optional whitespace).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    /// Parses the one value that starts at `index` (no whitespace before it) in a text
    /// where it is nested `depth` levels deep; `index` ends just after it. For the record
    /// scanner, which reads the members it does not know as values.
    package static func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.index = index
        parser.depth = depth
        let value = try parser.parseValue()
        index = parser.index
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Whether `text` is, all of it, a number as RFC 8259 §6 writes one: an optional minus,
    /// an integer without leading zeros, an optional fraction, an optional exponent. (No
    /// `+`, no hexadecimal, no `inf` or `nan`, no `_` separators.)
    public static func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            func digits() -> Int {
                let start = index
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
                return index - start
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let leadsWithZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
            let integer = digits()
            guard integer > 0, !(leadsWithZero && integer > 1) else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            return index == bytes.count
        }
    }

    // MARK: - Grammar

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of line, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
        try enter()
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(16)
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("unexpected \(describeCurrent()), expected a member name in quotes") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()), expected ':' after \(Excerpt.quoted(key))") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        depth -= 1
        return JSONObject(members)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        depth -= 1
        return elements
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1  // opening quote
        let contentStart = index
        var allASCII = true
        // Fast path: no escapes, so the bytes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(start: bytes.baseAddress! + contentStart, count: index - contentStart)
                index += 1
                // ASCII needs no validation; decoding it directly avoids the generic
                // validating initializer, which dominates the profile otherwise.
                if allASCII { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw illFormedUTF8(contentStart: contentStart, end: index - 1)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(JSONStringFault.controlCharacter(byte).message) }
            if byte >= 0x80 { allASCII = false }
            index += 1
        }
        guard index < bytes.count else { throw JSONSyntaxError(offset: start, message: "string is not closed") }
        // Slow path: unescape into a buffer.
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        do {
            try JSONStringEscapes.unescape(bytes.baseAddress!, bytes.count, &index, into: &buffer, from: 0)
        } catch {
            // (Escapes are ASCII and unescape to whole characters: the first ill-formed
            // sequence of the unescaped text is the source's.)
            if error == .notUTF8 { throw illFormedUTF8(contentStart: contentStart, end: index - 1) }
            throw JSONSyntaxError(offset: error.isTheWholeString ? start : index, message: error.message)
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The error for a string whose text (`contentStart..<end`, escapes as written) is not
    /// well-formed UTF-8, at the byte where the first ill-formed sequence starts.
    private func illFormedUTF8(contentStart: Int, end: Int) -> JSONSyntaxError {
        let at = JSONStringEscapes.firstIllFormedUTF8(bytes.baseAddress! + contentStart, end - contentStart) ?? 0
        return JSONSyntaxError(offset: contentStart + at, message: "string is not valid UTF-8 (byte 0x\(String(bytes[contentStart + at], radix: 16, uppercase: true)) here)")
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        // Numbers are ASCII, so this cannot fail.
        return String(decoding: UnsafeBufferPointer(start: bytes.baseAddress! + start, count: index - start), as: UTF8.self)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count
            && (0..<count).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        guard matches else { throw error("unexpected \(describeCurrent()), expected a value") }
        index += count
    }

    // MARK: - Helpers

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of line" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: message)
    }
}
