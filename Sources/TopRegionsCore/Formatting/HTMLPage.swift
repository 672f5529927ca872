import Foundation
import TopRegionsRecords
import TopRegionsSupport

/// `regions-top --format html`: one self-contained page per question, for a person to open
/// in a browser. A page is a pure function of its inputs (same rows, thumbnails and cache
/// facts, same bytes), loads nothing (thumbnails are data: URIs, maps are inline SVG drawn
/// here), runs no script, and says so in its Content-Security-Policy. Everything that came
/// from Flickr (titles, descriptions, names, ids) is escaped text.
public enum HTMLPage {
    /// No script, nothing fetched: images only from data: URIs, styles only inline.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; form-action 'none'"

    /// How a page shows a time (Unix seconds); one function, so every time on a page looks alike.
    public typealias TimeFormatter = @Sendable (Int64) -> String

    // MARK: Top regions

    /// A world map with one marker per region (area proportional to its photographers),
    /// then the ranked list; each region links to `regionPageName(_:)` beside this page.
    public static func regions(_ rows: [RegionRank]) -> [UInt8] {
        var page = Page(title: "Top regions")
        page.heading("Top regions", subtitle: rows.isEmpty
            ? "No region has photos yet."
            : "The \(rows.count == 1 ? "region" : "\(rows.count) regions") with the most distinct photographers among the stored photos, most first.")
        if rows.isEmpty {
            page.html += "<p class=\"notice\">Photos get into the database with <code>flickr-recent | place-resolve | regions-load</code>.</p>\n"
        } else {
            page.html += worldMap(rows)
            page.html += ranking(rows)
        }
        let example = rows.first.map(\.regionID) ?? "ID"
        page.footer("""
            Each region links to its own page, <code>\(escape(regionPageName(example)))</code> and so on, in the same \
            directory as this one. Make one with <code>regions-top --region \(escape(shellWord(example))) --format html \
            &gt; \(escape(regionPageName(example)))</code>.
            """)
        return page.finish()
    }

    static func worldMap(_ rows: [RegionRank]) -> String {
        let placed = rows.filter { $0.latitude != nil && $0.longitude != nil }
        let most = max(placed.map(\.photographers).max() ?? 1, 1)
        // Area proportional to photographers; the smallest stay visible dots.
        func radius(_ row: RegionRank) -> Double {
            max(56 * (Double(row.photographers) / Double(most)).squareRoot(), 7)
        }
        // The inhabited latitudes (84°N to 58°S), widened to any marker beyond them.
        var top = 60.0, bottom = 1480.0
        for row in placed {
            let y = projectY(row.latitude!)
            top = min(top, y - radius(row) - 10)
            bottom = max(bottom, y + radius(row) + 10)
        }
        top = max(top, 0)
        bottom = min(bottom, Double(WorldOutline.height))
        var svg = mapOpening(
            viewBox: (0, top, Double(WorldOutline.width), bottom - top), xScale: 1, graticule: true,
            label: "World map of the top regions", extra: "")
        svg += "<g class=\"markers\">\n"
        // Largest first, so a small marker is never hidden under a large one.
        let order = placed.sorted { ($0.photographers, $1.rank) > ($1.photographers, $0.rank) }
        for row in order {
            svg += "<a href=\"\(regionPageName(row.regionID))\"><circle class=\"marker\" cx=\"\(number(projectX(row.longitude!)))\""
            svg += " cy=\"\(number(projectY(row.latitude!)))\" r=\"\(number(radius(row)))\"><title>"
            svg += "\(row.rank). \(escape(row.name)): \(count(row.photographers, "photographer")), \(count(row.photos, "photo"))"
            svg += "</title></circle></a>\n"
        }
        svg += "</g>\n</svg>\n"
        var html = "<figure class=\"map\">\n\(svg)"
        let unplaced = rows.count - placed.count
        if unplaced > 0 {
            html += "<figcaption>\(count(unplaced, "region")) without a known position \(unplaced == 1 ? "is" : "are") only in the list.</figcaption>\n"
        }
        return html + "</figure>\n"
    }

    static func ranking(_ rows: [RegionRank]) -> String {
        var html = """
            <table class="ranking">
            <thead><tr><th class="n">#</th><th>Region</th><th class="n">Photographers</th><th class="n">Photos</th></tr></thead>
            <tbody>

            """
        for row in rows {
            html += "<tr><td class=\"n\">\(row.rank)</td><td><a href=\"\(regionPageName(row.regionID))\" dir=\"auto\">\(escape(row.name))</a></td>"
            html += "<td class=\"n\">\(row.photographers)</td><td class=\"n\">\(row.photos)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    // MARK: Photos

    /// What a photo page shows above its grid.
    public enum PhotoListing: Sendable {
        /// The photos of a region (its row: name, id, totals), newest upload first.
        case region(RegionRank)
        /// Recently viewed photos, latest view first.
        case recents
        /// Every stored photo (`stored` of them), newest upload first.
        case all(stored: Int)
        /// The photos a search found (as typed), best match first; in one region or all.
        case search(query: String, region: RegionRank?)

        /// Whether a card names its photo's region: when the page is not one region's.
        var showsRegions: Bool {
            switch self {
            case .region: false
            case .recents, .all: true
            case .search(_, let region): region == nil
            }
        }
    }

    /// What the page knows about thumbnails and full photos, beyond the photos.
    public struct Images: Sendable {
        /// Stored thumbnail bytes by photo id; nil when the database has no thumbnail table.
        public var thumbnails: [String: [UInt8]]?
        /// Absolute paths of full photos the photo cache holds, by photo id.
        public var cachedFiles: [String: String]

        public init(thumbnails: [String: [UInt8]]?, cachedFiles: [String: String] = [:]) {
            self.thumbnails = thumbnails
            self.cachedFiles = cachedFiles
        }

        /// Photos whose stored thumbnail is not an image the page can show.
        public func unusableThumbnails(among photos: [StoredPhoto]) -> [String] {
            photos.compactMap { photo in
                guard let bytes = thumbnails?[photo.record.id], imageType(of: bytes) == nil else { return nil }
                return photo.record.id
            }
        }
    }

    /// A map of the photos fitted to their bounding box (the box `--format geojson` gives),
    /// then a grid of thumbnails, each linking to the full photo: the cached file when the
    /// photo cache holds it, else its page on Flickr. `sortedBy`: how the photos are ordered
    /// when not in the listing's own order ("by title"), for the heading.
    public static func photos(
        _ photos: [StoredPhoto], listing: PhotoListing, images: Images,
        formatTime: TimeFormatter = Reports.formatTime, sortedBy: String? = nil
    ) -> [UInt8] {
        var page: Page
        let fetchCommand: String
        switch listing {
        case .region(let region):
            page = Page(title: region.name)
            var subtitle = "Region \(escape(region.regionID)): \(count(region.photos, "photo")) by \(count(region.photographers, "photographer"))"
            if photos.count < region.photos { subtitle += "; the \(sortedBy == nil ? "newest" : "first") \(photos.count) here" }
            if let sortedBy { subtitle += ", \(escape(sortedBy))" }
            page.heading(escape(region.name), subtitle: subtitle + ".", headingIsText: false)
            fetchCommand = "regions-top --region \(shellWord(region.regionID)) | thumb-get"
        case .recents:
            page = Page(title: "Recently viewed")
            page.heading("Recently viewed", subtitle: photos.isEmpty
                ? "No photo has been viewed yet: <code>photo-cache ID</code> views one."
                : "\(count(photos.count, "photo")) most recently viewed through photo-cache, latest first.", headingIsText: false)
            fetchCommand = "regions-top --recents | thumb-get"
        case .all(let stored):
            page = Page(title: "All photos")
            var subtitle = stored == 0 ? "No photo is stored yet." : "\(count(stored, "photo")) stored"
            if stored > 0 {
                subtitle += photos.count < stored ? "; the \(sortedBy == nil ? "newest" : "first") \(photos.count) here" : ""
                subtitle += ", " + escape(sortedBy ?? "newest upload first") + "."
            }
            page.heading("All photos", subtitle: subtitle, headingIsText: false)
            fetchCommand = "regions-top --photos | thumb-get"
        case .search(let query, let region):
            page = Page(title: "Search: \(query)")
            var subtitle = photos.isEmpty ? "No photo matches" : "\(count(photos.count, "photo")) matching"
            subtitle += " <q>\(escape(query))</q> in title, description, photographer or region"
            if let region { subtitle += ", in <span dir=\"auto\">\(escape(region.name))</span>" }
            subtitle += ", " + escape(sortedBy ?? "best match first") + "."
            page.heading("Search: <span dir=\"auto\">\(escape(query))</span>", subtitle: subtitle, headingIsText: false)
            fetchCommand = "regions-top --search \(shellWord(query))" + (region.map { " --region \(shellWord($0.regionID))" } ?? "") + " | thumb-get"
        }

        // On a wide screen the map stays in view beside the grid; on a narrow one, above it.
        // The thumbnails in base64 are most of the page: room for them at once, not by doubling.
        let thumbnailBytes = photos.reduce(0) { $0 + (images.thumbnails?[$1.record.id]?.count ?? 0) }
        page.html.bytes.reserveCapacity(page.html.bytes.count + thumbnailBytes / 3 * 4 + photos.count * 1_024 + 64 << 10)
        let map = photoMap(photos)
        if let map { page.html += "<div class=\"split\">\n\(map)<div class=\"photos\">\n" }

        if photos.isEmpty, case .region = listing {
            page.html += "<p class=\"notice\">No photo of this region is stored (any more).</p>\n"
        }
        let withoutThumbnail = photos.filter { images.thumbnails?[$0.record.id] == nil }.count
        let unusable = images.unusableThumbnails(among: photos).count
        if images.thumbnails == nil {
            page.html += "<p class=\"notice\">This database has no thumbnail table, so every photo shows a placeholder.</p>\n"
        } else if withoutThumbnail > 0 {
            page.html += "<p class=\"notice\">\(withoutThumbnail) of \(count(photos.count, "photo")) \(withoutThumbnail == 1 ? "has" : "have") no thumbnail yet. "
            page.html += "Fetch them with <code>\(escape(fetchCommand))</code>, then make this page again.</p>\n"
        }
        if unusable > 0 {
            page.html += "<p class=\"notice\">\(unusable) stored \(unusable == 1 ? "thumbnail is" : "thumbnails are") not an image and \(unusable == 1 ? "shows" : "show") a placeholder.</p>\n"
        }

        page.html += "<ul class=\"grid\">\n"
        for photo in photos {
            card(photo, listing: listing, images: images, formatTime: formatTime, into: &page.html)
        }
        page.html += "</ul>\n"
        if map != nil { page.html += "</div>\n</div>\n" }
        page.footer("""
            A photo links to its full-size file when photo-cache holds it, else to its page on Flickr. \
            <code>photo-cache ID</code> fetches one.
            """)
        return page.finish()
    }

    /// One photo's card, appended to `html`.
    static func card(_ photo: StoredPhoto, listing: PhotoListing, images: Images, formatTime: TimeFormatter, into html: inout PageText) {
        let record = photo.record
        let title = record.title.isEmpty ? "(untitled)" : record.title
        let photographer = record.ownerName.isEmpty ? (record.owner.isEmpty ? "(unknown)" : record.owner) : record.ownerName
        let link: String
        var hover: String
        if let file = images.cachedFiles[record.id] {
            link = fileURL(file)
            hover = "Open the cached photo"
        } else {
            link = flickrPage(owner: record.owner, photoID: record.id)
            hover = "Open on Flickr"
        }
        let description = Reports.snippet(record.description)
        if !description.isEmpty { hover += ": " + description }

        html += "<li class=\"card\" id=\"photo-\(anchor(record.id))\"><a class=\"thumb\" href=\"\(escape(link))\" title=\"\(escape(hover))\">"
        if let bytes = images.thumbnails?[record.id], let type = imageType(of: bytes) {
            html += "<img src=\"data:\(type);base64,"
            base64(bytes, into: &html.bytes)
            html += "\" alt=\"\(escape(title))\" width=\"75\" height=\"75\">"
        } else {
            html += "<span class=\"placeholder\">no thumbnail</span>"
        }
        html += "</a>\n<div class=\"title\" dir=\"auto\">\(escape(title))</div>\n<div class=\"meta\" dir=\"auto\">\(escape(photographer))</div>\n"
        var times: [String] = []
        if let uploaded = record.uploaded { times.append("uploaded \(escape(formatTime(uploaded)))") }
        if case .recents = listing, let viewed = photo.viewedAt { times.insert("viewed \(escape(formatTime(viewed)))", at: 0) }
        if let region = record.region, listing.showsRegions { times.append("<span dir=\"auto\">\(escape(region))</span>") }
        if !times.isEmpty { html += "<div class=\"meta\">\(times.joined(separator: "<br>"))</div>\n" }
        html += "</li>\n"
    }

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

    // MARK: Names and links

    /// The file a region's page is expected in, beside the top-regions page that links to
    /// it: `region-<id>.html` when the id is letters, digits, '.', '-' and '_' (Flickr's place
    /// ids are), else `region-` and the id's safe file name (`SafeName`).
    public static func regionPageName(_ regionID: String) -> String {
        let plain = !regionID.isEmpty && regionID.count <= 100
            && regionID.unicodeScalars.allSatisfy { SafeName.isSafe($0) || $0 == "." }
        return "region-" + (plain ? regionID + ".html" : SafeName.fileName(for: regionID, extension: "html"))
    }

    /// The MIME type of image bytes, by their magic numbers; nil when they are no image a
    /// browser shows (the page then shows a placeholder).
    public static func imageType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        return nil
    }

    static func flickrPage(owner: String, photoID: String) -> String {
        guard !owner.isEmpty else { return "https://www.flickr.com/photo.gne?id=" + percentEncoded(photoID) }
        return "https://www.flickr.com/photos/\(percentEncoded(owner, keeping: "@"))/\(percentEncoded(photoID))"
    }

    /// A file: URL for an absolute path, every byte but unreserved ones and '/' encoded.
    static func fileURL(_ path: String) -> String {
        "file://" + percentEncoded(path, keeping: "/")
    }

    static func percentEncoded(_ text: String, keeping kept: Character? = nil) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                if let kept, kept.asciiValue == byte {
                    out.append(kept)
                } else {
                    out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }
        }
        return out
    }

    /// An element id for a photo: its safe file name without the extension.
    static func anchor(_ photoID: String) -> String {
        String(SafeName.fileName(for: photoID, extension: "x").dropLast(2))
    }

    /// A word a POSIX shell reads back as `text`: bare when plain, else single-quoted.
    static func shellWord(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ SafeName.isSafe($0) || $0 == "." || $0 == "/" || $0 == "," }) {
            return text
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Text

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 (RFC 4648, padded, one line): what `Data.base64EncodedString()` gives.
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        base64(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 of `bytes` appended to `out`, written in place (a page's thumbnails go
    /// straight into the page's bytes).
    static func base64(_ bytes: [UInt8], into out: inout [UInt8]) {
        var at = out.count
        out.append(contentsOf: repeatElement(0, count: (bytes.count + 2) / 3 * 4))
        // Unchecked buffers: the loop is a tenth of a page of thumbnails' time.
        base64Alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { bytes in
                out.withUnsafeMutableBufferPointer { out in
                    var index = 0
                    while index + 3 <= bytes.count {
                        let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                        out[at] = alphabet[Int(group >> 18)]
                        out[at + 1] = alphabet[Int(group >> 12 & 63)]
                        out[at + 2] = alphabet[Int(group >> 6 & 63)]
                        out[at + 3] = alphabet[Int(group & 63)]
                        at += 4
                        index += 3
                    }
                    let left = bytes.count - index
                    if left > 0 {
                        let group = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                        out[at] = alphabet[Int(group >> 18)]
                        out[at + 1] = alphabet[Int(group >> 12 & 63)]
                        out[at + 2] = left == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "=")
                        out[at + 3] = UInt8(ascii: "=")
                    }
                }
            }
        }
    }

    /// Text for HTML content and quoted attribute values: markup characters become
    /// references, and control characters (which HTML forbids) become U+FFFD.
    public static func escape(_ text: String) -> String {
        // Printable ASCII without a markup character, as most titles and names are, is its
        // own escape.
        let plain = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): false
            default: (0x20...0x7E).contains(byte)
            }
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\r": out += "\n"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFDD0...0xFDEF).contains(scalar.value)
                    || scalar.value & 0xFFFE == 0xFFFE {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// A coordinate with at most `places` decimals, no trailing zeros: the same number
    /// always gives the same text.
    static func number(_ value: Double, places: Int = 2) -> String {
        let scale = places == 4 ? 10_000.0 : 100.0
        let scaled = Int64((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt64(scale)
        var fraction = String(magnitude % UInt64(scale)).leftPadded(to: places)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + "\(whole)" + (fraction.isEmpty ? "" : "." + fraction)
    }

    // MARK: The page around the content

    /// A page's text as the bytes it is written as: what is appended goes in as UTF-8 at once,
    /// with no string of the whole page in between.
    struct PageText {
        var bytes: [UInt8] = []

        static func += (page: inout PageText, text: String) {
            page.bytes.append(contentsOf: text.utf8)
        }
    }

    struct Page {
        var html = PageText()

        init(title: String) {
            html += """
                <!DOCTYPE html>
                <html lang="en" dir="ltr">
                <head>
                <meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="\(HTMLPage.contentSecurityPolicy)">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="referrer" content="no-referrer">
                <title>\(HTMLPage.escape(title)) · topregions</title>
                <link rel="icon" href="data:,">
                <style>\(HTMLPage.style)</style>
                </head>
                <body>

                """
        }

        /// `heading` is plain text unless `headingIsText` is false (then already escaped).
        mutating func heading(_ heading: String, subtitle: String, headingIsText: Bool = true) {
            let text = headingIsText ? HTMLPage.escape(heading) : heading
            html += "<header>\n<h1 dir=\"auto\">\(text)</h1>\n<p class=\"sub\">\(subtitle)</p>\n</header>\n"
        }

        mutating func footer(_ note: String) {
            html += """
                <footer>
                <p>\(note)</p>
                <p>Made by regions-top. Map: \(WorldOutline.attribution) (public-domain country outlines, \
                <a href="https://www.naturalearthdata.com/">naturalearthdata.com</a>).</p>
                </footer>

                """
        }

        mutating func finish() -> [UInt8] {
            html += "</body>\n</html>\n"
            return html.bytes
        }
    }

    static let style = """

        :root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1d232a;background:#f6f4ef}
        body{margin:0 auto;max-width:1120px;padding:20px 24px}
        h1{font-size:1.6rem;margin:0 0 4px}
        .sub{color:#56616b;margin:0 0 14px}
        a{color:#1f5f99}
        figure.map{margin:0 0 18px;border:1px solid #b9c9d6;border-radius:8px;overflow:hidden;background:#cfe0ec}
        figure.map svg{display:block;width:100%;height:auto}
        .split{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,7fr);gap:18px;align-items:start}
        .split>figure.map{position:sticky;top:12px;margin:0}
        @media (max-width:760px){.split{grid-template-columns:minmax(0,1fr)}.split>figure.map{position:static}}
        .photos>.notice:first-child{margin-top:0}
        figcaption{padding:6px 10px;background:#fff;color:#56616b;font-size:.85rem}
        .sea{fill:#cfe0ec}
        .land{fill:#ebe6da;stroke:#a39e8e;stroke-width:.7px;vector-effect:non-scaling-stroke}
        .graticule{fill:none;stroke:#fff;stroke-opacity:.6;stroke-width:.6px;vector-effect:non-scaling-stroke}
        .marker,.point{fill:#d8452b;fill-opacity:.62;stroke:#7c2412;stroke-width:1px;vector-effect:non-scaling-stroke}
        .point{fill-opacity:.8}
        a:hover .marker,a:hover .point,a:focus .marker,a:focus .point{fill:#f0a020;fill-opacity:1}
        table.ranking{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.1)}
        th,td{padding:6px 12px;text-align:start;border-bottom:1px solid #ebe7de}
        th{background:#efece4;font-weight:600}
        .n{text-align:end;font-variant-numeric:tabular-nums;width:8em}
        th.n:first-child,td.n:first-child{width:3em}
        tr:hover td{background:#faf8f3}
        ul.grid{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:14px}
        .card{background:#fff;border-radius:8px;padding:8px;box-shadow:0 1px 2px rgba(0,0,0,.12);min-width:0}
        .card:target{outline:3px solid #f0a020}
        .thumb{display:block;text-decoration:none}
        .thumb img,.thumb .placeholder{display:block;width:100%;height:auto;aspect-ratio:1;object-fit:cover;border-radius:4px}
        .thumb .placeholder{display:flex;align-items:center;justify-content:center;background:repeating-linear-gradient(45deg,#eeeae1 0 8px,#e3ded3 8px 16px);color:#77715f;font-size:.8rem}
        .title{font-weight:600;margin-top:6px;overflow-wrap:anywhere}
        .meta{color:#56616b;font-size:.82rem;margin-top:2px;overflow-wrap:anywhere}
        .notice{background:#fff6d5;border:1px solid #e6d185;padding:8px 12px;border-radius:6px}
        code{background:#ebe8e0;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
        footer{color:#56616b;font-size:.85rem;margin-top:24px;border-top:1px solid #ddd8cc}

        """
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
