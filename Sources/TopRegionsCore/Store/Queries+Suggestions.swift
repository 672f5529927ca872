import Foundation
import GRDB
import TopRegionsRecords

// What a search that found nothing might have meant: the words of the search index a typo
// away from the words given ("harbor", "habour" → "harbour").

extension Queries {
    /// The search `text` with each of its words the index does not hold replaced by the
    /// nearest word it holds (a typo or two away, the one in most photos first); nil when no
    /// word could be mended. Operators (AND, OR, NOT, NEAR) and column names stay as typed.
    public func mendedSearch(_ text: String) throws -> String? {
        let words = Self.searchWords(text)
        guard !words.isEmpty else { return nil }
        return try store.read { db -> String? in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.photo_fts_terms USING fts5vocab(main, 'photo_fts', 'row')")
            var mended = text
            var changed = false
            for word in words {
                let folded = Self.folded(word)
                guard try Int.fetchOne(db, sql: "SELECT doc FROM temp.photo_fts_terms WHERE term = ?", arguments: [folded]) == nil,
                    let near = try Self.nearestTerm(to: folded, db)
                else { continue }
                if let range = mended.range(of: word) {
                    mended.replaceSubrange(range, with: near)
                    changed = true
                }
            }
            return changed ? mended : nil
        }
    }

    /// The index's term nearest `term`: starting with the same letter, at most a quarter of
    /// its letters (at least one) edited away, the nearest and then the one in most photos.
    static func nearestTerm(to term: String, _ db: Database) throws -> String? {
        guard let first = term.unicodeScalars.first else { return nil }
        let wanted = Array(term.unicodeScalars)
        let allowed = max(1, wanted.count / 4)
        let next = String(Character(Unicode.Scalar(first.value + 1) ?? first))
        let rows = try Row.fetchCursor(db, sql: """
            SELECT term, doc FROM temp.photo_fts_terms WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?
            """, arguments: [String(first), next, wanted.count - allowed, wanted.count + allowed])
        var best: (distance: Int, photos: Int, term: String)?
        while let row = try rows.next() {
            let candidate: String = row[0], photos: Int = row[1]
            let distance = RegionMatcher.editDistance(wanted, Array(candidate.unicodeScalars))
            guard distance <= allowed else { continue }
            if best.map({ (distance, -photos, candidate) < ($0.distance, -$0.photos, $0.term) }) ?? true {
                best = (distance, photos, candidate)
            }
        }
        return best?.term
    }

    /// The words of a search as typed: runs of letters and digits, not the operators, not a
    /// column's name before its colon.
    static func searchWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var characters = Array(text)
        characters.append(" ")
        for character in characters {
            if character.isLetter || character.isNumber {
                current.append(character)
                continue
            }
            if !current.isEmpty && character != ":" && !["AND", "OR", "NOT", "NEAR"].contains(current) { words.append(current) }
            current = ""
        }
        return words
    }

    /// A word as the index keeps it (unicode61, remove_diacritics 2): lowercase, no accents.
    static func folded(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
