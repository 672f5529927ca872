import Foundation

/// Parses the human units the flags take.
public enum Units {
    /// The longest age accepted (about 3,000 years): anything longer is a typo, and would
    /// not fit the Unix times it is subtracted from.
    static let longestDuration: Double = 1e11

    /// The units an age takes, in the order --help lists them.
    public static let durationUnits = "s, m, h, d, w"

    /// An age such as `90s`, `15m`, `12h`, `7d` or `2w`. Returns seconds. A number without a
    /// unit is refused: `--prune-older-than 7` meant seven days to the person who typed it,
    /// and seven seconds would have pruned everything.
    public static func parseDuration(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces().lowercased()
        guard let last = trimmed.last else { return nil }
        let multipliers: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let multiplier = multipliers[last] else { return nil }
        let digits = trimmed.dropLast()
        // Plain decimal digits with an optional fraction: no sign, exponent, "inf" or "nan".
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(digits), value.isFinite, value * multiplier <= longestDuration
        else { return nil }
        return value * multiplier
    }

    /// Why `text` is not an age, for a usage error.
    public static func durationProblem(_ text: String) -> String {
        let trimmed = text.trimmingSpaces()
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            return "'\(text)' has no unit: write it with one of \(durationUnits) (e.g. \(trimmed)d for days)"
        }
        return "cannot read '\(text)' as an age: a number and a unit, one of \(durationUnits) (e.g. 90m, 12h, 7d, 2w)"
    }

    /// A size such as `10M`, `512K`, `1G`, `10MB`, `10MiB` (powers of 1024), or plain bytes.
    public static func parseSize(_ text: String) -> Int64? {
        var trimmed = text.trimmingSpaces().uppercased()
        for suffix in ["IB", "B"] where trimmed.hasSuffix(suffix) && trimmed.count > suffix.count {
            trimmed.removeLast(suffix.count)
            break
        }
        guard let last = trimmed.last else { return nil }
        let multipliers: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024]
        let (digits, multiplier) = multipliers[last].map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
        guard let value = Double(digits), value.isFinite, value >= 0, value * multiplier < 9e18 else { return nil }
        return Int64((value * multiplier).rounded())
    }

    /// A point in time: Unix seconds, an ISO 8601 date or date-time (UTC unless it says
    /// otherwise), or an age such as `2h` meaning that long before `now`.
    public static func parseTime(_ text: String, now: Double) -> Int64? {
        let trimmed = text.trimmingSpaces()
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isNumber) { return Int64(trimmed) }
        if let last = trimmed.last, last.isLetter, !trimmed.contains("-"), let age = parseDuration(trimmed) {
            return Int64((now - age).rounded(.down))
        }
        let withTime = ISO8601DateFormatter()
        withTime.formatOptions = [.withInternetDateTime]
        if let date = withTime.date(from: trimmed) { return Int64(date.timeIntervalSince1970) }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        if let date = dateOnly.date(from: trimmed) { return Int64(date.timeIntervalSince1970) }
        return nil
    }

    /// `1536` → `1.5K`, for humans.
    public static func formatSize(_ bytes: Int64) -> String {
        let units = ["", "K", "M", "G", "T"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes)" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))\(units[unit])" : "\(rounded)\(units[unit])"
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
