import Foundation
import Testing
@testable import TopRegionsFormatting

/// The byte-level paths of the HTML page against what they stand in for.
struct SnippetTests {
    /// Every description the plain-ASCII path answers gets the general path's snippet: every
    /// ASCII byte alone and between words, runs of whitespace, and random texts long and short.
    @Test func thePlainASCIIPathAgreesWithTheGeneralOne() {
        var texts: [String] = ["", " ", "a", "  a  b  ", "a\r\nb", "a\r\n\r\nb", "x>y", String(repeating: "word ", count: 40)]
        for byte in UInt8(0)...0x7F {
            let character = String(decoding: [byte], as: UTF8.self)
            texts += [character, "a\(character)b", "\(character)a", "a\(character)", "a \(character) b"]
        }
        var generator = SystemRandomNumberGenerator()
        let ascii: [UInt8] = Array(0...0x7F) + Array(repeating: UInt8(ascii: " "), count: 40) + Array(repeating: UInt8(ascii: "e"), count: 60)
        let plain = ascii.filter { $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "&") }
        for round in 0..<3000 {
            let alphabet = round.isMultiple(of: 2) ? ascii : plain
            let length = Int.random(in: 0...300, using: &generator)
            texts.append(String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self))
        }
        var answered = 0
        for text in texts {
            guard let fast = Reports.plainASCIISnippet(text) else { continue }
            answered += 1
            #expect(fast == Reports.generalSnippet(text), "\(Array(text.utf8))")
        }
        #expect(answered > 2000)  // most of them have no "<" or "&"
        // Not answered: markup, entities, anything beyond ASCII.
        #expect(Reports.plainASCIISnippet("a <b>bold</b> word") == nil)
        #expect(Reports.plainASCIISnippet("fish &amp; chips") == nil)
        #expect(Reports.plainASCIISnippet("Île-de-France") == nil)
        #expect(Reports.snippet("  Île-de-France \n <i>by night</i> &amp; more ") == "Île-de-France by night & more")
        // Entities are read one after the other, each once, as ever: "&amp;lt;" ends as "<",
        // "&amp;amp;" as "&amp;".
        #expect(Reports.snippet("<p>a &amp;lt; b &amp;amp; c</p>") == "a < b &amp; c")
        #expect(Reports.snippet("<p>a&nbsp;b</p>") == "a b")
    }

    /// Base64 as Foundation writes it, at every length of padding and at random.
    @Test func base64IsFoundationsWithoutTheCopy() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...64) + [2_999, 3_000, 3_001] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(HTMLPage.base64(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
        }
        #expect(HTMLPage.base64(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(HTMLPage.base64(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(HTMLPage.base64(Array("foob".utf8)) == "Zm9vYg==")
    }
}
