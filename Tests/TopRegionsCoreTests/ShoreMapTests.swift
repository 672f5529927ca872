import Foundation
import Testing
@testable import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsTestSupport

/// A city's map (a view under 2 degrees of latitude) is drawn over GSHHG's high-resolution
/// coasts (`Coasts`), where Natural Earth's 1:50m ones are a kilometre or two off: its sea where
/// the sea is, its coasts where they are, and only borders drawn from the 1:50m areas.
@Suite struct ShoreMapTests {
    @Test func theBuiltInCoastsAreWhatTheMakingScriptReported() {
        #expect(Coasts.count == 26020)
        let cells = Coasts.allCells
        #expect(cells.filter(\.isAllLand).count == 16608)
        // Each found by its corner as a map finds it; the sea is no cell.
        #expect(cells.allSatisfy { Coasts.cell(west: $0.west, south: $0.south)?.offset == $0.offset })
        #expect(Coasts.cell(west: -30, south: 40) == nil && Coasts.cell(west: 14, south: 50)?.isAllLand == true)
        let rings = cells.flatMap(\.rings)
        #expect(rings.count == 55488 && rings.map(\.count).reduce(0, +) == 1_401_298)
        // The same rivers as the low-resolution ones, in the same order (each near its namesake).
        #expect(Coasts.riverCount == Geography.rivers.count && (0..<Coasts.riverCount).map { Coasts.river($0).count }.reduce(0, +) == 537_540)
        for index in stride(from: 0, to: Coasts.riverCount, by: 97) {
            let (high, low) = (Coasts.river(index), Geography.rivers[index].bounds)
            #expect(high.allSatisfy { $0.x > low.minX - 3 && $0.x < low.maxX + 3 && $0.y > low.minY - 3 && $0.y < low.maxY + 3 }, "river \(index)")
        }
    }

    /// Places a 1:50m map gets wrong at a city's scale, each shown as land or sea as it is.
    @Test(arguments: [
        ("Venice", 45.434, 12.3388, true), ("the lagoon of Venice", 45.45, 12.28, false), ("Sydney's harbour", -33.85, 151.23, false),
        ("Byfjorden at Bergen", 60.40, 5.30, false), ("the peninsula of Tróia", 38.47, -8.88, true),
    ])
    func aCitysMapShowsLandAndSeaWhereTheyAre(_ name: String, _ latitude: Double, _ longitude: Double, _ land: Bool) throws {
        let map = try #require(HTMLPage.listMap(of: Self.around(latitude, longitude)))
        #expect(map.height < HTMLPage.shoreBelow)
        let point = Self.point(latitude, longitude)
        let sea = try Self.rings(ofPath: #require(Self.path("sea", in: map.svg)))
        #expect(sea.filter { Geography.Area.ring($0, contains: point) }.count % 2 == (land ? 0 : 1), "\(name) drawn as \(land ? "sea" : "land")")
        // Where the 1:50m countries say otherwise (why the map needs the high-resolution coasts).
        #expect((Geography.countryAreas.first(containing: point) != nil) != land)
    }

    /// A city's rivers are GSHHG's at high resolution, cut to the view: the Vltava under
    /// Prague's Charles Bridge, the Seine under Paris's Pont Neuf, the Rhine under Cologne's
    /// Hohenzollern Bridge (the low-resolution rivers of a larger view run kilometres off).
    @Test(arguments: [("Charles Bridge", 50.0865, 14.4114), ("Pont Neuf", 48.8571, 2.3413), ("the Hohenzollern Bridge", 50.9413, 6.9658)])
    func aCitysRiversAreWhereTheyAre(_ name: String, _ latitude: Double, _ longitude: Double) throws {
        let map = try #require(HTMLPage.listMap(of: Self.around(latitude, longitude)))
        let rivers = try Self.rings(ofPath: #require(Self.path("rivers", in: map.svg)))
        let bridge = Self.point(latitude, longitude)
        func nearest(_ lines: [[Geography.Point]]) -> Double {
            lines.map { line in zip(line, line.dropFirst()).map { GeographyTests.distance(bridge, $0.0, $0.1) }.min() ?? .infinity }.min() ?? .infinity
        }
        let low = Geography.riverGrid.candidates(Geography.Bounds(minX: bridge.x - 1, minY: bridge.y - 1, maxX: bridge.x + 1, maxY: bridge.y + 1))
        // Within 0.003 degree (about 300 m), where the low-resolution ones pass 0.01 or more off.
        #expect(nearest(rivers) < 0.03, "\(name): no river under it")
        #expect(nearest(low.map { Geography.rivers[$0].points }) > 0.1)
        // Only what the view shows (not the river's hundreds of kilometres): each piece's points
        // within the view widened by a tenth, but for its ends (an edge reaching out of it).
        let view = Geography.Bounds(minX: map.x / map.xScale, minY: map.y, maxX: (map.x + map.width) / map.xScale, maxY: map.y + map.height)
        #expect(rivers.allSatisfy { $0.dropFirst().dropLast().allSatisfy(view.cut.cut.contains) })
    }

    /// The land is cut into degree cells, so a map reads only its view's: the cells meet at
    /// their sides (their points there kept through simplifying), in one path filled even-odd
    /// (no seam between them), with no line along a cut.
    @Test func theCellsMeetWithoutASeam() throws {
        // Around Bjørnafjorden, south of Bergen, 1.6 degrees (the coarser the tolerance, the
        // more points simplifying would drop): 60 degrees north runs through the view.
        let map = try #require(HTMLPage.listMap(of: [HTMLPage.MapPoint(latitude: 59.2, longitude: 4.8), HTMLPage.MapPoint(latitude: 60.8, longitude: 6.0)]))
        #expect(map.height > 15 && map.height < HTMLPage.shoreBelow)
        let side = Self.point(60, 5).y
        let sea = try Self.rings(ofPath: #require(Self.path("sea", in: map.svg)))
        // Each point on the shared side (but where the frame cuts it) is a point of both cells' rings.
        let all = sea.joined()
        let (left, right) = (all.map(\.x).min() ?? 0, all.map(\.x).max() ?? 0)
        let onSide = all.filter { abs($0.y - side) < 1e-9 && $0.x > left && $0.x < right }
        #expect(sea.count > 10 && onSide.count >= 4, "no point on the cells' shared side")
        let unmatched = Dictionary(grouping: onSide, by: { ($0.x * 1_000).rounded() }).filter { $0.value.count % 2 == 1 }
        #expect(unmatched.isEmpty, "the cells do not meet at \(unmatched.keys.sorted())")
        #expect(PageText.occurrences("<path class=\"sea\"", in: map.svg) == 1)
        #expect(HTMLPage.style.contains(".sea{fill:#cfe0ec}") && !HTMLPage.style.contains(".sea{fill:#cfe0ec;stroke"))
    }

    /// From the 1:50m areas only borders are drawn: a region whose view has no land border
    /// (the Isle of Man, a country without subdivisions) has no outline or border line at all
    /// (its 1:50m coast would be a line across the land), its fill reaching to the real coasts;
    /// Shanghai's outline runs along Jiangsu's and Zhejiang's borders.
    @Test func onlyBordersAreDrawnFromThe50mAreas() throws {
        let man = try #require(HTMLPage.listMap(of: Self.around(54.15, -4.48), outline: true))
        #expect(man.svg.contains("<path class=\"region\"") && man.svg.contains("<path class=\"region-shore\""))
        #expect(Self.path("outline", in: man.svg) == nil && Self.path("borders", in: man.svg) == nil)

        let shanghai = try #require(HTMLPage.listMap(of: Self.around(31.2, 121.45), outline: true))
        #expect(shanghai.svg.contains("<title>\u{2068}Shanghai\u{2069}</title>"))
        let outline = try Self.rings(ofPath: #require(Self.path("outline", in: shanghai.svg)))
        let neighbours = Geography.subdivisionAreas.areas.filter { ["Jiangsu", "Zhejiang"].contains($0.name) }.flatMap(\.rings).map(\.points)
        #expect(neighbours.count >= 2 && outline.joined().count >= 10)
        for point in outline.joined() {
            let nearest = neighbours.map { ring in zip(ring, ring.dropFirst() + ring.prefix(1)).map { GeographyTests.distance(point, $0.0, $0.1) }.min() ?? .infinity }.min()
            // Within 0.03 degree of a neighbour's border (DCW-GMT's subdivisions were simplified one by one).
            #expect(nearest ?? .infinity <= Geography.Edges.near, "the outline runs where no neighbour is, at \(point)")
        }
    }

    /// A subdivision's border with another country is its outline on a city's map too, though
    /// its own data (DCW-GMT) and the country's (Natural Earth) draw it 0.04 degree apart.
    /// Regression: the south-west quarter of Tierra del Fuego's map had no outline, only the
    /// thin border with Chile.
    @Test func aSubdivisionsBorderWithAnotherCountryIsItsOutline() throws {
        let frame = try GeoBox(west: -69.38892, south: -55.32268, east: -66.25533, north: -53.93925)
        let points = [HTMLPage.MapPoint(latitude: -54.8, longitude: -68.3, photos: 5), HTMLPage.MapPoint(latitude: -54.5, longitude: -67.2, photos: 5)]
        let map = try #require(HTMLPage.listMap(of: points, outline: true, frame: frame))
        let outline = try #require(Self.path("outline", in: map.svg))
        // Chile's border runs down 68.6 degrees west across the island.
        let border = Self.rings(ofPath: outline).flatMap { $0 }.filter { abs($0.x - (180 - 68.61) * 10) < 0.6 }
        #expect(border.count >= 2 && (border.map(\.y).max()! - border.map(\.y).min()!) > 5, "\(outline.prefix(300))")
    }

    /// A city's map stays within the pages' budget for a map where the coasts are most
    /// intricate, up to the largest view drawn so.
    @Test(arguments: [("Stockholm's archipelago", 58.7, 17.6, 60.4, 19.4), ("Bergen's fjords", 59.6, 4.6, 61.3, 6.4), ("Venice", 45.3, 12.2, 45.6, 12.5)])
    func aCitysMapIsSmall(_ name: String, _ south: Double, _ west: Double, _ north: Double, _ east: Double) throws {
        let points = [HTMLPage.MapPoint(latitude: south, longitude: west), HTMLPage.MapPoint(latitude: north, longitude: east)]
        // Framed on the city (a zoomed view): a region's map would take in its subdivision.
        let frame = try GeoBox(west: west, south: south, east: east, north: north)
        let map = try #require(HTMLPage.listMap(of: points, outline: true, frame: frame))
        #expect(map.height < HTMLPage.shoreBelow)
        #expect(map.drawing.utf8.count <= 60_000, "\(name): \(map.drawing.utf8.count) bytes")
    }

    static func around(_ latitude: Double, _ longitude: Double) -> [HTMLPage.MapPoint] {
        [(-0.05, -0.05), (0.05, 0.05), (0, 0)].map { HTMLPage.MapPoint(latitude: latitude + $0.0, longitude: longitude + $0.1) }
    }

    static func point(_ latitude: Double, _ longitude: Double) -> Geography.Point {
        Geography.Point(x: (longitude + 180) * 10, y: (90 - latitude) * 10)
    }

    /// The `d` of the map's path of that class, if it has one.
    static func path(_ name: String, in svg: String) -> String? {
        guard let element = svg.components(separatedBy: "<path class=\"\(name)\"").dropFirst().first else { return nil }
        return element.components(separatedBy: " d=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
    }

    /// Each ring or line of a path written as the maps write them, its points absolute.
    static func rings(ofPath path: String) -> [[Geography.Point]] {
        path.split(separator: "M").map { HTMLPageTests.absolutePoints(ofPath: String($0)) }.filter { !$0.isEmpty }
    }
}
extension ShoreMapTests {
    /// A city's map at the world's edges (the antimeridian, the poles) is drawn, as far as the
    /// world goes.
    @Test(arguments: [(-17.7, 179.97), (-17.7, -179.97), (65.5, -179.99), (89.95, 10.0), (-89.95, 10.0)])
    func aCitysMapAtTheWorldsEdges(_ latitude: Double, _ longitude: Double) throws {
        let map = try #require(HTMLPage.listMap(of: [HTMLPage.MapPoint(latitude: latitude, longitude: longitude)], outline: true))
        #expect(map.height < HTMLPage.shoreBelow && map.svg.contains("<path class=\"sea\""))
    }
}
