/// Counts in messages read as English: "1 page", "2 pages", "(1 repeat dropped)".
public enum Grammar {
    /// `count` and the noun in the number it asks for; the plural is the noun plus "s"
    /// unless given.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// "was" or "were", for a sentence whose subject is `count` things.
    public static func was(_ count: Int) -> String {
        count == 1 ? "was" : "were"
    }
}
