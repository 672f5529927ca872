import CGeography

/// The land and rivers at a city's scale: GSHHG's high-resolution shorelines (about 200 m) cut
/// into cells of one degree, and its rivers at that resolution, for the maps whose view is a
/// couple of degrees or less, where Natural Earth's 1:50m coasts (a kilometre or two off) and
/// the low-resolution rivers show. Made by `bin/lib/make-coasts.py` and built into the program
/// (CGeography); a map reads only the cells and rivers of its view, and a program that draws
/// no such map never reads a byte of it.
enum Coasts {
    typealias Point = Geography.Point
    typealias Bounds = Geography.Bounds

    /// A cell of one degree: where its rings lie in the bytes, or all land.
    struct Cell: Sendable {
        /// Its south-west corner, whole degrees.
        let west: Int, south: Int
        /// Where its ring count is in the bytes.
        let offset: Int

        /// Its rings of land (holes included: a map fills them even-odd), in 1e-4 degree; none
        /// when the cell is all land (`isAllLand`).
        var rings: [[(longitude: Int, latitude: Int)]] {
            var reader = Geography.Reader(bytes: Coasts.bytes, offset: offset)
            return (0..<reader.varint()).map { _ in
                var (longitude, latitude) = (west * 10_000, south * 10_000)
                return (0..<reader.varint()).map { _ in
                    longitude += reader.zigzag()
                    latitude += reader.zigzag()
                    return (longitude, latitude)
                }
            }
        }

        var isAllLand: Bool {
            var reader = Geography.Reader(bytes: Coasts.bytes, offset: offset)
            return reader.varint() == 0
        }
    }

    /// The bytes, as the linker placed them: read-only for the program's life.
    nonisolated(unsafe) static let bytes = UnsafeBufferPointer(start: topregions_coasts_bytes(), count: topregions_coasts_count())

    /// How many cells hold land (the table's length, after the format's 8 bytes of magic).
    static let count: Int = {
        let magic = Array("TRCST3\n\0".utf8)
        precondition(Array(bytes.prefix(magic.count)) == magic, "the built-in coasts are not in the format this program reads")
        return Int(word(at: magic.count))
    }()

    /// How many rivers: as many as `Geography.rivers`, in the same order.
    static var riverCount: Int { Int(word(at: 12)) }

    /// Where the table of cells begins (after the magic and the two counts).
    private static let table = 16

    /// The cell whose south-west corner is at `west`, `south` (whole degrees), if it holds
    /// land: found by binary search in the file's table of keys and offsets, so a map reads a
    /// few pages of the table and its own cells' bytes, never the whole file (the pages read
    /// stay in the process's memory).
    static func cell(west: Int, south: Int) -> Cell? {
        let key = UInt32(bitPattern: Int32((south + 90) * 360 + (west + 180)))
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            let found = word(at: table + 8 * middle)
            if found == key { return Cell(west: west, south: south, offset: Int(word(at: table + 4 + 8 * middle))) }
            if Int32(bitPattern: found) < Int32(bitPattern: key) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Every cell (for the tests: it reads the whole file).
    static var allCells: [Cell] {
        (0..<count).map { index in
            let key = Int(Int32(bitPattern: word(at: table + 8 * index)))
            return Cell(west: key % 360 - 180, south: key / 360 - 90, offset: Int(word(at: table + 4 + 8 * index)))
        }
    }

    /// The points of the river `index` of `Geography.rivers` at high resolution, projected.
    static func river(_ index: Int) -> [Point] {
        var reader = Geography.Reader(bytes: bytes, offset: Int(word(at: table + 8 * count + 4 * index)))
        return reader.points(reader.varint())
    }

    /// The rivers inside `box` that reach across a fiftieth of it or more (as
    /// `Geography.rivers(within:tolerance:)` chooses them), at high resolution: only their
    /// parts inside the box cut just outside it (a river at 200 m is thousands of points
    /// beyond a city's view), simplified to `tolerance`.
    static func rivers(within box: Bounds, tolerance: Double) -> String {
        let clip = box.cut
        var path = Geography.PathText(tolerance: tolerance)
        for index in Geography.riversShown(in: box, meeting: clip) {
            for part in Geography.parts(of: river(index), within: clip) {
                path.line(Geography.simplified(part, tolerance: tolerance))
            }
        }
        return path.text
    }

    /// The little-endian 32-bit word at `offset`.
    private static func word(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The cells that meet `box` (projected units), west to east, south to north.
    static func cells(meeting box: Bounds) -> [Cell] {
        // Projected: x = (longitude + 180) × 10, y = (90 − latitude) × 10.
        let west = Int((box.minX / 10 - 180).rounded(.down)), east = Int((box.maxX / 10 - 180).rounded(.down))
        let south = Int((90 - box.maxY / 10).rounded(.down)), north = Int((90 - box.minY / 10).rounded(.down))
        var found: [Cell] = []
        for latitude in max(south, -90)...min(north, 89) {
            for longitude in max(west, -180)...min(east, 179) {
                if let cell = cell(west: longitude, south: latitude) { found.append(cell) }
            }
        }
        return found
    }

    /// The sea inside `box` (projected units) as an SVG path to fill even-odd (`sea`: the box
    /// cut just outside it, then the land's rings, its lakes' among them), and the box alone
    /// (`frame`): each cell's rings cut to the box and simplified to `tolerance` between the
    /// points where they meet the cell's sides (those stay, so neighbouring cells meet without a
    /// seam). The coasts are where the sea's fill ends, not lines: a line would draw the cells'
    /// cuts across the land too, and lines beside the fill would double a map's bytes.
    static func sea(within box: Bounds, tolerance: Double) -> (sea: String, frame: String) {
        let clip = box.cut
        var frame = Geography.PathText(tolerance: tolerance)
        frame.ring([Point(x: clip.minX, y: clip.minY), Point(x: clip.maxX, y: clip.minY), Point(x: clip.maxX, y: clip.maxY), Point(x: clip.minX, y: clip.maxY)])
        var sea = frame
        for cell in cells(meeting: clip) {
            let rings = cell.rings
            if rings.isEmpty {
                let corners = [(cell.west, cell.south), (cell.west + 1, cell.south), (cell.west + 1, cell.south + 1), (cell.west, cell.south + 1)]
                    .map { Geography.Reader.project(longitude: $0.0 * 10_000, latitude: $0.1 * 10_000) }
                sea.ring(WorldOutline.clip(corners, left: clip.minX, top: clip.minY, right: clip.maxX, bottom: clip.maxY))
                continue
            }
            let sides = (west: cell.west * 10_000, east: (cell.west + 1) * 10_000, south: cell.south * 10_000, north: (cell.south + 1) * 10_000)
            for ring in rings {
                // Most of a cell's rings lie outside a city's view: told by their box in the
                // bytes' units, before anything else is made of them.
                var (west, east) = (Int.max, Int.min), (south, north) = (Int.max, Int.min)
                for point in ring {
                    (west, east) = (min(west, point.longitude), max(east, point.longitude))
                    (south, north) = (min(south, point.latitude), max(north, point.latitude))
                }
                let southWest = Geography.Reader.project(longitude: west, latitude: south)
                let northEast = Geography.Reader.project(longitude: east, latitude: north)
                let box = Bounds(minX: southWest.x, minY: northEast.y, maxX: northEast.x, maxY: southWest.y)
                guard box.intersects(clip) else { continue }
                let onSide = ring.map { [sides.west, sides.east].contains($0.longitude) || [sides.south, sides.north].contains($0.latitude) }
                // An island smaller than the tolerance is a speck: left out (an archipelago's
                // thousands would be most of a map's bytes). Not a piece of one cut at a side:
                // the rest of it, in the next cell, may be kept.
                guard max(box.width, box.height) >= tolerance * 2 || onSide.contains(true) else { continue }
                let points = ring.map { Geography.Reader.project(longitude: $0.longitude, latitude: $0.latitude) }
                // (A piece thinner than the tolerance, cut at a side, is kept as it is: simplified
                // to a line, it would leave the next cell's piece ending at nothing.)
                let simplified = simplified(points, onSide: onSide, tolerance: tolerance)
                let kept = simplified.count < 3 ? points : simplified
                let inside = box.minX >= clip.minX && box.maxX <= clip.maxX && box.minY >= clip.minY && box.maxY <= clip.maxY
                sea.ring(inside ? kept : WorldOutline.clip(kept, left: clip.minX, top: clip.minY, right: clip.maxX, bottom: clip.maxY))
            }
        }
        return (sea.text, frame.text)
    }

    /// A ring simplified between its points on the cell's sides (kept, so neighbouring cells
    /// still meet).
    private static func simplified(_ points: [Point], onSide: [Bool], tolerance: Double) -> [Point] {
        let anchors = onSide.indices.filter { onSide[$0] }
        guard let first = anchors.first else {
            return Array(Geography.simplified(points + [points[0]], tolerance: tolerance).dropLast())
        }
        // From each point on a side to the next (around the ring), simplified with both ends kept.
        var kept: [Point] = []
        for (index, start) in anchors.enumerated() {
            let end = index + 1 < anchors.count ? anchors[index + 1] : first + points.count
            let run = (start...end).map { points[$0 % points.count] }
            kept += (end - start > 1 ? Geography.simplified(run, tolerance: tolerance) : run).dropLast()
        }
        return kept
    }
}
