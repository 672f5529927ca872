extension Geography {
    /// Reads the format `bin/lib/make-geography.py` writes (described there).
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        /// Every area with where its rings lie, every city with where its names lie, every
        /// river with where its points lie.
        mutating func readIndex() -> (areas: [Area], cities: [City], rivers: [Ring]) {
            let magic = Array("TRGEO2\n\0".utf8)
            precondition(Array(bytes.prefix(magic.count)) == magic, "the built-in geography is not in the format this program reads")
            offset = magic.count
            var areas: [Area] = []
            for _ in 0..<varint() {
                guard let kind = Area.Kind(rawValue: byte()) else { preconditionFailure("the built-in geography has an unknown kind of area") }
                let textOffset = offset
                skipString()
                skipString()
                skipString()
                var rings: [Ring] = [], holes: [Ring] = []
                for _ in 0..<varint() {
                    let isHole = byte() == 1
                    let ring = indexedRing()
                    if isHole { holes.append(ring) } else { rings.append(ring) }
                }
                var bounds = Bounds.empty
                for ring in rings { bounds.add(ring.bounds) }
                areas.append(Area(kind: kind, textOffset: Int32(textOffset), rings: rings, holes: holes, bounds: bounds))
            }
            var cities: [City] = []
            let count = varint()
            cities.reserveCapacity(count)
            for _ in 0..<count {
                let point = Self.project(longitude: zigzag(), latitude: zigzag())
                let population = varint()
                let textOffset = offset
                skipString()
                skipString()
                cities.append(City(x: Float(point.x), y: Float(point.y), population: Int32(population), textOffset: Int32(textOffset)))
            }
            let rivers = (0..<varint()).map { _ in indexedRing() }
            precondition(offset == bytes.count, "the built-in geography has bytes after its rivers")
            return (areas, cities, rivers)
        }

        /// A ring's (or a river's) count and points, read past: where they lie, and their box.
        mutating func indexedRing() -> Ring {
            let count = varint()
            let start = offset
            var bounds = Bounds.empty
            var (longitude, latitude) = (0, 0)
            for _ in 0..<count {
                longitude += zigzag()
                latitude += zigzag()
                bounds.add(Self.project(longitude: longitude, latitude: latitude))
            }
            return Ring(offset: start, count: count, bounds: bounds)
        }

        /// `count` points of a ring, from its first.
        mutating func points(_ count: Int) -> [Point] {
            var points: [Point] = []
            points.reserveCapacity(count)
            var (longitude, latitude) = (0, 0)
            for _ in 0..<count {
                longitude += zigzag()
                latitude += zigzag()
                points.append(Self.project(longitude: longitude, latitude: latitude))
            }
            return points
        }

        /// 1e-4 degrees to the maps' units.
        static func project(longitude: Int, latitude: Int) -> Point {
            Point(x: (Double(longitude) / 10_000 + 180) * 10, y: (90 - Double(latitude) / 10_000) * 10)
        }

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() -> Int {
            var value = 0, shift = 0
            while true {
                let next = byte()
                value |= Int(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        mutating func zigzag() -> Int {
            let raw = varint()
            return raw & 1 == 0 ? raw >> 1 : -(raw >> 1) - 1
        }

        mutating func string() -> String {
            let count = varint()
            defer { offset += count }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }

        mutating func skipString() {
            offset += varint()
        }
    }
}
