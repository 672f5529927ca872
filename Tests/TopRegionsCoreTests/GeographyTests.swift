import Foundation
import Testing
@testable import TopRegionsFormatting
import TopRegionsTestSupport

/// The geography built into the program (bin/lib/make-geography.py) and the region maps drawn
/// from it: the area found by where photos are, its outline holding them, the cities named
/// without covering one another, and the bytes a map costs.
@Suite struct GeographyTests {
    static func point(_ latitude: Double, _ longitude: Double) -> Geography.Point {
        Geography.Point(x: (longitude + 180) * 10, y: (90 - latitude) * 10)
    }

    /// `count` points spread over the box, the same every run.
    static func points(count: Int, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> [HTMLPage.MapPoint] {
        var generator = SeededGenerator(seed: 38)
        return (0..<count).map { _ in
            HTMLPage.MapPoint(latitude: Double.random(in: latitudes, using: &generator), longitude: Double.random(in: longitudes, using: &generator))
        }
    }

    @Test func theBuiltInDataIsWhatTheMakingScriptReported() {
        #expect(Geography.areas.filter { $0.kind == .country }.count == 241)
        #expect(Geography.areas.filter { $0.kind == .lake }.count == 4367)
        #expect(Geography.rivers.count == 23256)
        #expect(Geography.areas.filter(\.isSubdivision).count == 3220)
        let divided = Set(Geography.areas.filter(\.isSubdivision).map(\.parent))
        #expect(divided.count == 212)
        #expect(divided.isSuperset(of: ["AR", "AU", "BR", "CA", "CN", "IN", "RU", "US", "CO", "CZ", "DE", "ES", "FR", "GB", "GR", "IT", "JP", "PT"]))
        #expect(Geography.cities.count == 34006)
        #expect(zip(Geography.cities, Geography.cities.dropFirst()).allSatisfy { $0.population >= $1.population })
    }

    /// The cities a view holds, looked up by degree cell, are exactly those a reading of all
    /// of them finds, most populous first: boxes of every size, across cell edges and the
    /// world's.
    @Test func theCitiesOfAViewAreFoundByTheirCellsAsByReadingThemAll() {
        var generator = SeededGenerator(seed: 3838)
        for _ in 0..<200 {
            let (width, height) = (Double.random(in: 0.5...600, using: &generator), Double.random(in: 0.5...450, using: &generator))
            let (x, y) = (Double.random(in: -20...3600, using: &generator), Double.random(in: -20...1800, using: &generator))
            let box = Geography.Bounds(minX: x, minY: y, maxX: x + width, maxY: y + height)
            let byCells = Geography.cities(within: box).map(\.textOffset)
            let byReading = Geography.cities.filter { box.contains(Geography.Point(x: Double($0.x), y: Double($0.y))) }.map(\.textOffset)
            #expect(byCells == byReading, "\(box)")
        }
    }

    /// The rivers a view may meet, looked up by 10° cell, include every river whose box meets
    /// it, in the rivers' order, each once: boxes of every size, across cell edges and the
    /// world's, up to the whole world.
    @Test func theRiversOfAViewAreFoundByTheirCellsAsByReadingThemAll() {
        var generator = SeededGenerator(seed: 3839)
        let boxes = Geography.rivers.map(\.bounds)
        for _ in 0..<300 {
            let (width, height) = (Double.random(in: 0.5...1_200, using: &generator), Double.random(in: 0.5...900, using: &generator))
            let (x, y) = (Double.random(in: -120...3600, using: &generator), Double.random(in: -120...1800, using: &generator))
            let box = Geography.Bounds(minX: x, minY: y, maxX: x + width, maxY: y + height)
            let candidates = Geography.riverGrid.candidates(box)
            #expect(candidates == candidates.sorted() && Set(candidates).count == candidates.count, "\(box)")
            let byCells = candidates.filter { boxes[$0].intersects(box) }
            let byReading = boxes.indices.filter { boxes[$0].intersects(box) }
            #expect(byCells == byReading, "\(box)")
        }
        let world = Geography.Bounds(minX: -10, minY: -10, maxX: 3_610, maxY: 1_810)
        #expect(Geography.riverGrid.candidates(world) == Array(boxes.indices))
    }

    @Test func anAreaHoldsWhatLiesInsideItAndNotWhatLiesInItsHoles() throws {
        let colorado = try #require(Geography.areas.first { $0.isSubdivision && $0.name == "Colorado" })
        #expect(colorado.contains(Self.point(39.74, -104.99)))  // Denver
        #expect(!colorado.contains(Self.point(40.76, -111.89)))  // Salt Lake City
        let southAfrica = try #require(Geography.areas.first { $0.code == "ZA" })
        let lesotho = try #require(Geography.areas.first { $0.code == "LS" })
        let maseru = Self.point(-29.31, 27.48)
        #expect(lesotho.contains(maseru) && !southAfrica.contains(maseru))
        #expect(southAfrica.contains(Self.point(-26.2, 28.04)))  // Johannesburg
        let (area, country) = try #require(Geography.areas(at: Self.point(44.73, -63.66)))  // Bedford
        #expect(area.name == "Nova Scotia" && country.code == "CA")
        #expect(Geography.areas(at: Self.point(30, -40)) == nil)  // mid-Atlantic
    }

    /// Found by where the photos are: a subdivision where there are subdivisions, else the
    /// country (Singapore has none), and none when the photos are spread over several.
    @Test func theAreaOfAListIsWhereMostOfItsPhotosAre() {
        func area(_ points: [HTMLPage.MapPoint]) -> String? {
            Geography.area(holdingMostOf: points.map { Self.point($0.latitude, $0.longitude) })?.name
        }
        #expect(area(Self.points(count: 300, latitudes: 37.5...40.5, longitudes: -108.5 ... -102.5)) == "Colorado")
        #expect(area(Self.points(count: 300, latitudes: 40.2...40.7, longitudes: -4.0 ... -3.4)) == "Madrid")
        #expect(area(Self.points(count: 300, latitudes: 1.3...1.4, longitudes: 103.7...103.9)) == "Singapore")
        let spread = Self.points(count: 100, latitudes: 48.5...49.0, longitudes: 2.0...2.5)  // Paris
            + Self.points(count: 100, latitudes: 52.3...52.6, longitudes: 13.2...13.6)  // Berlin
            + Self.points(count: 100, latitudes: 41.8...42.0, longitudes: 12.4...12.6)  // Rome
        #expect(area(spread) == nil)
    }

    /// Argentina's, China's, India's and Russia's subdivisions (DCW-GMT's, where Natural Earth
    /// has none at 1:50m) are found as the others are, by where the photos are, and a region's
    /// map takes in whole the part of its subdivision they are on, outlined, within the map's
    /// budget; Argentina's
    /// (whose longitudes DCW-GMT gives from 0 to 360) where the country is, Saint Petersburg
    /// rather than the oblast around it.
    @Test(arguments: [
        ("Buenos Aires", -36.0 ... -34.0, -61.0 ... -58.0), ("Moscow", 55.65...55.85, 37.45...37.75),
        ("Maharashtra", 18.4...19.9, 73.0...75.5), ("Sichuan", 29.5...31.5, 103.0...105.0),
        // A federal city beside the oblast around it: the city.
        ("Saint Petersburg", 59.85...60.0, 30.2...30.45),
    ])
    func aSubdivisionOfArgentinaChinaIndiaOrRussiaIsTheRegionsOutline(
        _ name: String, _ latitudes: ClosedRange<Double>, _ longitudes: ClosedRange<Double>
    ) throws {
        let points = Self.points(count: 200, latitudes: latitudes, longitudes: longitudes)
        let area = try #require(Geography.area(holdingMostOf: points.map { Self.point($0.latitude, $0.longitude) }))
        #expect(area.isSubdivision && area.name == name)
        let map = try #require(HTMLPage.listMap(of: points, outline: true))
        #expect(map.drawing.utf8.count <= 60_000, "the map is \(map.drawing.utf8.count) bytes")
        #expect(map.drawing.contains("<title>\u{2068}\(name)\u{2069}</title>"))
        let held = try #require(area.bounds(ofRingsHolding: points.map { Self.point($0.latitude, $0.longitude) }))
        #expect(map.x / map.xScale < held.minX && (map.x + map.width) / map.xScale > held.maxX)
        #expect(map.y < held.minY && map.y + map.height > held.maxY)
    }

    /// Every other country's subdivisions (cut from the land by Natural Earth's 1:10m borders,
    /// named by GeoNames' cities) are found by where the photos are too, and a region's map
    /// takes in whole the part of its subdivision they are on, outlined, within the map's
    /// budget: a city that is a subdivision of its own (Prague, Bogotá, Vienna: named by its
    /// people, not by the villages GeoNames puts in Lower Austria) rather than the one around it, Attica's mainland without its islands, Scotland's without Shetland.
    @Test(arguments: [
        ("Bavaria", 48.0...48.3, 11.4...11.8), ("Île-de-France", 48.7...49.0, 2.2...2.5), ("Tokyo", 35.6...35.8, 139.6...139.9),
        ("Praha", 50.0...50.1, 14.35...14.5), ("Bogota D.C.", 4.55...4.75, -74.15 ... -74.0), ("Vienna", 48.15...48.25, 16.3...16.45),
        ("Attica", 37.9...38.05, 23.65...23.8), ("Scotland", 55.85...55.95, -3.3 ... -3.1),
    ])
    func everyOtherCountrysSubdivisionIsTheRegionsOutline(
        _ name: String, _ latitudes: ClosedRange<Double>, _ longitudes: ClosedRange<Double>
    ) throws {
        let points = Self.points(count: 200, latitudes: latitudes, longitudes: longitudes)
        let projected = points.map { Self.point($0.latitude, $0.longitude) }
        let area = try #require(Geography.area(holdingMostOf: projected))
        #expect(area.isSubdivision && area.name == name)
        let map = try #require(HTMLPage.listMap(of: points, outline: true))
        #expect(map.drawing.utf8.count <= 60_000, "the map is \(map.drawing.utf8.count) bytes")
        #expect(map.drawing.contains("<title>\u{2068}\(name)\u{2069}</title>"))
        let held = try #require(area.bounds(ofRingsHolding: projected))
        #expect(map.x / map.xScale < held.minX && (map.x + map.width) / map.xScale > held.maxX)
        #expect(map.y < held.minY && map.y + map.height > held.maxY)
        // Only the part the photos are on: a subdivision of islands is not all in view.
        if area.rings.count > 1 {
            #expect(map.y > area.bounds.minY || map.y + map.height < area.bounds.maxY || map.x / map.xScale > area.bounds.minX
                || (map.x + map.width) / map.xScale < area.bounds.maxX, "\(name)'s islands are all in view")
        }
    }

    /// An island that the 1:50m countries leave out (Hiddensee, Vis, Culebra, Kowloon's side of
    /// the harbour) is its nearest country's subdivision's, so a city's map, over the coasts
    /// where the island is land, colours it as its region's.
    @Test(arguments: [
        ("Hiddensee", 54.55, 13.10, "Mecklenburg-Vorpommern"), ("Vis", 43.05, 16.18, "Splitsko-Dalmatinska"),
        ("Culebra", 18.31, -65.30, "Culebra"), ("Kowloon", 22.32, 114.18, "Kowloon City"),
    ])
    func anIslandLeftOutOfTheCountriesIsInItsSubdivision(_ island: String, _ latitude: Double, _ longitude: Double, _ name: String) {
        let point = Self.point(latitude, longitude)
        #expect(Geography.countryAreas.first(containing: point) == nil, "\(island) is in a 1:50m country now")
        #expect(Geography.subdivisionAreas.first(containing: point)?.name == name)
    }

    /// A region's map: the subdivision holding its photos in whole, outlined and holding every
    /// photo, its neighbours' borders, its cities named (the biggest first, no two covering
    /// one another, none cut by the frame), and under the page budget of 60 KB.
    @Test func aRegionsMapShowsItsSubdivisionWithItsCitiesNamed() throws {
        let points = Self.points(count: 300, latitudes: 37.2...40.8, longitudes: -108.8 ... -102.3)
        let map = try #require(HTMLPage.listMap(of: points, outline: true))
        let svg = map.drawing
        #expect(svg.utf8.count <= 60_000, "the map is \(svg.utf8.count) bytes")
        #expect(svg.contains("<path class=\"outline\"") && svg.contains("<title>\u{2068}Colorado\u{2069}</title>"))
        #expect(svg.contains("<path class=\"subdivisions\""))
        // The view takes in all of Colorado (37°–41° N, 102°03'–109°03' W) with a margin.
        let colorado = try #require(Geography.areas.first { $0.isSubdivision && $0.name == "Colorado" })
        #expect(map.x / map.xScale < colorado.bounds.minX && (map.x + map.width) / map.xScale > colorado.bounds.maxX)
        #expect(map.y < colorado.bounds.minY && map.y + map.height > colorado.bounds.maxY)
        #expect(points.allSatisfy { colorado.contains(Self.point($0.latitude, $0.longitude)) })
        let names = Self.labels(in: svg)
        #expect(names.first?.name == "Denver")
        #expect(names.contains { $0.name == "Colorado Springs" })
        let fontSize = map.width * 0.024
        for (index, label) in names.enumerated() {
            let half = HTMLPage.labelHalfWidth(label.name, fontSize: fontSize)
            #expect(label.x - half >= map.x && label.x + half <= map.x + map.width, "\(label.name) runs off the map")
            for other in names[(index + 1)...] {
                let apart = abs(label.x - other.x) >= half + HTMLPage.labelHalfWidth(other.name, fontSize: fontSize)
                    || abs(label.y - other.y) >= fontSize * 1.2
                #expect(apart, "\(label.name) covers \(other.name)")
            }
        }
        #expect(names.count <= HTMLPage.mostCities)
    }

    /// A subdivision inside another (Krasnodar Krai holds the Republic of Adygea, Moscow
    /// Oblast the city of Moscow, New South Wales the Australian Capital Territory) is a hole
    /// of it: its photos are the enclave's, and the outer region's map leaves it out of its
    /// area. Regression: the map filled Krasnodar's area over Adygea (its holes were not drawn).
    @Test(arguments: [("Maykop", 44.61, 40.10, "Krasnodar"), ("Moscow", 55.75, 37.62, "Moskow Oblast"), ("Canberra", -35.28, 149.13, "New South Wales")])
    func anEnclaveIsNotItsNeighboursArea(_ city: String, _ latitude: Double, _ longitude: Double, _ outerName: String) throws {
        let point = Geography.Point(x: (longitude + 180) * 10, y: (90 - latitude) * 10)
        let found = try #require(Geography.areas(at: point))
        #expect(found.area.isSubdivision && !found.area.name.contains(outerName), "\(city) is in \(found.area.name)")
        let outer = try #require(Geography.subdivisionAreas.areas.first { $0.name.contains(outerName) })
        #expect(!outer.contains(point) && outer.holes.contains { $0.bounds.contains(point) })
        // The outer region's map: its area has the enclave cut out (a second ring, filled even-odd).
        let spot = outer.rings[0].points[outer.rings[0].points.count / 2]
        let points = [spot, Geography.Point(x: (spot.x + point.x) / 2, y: (spot.y + point.y) / 2)].map {
            HTMLPage.MapPoint(latitude: 90 - $0.y / 10, longitude: $0.x / 10 - 180)
        }
        let map = try #require(HTMLPage.listMap(of: points + points + points, outline: true))
        let region = try #require(map.svg.components(separatedBy: "<path class=\"region\"").dropFirst().first)
        #expect(region.hasPrefix(" fill-rule=\"evenodd\""))
        let rings = ShoreMapTests.rings(ofPath: try #require(ShoreMapTests.path("region", in: map.svg)))
        #expect(rings.contains { ring in
            let xs = ring.map(\.x), ys = ring.map(\.y)
            return xs.min()! <= point.x && point.x <= xs.max()! && ys.min()! <= point.y && point.y <= ys.max()! && ring.count >= 3
                && (xs.max()! - xs.min()!) < 30
        }, "no ring of \(outerName)'s area goes round \(city)")
    }

    /// A place Flickr names as a city already named is named once, whatever its case or
    /// accents. Regression: "Istanbul" (GeoNames) and "İstanbul" (Flickr) side by side.
    @Test func aPlaceNamedAsACityIsNamedOnce() throws {
        let points = [HTMLPage.MapPoint(latitude: 39.5, longitude: 27.0), HTMLPage.MapPoint(latitude: 42.5, longitude: 31.0)]
        // Flickr's place lies apart from GeoNames' city, so both names would fit.
        let places = [HTMLPage.PlaceLabel(name: "İstanbul", latitude: 41.3, longitude: 28.4)]
        let map = try #require(HTMLPage.listMap(of: points, places: places, outline: true))
        #expect(PageText.occurrences("stanbul</text>", in: map.over) + PageText.occurrences("stanbul\u{2069}</text>", in: map.over) == 1, "\(map.over)")
    }

    /// A photo's inset shows its country, also one across the antimeridian (its parts on the
    /// photo's side of the world). Regression: photos in New Zealand, the United States and
    /// Russia had the whole world as their inset, a tiny mark on it.
    /// Regression: photos in Germany and the United Kingdom (four and six times their view)
    /// had the world too.
    @Test(arguments: [(-36.85, 174.76), (39.95, -75.16), (39.7, -105.0), (59.94, 30.31), (45.04, 38.98), (64.8, -147.7),
                      (48.76, 11.42), (51.5, -0.12), (55.95, -3.19)])
    func aPhotosInsetShowsItsCountryAcrossTheAntimeridianToo(_ latitude: Double, _ longitude: Double) throws {
        let map = try #require(HTMLPage.listMap(of: [HTMLPage.MapPoint(latitude: latitude, longitude: longitude)], minimumDegrees: 3, inset: true))
        let country = try #require(Geography.areas(at: Geography.Point(x: (longitude + 180) * 10, y: (90 - latitude) * 10))?.country)
        #expect(map.inset.contains("aria-label=\"Where the map lies in \(country.name)\""), "\(latitude), \(longitude): \(map.inset.prefix(200))")
        // Its frame holds the view's mark, and is no wider than half the world.
        let box = try #require(PageText.attributes("viewBox", in: map.inset).first).split(separator: " ").map { Double($0)! }
        let mark = ["x", "y", "width", "height"].map { Double(PageText.attributes($0, in: map.inset.components(separatedBy: "class=\"view\"")[1])[0])! }
        #expect(box[2] < 1800 && mark[0] >= box[0] && mark[1] >= box[1] && mark[0] + mark[2] <= box[0] + box[2] && mark[1] + mark[3] <= box[1] + box[3])
    }

    /// A photo in a country its map shows most of (Switzerland, Austria) has the world as
    /// its inset, where its view's mark tells something.
    @Test(arguments: [(46.95, 7.45), (47.8, 13.04)])
    func aPhotoInACountryItsMapShowsHasTheWorldAsItsInset(_ latitude: Double, _ longitude: Double) throws {
        let map = try #require(HTMLPage.listMap(of: [HTMLPage.MapPoint(latitude: latitude, longitude: longitude)], minimumDegrees: 3, inset: true))
        #expect(map.inset.contains("aria-label=\"Where the map lies in the world\""), "\(latitude), \(longitude): \(map.inset.prefix(200))")
    }

    /// A photo's locator map names no city where its inset lies (the bottom right corner,
    /// 28% of the map's width and 8 px in, by the page's style; at a map 300 px wide, the
    /// narrowest a phone shows, that is the last 30.5% across and 31.6% down): a name there
    /// is hidden under it. Regression: "Barreirinha" ran under the inset on a photo's page.
    @Test func aLocatorMapNamesNoCityUnderItsInset() throws {
        var named = 0
        for latitude in stride(from: 20.0, through: 55, by: 5) {
            for longitude in stride(from: -10.0, through: 130, by: 10) {
                let map = try #require(HTMLPage.listMap(of: [HTMLPage.MapPoint(latitude: latitude, longitude: longitude)], minimumDegrees: 3, inset: true))
                let fontSize = map.width * 0.024
                let (left, top) = (map.x + map.width * (1 - 0.305), map.y + map.height * (1 - 0.316))
                for label in Self.labels(in: map.over) {
                    named += 1
                    let halfWidth = HTMLPage.labelHalfWidth(label.name, fontSize: fontSize)
                    let under = label.x + halfWidth > left && label.y + fontSize * 0.3 > top
                    #expect(!under, "\(label.name) at \(latitude), \(longitude) lies under the inset")
                }
            }
        }
        #expect(named > 200)
    }

    /// A view wider than a continent is drawn from the world outline, without cities or
    /// subdivisions (a list spread over the world).
    @Test func aWorldWideListIsDrawnFromTheWorldOutline() throws {
        let svg = try #require(HTMLPage.listMap(of: [
            HTMLPage.MapPoint(latitude: 48.8, longitude: 2.3), HTMLPage.MapPoint(latitude: -33.9, longitude: 151.2),
        ], outline: true)).drawing
        #expect(!svg.contains("class=\"subdivisions\"") && !svg.contains("class=\"outline\"") && !svg.contains("class=\"cities\""))
    }

    @Test func simplifiedPathsKeepTheirShapeWithinTheTolerance() {
        let ring = (0..<360).map { degree in
            let angle = Double(degree) * .pi / 180
            return Geography.Point(x: 100 + 10 * cos(angle) + (degree % 2 == 0 ? 0.001 : -0.001), y: 50 + 10 * sin(angle))
        }
        let kept = Geography.simplified(ring, tolerance: 0.1)
        #expect(kept.count < 40 && kept.count > 8)
        // Every dropped point is within the tolerance of the kept outline.
        for point in ring {
            let nearest = zip(kept, kept.dropFirst()).map { a, b in Self.distance(point, a, b) }.min()!
            #expect(nearest <= 0.1 + 1e-9)
        }
        var text = Geography.PathText(tolerance: 0.1)
        text.ring([Geography.Point(x: 1.25, y: 2), Geography.Point(x: 1, y: 2.5), Geography.Point(x: 3, y: 2.5)])
        #expect(text.text == "M1.25 2l-.25 .5 2 0z")
    }

    // MARK: Helpers

    static func labels(in svg: String) -> [(name: String, x: Double, y: Double)] {
        svg.components(separatedBy: "<text class=\"city\" ").dropFirst().map { tail in
            let x = Double(tail.components(separatedBy: "x=\"")[1].prefix { $0 != "\"" })!
            let y = Double(tail.components(separatedBy: "y=\"")[1].prefix { $0 != "\"" })!
            let name = tail.components(separatedBy: "\u{2068}")[1].prefix { $0 != "\u{2069}" }
            return (String(name), x, y)
        }
    }

    static func distance(_ p: Geography.Point, _ a: Geography.Point, _ b: Geography.Point) -> Double {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        let (ex, ey) = (p.x - a.x - t * dx, p.y - a.y - t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}
