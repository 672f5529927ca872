import CGeography

/// The geography a list's map is drawn from at a region's scale: Natural Earth's 1:50m
/// countries and first-level subdivisions (Natural Earth has these at 1:50m for Australia,
/// Brazil, Canada and the United States only; Argentina's, China's, India's and Russia's come
/// from DCW-GMT; every other country's are cut from its land by Natural Earth's 1:10m
/// subdivision borders and named by GeoNames' cities), GeoNames' cities of 15,000 people or
/// more, and GSHHG's lakes and rivers at low resolution.
/// Made by `bin/lib/make-geography.py` and built into the program (CGeography); read the first
/// time a map needs it, so a tool that draws no map never pays for it.
enum Geography {
    static let attribution = "Made with Natural Earth"
    static let citiesCredit = "GeoNames"

    typealias Point = WorldOutline.Point

    /// A box in the maps' projected units (0.1 degree; see `WorldOutline`).
    struct Bounds: Sendable {
        var minX, minY, maxX, maxY: Double

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }

        /// Nothing yet: the first point added is the box.
        static let empty = Bounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

        mutating func add(_ point: Point) {
            (minX, minY) = (min(minX, point.x), min(minY, point.y))
            (maxX, maxY) = (max(maxX, point.x), max(maxY, point.y))
        }

        /// Grows to take in `other` too.
        mutating func add(_ other: Bounds) {
            add(Point(x: other.minX, y: other.minY))
            add(Point(x: other.maxX, y: other.maxY))
        }

        func intersects(_ other: Bounds) -> Bool {
            maxX >= other.minX && minX <= other.maxX && maxY >= other.minY && minY <= other.maxY
        }

        func contains(_ point: Point) -> Bool {
            point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
        }

        var width: Double { maxX - minX }
        var height: Double { maxY - minY }

        /// What a map cuts its geography to: the view widened by a twentieth of its longer
        /// side, so the cuts fall outside the frame.
        var cut: Bounds {
            let margin = max(width, height) * 0.05
            return Bounds(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
        }
    }

    /// A ring of an area where its points lie in the built-in bytes, and its box: the points
    /// are read from the bytes each time a map needs them, never kept, so the geography costs
    /// a program its index (24 bytes a ring), not its 415,000 points.
    struct Ring: Sendable {
        // 24 bytes, not 48: 42,000 rings and rivers are indexed (a megabyte of the server's
        // memory at 48). The box is kept in floats rounded outwards, so it still holds every point.
        private let start: Int32
        private let size: Int32
        private let west: Float, north: Float, east: Float, south: Float

        init(offset: Int, count: Int, bounds: Bounds) {
            (start, size) = (Int32(offset), Int32(count))
            (west, north) = (Self.below(bounds.minX), Self.below(bounds.minY))
            (east, south) = (Self.above(bounds.maxX), Self.above(bounds.maxY))
        }

        var offset: Int { Int(start) }
        var count: Int { Int(size) }
        var bounds: Bounds { Bounds(minX: Double(west), minY: Double(north), maxX: Double(east), maxY: Double(south)) }

        private static func below(_ value: Double) -> Float {
            let rounded = Float(value)
            return Double(rounded) > value ? rounded.nextDown : rounded
        }

        private static func above(_ value: Double) -> Float {
            let rounded = Float(value)
            return Double(rounded) < value ? rounded.nextUp : rounded
        }

        var points: [Point] {
            var reader = Reader(bytes: Geography.bytes, offset: offset)
            return reader.points(count)
        }
    }

    /// A country, a subdivision or a lake: its outer rings (drawn) and holes (an enclave, an
    /// island), which only decide what lies inside it.
    struct Area: Sendable {
        enum Kind: UInt8, Sendable {
            case country = 0, subdivision = 1, lake = 2
        }

        let kind: Kind
        var isSubdivision: Bool { kind == .subdivision }
        /// Where its code, its parent's code and its name are in the built-in bytes: read when
        /// needed, as a city's are (7,800 areas' strings kept took most of a megabyte).
        let textOffset: Int32
        /// ISO 3166-1 alpha-2 for a country ("-99" where Natural Earth gives none), Natural
        /// Earth's adm1_code for a subdivision.
        var code: String { text(0) }
        /// A subdivision's country code.
        var parent: String { text(1) }
        var name: String { text(2) }

        /// The `position`th of its three strings (code, parent, name), the ones before it skipped.
        private func text(_ position: Int) -> String {
            var reader = Reader(bytes: Geography.bytes, offset: Int(textOffset))
            for _ in 0..<position { reader.skipString() }
            return reader.string()
        }

        let rings: [Ring]
        let holes: [Ring]
        let bounds: Bounds

        /// Whether `point` lies inside (even-odd over its rings and holes).
        func contains(_ point: Point) -> Bool {
            guard bounds.contains(point) else { return false }
            var inside = false
            for ring in rings where ring.bounds.contains(point) && Self.ring(ring.points, contains: point) {
                inside.toggle()
            }
            guard inside else { return false }
            return !holes.contains { $0.bounds.contains(point) && Self.ring($0.points, contains: point) }
        }

        /// How many of `points` lie inside: each ring near them read once for all of them.
        func count(of points: [Point], within box: Bounds) -> Int {
            guard bounds.intersects(box) else { return 0 }
            let near = rings.filter { $0.bounds.intersects(box) }.map { ($0.bounds, $0.points) }
            let nearHoles = holes.filter { $0.bounds.intersects(box) }.map { ($0.bounds, $0.points) }
            return points.count { point in
                var inside = false
                for (box, ring) in near where box.contains(point) && Self.ring(ring, contains: point) { inside.toggle() }
                return inside && !nearHoles.contains { $0.0.contains(point) && Self.ring($0.1, contains: point) }
            }
        }

        /// The box of its outer rings that hold any of `points`: the part of it a list's photos
        /// are on (Tokyo's main island, not the Ogasawara islands 1,000 km south); nil when
        /// none holds one. At most 256 points are looked at, evenly spread.
        func bounds(ofRingsHolding points: [Point]) -> Bounds? {
            let sample = Geography.evenlySpread(points)
            var box = Bounds.empty
            for ring in rings {
                let near = sample.filter(ring.bounds.contains)
                guard !near.isEmpty else { continue }
                let outline = ring.points
                if near.contains(where: { Self.ring(outline, contains: $0) }) { box.add(ring.bounds) }
            }
            return box.width.isFinite ? box : nil
        }

        static func ring(_ ring: [Point], contains point: Point) -> Bool {
            var inside = false
            var previous = ring[ring.count - 1]
            for current in ring {
                if (current.y > point.y) != (previous.y > point.y),
                   point.x < (previous.x - current.x) * (point.y - current.y) / (previous.y - current.y) + current.x {
                    inside.toggle()
                }
                previous = current
            }
            return inside
        }
    }

    /// A city where it lies, in projected units; its names read from the bytes when drawn.
    struct City: Sendable {
        let x: Float
        let y: Float
        let population: Int32
        /// Where its country code and name are in the built-in bytes.
        let textOffset: Int32

        var point: Point { Point(x: Double(x), y: Double(y)) }

        var country: String {
            var reader = Reader(bytes: Geography.bytes, offset: Int(textOffset))
            return reader.string()
        }

        var name: String {
            var reader = Reader(bytes: Geography.bytes, offset: Int(textOffset))
            _ = reader.string()
            return reader.string()
        }
    }

    /// Every area, countries first, then subdivisions, then lakes; every city, most populous
    /// first; every river (a line, read as a ring is).
    static let areas: [Area] = index.areas
    static let cities: [City] = index.cities
    static let rivers: [Ring] = index.rivers

    /// The bytes, as the linker placed them in the program: read-only for the program's life,
    /// so any thread may read them (hence `nonisolated(unsafe)`).
    nonisolated(unsafe) static let bytes = UnsafeBufferPointer(start: topregions_geography_bytes(), count: topregions_geography_count())

    private static let index: (areas: [Area], cities: [City], rivers: [Ring]) = {
        var reader = Reader(bytes: bytes)
        return reader.readIndex()
    }()
}
