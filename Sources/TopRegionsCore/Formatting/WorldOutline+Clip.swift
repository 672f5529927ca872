extension WorldOutline {
    /// A point of the outline, in its units (0.1 degree).
    struct Point: Equatable {
        var x: Double
        var y: Double
    }

    /// The outline's rings, absolute, read once from `path` (its `M`, relative `l` and `z`).
    static let rings: [[Point]] = {
        var rings: [[Point]] = []
        var ring: [Point] = []
        var numbers: [Double] = []
        var command: Character = "M"
        var token = ""
        func endNumber() {
            if !token.isEmpty { numbers.append(Double(token)!) }
            token = ""
        }
        func apply() {
            endNumber()
            if command == "M", numbers.count >= 2 {
                if !ring.isEmpty { rings.append(ring) }
                ring = [Point(x: numbers[0], y: numbers[1])]
                numbers.removeFirst(2)
            }
            var i = 0
            while i + 1 < numbers.count {
                let last = ring.last ?? Point(x: 0, y: 0)
                ring.append(Point(x: last.x + numbers[i], y: last.y + numbers[i + 1]))
                i += 2
            }
            numbers = []
        }
        for character in path {
            switch character {
            case "M", "l", "z":
                apply()
                if character == "z", !ring.isEmpty {
                    rings.append(ring)
                    ring = []
                }
                command = character
            case "-":
                endNumber()
                token = "-"
            case " ":
                endNumber()
            default:
                token.append(character)
            }
        }
        apply()
        if !ring.isEmpty { rings.append(ring) }
        return rings
    }()

    /// Each ring's bounding box, found once: a map asks which rings its view touches.
    static let ringBounds: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = rings.map { ring in
        ring.reduce((Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)) { box, point in
            (min(box.0, point.x), min(box.1, point.y), max(box.2, point.x), max(box.3, point.y))
        }
    }

    /// The outline as an SVG path of only what lies in `box` (outline units): rings wholly
    /// outside it left out, rings partly in it cut to it widened by a margin, so their cut
    /// edges, which are no coast, fall outside the view. A region's map then carries a few
    /// kilobytes of land, not the whole world's 38.
    static func path(within box: (x: Double, y: Double, width: Double, height: Double)) -> String {
        let margin = max(box.width, box.height) * 0.05
        let (left, top) = (box.x - margin, box.y - margin)
        let (right, bottom) = (box.x + box.width + margin, box.y + box.height + margin)
        var path = ""
        for (ring, (minX, minY, maxX, maxY)) in zip(rings, ringBounds) {
            guard maxX >= left, minX <= right, maxY >= top, minY <= bottom else { continue }
            let inside = minX >= left && maxX <= right && minY >= top && maxY <= bottom
            let kept = inside ? ring : clip(ring, left: left, top: top, right: right, bottom: bottom)
            guard kept.count >= 3 else { continue }
            path += "M" + kept.map { "\(HTMLPage.number($0.x)) \(HTMLPage.number($0.y))" }.joined(separator: "L") + "z"
        }
        return path
    }

    /// Sutherland–Hodgman: `ring` cut to the rectangle, one side at a time.
    static func clip(_ ring: [Point], left: Double, top: Double, right: Double, bottom: Double) -> [Point] {
        func cut(_ points: [Point], inside: (Point) -> Bool, crossing: (Point, Point) -> Point) -> [Point] {
            guard let last = points.last else { return [] }
            var out: [Point] = []
            var previous = last
            for point in points {
                if inside(point) {
                    if !inside(previous) { out.append(crossing(previous, point)) }
                    out.append(point)
                } else if inside(previous) {
                    out.append(crossing(previous, point))
                }
                previous = point
            }
            return out
        }
        func atX(_ x: Double) -> (Point, Point) -> Point {
            { a, b in Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)) }
        }
        func atY(_ y: Double) -> (Point, Point) -> Point {
            { a, b in Point(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y) }
        }
        var points = cut(ring, inside: { $0.x >= left }, crossing: atX(left))
        points = cut(points, inside: { $0.x <= right }, crossing: atX(right))
        points = cut(points, inside: { $0.y >= top }, crossing: atY(top))
        return cut(points, inside: { $0.y <= bottom }, crossing: atY(bottom))
    }
}
