import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    /// The photos' points on the world outline, framed on the GeoJSON bounding box.
    static func photoMap(_ photos: [StoredPhoto]) -> String? {
        let features: [Reports.GeoFeature] = photos.compactMap { photo in
            guard let latitude = photo.record.latitude, let longitude = photo.record.longitude else { return nil }
            return Reports.GeoFeature(id: photo.record.id, longitude: longitude, latitude: latitude, properties: [])
        }
        guard let box = Reports.boundingBox(features) else { return nil }
        let (west, south, east, north) = (box[0], box[1], box[2], box[3])
        // Equirectangular, with longitudes shrunk by the cosine of the middle latitude so
        // the region keeps its shape; the view is the box widened in its short direction
        // (centred) to the map's 4:3 frame, and to at least 1 degree of latitude, so a lone
        // photo still has some land and sea around it.
        let xScale = max(cos((south + north) / 2 * .pi / 180), 0.2)
        var x = projectX(west) * xScale, y = projectY(north)
        var width = (east - west) * 10 * xScale, height = (north - south) * 10
        if 3 * width > 4 * height {
            y -= (width * 3 / 4 - height) / 2
            height = width * 3 / 4
        } else {
            x -= (height * 4 / 3 - width) / 2
            width = height * 4 / 3
        }
        if height < 10 {
            x -= (40.0 / 3 - width) / 2
            y -= (10 - height) / 2
            (width, height) = (40.0 / 3, 10)
        }
        let r = width * 0.008
        var svg = mapOpening(
            viewBox: (x, y, width, height), xScale: xScale, graticule: false, label: "Map of the photos",
            extra: " data-bbox=\"\(box.map(JSONWriter.format).joined(separator: ","))\"")
        svg += "<g class=\"points\">\n"
        for (feature, photo) in zip(features, photos.filter { $0.record.latitude != nil && $0.record.longitude != nil }) {
            let title = photo.record.title.isEmpty ? "(untitled)" : photo.record.title
            svg += "<a href=\"#photo-\(anchor(feature.id))\"><circle class=\"point\" cx=\"\(number(projectX(feature.longitude) * xScale))\""
            svg += " cy=\"\(number(projectY(feature.latitude)))\" r=\"\(number(r))\"><title>\(escape(title))</title></circle></a>\n"
        }
        svg += "</g>\n</svg>\n"
        return "<figure class=\"map\">\n\(svg)</figure>\n"
    }

    /// `<svg>` with the land (and a graticule on world maps) already drawn.
    static func mapOpening(
        viewBox: (x: Double, y: Double, width: Double, height: Double), xScale: Double, graticule: Bool,
        label: String, extra: String
    ) -> String {
        let box = [viewBox.x, viewBox.y, viewBox.width, viewBox.height].map { number($0) }.joined(separator: " ")
        var svg = "<svg viewBox=\"\(box)\" role=\"img\" aria-label=\"\(label)\"\(extra)>\n"
        svg += "<rect class=\"sea\" x=\"\(number(viewBox.x))\" y=\"\(number(viewBox.y))\" width=\"\(number(viewBox.width))\" height=\"\(number(viewBox.height))\"/>\n"
        if graticule {
            var lines = ""
            for longitude in stride(from: -150, through: 150, by: 30) {
                lines += "M\(number(projectX(Double(longitude)))) 0V\(WorldOutline.height)"
            }
            for latitude in stride(from: -60, through: 60, by: 30) {
                lines += "M0 \(number(projectY(Double(latitude))))H\(WorldOutline.width)"
            }
            svg += "<path class=\"graticule\" d=\"\(lines)\"/>\n"
        }
        let transform = xScale == 1 ? "" : " transform=\"scale(\(number(xScale, places: 4)) 1)\""
        svg += "<path class=\"land\"\(transform) d=\"\(WorldOutline.path)\"/>\n"
        return svg
    }

    static func projectX(_ longitude: Double) -> Double { (longitude + 180) * 10 }
    static func projectY(_ latitude: Double) -> Double { (90 - latitude) * 10 }
}
