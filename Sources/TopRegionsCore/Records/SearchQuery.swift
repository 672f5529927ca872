/// What a person typed to search photos, made into an FTS5 query that cannot fail to
/// parse.
///
/// Words are searched as words whatever punctuation they hold ("Île-de-France",
/// "rock'n'roll", "st."), all of them by default. On top of that, the parts of FTS5's own
/// syntax people type on purpose keep their meaning:
///
/// - `"harbour at dusk"`: a phrase, its words next to each other;
/// - `harb*`: words starting with "harb" (also after a phrase: `"nova sco"*`);
/// - `fog OR mist`, `fog AND night`, `fog NOT night` (in capitals), with `( )` to group;
/// - `-night`: leave out photos with the word (`fog -night` is `fog NOT night`);
/// - `title:fog`, `description:`, `photographer:`, `region:` (also `title:"a phrase"`):
///   look in that field only.
///
/// Anything else FTS5 would read as syntax (`.`, `-`, `:`, `^`, `+`, ...) is part of a word.
/// A query that cannot mean anything (an unclosed quote, a dangling OR, unbalanced
/// parentheses, no word at all) is refused with a `Problem` that says what is wrong in
/// words.
public struct SearchQuery: Sendable, Equatable {
    /// As typed.
    public let text: String
    /// The FTS5 expression.
    public let match: String

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        package init(message: String) {
            self.message = message
        }
    }

    /// The fields `field:` may name, and the index columns they are.
    static let fields: [String: String] = [
        "title": "title", "description": "description", "photographer": "owner_name", "owner": "owner_name",
        "owner_name": "owner_name", "region": "region_name", "region_name": "region_name",
    ]

    public init(_ text: String) throws(Problem) {
        self.text = text
        match = try Self.translate(text)
    }

    // MARK: Reading what was typed

    enum Token: Equatable {
        case word(String)
        /// Between quotes, as typed.
        case phrase(String)
        /// After a word or phrase: the last word is a prefix.
        case star
        case and, or, not
        /// `-word`: leave it out.
        case without
        case open, close
        /// `title:` and friends: the index column.
        case field(String)

        var isField: Bool { if case .field = self { true } else { false } }
    }

    static func tokens(_ text: String) throws(Problem) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        func problem(_ message: String) -> Problem { Problem(message: message) }
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace || Self.isControl(character) {
                // A control character (a NUL from a form) separates words as a space does:
                // FTS5 would read a NUL as the query's end.
                index = text.index(after: index)
            } else if character == "\"" {
                guard let close = text[text.index(after: index)...].firstIndex(of: "\"") else {
                    throw problem("unbalanced quote (\") in: \(text)")
                }
                tokens.append(.phrase(String(text[text.index(after: index)..<close])))
                index = text.index(after: close)
                if index < text.endIndex, text[index] == "*" {
                    tokens.append(.star)
                    index = text.index(after: index)
                }
            } else if character == "(" {
                tokens.append(.open)
                index = text.index(after: index)
            } else if character == ")" {
                tokens.append(.close)
                index = text.index(after: index)
            } else {
                var end = index
                while end < text.endIndex, !text[end].isWhitespace, !Self.isControl(text[end]), !"\"()".contains(text[end]) {
                    end = text.index(after: end)
                }
                var word = String(text[index..<end])
                index = end
                switch word {
                case "AND": tokens.append(.and); continue
                case "OR": tokens.append(.or); continue
                case "NOT": tokens.append(.not); continue
                default: break
                }
                if let colon = word.firstIndex(of: ":"), let column = fields[word[..<colon].lowercased()] {
                    tokens.append(.field(column))
                    word = String(word[word.index(after: colon)...])
                    if word.isEmpty { continue }
                }
                if word.count > 1, word.hasPrefix("-"), hasWordCharacters(word.dropFirst()) {
                    tokens.append(.without)
                    word.removeFirst()
                }
                var prefix = false
                if word.hasSuffix("*") {
                    word = String(word.drop { $0 == "*" }.reversed().drop { $0 == "*" }.reversed())
                    guard !word.isEmpty else { throw problem("a * must end a word, as in harb* (in: \(text))") }
                    prefix = true
                }
                tokens.append(.word(word))
                if prefix { tokens.append(.star) }
            }
        }
        return tokens
    }

    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether FTS5's tokenizer finds a word in `text` (letters or digits).
    static func hasWordCharacters<S: StringProtocol>(_ text: S) -> Bool {
        text.contains { $0.isLetter || $0.isNumber }
    }

    // MARK: Writing it for FTS5

    /// Checks the tokens' grammar (each operator between two things to search for,
    /// parentheses balanced and not empty) and writes the FTS5 expression: every word and
    /// phrase as an FTS5 string, so nothing in it is read as syntax.
    static func translate(_ text: String) throws(Problem) -> String {
        func problem(_ message: String) -> Problem { Problem(message: message) }
        // Words with nothing to search for ("&", "-") say nothing: left out, with what
        // follows them (a star) and a field before them.
        var tokens: [Token] = []
        var skippingStar = false
        for token in try Self.tokens(text) {
            switch token {
            case .word(let word), .phrase(let word):
                if hasWordCharacters(word) {
                    tokens.append(token)
                    skippingStar = false
                } else {
                    if case .field = tokens.last { tokens.removeLast() }
                    if case .without = tokens.last { tokens.removeLast() }
                    skippingStar = true
                }
            case .star:
                if !skippingStar { tokens.append(token) }
                skippingStar = false
            default:
                tokens.append(token)
                skippingStar = false
            }
        }
        guard tokens.contains(where: { if case .word = $0 { true } else if case .phrase = $0 { true } else { false } }) else {
            // An empty or blank query is not echoed: "in:  (" would show nothing between.
            let blank = text.allSatisfy(\.isWhitespace)
            throw problem("nothing to search for\(blank ? "" : " in: \(text)") (give a word, such as harbour)")
        }

        var out: [String] = []
        var depth = 0
        /// Whether the last thing written can end an expression (a word, a phrase, a group).
        var afterOperand = false
        var pendingField: String?
        func operatorName(_ token: Token) -> String {
            switch token {
            case .and: "AND"
            case .or: "OR"
            default: "NOT"
            }
        }
        func quoted(_ words: String) -> String { "\"" + words.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        for (position, token) in tokens.enumerated() {
            // FTS5 reads two things side by side as both only when they are words or
            // phrases: beside a group ("fog (night OR dawn)"), the AND must be written.
            if afterOperand, Self.startsOperand(token), pendingField == nil,
               token == .open || out.last == ")" || (token.isField && position + 1 < tokens.count && tokens[position + 1] == .open) {
                out.append("AND")
            }
            switch token {
            case .word(let words), .phrase(let words):
                out.append((pendingField.map { "\($0) : " } ?? "") + quoted(words))
                pendingField = nil
                afterOperand = true
            case .star:
                guard afterOperand, let last = out.last, last.hasSuffix("\"") else {
                    throw problem("a * must end a word, as in harb* (in: \(text))")
                }
                out[out.count - 1] = last + "*"
            case .and, .or, .not:
                let name = operatorName(token)
                guard afterOperand, pendingField == nil else {
                    throw problem("\(name) needs something to search for before it (in: \(text))")
                }
                guard position + 1 < tokens.count, Self.startsOperand(tokens[position + 1]) else {
                    throw problem("\(name) needs something to search for after it (in: \(text))")
                }
                out.append(name)
                afterOperand = false
            case .without:
                guard afterOperand, pendingField == nil else {
                    throw problem("-word leaves photos with that word out of what the other words find: give a word to search for first, as in fog -night (in: \(text))")
                }
                out.append("NOT")
                afterOperand = false
            case .field(let column):
                guard position + 1 < tokens.count, Self.startsOperand(tokens[position + 1]) else {
                    throw problem("a field (such as title:) needs a word after it (in: \(text))")
                }
                pendingField = column
            case .open:
                out.append((pendingField.map { "\($0) : " } ?? "") + "(")
                pendingField = nil
                depth += 1
                afterOperand = false
            case .close:
                guard depth > 0 else { throw problem("a ) has no ( before it (in: \(text))") }
                guard afterOperand else { throw problem("empty parentheses, or an operator before a ) (in: \(text))") }
                out.append(")")
                depth -= 1
            }
        }
        guard depth == 0 else { throw problem("a ( is never closed (in: \(text))") }
        return out.joined(separator: " ")
    }

    static func startsOperand(_ token: Token) -> Bool {
        switch token {
        case .word, .phrase, .open, .field: true
        default: false
        }
    }
}
