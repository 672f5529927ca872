import Testing
@testable import TopRegionsFormatting
@testable import TopRegionsRecords
@testable import TopRegionsSupport

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingOrderAndNumberText() throws {
        let value = try JSONParser.parse(#"{"b":1.50,"a":[true,false,null],"c":"x\"y\u00e9\ud83d\ude00","d":{"e":-0.1e-5},"big":123456789012345678901}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["b", "a", "c", "d", "big"])
        #expect(object["b"] == .number("1.50"))
        #expect(object["big"] == .number("123456789012345678901"))
        #expect(object["c"] == .string("x\"yé😀"))
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        var writer = JSONWriter()
        writer.value(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == #"{"b":1.50,"a":[true,false,null],"c":"x\"yé😀","d":{"e":-0.1e-5},"big":123456789012345678901}"#)
    }

    @Test(arguments: [
        (#"{"a":1,}"#, 7, "unexpected '}', expected a member name in quotes"),
        (#"{"a" 1}"#, 5, "unexpected '1', expected ':' after \"a\""),
        (#"{"a":01}"#, 6, "invalid number: leading zero"),
        (#"{"a":tru}"#, 5, "unexpected 't', expected a value"),
        (#"{"a":"x"} y"#, 10, "unexpected 'y' after the JSON value"),
        (#"{"a":"\q"}"#, 6, "invalid escape '\\q'"),
        (#"{"a":"\ud800"}"#, 12, "unpaired surrogate \\uD800"),
        // Every way an escape can be wrong, where the parser stops (RFC 8259 §7).
        (#"{"a":"\udc00"}"#, 12, "unpaired surrogate \\uDC00"),
        (#"{"a":"\ud800\u0041"}"#, 18, "unpaired surrogate \\uD800"),
        (#"{"a":"\ud800x"}"#, 12, "unpaired surrogate \\uD800"),
        (#"{"a":"\u12x4"}"#, 10, "invalid hex digit in \\u escape"),
        (#""\u12"#, 3, "incomplete \\u escape"),
        (#""ab\"#, 0, "string is not closed"),
        (#""a\nb"#, 0, "string is not closed"),
        ("\"a\\n\u{01}\"", 4, "control character U+0001 inside a string (escape it)"),
        (#"{"a":"#, 5, "unexpected end of line, expected a value"),
        (#"{"a":"abc"#, 5, "string is not closed"),
        ("[1,2", 4, "unexpected end of line, expected ',' or ']'"),
    ])
    func reportsWhereAndWhy(text: String, offset: Int, message: String) {
        #expect(throws: JSONSyntaxError(offset: offset, message: message)) { try JSONParser.parse(text) }
    }

    @Test func rejectsRawControlCharactersAndBadUTF8() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("\"a\u{01}b\"") }
        // The offset is the ill-formed sequence's first byte. Regression: it was the string's
        // opening quote, however far before the byte.
        #expect(throws: JSONSyntaxError(offset: 1, message: "string is not valid UTF-8 (byte 0xC3 here)")) {
            try JSONParser.parse([0x22, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONSyntaxError(offset: 4, message: "string is not valid UTF-8 (byte 0xFF here)")) {
            try JSONParser.parse([0x22, 0x61, 0xC3, 0xA9, 0xFF, 0x22])
        }
        // After an escape too: the whole string's bytes are checked, escaped or not.
        #expect(throws: JSONSyntaxError(offset: 1, message: "string is not valid UTF-8 (byte 0xC3 here)")) {
            try JSONParser.parse([0x22, 0xC3, 0x5C, 0x6E, 0x22])
        }
        #expect(throws: JSONSyntaxError(offset: 3, message: "string is not valid UTF-8 (byte 0xED here)")) {
            try JSONParser.parse([0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22])
        }
        #expect(try JSONParser.parse([0x22, 0xC3, 0xA9, 0x5C, 0x6E, 0x22]) == .string("é\n"))
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func writerEscapesControlCharacters() {
        var bytes: [UInt8] = []
        JSONWriter.appendString("a\"b\\c\nd\te\u{01}f\u{7F}é", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""a\"b\\c\nd\te\u0001f\u007fé""#)
    }

    @Test func doublesAreShortestAndIntegralOnesHaveNoFraction() {
        #expect(JSONWriter.format(44.637512) == "44.637512")
        #expect(JSONWriter.format(-63.0) == "-63")
        #expect(JSONWriter.format(.nan) == "null")
    }
}

@Suite struct TerminalTests {
    @Test func controlCharactersNeverReachTheTerminal() {
        #expect(Terminal.printable("plain Île 東京") == "plain Île 東京")
        #expect(Terminal.printable("a\u{1B}[31mred\u{9B}2J\u{7F}") == "a\u{FFFD}[31mred\u{FFFD}2J\u{FFFD}")
        #expect(Terminal.printable("two\nlines", keepingLineBreaks: true) == "two\nlines")
        var table = TextTable(columns: [.init("NAME"), .init("N", .right)])
        table.append(["evil\u{1B}]0;title\u{07}name\nnext", "1"])
        #expect(table.render(emphasis: false) == "NAME" + String(repeating: " ", count: 21) + "N\nevil\u{FFFD}]0;title\u{FFFD}name next  1\n")
    }
}
