import Foundation

/// A description as the pages and feeds show it: plain text, cut to 140 characters.
extension Reports {
    /// Plain text from a Flickr description (which may hold HTML), cut to 140 characters.
    static func snippet(_ description: String) -> String {
        byteSnippet(description) ?? generalSnippet(description)
    }

    /// `snippet` of any description: tags out, the common entities read, whitespace
    /// collapsed, by grapheme.
    static func generalSnippet(_ description: String) -> String {
        // Only the start of a long description can show. Every step is local (a tag ends at
        // its ">", an entity is at most 10 characters even read twice, whitespace collapses
        // where it is), so the plain text of its first 256 characters is the plain text of the
        // whole up to its last few characters: when that holds 170 or more, its first 139 are
        // the snippet's, without walking kilobytes by grapheme. SnippetTests holds the two
        // together on long random texts.
        if description.utf8.count > 512 {
            let head = plainText(String(description.prefix(256)))
            if head.count >= 170 { return String(head.prefix(139)) + "…" }
        }
        let flat = plainText(description)
        guard flat.count > 140 else { return flat }
        return String(flat.prefix(139)) + "…"
    }

    /// A Flickr description (which may hold HTML) as plain text, whole: tags out, the common
    /// entities read, whitespace collapsed.
    static func plainText(_ description: String) -> String {
        var text = ""
        var inTag = false
        for character in description {
            if character == "<" { inTag = true; continue }
            if character == ">" && inTag { inTag = false; text.append(" "); continue }
            if !inTag { text.append(character) }
        }
        // One after the other, as written ("&amp;lt;" ends as "<"); none without an "&" left.
        for (entity, replacement) in snippetEntities where text.utf8.contains(UInt8(ascii: "&")) {
            text = text.replacingOccurrences(of: entity, with: replacement)
        }
        // A space before closing punctuation goes: a tag becomes a space, so "at <a>x</a>."
        // read "at x ." (and a link whose tags went, "at ."), which nobody writes.
        var flat = ""
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            if !flat.isEmpty && !(word.first.map(closesText) ?? false) { flat.append(" ") }
            flat += word
        }
        return flat
    }

    /// Punctuation that follows a word without a space.
    static func closesText(_ character: Character) -> Bool {
        character == "." || character == "," || character == ";" || character == ":" || character == "!" || character == "?" || character == ")"
    }

    /// `closesText` of the character a byte of UTF-8 starts, when it stands alone (the byte
    /// path's): a character built and compared for each word was a tenth of a snippet's time.
    static func closesText(byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ")"): true
        default: false
        }
    }

    /// The entities a snippet reads, in the order it reads them.
    static let snippetEntities: [(String, String)] = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " ")]

    /// `snippet` of a description read as bytes, or nil when one of its scalars can join a
    /// neighbour into one character or equals an ASCII character (`needsTheGeneralPath`: a
    /// combining mark, a joiner, a variation selector, an emoji modifier, a prepended mark, the
    /// Greek question mark). Without those, every character the
    /// general path tests (a tag's "<" and ">", an entity's "&" and ";", closing punctuation,
    /// whitespace) is one scalar standing alone as a character ("\r\n" is whitespace either
    /// way), the entities' search is a byte search, and whitespace is a scalar's White_Space
    /// property, which a character takes from its first scalar: so the same steps on bytes give
    /// what the general path gives, without walking the text by grapheme and through
    /// Foundation's search, in Greek, Russian or Japanese as much as in English (docs/PERFORMANCE.md,
    /// "A served page's text and threads"). Only the cut to 140 characters counts graphemes, on
    /// the result.
    /// SnippetTests holds the two paths together.
    static func byteSnippet(_ description: String) -> String? {
        var text: [UInt8] = []
        text.reserveCapacity(description.utf8.count)
        var inTag = false
        var ascii = true
        for scalar in description.unicodeScalars {
            guard scalar.isASCII else {
                if needsTheGeneralPath(scalar) { return nil }
                ascii = false
                if inTag { continue }
                // Whitespace is only ever a gap between words, never shown: one space serves.
                if isWhitespaceBeyondASCII(scalar) { text.append(0x20); continue }
                text.append(contentsOf: UTF8.encode(scalar)!)
                continue
            }
            let byte = UInt8(scalar.value)
            if byte == UInt8(ascii: "<") { inTag = true; continue }
            if byte == UInt8(ascii: ">") && inTag { inTag = false; text.append(0x20); continue }
            if !inTag { text.append(byte) }
        }
        for (entity, replacement) in snippetEntities where text.contains(UInt8(ascii: "&")) {
            text = replacingEvery(Array(entity.utf8), in: text, with: Array(replacement.utf8))
        }
        var words: [UInt8] = []
        words.reserveCapacity(min(text.count, 160))
        var spaceBefore = false
        for byte in text {
            switch byte {
            case 0x09...0x0D, 0x20:
                spaceBefore = !words.isEmpty
            default:
                if spaceBefore {
                    // A byte from 0x80 starts or continues a scalar beyond ASCII: never punctuation that closes.
                    if !closesText(byte: byte) { words.append(0x20) }
                    spaceBefore = false
                }
                words.append(byte)
            }
        }
        // No more characters than bytes: a short one needs no counting.
        guard words.count > 140 else { return String(decoding: words, as: UTF8.self) }
        if ascii { return String(decoding: words[..<139], as: UTF8.self) + "…" }
        let flat = String(decoding: words, as: UTF8.self)
        guard flat.count > 140 else { return flat }
        return String(flat.prefix(139)) + "…"
    }

    /// Unicode's White_Space beyond ASCII (unchanged since Unicode 6.3), by value: a look at
    /// the scalar's properties costs more than the rest of its handling. SnippetTests holds it
    /// to `Unicode.Scalar.Properties.isWhitespace` over every scalar.
    static func isWhitespaceBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether a scalar beyond ASCII is one the byte path cannot read as the general path
    /// does: one that can make one character with the scalar before it (a combining mark,
    /// spacing or not, an enclosing one, an emoji modifier, a variation selector or another
    /// Grapheme_Extend, a joiner) or after it (the prepended marks: format characters, and the
    /// letters of Malayalam, Thai, Lao and the historic Brahmic scripts that join so), and the
    /// Greek question mark, which is canonically ";" (a character equals it). The scripts most
    /// descriptions are written in answer from their ranges, without a look at the scalar's
    /// properties. SnippetTests tries every scalar of the planes in use beside each character
    /// the general path tests.
    static func needsTheGeneralPath(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x2FF,  // Latin-1's and Latin Extended's letters and signs, IPA, modifier letters
             0x370...0x37D, 0x37F...0x482, 0x48A...0x52F,  // Greek (not its question mark), Cyrillic (not its combining marks)
             0x3041...0x3096, 0x30A1...0x30FA,  // hiragana, katakana (not their sound marks)
             0x4E00...0x9FFF, 0xAC00...0xD7A3:  // CJK ideographs, Hangul syllables
            return false
        case 0x037E, 0x0D4E, 0x0E33, 0x0EB3, 0x11000...0x11FFF:
            return true
        default:
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
            default: return properties.isGraphemeExtend || properties.isEmojiModifier
            }
        }
    }

    /// Every occurrence of `pattern` in `text` replaced, left to right, each match starting
    /// after the previous one (as `replacingOccurrences(of:with:)` does).
    private static func replacingEvery(_ pattern: [UInt8], in text: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == pattern[0], index + pattern.count <= text.count, text[index..<index + pattern.count].elementsEqual(pattern) {
                out += replacement
                index += pattern.count
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return out
    }
}
