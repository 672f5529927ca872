/// A region whose photographers grow: how many photographed it in a window, and in the window
/// of the same length just before.
public struct RisingRegion: Sendable, Equatable {
    /// The region, its photographers and photos counted in the window.
    public var region: RegionRank
    /// Its distinct photographers in the window before.
    public var before: Int
    /// `region.photographers` over `max(before, Rule.floor)`: what the list is ranked by.
    public var growth: Double

    public init(region: RegionRank, before: Int, growth: Double) {
        self.region = region
        self.before = before
        self.growth = growth
    }

    /// The rule of rising regions. A region rises when its distinct photographers in the
    /// window are at least `least` times as many as in the window of the same length just
    /// before, counting fewer than `floor` before as `floor`: so it takes at least 15
    /// photographers now to rise at all, a region going from 1 to 3 does not (3 over 10),
    /// and one from 40 to 90 does (90 over 40). Rising regions are ranked by that growth, then
    /// by their photographers now, then by name and id.
    public enum Rule {
        public static let floor = 10
        public static let least = 1.5

        public static func growth(now: Int, before: Int) -> Double {
            Double(now) / Double(max(before, floor))
        }

        public static func rises(now: Int, before: Int) -> Bool {
            growth(now: now, before: before) >= least
        }
    }
}
