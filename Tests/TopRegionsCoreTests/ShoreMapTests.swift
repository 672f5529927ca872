import Foundation
import Testing
@testable import TopRegionsFormatting

/// A city's map (a view under 2 degrees of latitude) is drawn over GSHHG's high-resolution
/// coasts (`Coasts`), where Natural Earth's 1:50m ones are a kilometre or two off: its sea where
/// the sea is, its coasts where they are, and only borders drawn from the 1:50m areas.
@Suite struct ShoreMapTests {
    @Test func theBuiltInCoastsAreWhatTheMakingScriptReported() {
        #expect(Coasts.cells.count == 26020)
        #expect(Coasts.cells.values.filter(\.isAllLand).count == 16608)
        let rings = Coasts.cells.values.flatMap(\.rings)
        #expect(rings.count == 55488 && rings.map(\.count).reduce(0, +) == 1_401_298)
    }

}
