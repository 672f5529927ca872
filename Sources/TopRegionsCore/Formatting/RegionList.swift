import TopRegionsRecords

extension Reports {
    /// `regions-top --regions`: every region, in name order. Without a format, the names
    /// alone, one per line, for shell completion, `fzf` or `grep`; with one, each region's
    /// row (id and counts, no rank). There is no page of it (regions-top refuses --format
    /// html with --regions: the top-regions page is the page of regions).
    public static func regionList(_ rows: [RegionRank], format: ReportFormat?, emphasis: Bool = false, width: Int? = nil) -> [UInt8] {
        switch format {
        case nil, .html:
            var out = ""
            for row in rows {
                // One name per line, whatever the name holds.
                out += row.name.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") + "\n"
            }
            return Array(out.utf8)
        case .table:
            var table = TextTable(columns: [
                .init("REGION", maxWidth: 60, shrinkable: true), .init("REGION ID"), .init("PHOTOGRAPHERS", .right), .init("PHOTOS", .right),
            ])
            for row in rows {
                table.append([row.name, row.regionID, "\(row.photographers)", "\(row.photos)"])
            }
            return Array(table.render(emphasis: emphasis, width: width).utf8)
        case let records?:
            return regionRecords(rows, format: records, ranked: false)
        }
    }
}
