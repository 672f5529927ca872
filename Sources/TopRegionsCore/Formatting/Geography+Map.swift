import Foundation
import TopRegionsRecords

extension Geography {
    /// The area most of `points` (projected) lie in: the subdivision holding at least half of
    /// them where there are subdivisions, else the country holding at least half;
    /// nil when the points are spread over several (a search, the whole world) or at sea.
    /// Found by where the points are, never by a name: Flickr's names and Natural Earth's
    /// differ ("Québec", "Quebec"). At most 256 points are looked at, evenly spread.
    static func area(holdingMostOf points: [Point]) -> Area? {
        guard !points.isEmpty else { return nil }
        let sample = evenlySpread(points)
        var box = Bounds.empty
        for point in sample { box.add(point) }
        for kind in [subdivisionAreas, countryAreas] {
            // The boxes first: most areas are far from the points; each near one's rings read once.
            let inside = kind.bounds.indices.map { kind.bounds[$0].intersects(box) ? kind.areas[$0].count(of: sample, within: box) : 0 }
            if let best = inside.indices.max(by: { inside[$0] < inside[$1] }), inside[best] > 0, inside[best] * 2 >= sample.count {
                return kind.areas[best]
            }
        }
        return nil
    }

    /// At most 256 of `points`, evenly spread (every one of a short list): enough to tell where
    /// most of a list lies, at the same cost for a region of 14,000 photos as of 14.
    static func evenlySpread(_ points: [Point]) -> [Point] {
        let step = max(1, points.count / 256)
        return stride(from: 0, to: points.count, by: step).map { points[$0] }
    }

    /// The area `point` lies in (a subdivision before its country), and its country.
    static func areas(at point: Point) -> (area: Area, country: Area)? {
        guard let country = countryAreas.first(containing: point) else { return nil }
        return (subdivisionAreas.first(containing: point) ?? country, country)
    }

    /// The cities inside `box`, most populous first: looked up by degree of latitude and
    /// longitude (`cityCells`), not by reading all 34,000.
    static func cities(within box: Bounds) -> [City] {
        let (firstRow, lastRow) = (Self.cell(box.minY), Self.cell(box.maxY))
        let (firstColumn, lastColumn) = (Self.cell(box.minX), Self.cell(box.maxX))
        var found: [Int32] = []
        for row in firstRow...lastRow {
            // A row's cells are adjacent in the sorted keys: one range a row.
            let (low, high) = (Int32(row * 400 + firstColumn), Int32(row * 400 + lastColumn))
            var index = firstCell(atLeast: low)
            while index < cityCells.count, cityCells[index].key <= high {
                found.append(cityCells[index].city)
                index += 1
            }
        }
        return found.sorted().map { cities[Int($0)] }.filter { box.contains($0.point) }
    }

    /// Each city's degree cell (row × 400 + column, in projected units of 10) and its place in
    /// `cities`, sorted by cell: 8 bytes a city.
    static let cityCells: [(key: Int32, city: Int32)] = cities.indices.map { index in
        (Int32(cell(cities[index].point.y) * 400 + cell(cities[index].point.x)), Int32(index))
    }.sorted { ($0.key, $0.city) < ($1.key, $1.city) }

    /// The first of `cityCells` whose key is `key` or more (binary search).
    private static func firstCell(atLeast key: Int32) -> Int {
        var (low, high) = (0, cityCells.count)
        while low < high {
            let middle = (low + high) / 2
            if cityCells[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The degree (10 projected units) a coordinate falls in, within the world.
    private static func cell(_ value: Double) -> Int {
        min(max(Int((value / 10).rounded(.down)), 0), 360)
    }

    /// The city a person would name for where `point` is: the most populous within `close`
    /// (a city's own districts and suburbs are its parts: "Prague", not "Stodůlky"), else the
    /// nearest within `reach` (projected units); nil when none is that near.
    static func city(near point: Point, close: Double, within reach: Double) -> City? {
        // Most populous first: the first one within `close` is the biggest.
        citiesOnTheGround(around: point, within: close).first?.city ?? city(near: point, within: reach)
    }

    /// The nearest city to `point` within `reach` (units of latitude, 0.1 degree), if any.
    static func city(near point: Point, within reach: Double) -> City? {
        citiesOnTheGround(around: point, within: reach).min { $0.distance < $1.distance }?.city
    }

    /// The cities within `reach` of `point` measured on the ground (longitudes shrunk by the
    /// latitude's cosine, not as the projection stretches them), most populous first, each
    /// with its squared distance.
    private static func citiesOnTheGround(around point: Point, within reach: Double) -> [(city: City, distance: Double)] {
        let shrink = max(cos((90 - point.y / 10) * .pi / 180), 0.05)
        let box = Bounds(minX: point.x - reach / shrink, minY: point.y - reach, maxX: point.x + reach / shrink, maxY: point.y + reach)
        return cities(within: box).compactMap { city in
            let (dx, dy) = ((city.point.x - point.x) * shrink, city.point.y - point.y)
            let distance = dx * dx + dy * dy
            return distance <= reach * reach ? (city, distance) : nil
        }
    }

    /// Every country's land inside `box`, as an SVG path: rings outside left out, rings across
    /// its edge cut just outside it, each simplified to `tolerance` (a fraction of the view,
    /// so a country-sized view and a city-sized one carry about as many points).
    static func land(within box: Bounds, tolerance: Double) -> String {
        path(of: countryAreas, within: box, tolerance: tolerance)
    }

    /// The subdivisions' outlines inside `box` (their borders, drawn as lines over the land).
    static func subdivisions(within box: Bounds, tolerance: Double) -> String {
        path(of: subdivisionAreas, within: box, tolerance: tolerance)
    }

    /// The lakes inside `box`, drawn as water over the land.
    static func lakes(within box: Bounds, tolerance: Double) -> String {
        path(of: lakeAreas, within: box, tolerance: tolerance)
    }

    /// The rivers inside `box` that reach across a fiftieth of it or more (a river's short
    /// pieces beside a view's long ones are noise), as lines simplified to `tolerance`. A river
    /// across the edge is kept whole: the frame cuts what lies beyond it.
    static func rivers(within box: Bounds, tolerance: Double) -> String {
        var path = PathText(tolerance: tolerance)
        for index in riversShown(in: box, meeting: box) {
            path.line(simplified(rivers[index].points, tolerance: tolerance))
        }
        return path.text
    }

    /// The places in `rivers` of those a map of `view` draws: those whose box meets `reach`
    /// (the view, or a little more) and reaches across a fiftieth of the view or more.
    static func riversShown(in view: Bounds, meeting reach: Bounds) -> [Int] {
        let least = max(view.width, view.height) / 50
        return riverGrid.candidates(reach).filter {
            let known = rivers[$0].bounds
            return known.intersects(reach) && max(known.width, known.height) >= least
        }
    }

    /// The areas of one kind, each with its box apart (looked at without copying an area).
    struct Kind: Sendable {
        let areas: [Area]
        let bounds: [Bounds]

        init(_ kind: Area.Kind) {
            self.init(areas: Geography.areas.filter { $0.kind == kind })
        }

        init(areas: [Area]) {
            self.areas = areas
            bounds = areas.map(\.bounds)
        }

        /// The first area that holds `point`.
        func first(containing point: Point) -> Area? {
            bounds.indices.first { bounds[$0].contains(point) && areas[$0].contains(point) }.map { areas[$0] }
        }
    }

    static let countryAreas = Kind(.country)
    static let subdivisionAreas = Kind(.subdivision)
    static let lakeAreas = Kind(.lake)

    /// The outer rings of `areas` inside `box` (see `land(within:tolerance:)`).
    /// `holes`: their holes too (an enclave, a lake), for a path filled even-odd: a region's
    /// own area, which is not its enclaves'.
    static func path(of areas: [Area], within box: Bounds, tolerance: Double, holes: Bool = false) -> String {
        path(of: Kind(areas: areas), within: box, tolerance: tolerance, holes: holes)
    }

    static func path(of kind: Kind, within box: Bounds, tolerance: Double, holes: Bool = false) -> String {
        let clip = box.cut
        var path = PathText(tolerance: tolerance)
        for index in kind.bounds.indices where kind.bounds[index].intersects(clip) {
            let area = kind.areas[index]
            for ring in holes ? area.rings + area.holes : area.rings where ring.bounds.intersects(clip) {
                let ringBox = ring.bounds
                // An island smaller than the tolerance is a speck: left out.
                guard max(ringBox.width, ringBox.height) >= tolerance else { continue }
                let inside = ringBox.minX >= clip.minX && ringBox.maxX <= clip.maxX && ringBox.minY >= clip.minY && ringBox.maxY <= clip.maxY
                let points = ring.points
                let kept = inside ? points : WorldOutline.clip(points, left: clip.minX, top: clip.minY, right: clip.maxX, bottom: clip.maxY)
                guard kept.count >= 3 else { continue }
                path.ring(simplified(kept, tolerance: tolerance))
            }
        }
        return path.text
    }

    /// Douglas-Peucker: the fewest of `points` that stay within `tolerance` of the line.
    static func simplified(_ points: [Point], tolerance: Double) -> [Point] {
        guard points.count > 3 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let limit = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            let segment = Segment(points[first], points[last])
            var worst = -1.0, worstIndex = -1
            for index in first + 1 ..< max(first + 1, last) {
                let distance2 = segment.distance2(to: points[index])
                if distance2 > worst { (worst, worstIndex) = (distance2, index) }
            }
            if worstIndex >= 0, worst > limit {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// An SVG path written compactly: each ring's first point absolute, the rest relative, all
    /// rounded to the finest decimal the tolerance needs (positions rounded before the
    /// differences, so the rounding never drifts along a coast).
    struct PathText {
        private(set) var text = ""
        private let scale: Double
        private let places: Int

        init(tolerance: Double) {
            var places = 0
            while places < 4, tolerance * Double(Self.power(places)) < 2 { places += 1 }
            self.places = places
            scale = Double(Self.power(places))
        }

        private static func power(_ places: Int) -> Int {
            (0..<places).reduce(1) { value, _ in value * 10 }
        }

        mutating func ring(_ points: [Point]) {
            guard points.count >= 3 else { return }
            add(points, closed: true)
        }

        /// An open line (a river): not closed back to its start.
        mutating func line(_ points: [Point]) {
            guard points.count >= 2 else { return }
            add(points, closed: false)
        }

        private mutating func add(_ points: [Point], closed: Bool) {
            var last: (Int, Int)?
            var pending = ""
            for point in points {
                let current = (Int((point.x * scale).rounded()), Int((point.y * scale).rounded()))
                guard let previous = last else {
                    pending = "M" + format(current.0) + " " + format(current.1) + "l"
                    last = current
                    continue
                }
                let (dx, dy) = (current.0 - previous.0, current.1 - previous.1)
                if dx == 0, dy == 0 { continue }
                pending += (pending.hasSuffix("l") || dx < 0 ? "" : " ") + format(dx) + (dy < 0 ? "" : " ") + format(dy)
                last = current
            }
            guard !pending.hasSuffix("l") else { return }
            text += pending + (closed ? "z" : "")
        }

        /// `units` / 10^places: "-1.25", ".5", "12".
        private func format(_ units: Int) -> String {
            FixedPoint.text(Int64(units), places: places, leadingZero: false)
        }
    }

    /// A straight piece of a line, ready to be measured against many points.
    struct Segment: Sendable {
        let a: Point
        let dx, dy, length2: Double

        init(_ a: Point, _ b: Point) {
            self.a = a
            (dx, dy) = (b.x - a.x, b.y - a.y)
            length2 = dx * dx + dy * dy
        }

        /// The square of `p`'s distance to the nearest point of the segment.
        func distance2(to p: Point) -> Double {
            let t = length2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
            let (ex, ey) = (p.x - a.x - t * dx, p.y - a.y - t * dy)
            return ex * ex + ey * ey
        }
    }
}
