/// A value from the input as a message quotes it: whole when it is short, else its first
/// characters, an ellipsis and how long it was, so that one bad value (a number of 5,000
/// digits, a string of megabytes) cannot make a message of kilobytes.
public enum Excerpt {
    /// The most characters of a value a message shows.
    public static let length = 40

    /// `text` as it is, or cut: `12345…` (5000 characters).
    public static func of(_ text: String) -> String {
        let count = text.count
        guard count > length else { return text }
        return "\(text.prefix(length))… (\(count) characters)"
    }

    /// `text` in quotes, or cut: `"abcde…" (5000 characters)`.
    public static func quoted(_ text: String) -> String {
        let count = text.count
        guard count > length else { return "\"\(text)\"" }
        return "\"\(text.prefix(length))…\" (\(count) characters)"
    }
}
