import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
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

}
