import Foundation
import Synchronization
import TopRegionsRecords

extension HTMLPage {
    /// The most city names a map carries: enough to find one's way, few enough to read.
    static let mostCities = 12

    /// A map's names: `cities` (most populous first) with a dot each, then the list's `places`
    /// (Flickr's names for where its photos were taken) not already named by a city. A name is
    /// drawn only where it covers no name drawn before and no counted cluster (`discs`, whose
    /// number is to be read), and lies wholly inside the view, so the biggest cities win and
    /// no label is cut by the frame; a name is tried above its dot (a place's on its spot),
    /// then under it, beyond any cluster on it.
    /// `keepOut`: a part of the view, in its units, where no name goes (what an inset covers).
    static func labels(
        cities: [Geography.City], places: [PlaceLabel], discs: [Disc] = [], x: Double, y: Double, width: Double, height: Double,
        xScale: Double, keepOut: Geography.Bounds? = nil
    ) -> String {
        let fontSize = width * 0.024
        var taken: [(x: Double, y: Double, halfWidth: Double)] = []
        func take(_ name: String, x px: Double, y py: Double) -> Bool {
            let halfWidth = labelHalfWidth(name, fontSize: fontSize)
            guard px - halfWidth >= x, px + halfWidth <= x + width, py - fontSize >= y, py + fontSize * 0.3 <= y + height,
                  !taken.contains(where: { abs($0.x - px) < $0.halfWidth + halfWidth && abs($0.y - py) < fontSize * 1.2 }),
                  !discs.contains(where: { $0.meets(left: px - halfWidth, top: py - fontSize, right: px + halfWidth, bottom: py + fontSize * 0.3) }),
                  !(keepOut?.intersects(Geography.Bounds(minX: px - halfWidth, minY: py - fontSize, maxX: px + halfWidth, maxY: py + fontSize * 0.3)) ?? false)
            else { return false }
            taken.append((px, py, halfWidth))
            return true
        }
        /// Where a name goes: at `above` (its baseline), else at `below`.
        func position(_ name: String, x px: Double, above: Double, below: Double) -> Double? {
            if take(name, x: px, y: above) { return above }
            if take(name, x: px, y: below) { return below }
            return nil
        }
        /// How far up and down the clusters over a point reach (the point itself when none).
        func reach(_ px: Double, _ py: Double) -> (top: Double, bottom: Double, covered: Bool) {
            let over = discs.filter { $0.meets(left: px, top: py, right: px, bottom: py) }
            return (over.map { $0.y - $0.radius }.min() ?? py, over.map { $0.y + $0.radius }.max() ?? py, !over.isEmpty)
        }
        var dots = "", names = "", named = Set<String>()
        var dotsDrawn: [(x: Double, y: Double)] = []
        for city in cities where named.count < mostCities {
            let name = city.name
            let (px, py) = (city.point.x * xScale, city.point.y)
            // A suburb or a city's district beside a bigger city already named is left out:
            // the map names places apart, not the parts of one.
            guard !dotsDrawn.contains(where: { ($0.x - px) * ($0.x - px) + ($0.y - py) * ($0.y - py) < 6.25 * fontSize * fontSize }) else { continue }
            // The name sits just above its dot, or under it (beyond a cluster on it).
            let (top, bottom, _) = reach(px, py)
            guard let labelY = position(name, x: px, above: top - fontSize * 0.4, below: bottom + fontSize * 1.1) else { continue }
            named.insert(RegionName.sortKey(name))
            dotsDrawn.append((px, py))
            dots += "<circle cx=\"\(number(px, places: 4))\" cy=\"\(number(py, places: 4))\" r=\"\(number(fontSize * 0.2, places: 4))\"/>"
            names += "<text class=\"city\" x=\"\(number(px, places: 4))\" y=\"\(number(labelY, places: 4))\">\(escape(isolated(name)))</text>\n"
        }
        // A place named as a city already is (in any case or accents: Flickr's "İstanbul" and
        // GeoNames' "Istanbul") is named once.
        for place in places where !named.contains(RegionName.sortKey(place.name)) {
            let (px, spotY) = (projectX(place.longitude) * xScale, projectY(place.latitude))
            // On its spot, or under it; above or under a cluster on it.
            let (top, bottom, covered) = reach(px, spotY)
            guard let py = position(place.name, x: px, above: covered ? top - fontSize * 0.3 : spotY, below: bottom + fontSize * 1.1)
            else { continue }
            names += "<text x=\"\(number(px, places: 4))\" y=\"\(number(py, places: 4))\">\(escape(isolated(place.name)))</text>\n"
        }
        guard !names.isEmpty else { return "" }
        var svg = dots.isEmpty ? "" : "<g class=\"cities\">\(dots)</g>\n"
        svg += "<g class=\"places\" font-size=\"\(number(fontSize, places: 4))\">\n\(names)</g>\n"
        return svg
    }

    /// A counted cluster's disc on a map, which no name may cover.
    struct Disc {
        var x: Double, y: Double, radius: Double

        /// Whether it reaches into the box.
        func meets(left: Double, top: Double, right: Double, bottom: Double) -> Bool {
            let dx = x - min(max(x, left), right), dy = y - min(max(y, top), bottom)
            return dx * dx + dy * dy < radius * radius
        }
    }

    /// Half a name's width as drawn, about: Latin letters take about 0.6 em, the wide
    /// characters of East Asian scripts a whole em.
    static func labelHalfWidth(_ name: String, fontSize: Double) -> Double {
        let ems = name.unicodeScalars.reduce(0.0) { total, scalar in
            total + (scalar.value >= 0x1100 && scalar.properties.generalCategory == .otherLetter && scalar.value < 0xFFEF ? 1.0 : 0.6)
        }
        return ems * fontSize / 2
    }

    /// How much of a map its inset covers, with its margin, at most: the page's style sets it
    /// 28% of the map's width (at most 150 px) and 8 px in from the bottom right corner, the
    /// map and the inset both 4:3; 8 px is 2.7% of a map 300 px wide, 3.6% of its height.
    static let insetCovers = (width: 0.31, height: 0.32)

    /// A small map in a corner of a map, with the map's `view` (the geography's units)
    /// marked: the country the view lies in when the view is at most a third of it (by their
    /// boxes), else the world. At least a few percent across, so a city's view still shows.
    static func locatorInset(view: Geography.Bounds) -> String {
        let centre = Geography.Point(x: (view.minX + view.maxX) / 2, y: (view.minY + view.maxY) / 2)
        var frame = Geography.Bounds(minX: 0, minY: 0, maxX: Double(WorldOutline.width), maxY: Double(WorldOutline.height))
        var country = Geography.areas(at: centre)?.country
        if let found = country, let bounds = countrysSide(found, around: centre),
           bounds.width * bounds.height >= Self.insetCountryViews * view.width * view.height {
            frame = bounds
        } else {
            country = nil
        }
        let label = "Where the map lies in " + (country?.name ?? "the world")
        // The same for every photo in a country (on one side of the world): drawn once (the
        // world's reads every coast).
        let key = country.map { "\($0.name) \(Int(frame.minX))" } ?? ""
        let land = insetLands.withLock { lands in
            if let known = lands[key] { return known }
            let drawn = country.map { Geography.path(of: [$0], within: frame, tolerance: max(frame.width, frame.height) / 150) }
                ?? Geography.land(within: frame, tolerance: 8)
            lands[key] = drawn
            return drawn
        }
        // As the main map: longitudes shrunk by the middle latitude's cosine, the frame widened
        // in its short direction to 4:3, with a margin.
        let xScale = max(cos((90 - (frame.minY + frame.maxY) / 20) * .pi / 180), 0.2)
        var (x, y, width, height) = fourByThree(x: frame.minX * xScale, y: frame.minY, width: frame.width * xScale, height: frame.height)
        (x, y, width, height) = (x - width * 0.05, y - height * 0.05, width * 1.1, height * 1.1)
        let least = width * 0.04
        let (w, h) = (max(view.width * xScale, least), max(view.height, least))
        let (left, top) = ((view.minX + view.maxX) / 2 * xScale - w / 2, (view.minY + view.maxY) / 2 - h / 2)
        let box = [x, y, width, height].map { number($0) }.joined(separator: " ")
        var svg = "<svg class=\"inset\" viewBox=\"\(box)\" role=\"img\" aria-label=\"\(escape(label))\">\n"
        svg += "<rect class=\"sea\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\"/>\n"
        svg += "<path class=\"land\" transform=\"scale(\(number(xScale, places: 4)) 1)\" d=\"\(land)\"/>\n"
        svg += "<rect class=\"view\" x=\"\(number(left))\" y=\"\(number(top))\" width=\"\(number(w))\" height=\"\(number(h))\"/>\n"
        svg += "</svg>\n"
        return svg
    }

    /// How many times a photo's view a country's box must hold for the inset to show the
    /// country: a photo's view is 3 degrees of latitude, so Germany's box holds about four
    /// at Ingolstadt, the United Kingdom's about six (at 6, the world, a mark over Europe, was
    /// their inset); Austria's or Switzerland's, not two (their photos' maps show most of
    /// them: the inset shows the world).
    static let insetCountryViews = 3.0

    /// The box of `country` an inset frames around `centre`: the whole country, or for one
    /// across the antimeridian (Russia, the United States, New Zealand, Fiji: a box as wide
    /// as the world) its parts on the centre's side, within 90 degrees of it; nil when even
    /// those span half the world. Regression: those countries' photos had the world as inset.
    static func countrysSide(_ country: Geography.Area, around centre: Geography.Point) -> Geography.Bounds? {
        guard country.bounds.width >= 1800 else { return country.bounds }
        let near = country.rings.map(\.bounds).filter { abs(($0.minX + $0.maxX) / 2 - centre.x) < 900 }
        guard let first = near.first else { return nil }
        let side = near.dropFirst().reduce(first) {
            Geography.Bounds(minX: min($0.minX, $1.minX), minY: min($0.minY, $1.minY), maxX: max($0.maxX, $1.maxX), maxY: max($0.maxY, $1.maxY))
        }
        return side.width < 1800 ? side : nil
    }

    /// Each inset's land by its country's name ("" for the world's), once drawn: at most one
    /// for each of Natural Earth's 241 countries, a few kilobytes each.
    static let insetLands = Mutex<[String: String]>([:])

    /// Where a point is, in words: the most populous city of 15,000 people or more within
    /// about 15 km, else the nearest within about 50 km, and the subdivision and country it
    /// lies in ("Near Halifax · Nova Scotia, Canada"); nil at sea far from any city.
    static func whereWords(latitude: Double, longitude: Double) -> String? {
        let point = Geography.Point(x: projectX(longitude), y: projectY(latitude))
        var parts: [String] = []
        if let city = Geography.city(near: point, close: 1.5, within: 5) { parts.append("Near \(city.name)") }
        if let (area, country) = Geography.areas(at: point) {
            parts.append(area.isSubdivision ? "\(area.name), \(country.name)" : country.name)
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
