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

    /// Edits (insert, delete, substitute, swap two neighbours) from one name to the other.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = row
        }
        return previous[b.count]
    }
}
