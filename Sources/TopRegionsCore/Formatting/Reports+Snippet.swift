import Foundation

/// A description as the pages and feeds show it: plain text, cut to 140 characters.
extension Reports {
    /// Plain text from a Flickr description (which may hold HTML), cut to 140 characters.
    static func snippet(_ description: String) -> String {
        asciiSnippet(description) ?? generalSnippet(description)
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

    /// The entities a snippet reads, in the order it reads them.
    static let snippetEntities: [(String, String)] = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " ")]

    /// `snippet` of a description in ASCII, read as bytes; nil for any other. In ASCII every
    /// character is one byte (but "\r\n", which is whitespace either way), a tag's "<" and
    /// ">" cannot combine with what follows, the entities' literal search is a byte search,
    /// and the whitespace characters are the six ASCII ones: so the same steps on bytes give
    /// what the general path gives, without walking the text by grapheme and through
    /// Foundation's search (a fifth of an HTML page's time). SnippetTests holds the two
    /// paths together.
    static func asciiSnippet(_ description: String) -> String? {
        var text: [UInt8] = []
        text.reserveCapacity(description.utf8.count)
        var inTag = false
        for byte in description.utf8 {
            if byte >= 0x80 { return nil }
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
                    if !closesText(Character(Unicode.Scalar(byte))) { words.append(0x20) }
                    spaceBefore = false
                }
                words.append(byte)
            }
        }
        guard words.count > 140 else { return String(decoding: words, as: UTF8.self) }
        return String(decoding: words[..<139], as: UTF8.self) + "…"
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
