import Foundation
import Testing
@testable import TopRegionsFormatting

/// The byte-level paths of the HTML page against what they stand in for.
struct SnippetTests {
    /// Every description the ASCII path answers gets the general path's snippet: every ASCII
    /// byte alone and between words, runs of whitespace, tags and entities, and random texts
    /// long and short made of bytes and of pieces of markup.
    /// A tag becomes a space, but not before closing punctuation. Regression: "More at
    /// <a>example.com</a>." read "More at example.com ." (and "at ." once the link went).
    @Test func noSpaceBeforeClosingPunctuation() {
        #expect(Reports.snippet(#"More at <a href="https://example.com/walks">example.com</a>. Fog (<b>early</b>)!"#)
            == "More at example.com. Fog ( early)!")
        #expect(Reports.snippet("Été à <a href=\"x\">Lyon</a>, puis <i>Paris</i>.") == "Été à Lyon, puis Paris.")
    }

    @Test func theASCIIPathAgreesWithTheGeneralOne() {
        var texts: [String] = ["", " ", "a", "  a  b  ", "a\r\nb", "a\r\n\r\nb", "x>y", String(repeating: "word ", count: 40)]
        for byte in UInt8(0)...0x7F {
            let character = String(decoding: [byte], as: UTF8.self)
            texts += [character, "a\(character)b", "\(character)a", "a\(character)", "a \(character) b"]
        }
        let markup = ["<b>", "</b>", "<a href=\"x\">", "<", ">", "&", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&nbsp;", "&amp;lt;", "&amp;amp;", "&&amp;"]
        for piece in markup { texts += [piece, "a\(piece)b", " \(piece) ", "\(piece)\(piece)"] }
        var generator = SeededGenerator(seed: 2013)  // a failure replays
        let pieces = (0...0x7F).map { String(decoding: [UInt8($0)], as: UTF8.self) }
            + Array(repeating: " ", count: 40) + Array(repeating: "e", count: 60) + markup + markup
        for _ in 0..<3000 {
            let length = Int.random(in: 0...250, using: &generator)
            texts.append((0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in texts {
            let fast = Reports.asciiSnippet(text)
            #expect(fast != nil, "\(Array(text.utf8))")  // every one is ASCII
            #expect(fast == Reports.generalSnippet(text), "\(Array(text.utf8))")
        }
        // Not answered: anything beyond ASCII.
        #expect(Reports.asciiSnippet("Île-de-France") == nil)
        #expect(Reports.asciiSnippet("a\u{A0}b") == nil)
        #expect(Reports.snippet("  Île-de-France \n <i>by night</i> &amp; more ") == "Île-de-France by night & more")
        // Entities are read one after the other, each once, as ever: "&amp;lt;" ends as "<",
        // "&amp;amp;" as "&amp;".
        #expect(Reports.snippet("<p>a &amp;lt; b &amp;amp; c</p>") == "a < b &amp; c")
        #expect(Reports.snippet("<p>a&nbsp;b</p>") == "a b")
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
