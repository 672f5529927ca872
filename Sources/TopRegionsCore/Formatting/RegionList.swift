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
        case .ndjson:
            var writer = JSONWriter(capacity: rows.count * 128)
            for row in rows {
                writer.object { o in
                    o.string("region_id", row.regionID)
                    o.string("name", row.name)
                    o.int("photographers", row.photographers)
                    o.int("photos", row.photos)
                    o.double("latitude", row.latitude)
                    o.double("longitude", row.longitude)
                }
                writer.newline()
            }
            return writer.bytes
        case .csv:
            var out = "region_id,name,photographers,photos,latitude,longitude\r\n"
            for row in rows {
                out += csvLine([.text(row.regionID), .text(row.name), .number("\(row.photographers)"), .number("\(row.photos)"),
                                .number(row.latitude.map(JSONWriter.format) ?? ""), .number(row.longitude.map(JSONWriter.format) ?? "")])
            }
            return Array(out.utf8)
        case .geojson:
            let features: [GeoFeature] = rows.compactMap { row in
                guard let latitude = row.latitude, let longitude = row.longitude else { return nil }
                return GeoFeature(id: row.regionID, longitude: longitude, latitude: latitude, properties: [
                    ("region_id", .string(row.regionID)), ("name", .string(row.name)),
                    ("photographers", .number(Int64(row.photographers))), ("photos", .number(Int64(row.photos))),
                ])
            }
            return geoJSON(features)
        }
    }
}
