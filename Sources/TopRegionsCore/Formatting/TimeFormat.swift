import Foundation

/// How the tools show a time to a person: "2025-11-22 23:00" in local time (TZ honoured)
/// or in UTC, always with the zone said somewhere, as an offset ("+01:00") or "UTC".
/// Pure given the zone rules, so every output (tables, --info, the HTML page) can share it.
public struct TimeFormat: Sendable, Equatable {
    public enum Zone: Sendable, Equatable {
        /// The process's local time: TZ when set, else the system's zone.
        case local
        case utc
    }

    public var zone: Zone

    public init(zone: Zone) {
        self.zone = zone
    }

    public static let utc = TimeFormat(zone: .utc)
    public static let local = TimeFormat(zone: .local)

    /// "2025-11-22 23:00" in this zone, and that moment's offset from UTC in seconds.
    public func wallClock(_ seconds: Int64) -> (text: String, offset: Int) {
        var time = time_t(seconds)
        var parts = tm()
        switch zone {
        case .utc:
            gmtime_r(&time, &parts)
        case .local:
            Self.readZoneOnce
            localtime_r(&time, &parts)
        }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
        return (text, zone == .utc ? 0 : Int(parts.tm_gmtoff))
    }

    /// The zone of a moment as shown: "UTC" (in --utc mode), else the offset ("+01:00",
    /// "-03:30", "+00:00").
    public func zoneLabel(offset: Int) -> String {
        if zone == .utc { return "UTC" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }

    /// One time with its zone: "2025-11-22 23:00 +01:00", "2025-11-22 22:00 UTC".
    public func string(_ seconds: Int64) -> String {
        let (text, offset) = wallClock(seconds)
        return text + " " + zoneLabel(offset: offset)
    }

    /// Two times as one span: "2026-11-28 02:00–05:20 UTC" on one day, else each whole
    /// ("2026-11-27 23:00 UTC – 2026-11-28 05:20 UTC").
    public func span(_ from: Int64, _ to: Int64) -> String {
        let (first, firstOffset) = wallClock(from), (last, lastOffset) = wallClock(to)
        if firstOffset == lastOffset, first.prefix(10) == last.prefix(10) {
            return "\(first)–\(last.dropFirst(11)) \(zoneLabel(offset: lastOffset))"
        }
        return "\(string(from)) – \(string(to))"
    }

    /// The days of two times: "2026-10-21 – 2026-11-28", or one day.
    public func days(_ from: Int64, _ to: Int64) -> String {
        let first = wallClock(from).text.prefix(10), last = wallClock(to).text.prefix(10)
        return first == last ? String(first) : "\(first) – \(last)"
    }

    /// A column of times for a table: when every time has the same offset (the usual case),
    /// the zone goes once in the header (`zone`) and the cells stay narrow; otherwise (a
    /// daylight-saving change in between) each cell says its own. Missing times are "-".
    public func column(_ times: [Int64?]) -> (cells: [String], zone: String?) {
        let shown = times.map { $0.map(wallClock) }
        let offsets = Set(shown.compactMap { $0?.offset })
        if offsets.count <= 1 {
            return (shown.map { $0?.text ?? "-" }, zoneLabel(offset: offsets.first ?? 0))
        }
        return (shown.map { $0.map { "\($0.text) \(zoneLabel(offset: $0.offset))" } ?? "-" }, nil)
    }

    /// glibc reads TZ once, on first use.
    private static let readZoneOnce: Void = tzset()
}
