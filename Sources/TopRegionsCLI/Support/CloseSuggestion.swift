import TopRegionsRecords

/// ArgumentParser suggests the nearest option for an unknown one however far it is
/// (`--top` → "Did you mean '--db'?", `--since` to photo-cache → `--force`): a suggestion a
/// person would follow into the wrong option. Only one a typo away is kept.
enum CloseSuggestion {
    /// `message` without its "Did you mean" when the option suggested is not close to the
    /// one typed: at most one edit for names of up to five letters, two beyond.
    static func filter(_ message: String) -> String {
        guard let unknownStart = message.range(of: "Unknown option '"),
            let unknownEnd = message[unknownStart.upperBound...].firstIndex(of: "'"),
            let suggestion = message.range(of: " Did you mean '", range: unknownEnd..<message.endIndex),
            let suggestionEnd = message[suggestion.upperBound...].range(of: "'?")
        else { return message }
        let typed = name(message[unknownStart.upperBound..<unknownEnd])
        let offered = name(message[suggestion.upperBound..<suggestionEnd.lowerBound])
        guard distance(typed, offered) > (typed.count <= 5 ? 1 : 2) else { return message }
        return String(message[..<suggestion.lowerBound] + message[suggestionEnd.upperBound...])
    }

    private static func name(_ option: Substring) -> [Character] {
        Array(option.drop { $0 == "-" })
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from one name to the other:
    /// the distance region names are suggested by.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        RegionMatcher.editDistance(Array(String(a).unicodeScalars), Array(String(b).unicodeScalars))
    }
}
