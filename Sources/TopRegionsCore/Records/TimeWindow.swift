import TopRegionsSupport

/// A span of upload time (Flickr's `dateupload`) that a count or a list keeps to: "right
/// now" is the last hour, 24 hours or 7 days to the present. The photos it holds were
/// uploaded after `end - length`, up to and including `end` (Unix seconds). Without a length
/// it is every stored photo: all of them, or, with an end in the past (--until), those
/// uploaded up to then.
public struct TimeWindow: Sendable, Equatable, Hashable {
    /// In seconds; nil: every stored photo.
    public var length: Int64?
    /// As given ("24h", "7d"), for messages and links; "all" without a length.
    public var lengthText: String
    /// Where it ends: the present, or a time in the past (--until).
    public var end: Int64
    /// Whether `end` is the present (the default), not a time given.
    public var endsNow: Bool

    public init(length: Int64?, lengthText: String, end: Int64, endsNow: Bool) {
        self.length = length
        self.lengthText = lengthText
        self.end = end
        self.endsNow = endsNow
    }

    /// Every stored photo, to the present: no window at all.
    public static func all(now: Int64) -> TimeWindow {
        TimeWindow(length: nil, lengthText: "all", end: now, endsNow: true)
    }

    /// The window `text` names ("1h", "24h", "7d", any number and unit, or "all") ending at
    /// `end`; throws the problem in words, and what would work.
    public init(_ text: String, end: Int64, endsNow: Bool) throws(QuantityProblem) {
        let trimmed = text.trimmingSpaces().lowercased()
        if trimmed == "all" {
            self.init(length: nil, lengthText: "all", end: end, endsNow: endsNow)
            return
        }
        guard let seconds = Units.parseDuration(text) else {
            throw QuantityProblem(Units.durationProblem(text) + Self.forms)
        }
        guard seconds >= 1 else {
            throw QuantityProblem("'\(text)' is no time at all: give more than 0 (e.g. 1h, 24h, 7d)" + Self.forms)
        }
        self.init(length: Int64(seconds.rounded()), lengthText: trimmed, end: end, endsNow: endsNow)
    }

    /// What a window may be, after a problem.
    public static let forms = "; a window is a number and a unit (1h, 6h, 24h, 7d, 30d, 90m) or all"

    /// The first second it does not hold (its photos were uploaded after it); nil for all.
    public var start: Int64? { length.map { end - $0 } }

    /// Whether it is every stored photo: no length, and ending now.
    public var isEverything: Bool { length == nil && endsNow }

    /// Whether a photo uploaded at `uploaded` (nil: unknown) is in it.
    public func holds(_ uploaded: Int64?) -> Bool {
        if isEverything { return true }
        guard let uploaded, uploaded <= end else { return false }
        return start.map { uploaded > $0 } ?? true
    }

    /// The window of the same length just before this one (rising regions compare the two).
    public var previous: TimeWindow? {
        guard let length else { return nil }
        return TimeWindow(length: length, lengthText: lengthText, end: end - length, endsNow: false)
    }

    /// This window and the one before it together: what a rising list counts from.
    public var withPrevious: TimeWindow {
        guard let length else { return self }
        return TimeWindow(length: 2 * length, lengthText: "\(2 * length)s", end: end, endsNow: endsNow)
    }

    /// What names it, for what is kept of a list in it.
    public var key: String { isEverything ? "" : "\(length.map(String.init) ?? "all")@\(end)" }
}
