import Foundation
import TopRegionsRecords

/// The output formats of `regions-top`.
public enum ReportFormat: String, CaseIterable, Sendable {
    case table, ndjson, csv, geojson, html
    /// An Atom 1.0 feed of a list of photos (or of the rising regions): for a feed reader.
    case atom
}

/// Renders query answers in each format. Pure functions of their input, so the same rows
/// always give the same bytes.
public enum Reports {
    // MARK: Regions

    /// `width`: the columns a table must fit in (a terminal's), nil for no limit.
    public static func regions(_ rows: [RegionRank], format: ReportFormat, emphasis: Bool = false, width: Int? = nil) -> [UInt8] {
        switch format {
        case .table:
            var table = TextTable(columns: [
                .init("#", .right), .init("REGION", maxWidth: 60, shrinkable: true), .init("PHOTOGRAPHERS", .right), .init("PHOTOS", .right),
            ])
            for row in rows {
                table.append(["\(row.rank)", row.name, "\(row.photographers)", "\(row.photos)"])
            }
            return Array(table.render(emphasis: emphasis, width: width).utf8)
        case .ndjson, .csv, .geojson:
            return regionRecords(rows, format: format, ranked: true)
        case .html:
            return HTMLPage.regions(rows)
        case .atom:
            preconditionFailure("the top regions have no feed: regions-top refuses --format atom for them")
        }
    }

    /// A region listing as records (NDJSON lines, CSV rows, GeoJSON features): each row's
    /// rank first when `ranked` (the top regions), none in the list of every region.
    static func regionRecords(_ rows: [RegionRank], format: ReportFormat, ranked: Bool) -> [UInt8] {
        switch format {
        case .ndjson:
            var writer = JSONWriter(capacity: rows.count * 128)
            for row in rows {
                writer.object { o in
                    if ranked { o.int("rank", row.rank) }
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
            var out = (ranked ? "rank," : "") + "region_id,name,photographers,photos,latitude,longitude\r\n"
            for row in rows {
                let rank: [CSVField] = ranked ? [.number("\(row.rank)")] : []
                out += csvLine(rank + [.text(row.regionID), .text(row.name), .number("\(row.photographers)"), .number("\(row.photos)"),
                                       .number(row.latitude.map(JSONWriter.format) ?? ""), .number(row.longitude.map(JSONWriter.format) ?? "")])
            }
            return Array(out.utf8)
        case .geojson:
            let features: [GeoFeature] = rows.compactMap { row in
                guard let latitude = row.latitude, let longitude = row.longitude else { return nil }
                let rank: [(String, JSONValue)] = ranked ? [("rank", .number(Int64(row.rank)))] : []
                return GeoFeature(id: row.regionID, longitude: longitude, latitude: latitude, properties: rank + [
                    ("region_id", .string(row.regionID)), ("name", .string(row.name)),
                    ("photographers", .number(Int64(row.photographers))), ("photos", .number(Int64(row.photos))),
                ])
            }
            return geoJSON(features)
        case .table, .html, .atom:
            preconditionFailure("regionRecords renders records only; \(format) is the caller's")
        }
    }

    // MARK: Photos

    /// `times`: the zone table times are shown in; `width`: the columns a table must fit
    /// in (a terminal's), nil for no limit.
    public static func photos(
        _ photos: [StoredPhoto], format: ReportFormat, list: PhotoList, emphasis: Bool = false,
        times: TimeFormat = .utc, width: Int? = nil
    ) -> [UInt8] {
        switch format {
        case .table:
            func titled(_ title: String, _ zone: String?) -> String { zone.map { "\(title) (\($0))" } ?? title }
            let uploaded = times.column(photos.map(\.record.uploaded))
            let viewed = times.column(photos.map(\.viewedAt))
            var columns: [TextTable.Column] = [
                .init("ID"), .init(titled("UPLOADED", uploaded.zone)), .init("PHOTOGRAPHER", maxWidth: 24, shrinkable: true),
            ]
            if case .recents = list.kind { columns.insert(.init(titled("VIEWED", viewed.zone)), at: 1) }
            columns.append(.init("REGION", maxWidth: 28, shrinkable: true))
            columns.append(.init("TITLE", maxWidth: 48, shrinkable: true))
            var table = TextTable(columns: columns)
            for (index, photo) in photos.enumerated() {
                let record = photo.record
                var row = [record.id, uploaded.cells[index], record.ownerName.isEmpty ? record.owner : record.ownerName]
                if case .recents = list.kind { row.insert(viewed.cells[index], at: 1) }
                row.append(record.region ?? "-")
                row.append(record.title.isEmpty ? "(untitled)" : record.title)
                table.append(row)
            }
            return Array(table.render(emphasis: emphasis, width: width).utf8)
        case .ndjson:
            var writer = JSONWriter(capacity: photos.count * 512)
            for photo in photos {
                photo.record.write(to: &writer, additional: photo.viewedAt.map { [("viewed_at", .number($0))] } ?? [])
                writer.newline()
            }
            return writer.bytes
        case .csv:
            let fields = PhotoRecord.fields.filter(\.report.csv)
            var out = csvLine(fields.map { .text($0.key) } + [.text("viewed_at")])
            for photo in photos {
                out += csvLine(fields.map { field in
                    switch field.value(photo.record) {
                    case .number(let text)?: .number(text)
                    case .string(let text)?: .text(text)
                    default: .text("")
                    }
                } + [.number(photo.viewedAt.map(String.init) ?? "")])
            }
            return Array(out.utf8)
        case .geojson:
            let features: [GeoFeature] = photos.compactMap { photo in
                let r = photo.record
                guard let latitude = r.latitude, let longitude = r.longitude else { return nil }
                var properties: [(String, JSONValue)] = []
                for field in Self.geoJSONFields {
                    switch field.value(r) {
                    case .string(let text)? where field.report.geoJSONSnippet: properties.append((field.key, .string(snippet(text))))
                    case let value?: properties.append((field.key, value))
                    case nil: break
                    }
                }
                if let viewed = photo.viewedAt { properties.append(("viewed_at", .number(viewed))) }
                return GeoFeature(id: r.id, longitude: longitude, latitude: latitude, properties: properties)
            }
            return geoJSON(features)
        case .html:
            // regions-top draws its pages with HTMLPage.photos, which also gets the stored
            // thumbnails and the region's totals; from the photos alone, a page without them.
            return HTMLPage.photos(photos, list: list, images: HTMLPage.Images(thumbnails: [:]))
        case .atom:
            return AtomFeed.photos(photos, list: list, links: .files(list), now: photos.compactMap(\.record.uploaded).max() ?? 0, times: times)
        }
    }

    // MARK: Helpers

    struct GeoFeature {
        var id: String
        var longitude: Double
        var latitude: Double
        var properties: [(String, JSONValue)]
    }

    /// A FeatureCollection of points with a `bbox` that fits every point plus a margin
    /// (5% of the extent, at least 0.01°), so a map framed on it shows them all.
    static func geoJSON(_ features: [GeoFeature]) -> [UInt8] {
        var writer = JSONWriter(capacity: features.count * 256)
        writer.object { o in
            o.string("type", "FeatureCollection")
            if let box = boundingBox(features) {
                o.value("bbox", .array(box.map { .number($0) }))
            }
            o.raw("features") { bytes in
                bytes.append(UInt8(ascii: "["))
                for (index, feature) in features.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    var item = JSONWriter()
                    item.object { f in
                        f.string("type", "Feature")
                        f.string("id", feature.id)
                        f.value("geometry", .object(JSONObject([
                            ("type", .string("Point")),
                            ("coordinates", .array([.number(feature.longitude), .number(feature.latitude)])),
                        ])))
                        f.value("properties", .object(JSONObject(feature.properties.map { (key: $0.0, value: $0.1) })))
                    }
                    bytes.append(contentsOf: item.bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }
        writer.newline()
        return writer.bytes
    }

    static func boundingBox(_ features: [GeoFeature]) -> [Double]? {
        guard let first = features.first else { return nil }
        var (west, south, east, north) = (first.longitude, first.latitude, first.longitude, first.latitude)
        for feature in features.dropFirst() {
            west = min(west, feature.longitude)
            east = max(east, feature.longitude)
            south = min(south, feature.latitude)
            north = max(north, feature.latitude)
        }
        let padLongitude = max((east - west) * 0.05, 0.01)
        let padLatitude = max((north - south) * 0.05, 0.01)
        func round6(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
        return [
            round6(max(west - padLongitude, -180)), round6(max(south - padLatitude, -90)),
            round6(min(east + padLongitude, 180)), round6(min(north + padLatitude, 90)),
        ]
    }

    /// The fields a photo's GeoJSON feature shows, in their order.
    static let geoJSONFields = PhotoRecord.fields.filter { $0.report.geoJSONOrder != nil }.sorted { $0.report.geoJSONOrder! < $1.report.geoJSONOrder! }

    /// A CSV cell: text from Flickr or input, or a number the toolkit wrote.
    enum CSVField {
        case text(String)
        case number(String)
    }

    /// The characters that make a spreadsheet read a cell as a formula (OWASP, "CSV
    /// Injection"): a title such as `=HYPERLINK(...)` must stay text when the file is opened.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// RFC 4180: quote a field holding a comma, quote or line break; double inner quotes.
    /// A text cell that starts like a formula gets a leading apostrophe and is quoted, as
    /// OWASP advises; numbers (a negative longitude) are left as they are.
    static func csvLine(_ fields: [CSVField]) -> String {
        fields.map { field in
            switch field {
            case .number(let number):
                return number
            case .text(let text):
                if let first = text.unicodeScalars.first, formulaStarts.contains(Character(first)) {
                    return "\"'" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                if text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) {
                    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                return text
            }
        }.joined(separator: ",") + "\r\n"
    }

    /// "2025-11-22 23:00", in UTC (the caller says so).
    public static func formatTime(_ seconds: Int64) -> String {
        TimeFormat.utc.wallClock(seconds).text
    }
}
