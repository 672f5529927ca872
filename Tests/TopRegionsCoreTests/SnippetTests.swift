import Foundation
import Testing
@testable import TopRegionsFormatting
import TopRegionsTestSupport

/// The byte-level paths of the HTML page against what they stand in for.
struct SnippetTests {
    /// Every description the ASCII path answers gets the general path's snippet: every ASCII
    /// byte alone and between words, runs of whitespace, tags and entities, and random texts
    /// long and short made of bytes and of pieces of markup.
    /// A tag becomes a space, but not before closing punctuation. Regression: "More at
    /// <a>example.com</a>." read "More at example.com ." (and "at ." once the link went).
    @Test func noSpaceBeforeClosingPunctuation() {
        // Both paths' test, against the marks written out: every byte standing alone; a
        // character is one of them by canonical equivalence (the Greek question mark is ";"),
        // not with an accent on it.
        let marks = Set(".,;:!?)".utf8)
        for byte in UInt8(0)...0x7F {
            #expect(Reports.closesText(byte: byte) == marks.contains(byte), "\(byte)")
            #expect(Reports.closesText(Character(Unicode.Scalar(byte))) == marks.contains(byte), "\(byte)")
        }
        for byte in UInt8(0x80)...0xFF { #expect(!Reports.closesText(byte: byte)) }
        #expect(Reports.closesText("\u{37E}"))
        #expect(!Reports.closesText(".\u{301}") && !Reports.closesText("\r\n") && !Reports.closesText("\u{FF0E}"))
        #expect(Reports.snippet(#"More at <a href="https://example.com/walks">example.com</a>. Fog (<b>early</b>)!"#)
            == "More at example.com. Fog ( early)!")
        #expect(Reports.snippet("Été à <a href=\"x\">Lyon</a>, puis <i>Paris</i>.") == "Été à Lyon, puis Paris.")
    }

    @Test func theBytePathAgreesWithTheGeneralOneInASCII() {
        var texts: [String] = ["", " ", "a", "  a  b  ", "a\r\nb", "a\r\n\r\nb", "x>y", String(repeating: "word ", count: 40)]
        for byte in UInt8(0)...0x7F {
            let character = String(decoding: [byte], as: UTF8.self)
            texts += [character, "a\(character)b", "\(character)a", "a\(character)", "a \(character) b"]
        }
        for piece in Self.markup { texts += [piece, "a\(piece)b", " \(piece) ", "\(piece)\(piece)"] }
        var generator = SeededGenerator(seed: 2013)  // a failure replays
        let pieces = (0...0x7F).map { String(decoding: [UInt8($0)], as: UTF8.self) }
            + Array(repeating: " ", count: 40) + Array(repeating: "e", count: 60) + Self.markup + Self.markup
        for _ in 0..<3000 {
            let length = Int.random(in: 0...250, using: &generator)
            texts.append((0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in texts {
            let fast = Reports.byteSnippet(text)
            #expect(fast != nil, "\(Array(text.utf8))")  // every one is ASCII
            #expect(fast == Reports.generalSnippet(text), "\(Array(text.utf8))")
        }
        #expect(Reports.snippet("  Île-de-France \n <i>by night</i> &amp; more ") == "Île-de-France by night & more")
        // Entities are read one after the other, each once, as ever: "&amp;lt;" ends as "<",
        // "&amp;amp;" as "&amp;".
        #expect(Reports.snippet("<p>a &amp;lt; b &amp;amp; c</p>") == "a < b &amp; c")
        #expect(Reports.snippet("<p>a&nbsp;b</p>") == "a b")
    }

    static let markup = ["<b>", "</b>", "<a href=\"x\">", "<", ">", "&", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&nbsp;", "&amp;lt;", "&amp;amp;", "&&amp;"]

    /// Beyond ASCII: random texts of words in several scripts, emoji, flags, Hangul jamo, every
    /// kind of whitespace and markup, long (cut by grapheme) and short. Those without a scalar
    /// that joins its neighbour get the general path's snippet from the byte path; the others
    /// (combining marks, variation selectors, emoji modifiers and joiners, prepended marks) are
    /// left to the general path.
    @Test func theBytePathAgreesWithTheGeneralOneInAnyScript() {
        let standalone = ["word", "Île", "Été,", "θέα", "Москва", "東京", "ひらがな", "カタカナ", "한국", "\u{1100}\u{1161}\u{11A8}", "🙂", "🇫🇷", "🇫🇷🇩🇪",
                          "ß", "ﬁ", "ǅ", "\u{AD}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{1680}", "\u{202F}", "…", "“", "”",
                          " ", " ", "\n", "\r\n", "\t", ".", ",", ")", "!"] + Self.markup
        let joining = ["e\u{301}", "\u{301}", "\u{20DD}", "❤️", "👍🏽", "\u{200D}", "\u{200C}", "👩‍👩‍👧", "\u{600}", "\u{E33}", "\u{D4E}",
                       "\u{903}", "न्", "\u{3099}", "\u{FE0F}", "\u{E0061}", "\u{111C2}"]
        var generator = SeededGenerator(seed: 1129)  // a failure replays
        var answered = 0
        for round in 0..<2000 {
            let count = Int.random(in: 0...(round % 4 == 0 ? 300 : 60), using: &generator)
            var words = (0..<count).map { _ in standalone.randomElement(using: &generator)! }
            let joins = round % 3 == 0 && !words.isEmpty
            if joins { words[Int.random(in: 0..<words.count, using: &generator)] = joining.randomElement(using: &generator)! }
            let text = words.joined()
            let fast = Reports.byteSnippet(text)
            #expect((fast == nil) == joins, "\(text.unicodeScalars.map { $0.value })")
            if let fast {
                #expect(fast == Reports.generalSnippet(text), "\(text.unicodeScalars.map { $0.value })")
                answered += 1
            }
        }
        #expect(answered > 1000)
        #expect(Reports.snippet("Η θέα από το <b>λόφο</b> .") == "Η θέα από το λόφο.")
        #expect(Reports.snippet("café\u{301} <i>x</i>") == "café\u{301} x")
        #expect(Reports.snippet("Τι; <b>Πού</b> \u{37E}") == "Τι; Πού\u{37E}")
    }

    /// Every scalar beyond ASCII of the Basic Multilingual Plane (the CJK ideographs and Hangul
    /// syllables sampled), the emoji and the tags, beside each character the general path
    /// tests: where the byte path answers, it answers as the general path does. Regression:
    /// U+037E GREEK QUESTION MARK is ";" to a character, so no space went before it. Every
    /// White_Space scalar is found by value.
    @Test func everyScalarBesideMarkupGivesTheGeneralPathsSnippet() {
        var answered = 0
        // The CJK ideographs and the Hangul syllables (32,000 scalars of one kind each: letters
        // that join nothing) sampled, every other scalar tried.
        let uniform = [0x4E00...0x9FFF, 0xAC00...0xD7A3]
        let values = (Array(0x80...0xD7FF) + Array(0xE000...0xFFFF) + Array(0x1F000...0x1FAFF) + Array(0xE0000...0xE01EF)).filter { value in
            guard let range = uniform.first(where: { $0.contains(value) }) else { return true }
            return value % 17 == 0 || value == range.lowerBound || value == range.upperBound
        }
        for value in values {
            let scalar = Unicode.Scalar(value)!
            #expect(Reports.isWhitespaceBeyondASCII(scalar) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
            let s = String(Character(scalar))
            let text = "a\(s)<i>\(s)</i>\(s) \(s).\(s)&amp;\(s)\r\n\(s)"
            guard let fast = Reports.byteSnippet(text) else { continue }
            #expect(fast == Reports.generalSnippet(text), "U+\(String(value, radix: 16))")
            answered += 1
        }
        #expect(answered > 30_000)
    }

    /// A long description's snippet, read from its start only, is the one its whole plain
    /// text gives: random texts of half a kilobyte to 12 KB of words in several scripts, whitespace of every
    /// kind, combining marks, tags (some cut by the 256th character), entities (some cut, some
    /// read twice) and lone "<", ">" and "&".
    @Test func aLongDescriptionsSnippetIsTheWholeTextsStart() {
        var generator = SeededGenerator(seed: 2026)  // a failure replays
        let pieces = ["word", "Île", "θέα", "Москва", "東京", "e\u{301}", "\u{301}", "a", " ", " ", "  ", "\n", "\r\n", "\t", "\u{A0}", "\u{2003}",
                      "<b>", "</b>", "<a href=\"x y\">", "<", ">", "&", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&nbsp;", "&amp;lt;",
                      "&amp;nbsp;", "&amp;amp;", "&&amp;", "&am", "p;", "<!-- a comment with words -->"]
        var checked = 0
        for round in 0..<600 {
            let count = Int.random(in: 80...(round % 10 == 0 ? 4_000 : 600), using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            guard text.utf8.count > 512 else { continue }
            let whole = Reports.plainText(text)
            let expected = whole.count > 140 ? String(whole.prefix(139)) + "…" : whole
            #expect(Reports.generalSnippet(text) == expected, "\(Array(text.utf8))")
            checked += 1
        }
        #expect(checked > 300)
        // A long text whose start is mostly markup: the head holds too little, so the whole is read.
        let sparse = String(repeating: "<i>", count: 300) + "after the tags"
        #expect(Reports.generalSnippet(sparse) == "after the tags")
    }

    /// Escaping gives what the scalar-by-scalar path gives, for the texts the ASCII shortcut
    /// returns unchanged and for those it does not.
    @Test func escapingTakesTheShortcutOnlyForPlainText() {
        #expect(HTMLPage.escape("Harbour at dawn, 2024 (3)") == "Harbour at dawn, 2024 (3)")
        #expect(HTMLPage.escape("Fish & \"chips\" <b>'s") == "Fish &amp; &quot;chips&quot; &lt;b&gt;&#39;s")
        #expect(HTMLPage.escape("a\tb\r\nc\u{7F}d\u{1}e") == "a\tb\n\nc\u{FFFD}d\u{FFFD}e")
        let nonCharacters = String(String.UnicodeScalarView([Unicode.Scalar(0xFDD0)!, Unicode.Scalar(0xFFFE)!]))
        #expect(HTMLPage.escape("Île \u{85}" + nonCharacters) == "Île \u{FFFD}\u{FFFD}\u{FFFD}")
    }

    /// The byte-level escape gives, for every scalar of the Basic Multilingual Plane and every
    /// plane's noncharacters and neighbours, alone and between text, what reading scalar by
    /// scalar gives (the rule, written as a model here).
    @Test func escapingByBytesIsEscapingByScalars() {
        func model(_ text: String) -> String {
            var out = ""
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
                    let forbidden = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFDD0...0xFDEF).contains(scalar.value)
                        || scalar.value & 0xFFFE == 0xFFFE
                    out.unicodeScalars.append(forbidden ? "\u{FFFD}" : scalar)
                }
            }
            return out
        }
        var values = Array(0...0xD7FF) + Array(0xE000...0xFFFF)
        for plane in 1...16 { values += (0xFFF0...0xFFFF).map { plane << 16 | $0 } + [plane << 16, plane << 16 | 0xFDD0] }
        for value in values {
            let scalar = String(Character(Unicode.Scalar(value)!))
            for text in [scalar, "a\(scalar)b\(scalar)"] {
                #expect(HTMLPage.escape(text) == model(text), "U+\(String(value, radix: 16))")
                // Written into a page's bytes, after what is there.
                var page = Array("<p>".utf8)
                HTMLPage.escape(text, into: &page)
                #expect(page == Array(("<p>" + model(text)).utf8), "U+\(String(value, radix: 16)) into a page")
            }
        }
    }

    /// Percent-encoding keeps the unreserved bytes (RFC 3986) and the one asked for, and writes
    /// every other byte as %XX in capitals.
    @Test func percentEncodingWritesEveryOtherByteAsTwoCapitalHexDigits() {
        for byte in UInt8(0)...0x7F {
            let text = String(decoding: [byte], as: UTF8.self)
            let unreserved = Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber || "-._~".utf8.contains(byte)
            let hex = "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            #expect(HTMLPage.percentEncoded(text) == (unreserved ? text : hex), "\(byte)")
            #expect(HTMLPage.percentEncoded(text, keeping: "/") == (unreserved || byte == UInt8(ascii: "/") ? text : hex), "\(byte)")
        }
        #expect(HTMLPage.percentEncoded("Île de/Ré 東", keeping: "/") == "%C3%8Ele%20de/R%C3%A9%20%E6%9D%B1")
        #expect(HTMLPage.fileURL("/tmp/a b/ü.html") == "file:///tmp/a%20b/%C3%BC.html")
    }

    /// Base64 as Foundation writes it, at every length of padding and at random.
    @Test func base64IsFoundationsWithoutTheCopy() {
        var generator = SeededGenerator(seed: 2013)  // a failure replays
        for length in Array(0...64) + [2_999, 3_000, 3_001] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(HTMLPage.base64(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
        }
        #expect(HTMLPage.base64(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(HTMLPage.base64(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(HTMLPage.base64(Array("foob".utf8)) == "Zm9vYg==")
    }
}
