import TopRegionsSupport
/// A plain-text table for terminals: columns padded to the widest cell, measured in
/// terminal cells (so "Île-de-France" and "東京都" line up).
public struct TextTable {
    public enum Alignment { case left, right }

    public struct Column {
        public var title: String
        public var alignment: Alignment
        /// Longer cells are cut with "…".
        public var maxWidth: Int?
        /// Free text that may be cut further (with "…") so the table fits a narrow terminal.
        public var shrinkable: Bool

        public init(_ title: String, _ alignment: Alignment = .left, maxWidth: Int? = nil, shrinkable: Bool = false) {
            self.title = title
            self.alignment = alignment
            self.maxWidth = maxWidth
            self.shrinkable = shrinkable
        }
    }

    public var columns: [Column]
    public var rows: [[String]] = []

    public init(columns: [Column]) {
        self.columns = columns
    }

    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The narrowest a shrinkable column gets.
    static let narrowestShrunk = 4

    /// The table as lines; the header is bold when `emphasis` is on. With a `width`, the
    /// widest shrinkable columns are cut (cells end in "…") until each line fits in it, as
    /// far as they can be; without, nothing is cut beyond the columns' own `maxWidth`.
    public func render(emphasis: Bool, width: Int? = nil) -> String {
        var cells = rows.map { row in
            row.enumerated().map { index, cell in
                let flat = Self.singleLine(cell)
                return columns[index].maxWidth.map { Self.truncate(flat, to: $0) } ?? flat
            }
        }
        var widths = columns.map { Self.displayWidth($0.title) }
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.displayWidth(cell)) }
        }
        var titles = columns.map(\.title)
        if let width {
            let natural = widths
            var total = widths.reduce(0, +) + 2 * max(0, columns.count - 1)
            while total > width {
                let candidates = columns.indices.filter { columns[$0].shrinkable && widths[$0] > Self.narrowestShrunk }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
                total -= 1
            }
            for index in columns.indices where widths[index] < natural[index] {
                titles[index] = Self.truncate(titles[index], to: widths[index])
                for row in cells.indices { cells[row][index] = Self.truncate(cells[row][index], to: widths[index]) }
            }
        }
        func line(_ row: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - Self.displayWidth(cell))
                let isLast = index == row.count - 1
                switch columns[index].alignment {
                case .left: parts.append(isLast ? cell : cell + padding)
                case .right: parts.append(padding + cell)
                }
            }
            return parts.joined(separator: "  ")
        }
        var output = line(titles)
        if emphasis { output = "\u{1B}[1m" + output + "\u{1B}[0m" }
        output += "\n"
        for row in cells { output += line(row) + "\n" }
        return output
    }

    /// Width in terminal cells: wide East Asian characters take two, combining marks none.
    public static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    /// A cell's text on one line: newlines and tabs become spaces, other control
    /// characters U+FFFD.
    static func singleLine(_ text: String) -> String {
        Terminal.printable(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
    }

    /// Cuts `text` to at most `width` cells, ending in "…" when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        let flat = singleLine(text)
        guard displayWidth(flat) > width else { return flat }
        var result = ""
        var used = 0
        for character in flat {
            let w = displayWidth(String(character))
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }
}
