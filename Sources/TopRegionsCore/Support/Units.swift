import Foundation

/// Parses the human units the flags take.
public enum Units {
    /// The longest age accepted (about 3,000 years): anything longer is a typo, and would
    /// not fit the Unix times it is subtracted from.
    static let longestDuration: Double = 1e11

    /// The units an age takes, in the order --help lists them.
    public static let durationUnits = "s, m, h, d, w"

    /// The units a size takes (powers of 1024; B for bytes).
    public static let sizeUnits = "B, K, M, G"

    /// An age such as `90s`, `15m`, `12h`, `7d` or `2w`. Returns seconds. A number without a
    /// unit is refused: `--prune-older-than 7` meant seven days to the person who typed it,
    /// and seven seconds would have pruned everything. Zero needs none (it is zero in every
    /// unit), as for sizes: `--overlap 0`.
    public static func parseDuration(_ text: String) -> Double? {
        let given = text.trimmingSpaces()
        if !given.isEmpty, given.allSatisfy({ $0 == "0" || $0 == "." }), given.contains("0"), given.filter({ $0 == "." }).count <= 1 {
            return 0
        }
        // "1M" is a month to some and a minute to others (and a megabyte to --max-bytes):
        // neither is guessed.
        guard !given.hasSuffix("M") else { return nil }
        let trimmed = given.lowercased()
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

    /// Why `text` is not an age, for a usage error. `unit`: the unit the example of a
    /// number without one suggests, the option's usual one ("10" for a download timeout is
    /// 10s, not the 10d it suggested).
    public static func durationProblem(_ text: String, unit: Character = "d") -> String {
        let trimmed = text.trimmingSpaces()
        let isNumber: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }
        if isNumber(Substring(trimmed)) {
            let example = (Double(trimmed) ?? 0) > 0 ? trimmed : "1"
            let name = ["s": "seconds", "m": "minutes", "h": "hours", "w": "weeks"][unit] ?? "days"
            return "'\(text)' has no unit: write it with one of \(durationUnits) (e.g. \(example)\(unit) for \(name))"
        }
        if trimmed.hasPrefix("-"), parseDuration(String(trimmed.dropFirst())) != nil {
            return "'\(text)' is negative: an age counts back from now, and is written without a sign (e.g. \(trimmed.dropFirst()))"
        }
        if trimmed.hasSuffix("M"), isNumber(trimmed.dropLast()) {
            return "'\(text)': M is not a unit of time here (minutes are m; for months give days, e.g. 30d)"
        }
        if let last = trimmed.lowercased().last, "smhdw".contains(last), isNumber(trimmed.dropLast()) {
            return "'\(text)' is too long: an age is at most about 3,000 years"
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

    /// A point in time: Unix seconds, an ISO 8601 date or date-time, or an age such as `2h`
    /// meaning that long before `now`. A date alone is midnight, and a date-time without a
    /// zone is a wall-clock time, both in `timeZone` (the user's local time). Anything else,
    /// even a valid date followed by more text, is nil.
    public static func parseTime(_ text: String, now: Double, timeZone: TimeZone = .current) -> Int64? {
        let trimmed = text.trimmingSpaces()
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return Int64(trimmed) }
        if let last = trimmed.last, last.isLetter, !trimmed.contains("-"), let age = parseDuration(trimmed) {
            return Int64((now - age).rounded(.down))
        }
        return parseISO8601(trimmed, timeZone: timeZone)
    }

    /// The forms `parseTime` reads, for messages and --help.
    public static let timeForms = """
        Unix seconds (1763800000), an ISO 8601 date (2025-11-22: midnight, local time) or \
        date-time (2025-11-22T06:00, 2025-11-22 06:00:30.5; local time unless a zone follows: \
        Z, +01:00, +0100), or an age (90m, 2h, 7d)
        """

    /// The time zone `TZ` names (as the C library reads it: an Olson name, optionally after
    /// a colon; empty means UTC), else the system's.
    public static func localTimeZone(environment: [String: String]) -> TimeZone {
        guard var name = environment["TZ"] else { return .current }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return TimeZone(identifier: "UTC")! }
        return TimeZone(identifier: name) ?? .current
    }

    /// `YYYY-MM-DD`, optionally followed by `T` (or `t`, or one space) and `hh:mm`,
    /// `hh:mm:ss` or `hh:mm:ss.fraction`, optionally followed by `Z`, `±hh:mm`, `±hhmm` or
    /// `±hh`. Every field in range (no 2025-02-30, no 25:00).
    static func parseISO8601(_ text: String, timeZone: TimeZone) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        var zone = timeZone
        if index < bytes.count {
            guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[index]) else { return nil }
            index += 1
            guard let hour = digits(2), expect(":"), let minute = digits(2) else { return nil }
            components.hour = hour
            components.minute = minute
            if expect(":") {
                guard let second = digits(2) else { return nil }
                components.second = second
                if expect(".") || expect(",") {
                    let start = index
                    while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
                    guard index > start, index - start <= 9 else { return nil }
                    fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))!
                }
            }
            if index < bytes.count {
                if expect("Z") || expect("z") {
                    zone = TimeZone(secondsFromGMT: 0)!
                } else {
                    let sign: Int
                    if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
                    guard let offsetHours = digits(2), offsetHours <= 23 else { return nil }
                    var offsetMinutes = 0
                    if index < bytes.count {
                        _ = expect(":")
                        guard let minutes = digits(2), minutes <= 59 else { return nil }
                        offsetMinutes = minutes
                    }
                    guard let offset = TimeZone(secondsFromGMT: sign * (offsetHours * 3600 + offsetMinutes * 60)) else { return nil }
                    zone = offset
                }
            }
        }
        guard index == bytes.count else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(components.hour!),
              (0...59).contains(components.minute!), (0...59).contains(components.second!)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Out-of-range days (2025-02-30) roll over in Calendar: refuse what does not round-trip.
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }
        return Int64((date.timeIntervalSince1970 + fraction).rounded(.down))
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
