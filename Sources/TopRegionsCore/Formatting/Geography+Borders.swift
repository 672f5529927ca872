extension Geography {
    /// What the edges of some areas' rings are, inside a view: borders (between two areas,
    /// where another area's ring passes along them) or coasts (where none does).
    ///
    /// A map drawn over the high-resolution coasts (`Coasts`) strokes only the borders: a 1:50m
    /// coast, a kilometre or two off, would be a line across the land.
    struct Edges {
        /// The lines of the borders among the areas, each drawn once (from the area earlier in
        /// the list).
        var borders: [[Point]] = []
        /// The lines of the areas' coasts.
        var coasts: [[Point]] = []

        /// How near another area's ring a point is to be on a border with it (projected units:
        /// 0.03 degree). Natural Earth's neighbours share their borders' points exactly; DCW-GMT's
        /// subdivisions were simplified one by one (0.02 degree), so theirs differ by up to that.
        static let near = 0.3

        /// The edges of `drawn` (indices into `areas`) inside `clip`, told by how near the other
        /// `areas`' rings pass; `near` gives an area's rings near `clip` (`Edges.rings(of:near:)`,
        /// or those kept from another call).
        init(of drawn: [Int], among areas: [Area], within clip: Bounds, near: (Area) -> [[Point]]) {
            var rings: [Int: [[Point]]] = [:]
            for (index, area) in areas.enumerated() where area.bounds.intersects(clip) {
                rings[index] = near(area)
            }
            let grid = SegmentGrid(rings, cell: Self.near, within: clip)
            for index in drawn {
                for ring in rings[index] ?? [] {
                    add(ring, of: index, grid: grid, within: clip)
                }
            }
        }

        /// How near an area's ring a country border is to be the area's own (projected units:
        /// 0.06 degree), where the two come from different sources (`runs(of:along:within:)`).
        static let alongAnotherSource = 0.6

        /// The runs of `lines` (borders) whose points all lie within `alongAnotherSource` of
        /// `rings`, each a line of two points or more.
        static func runs(of lines: [[Point]], along rings: [[Point]], within clip: Bounds) -> [[Point]] {
            guard !lines.isEmpty, !rings.isEmpty else { return [] }
            let grid = SegmentGrid([0: rings], cell: alongAnotherSource, within: clip)
            var runs: [[Point]] = []
            for line in lines {
                var run: [Point] = []
                for point in line {
                    if grid.areas(near: point, within: alongAnotherSource, besides: -1).isEmpty {
                        if run.count >= 2 { runs.append(run) }
                        run = []
                    } else {
                        run.append(point)
                    }
                }
                if run.count >= 2 { runs.append(run) }
            }
            return runs
        }

        /// The rings of `area` whose boxes meet `clip`, holes too: a city inside the province
        /// around it is the province's hole.
        static func rings(of area: Area, near clip: Bounds) -> [[Point]] {
            (area.rings + area.holes).filter { $0.bounds.intersects(clip) }.map(\.points)
        }

        /// Adds `ring`'s edges inside `clip` to the borders (an edge whose ends are both near
        /// another area, drawn here when this area comes first) and the coasts (the others).
        private mutating func add(_ ring: [Point], of index: Int, grid: SegmentGrid, within clip: Bounds) {
            enum Kind { case border, coast, neither }
            let count = ring.count
            let inView = (0..<count).map { edge in
                let (a, b) = (ring[edge], ring[(edge + 1) % count])
                return Bounds(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)).intersects(clip)
            }
            // The areas near each point of an edge in view (only those: a country's ring runs on
            // far beyond a city's view).
            let neighbours = (0..<count).map { point in
                inView[point] || inView[(point - 1 + count) % count] ? grid.areas(near: ring[point], within: Self.near, besides: index) : []
            }
            func kind(_ edge: Int) -> Kind {
                guard inView[edge] else { return .neither }
                let shared = neighbours[edge].filter { neighbours[(edge + 1) % count].contains($0) }
                if shared.isEmpty { return .coast }
                return shared.contains { $0 < index } ? .neither : .border
            }
            let kinds = (0..<count).map(kind)
            // Start where the kind changes, so a line is not split where the ring closes.
            let start = (0..<count).first { kinds[$0] != kinds[($0 - 1 + count) % count] } ?? 0
            var line: [Point] = [], lineKind = Kind.neither
            func finish() {
                guard line.count >= 2 else { return }
                if lineKind == .border { borders.append(line) } else if lineKind == .coast { coasts.append(line) }
            }
            for step in 0..<count {
                let edge = (start + step) % count
                if kinds[edge] != lineKind || line.isEmpty {
                    finish()
                    (line, lineKind) = ([ring[edge]], kinds[edge])
                }
                line.append(ring[(edge + 1) % count])
            }
            finish()
        }
    }

    /// The edges of some areas' rings, by the square cells of the plane they pass through: which
    /// areas pass near a point, without measuring every edge.
    struct SegmentGrid {
        private var cells: [Int64: [(area: Int, segment: Segment)]] = [:]
        private let size: Double

        /// The edges of `rings` (by area) that pass within `size` of `clip`.
        init(_ rings: [Int: [[Point]]], cell size: Double, within clip: Bounds) {
            self.size = size
            let near = Bounds(minX: clip.minX - size, minY: clip.minY - size, maxX: clip.maxX + size, maxY: clip.maxY + size)
            for (area, areaRings) in rings {
                for ring in areaRings {
                    for index in ring.indices {
                        let (a, b) = (ring[index], ring[(index + 1) % ring.count])
                        guard Bounds(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)).intersects(near) else { continue }
                        for column in cell(min(a.x, b.x))...cell(max(a.x, b.x)) {
                            for row in cell(min(a.y, b.y))...cell(max(a.y, b.y)) {
                                cells[Self.key(column, row), default: []].append((area, Segment(a, b)))
                            }
                        }
                    }
                }
            }
        }

        private func cell(_ value: Double) -> Int { Int((value / size).rounded(.down)) }

        private static func key(_ column: Int, _ row: Int) -> Int64 { Int64(column) << 32 ^ Int64(row & 0xFFFF_FFFF) }

        /// The areas but `own` whose edges pass within `reach` (at most the cell's size) of `point`.
        func areas(near point: Point, within reach: Double, besides own: Int) -> [Int] {
            var found: [Int] = []
            for column in cell(point.x - reach)...cell(point.x + reach) {
                for row in cell(point.y - reach)...cell(point.y + reach) {
                    for (area, segment) in cells[Self.key(column, row)] ?? [] where area != own && !found.contains(area) {
                        if segment.distance2(to: point) <= reach * reach { found.append(area) }
                    }
                }
            }
            return found
        }
    }

    /// The runs of a line's edges whose boxes meet `clip` (the others left out), each a line.
    static func parts(of line: [Point], within clip: Bounds) -> [[Point]] {
        var parts: [[Point]] = [], current: [Point] = []
        for (a, b) in zip(line, line.dropFirst()) {
            if Bounds(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)).intersects(clip) {
                if current.isEmpty { current = [a] }
                current.append(b)
            } else if !current.isEmpty {
                parts.append(current)
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// `lines` simplified to `tolerance`, as an SVG path.
    static func path(ofLines lines: [[Point]], tolerance: Double) -> String {
        var path = PathText(tolerance: tolerance)
        for line in lines { path.line(simplified(line, tolerance: tolerance)) }
        return path.text
    }
}
