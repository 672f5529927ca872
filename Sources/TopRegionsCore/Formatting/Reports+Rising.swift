import Foundation
import TopRegionsRecords

/// Rising regions in each format: a region's photographers in the window, in the window
/// before, their growth (`RisingRegion.Rule`), and its photos in the window.
extension Reports {
    public static func rising(_ rows: [RisingRegion], format: ReportFormat, emphasis: Bool = false, width: Int? = nil) -> [UInt8] {
        switch format {
        case .table:
            var table = TextTable(columns: [
                .init("#", .right), .init("REGION", maxWidth: 60, shrinkable: true), .init("PHOTOGRAPHERS", .right), .init("BEFORE", .right),
                .init("GROWTH", .right), .init("PHOTOS", .right),
            ])
            for row in rows {
                table.append(["\(row.region.rank)", row.region.name, "\(row.region.photographers)", "\(row.before)", growthText(row.growth), "\(row.region.photos)"])
            }
            return Array(table.render(emphasis: emphasis, width: width).utf8)
        case .ndjson:
            var writer = JSONWriter(capacity: rows.count * 160)
            for row in rows {
                writer.object { o in
                    o.int("rank", row.region.rank)
                    o.string("region_id", row.region.regionID)
                    o.string("name", row.region.name)
                    o.int("photographers", row.region.photographers)
                    o.int("photographers_before", row.before)
                    o.double("growth", roundedGrowth(row.growth))
                    o.int("photos", row.region.photos)
                    o.double("latitude", row.region.latitude)
                    o.double("longitude", row.region.longitude)
                }
                writer.newline()
            }
            return writer.bytes
        case .csv:
            var out = "rank,region_id,name,photographers,photographers_before,growth,photos,latitude,longitude\r\n"
            for row in rows {
                let region = row.region
                out += csvLine([
                    .number("\(region.rank)"), .text(region.regionID), .text(region.name), .number("\(region.photographers)"),
                    .number("\(row.before)"), .number(JSONWriter.format(roundedGrowth(row.growth))), .number("\(region.photos)"),
                    .number(region.latitude.map(JSONWriter.format) ?? ""), .number(region.longitude.map(JSONWriter.format) ?? ""),
                ])
            }
            return Array(out.utf8)
        case .geojson:
            let features: [GeoFeature] = rows.compactMap { row in
                guard let latitude = row.region.latitude, let longitude = row.region.longitude else { return nil }
                return GeoFeature(id: row.region.regionID, longitude: longitude, latitude: latitude, properties: [
                    ("rank", .number(Int64(row.region.rank))), ("region_id", .string(row.region.regionID)), ("name", .string(row.region.name)),
                    ("photographers", .number(Int64(row.region.photographers))), ("photographers_before", .number(Int64(row.before))),
                    ("growth", .number(JSONWriter.format(roundedGrowth(row.growth)))), ("photos", .number(Int64(row.region.photos))),
                ])
            }
            return geoJSON(features)
        case .html:
            return HTMLPage.rising(rows, window: nil)
        case .atom:
            preconditionFailure("the rising feed needs its window: AtomFeed.rising")
        }
    }

    /// "×6.5": the growth, to a tenth.
    static func growthText(_ growth: Double) -> String {
        "×" + JSONWriter.format(roundedGrowth(growth))
    }

    static func roundedGrowth(_ growth: Double) -> Double {
        (growth * 10).rounded() / 10
    }
}
