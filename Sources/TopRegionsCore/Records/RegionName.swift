import Foundation

/// How region names compare.
package enum RegionName {
    /// The ordering key of every name the toolkit sorts (regions, titles), in SQL and in
    /// Swift alike: Unicode case folding, diacritics and width removed, so that Épire sorts
    /// with the Es and Österreich, typed composed or decomposed, with the Os (SQLite's own
    /// lower() and NOCASE fold ASCII only, and sort every accented capital after Z).
    package static func sortKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The same name in any case and any Unicode normalization: "Île-de-France" typed
    /// decomposed (as macOS keyboards and file names give it) equals the precomposed one.
    package static func exactKey(_ name: String) -> String {
        name.lowercased().precomposedStringWithCanonicalMapping
    }

    /// What is left of a name for loose matching: its letters and digits, without case or
    /// diacritics, each run of anything else one space ("Île-de-France, France" → "ile de
    /// france france").
    package static func looseKey(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var key = ""
        var pendingSpace = false
        for character in folded {
            if character.isLetter || character.isNumber {
                if pendingSpace && !key.isEmpty { key.append(" ") }
                pendingSpace = false
                key.append(character)
            } else {
                pendingSpace = true
            }
        }
        return key
    }

    /// The loose key of a name written in another script, in Latin letters as ICU
    /// transliterates it ("Санкт-Петербург, Россия" → "sankt peterburg rossia"); nil for a
    /// name already in Latin letters (its loose key is the same) or one ICU cannot write so.
    package static func latinKey(_ name: String) -> String? {
        guard inAnotherScript(name), let latin = name.applyingTransform(.toLatin, reverse: false) else { return nil }
        let key = looseKey(latin)
        return key.isEmpty ? nil : key
    }

    /// The Latin key of each comma-separated part of a name in another script (a part in
    /// Latin letters by its loose key), one text with the parts between commas, as the store
    /// keeps it ("Санкт-Петербург, Россия" → "sankt peterburg,rossia"; a loose key has no
    /// commas); nil for a name in Latin letters, or when no part has letters or digits.
    package static func latinParts(_ name: String) -> String? {
        guard inAnotherScript(name) else { return nil }
        let parts = name.split(separator: ",").map { part in
            latinKey(String(part)) ?? looseKey(String(part))
        }
        return parts.allSatisfy(\.isEmpty) ? nil : parts.joined(separator: ",")
    }

    /// Whether a name has letters of a script other than Latin.
    static func inAnotherScript(_ name: String) -> Bool {
        name.unicodeScalars.contains { $0.properties.isAlphabetic && !isLatin($0) }
    }

    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x0250 || (0x1E00...0x1EFF).contains(scalar.value)
    }

    /// The words of a loose key.
    package static func words(_ looseKey: String) -> [Substring] {
        looseKey.split(separator: " ")
    }
}

/// Which region a user's words name.
public enum RegionMatch: Sendable, Equatable {
    /// One region: by its id, its name, the start of its name, or words of its name.
    case found(RegionRank)
    /// Several regions fit as well as each other (in name order).
    case ambiguous([RegionRank], AmbiguousBy)
    /// None fits; the closest names, closest first (maybe none).
    case unknown(closest: [RegionRank])

    public enum AmbiguousBy: Sendable, Equatable {
        /// They share the name, in case or spelling.
        case sameName
        /// The words given start each of their names.
        case namePrefix
        /// Each of their names has every word given.
        case words
    }
}

/// Finds the region a user means among all regions, in tiers: the exact region id; the
/// name, ignoring case and Unicode normalization; the start of the name, ignoring case,
/// diacritics and punctuation ("nova scotia" for "Nova Scotia, Canada"); every word given
/// being a word of the name ("york"). The first tier with any match decides: one match is
/// the answer, several are ambiguous. When none matches, the names nearest the query
/// (by edit distance, to the name, its start, its comma-separated parts or its words; else
/// by shared words) are the suggestions.
package struct RegionMatcher: Sendable {
    package let regions: [RegionRank]
    /// Each region's name as `RegionName.exactKey` gives it, and its loose keys (the name's,
    /// and for a name in another script its Latin one): folded once for every query. Folded
    /// for each, they were three quarters of a served search page's time (ICU's
    /// transliteration, for every region).
    private let exactKeys: [String]
    private let keys: [[String]]
    /// For each region, the keys of its name's comma-separated parts, matching `keys` one
    /// for one: "Lisboa" of "Lisboa, Portugal" is near what was typed.
    private let partKeys: [[[String]]]

    /// `latinParts`: each region's `RegionName.latinParts`, as the store keeps them
    /// (transliterating the names here makes ICU's transliterator ready, slow and large);
    /// nil: transliterated here.
    package init(regions: [RegionRank], latinParts: [String?]? = nil) {
        precondition(latinParts == nil || latinParts!.count == regions.count, "one text of Latin parts per region")
        self.regions = regions
        exactKeys = regions.map { RegionName.exactKey($0.name) }
        let latinParts = latinParts ?? regions.map { RegionName.latinParts($0.name) }
        var keys: [[String]] = []
        var partKeys: [[[String]]] = []
        for (region, latin) in zip(regions, latinParts) {
            let nameParts = region.name.split(separator: ",").map { RegionName.looseKey(String($0)) }
            keys.append([RegionName.looseKey(region.name)])
            partKeys.append([nameParts])
            if let latin {
                let parts = latin.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                keys[keys.count - 1].append(parts.filter { !$0.isEmpty }.joined(separator: " "))
                partKeys[partKeys.count - 1].append(parts)
            }
        }
        self.keys = keys
        self.partKeys = partKeys
    }

    /// What keeping it costs, about.
    package var bytes: Int {
        regions.reduce(64) { $0 + 96 + 4 * $1.name.utf8.count + $1.regionID.utf8.count }
    }

    /// How many suggestions an unknown name gets.
    static let suggestions = 5

    /// `suggesting`: false when only a region found matters (no closest names are looked
    /// for: `.unknown` comes without them).
    package func match(_ query: String, suggesting: Bool = true) -> RegionMatch {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if let byID = regions.first(where: { $0.regionID == trimmed }) { return .found(byID) }

        let exact = RegionName.exactKey(trimmed)
        let sameName = regions.indices.filter { exactKeys[$0] == exact }.map { regions[$0] }
        if !sameName.isEmpty {
            // "Alpha" and "alpha" both answer to "alpha"; one spelled exactly as typed wins.
            let typed = trimmed.precomposedStringWithCanonicalMapping
            let spelled = sameName.filter { $0.name.precomposedStringWithCanonicalMapping == typed }
            if spelled.count == 1 { return .found(spelled[0]) }
            return sameName.count == 1 ? .found(sameName[0]) : .ambiguous(sameName, .sameName)
        }

        let loose = RegionName.looseKey(trimmed)
        guard !loose.isEmpty else { return .unknown(closest: []) }
        // Each name's loose key, and for a name in another script its Latin one too: what a
        // person types for "Санкт-Петербург" is "sankt-peterburg".
        let equal = regions.indices.filter { keys[$0].contains(loose) }
        if !equal.isEmpty { return decide(equal, .sameName) }
        let prefixed = regions.indices.filter { keys[$0].contains { $0.hasPrefix(loose) } }
        if !prefixed.isEmpty { return decide(prefixed, .namePrefix) }
        let queryWords = Set(RegionName.words(loose))
        let worded = regions.indices.filter { keys[$0].contains { queryWords.isSubset(of: Set(RegionName.words($0))) } }
        if !worded.isEmpty { return decide(worded, .words) }
        return .unknown(closest: suggesting ? closest(to: loose) : [])
    }

    private func decide(_ indices: [Int], _ by: RegionMatch.AmbiguousBy) -> RegionMatch {
        indices.count == 1 ? .found(regions[indices[0]]) : .ambiguous(indices.map { regions[$0] }, by)
    }

    /// The regions whose names are within a few edits of `query` (more edits allowed for a
    /// longer query), nearest first; failing that, those sharing a word of three letters or
    /// more with it (give or take a typo), most shared first. Ties go to the region with
    /// more photographers.
    func closest(to query: String) -> [RegionRank] {
        let queryScalars = Array(query.unicodeScalars)
        let queryWords = RegionName.words(query).map { Array($0.unicodeScalars) }
        let allowed = max(1, queryScalars.count / 4)
        var near: [(distance: Int, index: Int)] = []
        for (index, names) in keys.enumerated() {
            var distance = Int.max
            for (which, key) in names.enumerated() {
                let scalars = Array(key.unicodeScalars)
                distance = min(distance, Self.editDistance(queryScalars, scalars))
                distance = min(distance, Self.editDistance(queryScalars, Array(scalars.prefix(queryScalars.count))))
                // Its comma-separated parts ("Lisboa" of "Lisboa, Portugal"), in its script.
                for partKey in partKeys[index][which] {
                    distance = min(distance, Self.editDistance(queryScalars, Array(partKey.unicodeScalars)))
                }
                let nameWords = RegionName.words(key).map { Array($0.unicodeScalars) }
                if !nameWords.isEmpty {
                    // Each word given against the name's nearest word.
                    let byWord = queryWords.reduce(0) { sum, word in
                        sum + nameWords.map { Self.editDistance(word, $0) }.min()!
                    }
                    distance = min(distance, byWord)
                }
            }
            if distance <= allowed { near.append((distance, index)) }
        }
        if !near.isEmpty {
            return near.sorted { ($0.distance, -regions[$0.index].photographers, $0.index) < ($1.distance, -regions[$1.index].photographers, $1.index) }
                .prefix(Self.suggestions).map { regions[$0.index] }
        }
        // Nothing near as a whole: names sharing a word of three letters or more (or one
        // within an edit or two of it, as above).
        let significant = queryWords.filter { $0.count >= 3 }
        guard !significant.isEmpty else { return [] }
        var sharing: [(shared: Int, index: Int)] = []
        for (index, names) in keys.enumerated() {
            let nameWords = names.flatMap { RegionName.words($0) }.map { Array($0.unicodeScalars) }
            let shared = significant.filter { word in
                nameWords.contains { Self.editDistance(word, $0) <= max(1, word.count / 4) }
            }.count
            if shared > 0 { sharing.append((shared, index)) }
        }
        return sharing.sorted { (-$0.shared, -regions[$0.index].photographers, $0.index) < (-$1.shared, -regions[$1.index].photographers, $1.index) }
            .prefix(Self.suggestions).map { regions[$0.index] }
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal
    /// string alignment distance.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, before[j - 2] + 1)
                }
                current[j] = best
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
