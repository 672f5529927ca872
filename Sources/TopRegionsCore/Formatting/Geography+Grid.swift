import Foundation

extension Geography {
    /// Boxes (by their place in a list) filed under the cells of a 10° grid over the world
    /// that each overlaps, so that a map finds the few boxes near its view without looking at
    /// every one: a photo's locator map looked at all 23,000 rivers' boxes, a tenth of the
    /// server's time on photo pages.
    struct BoundsGrid: Sendable {
        /// A cell's side in projected units (10°), and the grid's columns and rows.
        static let cellSide = 100.0
        static let columns = 36, rows = 18
        /// Per cell (row × columns + column), the boxes overlapping it, ascending.
        let cells: [[Int32]]
        let count: Int

        init(_ boxes: [Bounds]) {
            var cells = [[Int32]](repeating: [], count: Self.columns * Self.rows)
            for (index, box) in boxes.enumerated() where box.minX <= box.maxX && box.minY <= box.maxY {
                for cell in Self.cells(overlapping: box) { cells[cell].append(Int32(index)) }
            }
            self.cells = cells
            count = boxes.count
        }

        /// The cells `box` overlaps; a box beyond the world's edge keeps to the edge's cells.
        static func cells(overlapping box: Bounds) -> [Int] {
            func cell(_ value: Double, _ cells: Int) -> Int { min(cells - 1, max(0, Int((value / cellSide).rounded(.down)))) }
            let (firstColumn, lastColumn) = (cell(box.minX, columns), cell(box.maxX, columns))
            let (firstRow, lastRow) = (cell(box.minY, rows), cell(box.maxY, rows))
            return (firstRow...lastRow).flatMap { row in (firstColumn...lastColumn).map { row * columns + $0 } }
        }

        /// The places of the boxes that may meet `box` (every box that does, and others near
        /// it), ascending, each once: the order of the list they index.
        func candidates(_ box: Bounds) -> [Int] {
            let near = Self.cells(overlapping: box)
            // A view of a quarter of the world or more: every box, without sorting them.
            guard near.count * 4 < cells.count else { return Array(0..<count) }
            if near.count == 1 { return cells[near[0]].map(Int.init) }
            var found: [Int32] = []
            for cell in near { found += cells[cell] }
            found.sort()
            var unique: [Int] = []
            unique.reserveCapacity(found.count)
            for index in found where Int(index) != unique.last { unique.append(Int(index)) }
            return unique
        }
    }

    /// The rivers by where they are.
    static let riverGrid = BoundsGrid(rivers.map(\.bounds))
}
