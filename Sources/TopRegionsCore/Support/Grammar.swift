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

    /// A length of time as a person says it, rounded down: "40 minutes", "5 hours", "3 days".
    public static func duration(_ seconds: Int64) -> String {
        let seconds = max(0, seconds)
        if seconds >= 2 * 86_400 { return count(Int(seconds / 86_400), "day") }
        if seconds >= 2 * 3600 { return count(Int(seconds / 3600), "hour") }
        if seconds >= 2 * 60 { return count(Int(seconds / 60), "minute") }
        return count(Int(seconds), "second")
    }

    /// A whole number with its thousands grouped: "912,004".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }
}
