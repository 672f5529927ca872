import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    // MARK: Photos

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
    /// then a grid of thumbnails, each linking to the full photo (served: its page; files:
    /// the cached file when the photo cache holds it, else its page on Flickr) and to its
    /// page on Flickr. The list's order, when not its own, is said in the heading and kept in
    /// its links.
    ///
    /// With `paging`, `photos` are one page of a longer list (at most `Paging.size`), and
    /// `map` the whole list's (`listMap`): the map and the counts cover the whole list, the
    /// grid and the map's callouts the page. `stored`: for All, the photos stored (default:
    /// the list's total).
    public static func photos(
        _ photos: [StoredPhoto], list: PhotoList, images: Images, site: Site = .files,
        paging: Paging? = nil, map listMap: ListMap? = nil, stored: Int? = nil,
        formatTime: TimeFormatter = Reports.formatTime, times: TimeFormat = .utc
    ) -> [UInt8] {
        var (page, fetchCommand) = listHeading(photos, list: list, site: site, paging: paging, stored: stored, times: times)
        if site.isServed { sortChoice(list, site: site, into: &page.html) }

        // On a wide screen the map stays in view beside the grid; on a narrow one, above it.
        // The thumbnails in base64 are most of the page: room for them at once, not by doubling.
        let embedded = site.isServed ? nil : images.thumbnails
        let thumbnailBytes = photos.reduce(0) { $0 + (embedded?[$1.record.id]?.count ?? 0) }
        page.html.bytes.reserveCapacity(page.html.bytes.count + thumbnailBytes / 3 * 4 + photos.count * 1_024 + 64 << 10)
        // Each description's start is shown twice (the card's hover and the pin's callout): cut once.
        let snippets = photos.map { Reports.snippet($0.record.description) }
        let hasMap = photoMap(
            photos, map: listMap, site: site, snippets: snippets, zoom: (list, paging?.total ?? photos.count),
            after: "<div class=\"split\">\n", into: &page.html)
        if hasMap { page.html += "<div class=\"photos\">\n" }

        if photos.isEmpty, list.view != nil {
            page.html += "<p class=\"notice\">No photo of this list is in this part of the map.</p>\n"
        } else if photos.isEmpty, case .region = list.kind {
            page.html += "<p class=\"notice\">No photo of this region is stored (any more).</p>\n"
        }
        if !site.isServed { thumbnailNotices(photos, images: images, fetchCommand: fetchCommand, into: &page.html) }

        let pageLink = { (number: Int) in site.link(to: list, page: number) }
        if let paging { page.pager(paging, link: pageLink) }
        grid(photos, list: list, images: images, site: site, formatTime: formatTime, snippets: snippets, into: &page.html)
        if let paging { page.pager(paging, link: pageLink) }
        if site.isServed, site.canChange, case .all = list.kind {
            // Pruning starts with its preview, which changes nothing.
            page.html += """
                <form class="action" action="/prune" method="get">Forget the photos stored more than \
                <input name="older_than" value="7d" size="5" aria-label="age, with its unit (7d, 12h)"> ago \
                <button>Preview</button></form>

                """
        }
        if hasMap { page.html += "</div>\n</div>\n" }
        page.footer(site.isServed
            ? "Each photo links to its page here, with the full photo, and to its page on Flickr."
            : "A photo links to its full-size file when photo-cache holds it, else to its page on Flickr. <code>photo-cache ID</code> fetches one.")
        return page.finish()
    }

    /// The page a list of photos starts: its title, its heading with the list's totals and
    /// what this page shows of them; and the command that fetches the list's thumbnails.
    private static func listHeading(
        _ photos: [StoredPhoto], list: PhotoList, site: Site, paging: Paging?, stored: Int?, times: TimeFormat
    ) -> (Page, fetchCommand: String) {
        let sortedBy = list.order?.phrase
        var page: Page
        let fetchCommand: String
        // "the newest 30 here" or "31–60 of them here", after the list's own totals.
        func shown(_ total: Int) -> String {
            if let paging, paging.pages > 1 {
                return "; \(paging.offset + 1)–\(paging.offset + photos.count) here"
            }
            return photos.count < total ? "; the \(sortedBy == nil ? "newest" : "first") \(photos.count) here" : ""
        }
        switch list.kind {
        case .region(let region):
            page = Page(title: region.name, site: site, feeds: [("\(region.name): newest photos", site.feed(regionID: region.regionID))])
            // The id is for commands (below, and in the URL), not for a person's first line.
            var subtitle = "\(count(region.photos, "photo")) by \(count(region.photographers, "photographer"))"
            if let window = list.window { subtitle += " " + escape(window.phrase(times)) }
            if list.view != nil {
                // A zoomed map's: how many of them are in its view, and which of those here.
                let inView = paging?.total ?? photos.count
                subtitle += "; \(count(inView, "photo")) in this part of the map" + (inView > photos.count ? shown(inView) : "")
            } else {
                subtitle += shown(region.photos)
            }
            if let sortedBy { subtitle += ", \(escape(sortedBy))" }
            page.heading(escape(region.name), subtitle: subtitle + ".", headingIsText: false)
            page.windowTabs(current: list.window?.lengthText ?? "all") { site.region(region.regionID, window: $0) }
            fetchCommand = "regions-top --region \(shellWord(region.regionID)) | thumb-get"
        case .recents:
            page = Page(title: "Recently viewed", site: site)
            let total = paging?.total ?? photos.count
            page.heading("Recently viewed", subtitle: total == 0
                ? (site.isServed ? "No photo has been viewed yet: open one to see it here." : "No photo has been viewed yet: <code>photo-cache ID</code> views one.")
                : "\(count(total, "photo")) most recently viewed, latest first\(shown(total)).", headingIsText: false)
            fetchCommand = "regions-top --recents | thumb-get"
        case .all:
            let stored = stored ?? paging?.total ?? photos.count
            page = Page(title: "All photos", site: site)
            var subtitle = stored == 0 ? "No photo is stored yet." : "\(count(stored, "photo")) stored"
            if let window = list.window {
                subtitle = stored == 0 ? "No photo was \(escape(window.uploadedPhrase(times)))." : "\(count(stored, "photo")) \(escape(window.uploadedPhrase(times)))"
            }
            if stored > 0 {
                subtitle += shown(stored)
                subtitle += ", " + escape(sortedBy ?? "newest upload first") + "."
            }
            page.heading("All photos", subtitle: subtitle, headingIsText: false)
            fetchCommand = "regions-top --photos | thumb-get"
        case .search(let search, let region):
            let query = search.text
            page = Page(title: "Search: \(query)", site: site, searchText: query)
            let total = paging?.total ?? photos.count
            var subtitle = total == 0 ? "No photo matches" : "\(count(total, "photo")) matching"
            subtitle += " <q>\(escape(query))</q> in title, description, photographer or region"
            if let region { subtitle += ", in <span dir=\"auto\">\(escape(region.name))</span>" }
            if let window = list.window { subtitle += ", " + escape(window.phrase(times)) }
            // Nothing found: nothing to order.
            subtitle += total == 0 ? "." : shown(total) + ", " + escape(sortedBy ?? "best match first") + "."
            page.heading("Search: <span dir=\"auto\">\(escape(query))</span>", subtitle: subtitle, headingIsText: false)
            fetchCommand = "regions-top --search \(shellWord(query))" + (region.map { " --region \(shellWord($0.regionID))" } ?? "") + " | thumb-get"
        }
        return (page, fetchCommand)
    }

    /// What a file page says of thumbnails it lacks or cannot show, and how to fetch them.
    private static func thumbnailNotices(_ photos: [StoredPhoto], images: Images, fetchCommand: String, into html: inout PageText) {
        let withoutThumbnail = photos.filter { images.thumbnails?[$0.record.id] == nil }.count
        let unusable = images.unusableThumbnails(among: photos).count
        if images.thumbnails == nil {
            html += "<p class=\"notice\">This database has no thumbnail table, so every photo shows a placeholder.</p>\n"
        } else if withoutThumbnail > 0 {
            html += "<p class=\"notice\">\(withoutThumbnail) of \(count(photos.count, "photo")) \(withoutThumbnail == 1 ? "has" : "have") no thumbnail yet. "
            html += "Fetch them with <code>\(escape(fetchCommand))</code>, then make this page again.</p>\n"
        }
        if unusable > 0 {
            html += "<p class=\"notice\">\(unusable) stored \(unusable == 1 ? "thumbnail is" : "thumbnails are") not an image and \(unusable == 1 ? "shows" : "show") a placeholder.</p>\n"
        }
    }

    /// The photos' cards; sorted by title, under a heading for each initial (the app's
    /// section index).
    private static func grid(
        _ photos: [StoredPhoto], list: PhotoList, images: Images, site: Site, formatTime: TimeFormatter,
        snippets: [String], into html: inout PageText
    ) {
        let sort = list.order?.rawValue
        var section: String?
        html += sort == "title" ? "" : "<ul class=\"grid\">\n"
        for (index, photo) in photos.enumerated() {
            if sort == "title" {
                let initial = sectionInitial(photo.record.title)
                if initial != section {
                    if section != nil { html += "</ul>\n" }
                    html += "<h2 class=\"section\" dir=\"auto\">\(escape(initial))</h2>\n<ul class=\"grid\">\n"
                    section = initial
                }
            }
            card(photo, list: list, images: images, site: site, formatTime: formatTime, snippet: snippets[index], into: &html)
        }
        if sort != "title" || section != nil { html += "</ul>\n" }
    }

    /// The heading a photo's title goes under when a list is sorted by title: its first
    /// letter, capitals and accents aside ("É" under "E"); "#" for a digit or a sign, and
    /// "Untitled" for none.
    static func sectionInitial(_ title: String) -> String {
        guard let first = title.first(where: { !$0.isWhitespace }) else { return "Untitled" }
        let folded = String(first).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).uppercased()
        guard let letter = folded.first, letter.isLetter else { return "#" }
        return String(letter)
    }

    /// The links that order a served list another way (newest first, by title).
    static func sortChoice(_ list: PhotoList, site: Site, into html: inout PageText) {
        let choices: [(PhotoOrder?, String)]
        switch list.kind {
        case .region, .all: choices = [(nil, "Newest first"), (.title, "By title")]
        case .recents, .search: return
        }
        html += "<p class=\"sort\">"
        for (index, (order, label)) in choices.enumerated() {
            if index > 0 { html += " · " }
            if order?.rawValue == list.order?.rawValue {
                html += "<strong>\(label)</strong>"
            } else {
                html += "<a href=\"\(escape(site.link(to: list.ordered(by: order), page: 1)))\">\(label)</a>"
            }
        }
        html += "</p>\n"
    }
}
