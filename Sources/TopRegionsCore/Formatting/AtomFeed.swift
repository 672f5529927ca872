import Foundation
import TopRegionsRecords

/// Atom 1.0 feeds (RFC 4287), for following a region or the rising list from a feed reader:
/// a region's newest photos in a window, each entry linking to the photo's page on Flickr
/// with its title, photographer, license and thumbnail; the rising regions, each linking to
/// the region's page. Entry ids are tag URIs (RFC 4151) made of what never changes: a photo's
/// entry keeps its id forever, and a region's rising entry is updated in place.
public enum AtomFeed {
    /// What every feed says of its photos (Flickr's terms).
    public static let rights = "This product uses the Flickr API but is not endorsed or certified by SmugMug, Inc. "
        + "Each photo is its photographer's, under the license its entry names."

    /// Where a feed's links lead: absolute URLs for a served feed (`base`, the server's own
    /// address), names beside the feed for files.
    public struct Links: Sendable {
        /// The feed's own address (`rel="self"`), when it has one.
        public var feed: String?
        /// The page the feed follows (`rel="alternate"`).
        public var page: String
        /// A region's page, by its id.
        public var region: @Sendable (String) -> String

        public init(feed: String?, page: String, region: @escaping @Sendable (String) -> String) {
            self.feed = feed
            self.page = page
            self.region = region
        }

        /// A feed written as a file beside the pages (`regions-top --format html` and the
        /// export name them so): links to its list's page and its regions' pages by name.
        public static func files(_ list: PhotoList) -> Links {
            Links(feed: nil, page: Site.files.link(to: list, page: 1), region: { HTMLPage.regionPageName($0) })
        }

        /// The rising feed as a file beside the pages.
        public static let risingFiles = Links(feed: nil, page: "top-regions.html", region: { HTMLPage.regionPageName($0) })
    }

    /// The newest photos of `list` (at most 30, newest first, as `photos` are given), with
    /// the list's window in the title. `updated`: the newest upload, else the window's end.
    public static func photos(_ photos: [StoredPhoto], list: PhotoList, links: Links, now: Int64, times: TimeFormat = .utc) -> [UInt8] {
        let (what, id) = subject(list)
        let span = list.window.map { " " + $0.uploadedPhrase(times) } ?? ""
        let feed = Writer()
        feed.open(
            id: "tag:topregions,2026:\(id)\(list.window.map { "/" + canonicalLength($0) + ($0.endsNow ? "" : "/to/\($0.end)") } ?? "")",
            title: "\(what): photos\(span)", subtitle: "The newest photos on Flickr of \(what)\(span), newest first.",
            updated: photos.compactMap(\.record.uploaded).max() ?? list.window?.end ?? now, links: links)
        for photo in photos.prefix(Paging.size) {
            let record = photo.record
            let flickr = HTMLPage.flickrPage(owner: record.owner, photoID: record.id)
            let uploaded = record.uploaded ?? photo.addedAt
            // Only a web address: a record's "javascript:..." or "file:///..." went into the
            // feed as its enclosure and its summary's image, for a reader to follow.
            let thumbURL = record.thumbURL.flatMap { Self.isWebAddress($0) ? $0 : nil }
            feed.element("entry") {
                feed.text("id", "tag:topregions,2026:flickr-photo/\(record.id)")
                feed.text("title", record.title.isEmpty ? "(untitled)" : record.title)
                feed.element("author") {
                    feed.text("name", record.ownerName.isEmpty ? record.owner : record.ownerName)
                    feed.text("uri", "https://www.flickr.com/photos/\(HTMLPage.percentEncoded(record.owner))/")
                }
                feed.link(rel: "alternate", type: "text/html", href: flickr)
                if let thumb = thumbURL { feed.link(rel: "enclosure", type: "image/jpeg", href: thumb) }
                feed.text("published", timestamp(uploaded))
                feed.text("updated", timestamp(uploaded))
                if let license = record.license.map(PhotoLicense.of) { feed.text("rights", license.name) }
                var summary = ""
                if let thumb = thumbURL {
                    summary += "<p><a href=\"\(HTMLPage.escape(flickr))\"><img src=\"\(HTMLPage.escape(thumb))\" width=\"75\" height=\"75\" alt=\"\"></a></p>"
                }
                let description = Reports.snippet(record.description)
                if !description.isEmpty { summary += "<p>\(HTMLPage.escape(description))</p>" }
                summary += "<p>By \(HTMLPage.escape(record.ownerName.isEmpty ? record.owner : record.ownerName))"
                if let region = record.region { summary += ", in \(HTMLPage.escape(region))" }
                if let license = record.license.map(PhotoLicense.of) { summary += ", \(HTMLPage.escape(license.name))" }
                summary += ". <a href=\"\(HTMLPage.escape(flickr))\">On Flickr</a>.</p>"
                feed.text("summary", summary, attributes: [("type", "html")])
            }
        }
        return feed.close()
    }

    /// Whether `url` is an http or https address (the only kind the toolkit fetches).
    static func isWebAddress(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The regions rising in `window` against the window before: one entry per region, its
    /// id the region's (and the window's length), so a reader updates it in place. `notes`:
    /// what the refreshes missed of the two windows (`Coverage.sentences`, and
    /// `TimeWindow.noBaselineSentence`), said in the feed's subtitle, as the pages say them.
    ///
    /// An entry says its region's counts without the window's end, so it reads the same until
    /// they change; `changed` tells when an entry (its id, and its title and summary) was
    /// last different (a served feed remembers it), else the window's end, when a file is
    /// written. The feed's `<updated>` is its latest entry's.
    public static func rising(
        _ rows: [RisingRegion], window: TimeWindow, links: Links, times: TimeFormat = .utc, notes: [String] = [],
        changed: ((_ id: String, _ content: String) -> Int64)? = nil
    ) -> [UInt8] {
        let feed = Writer()
        let span = "in the \(window.spanWords) to \(times.string(window.end)) against the \(window.spanWords) before"
        let said = notes.map { " " + $0.prefix(1).uppercased() + $0.dropFirst() + "." }.joined()
        let entries = rows.map { row in
            let region = row.region
            let id = "tag:topregions,2026:rising/\(canonicalLength(window))/\(region.regionID)"
            let title = "\(region.name): \(region.photographers) photographers, \(row.before) before (\(Reports.growthText(row.growth)))"
            let summary = "#\(region.rank): \(region.name) had \(region.photographers) distinct photographers and \(region.photos) photos "
                + "in the last \(window.spanWords) (\(row.before) photographers in the \(window.spanWords) before)."
            return (row, id, title, summary, changed?(id, title + "\n" + summary) ?? window.end)
        }
        feed.open(
            id: "tag:topregions,2026:rising/\(canonicalLength(window))", title: "Rising regions: the last \(window.spanWords)",
            subtitle: "The regions whose photographers grew most \(span).\(said)", updated: entries.map(\.4).max() ?? window.end, links: links)
        for (row, id, title, summary, updated) in entries {
            feed.element("entry") {
                feed.text("id", id)
                feed.text("title", title)
                feed.element("author") { feed.text("name", "topregions") }
                feed.link(rel: "alternate", type: "text/html", href: links.region(row.region.regionID))
                feed.text("updated", timestamp(updated))
                feed.text("summary", summary)
            }
        }
        return feed.close()
    }

    /// A window's length as a feed id says it, whatever it was written as: "7d" for 1w and
    /// 168h alike, so one feed has one id; whole days from two on, else hours ("24h", as the
    /// tabs say it), minutes, seconds.
    static func canonicalLength(_ window: TimeWindow) -> String {
        guard let length = window.length else { return "all" }
        if length % 86_400 == 0 && length >= 2 * 86_400 { return "\(length / 86_400)d" }
        for (seconds, unit) in [(Int64(3600), "h"), (60, "m")] where length % seconds == 0 { return "\(length / seconds)\(unit)" }
        return "\(length)s"
    }

    /// The list's name and its part of a feed id.
    static func subject(_ list: PhotoList) -> (String, String) {
        switch list.kind {
        case .region(let region): (region.name, "region/\(region.regionID)")
        case .all: ("All photos", "all")
        case .recents: ("Recently viewed", "recents")
        case .search(let query, let region): ("Search: \(query.text)", "search/\(region?.regionID ?? "")/\(HTMLPage.percentEncoded(query.text))")
        }
    }

    /// RFC 3339, in UTC: "2025-11-22T08:20:00Z".
    public static func timestamp(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// An XML writer for one feed: text escaped, and characters XML 1.0 cannot carry (control
    /// characters a title from Flickr may hold) replaced by U+FFFD.
    final class Writer {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

        func open(id: String, title: String, subtitle: String, updated: Int64, links: Links) {
            xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
            text("id", id)
            text("title", title)
            text("subtitle", subtitle)
            text("updated", AtomFeed.timestamp(updated))
            if let own = links.feed { link(rel: "self", type: "application/atom+xml", href: own) }
            link(rel: "alternate", type: "text/html", href: links.page)
            text("generator", "topregions")
            text("rights", AtomFeed.rights)
        }

        func close() -> [UInt8] {
            xml += "</feed>\n"
            return Array(xml.utf8)
        }

        func element(_ name: String, _ body: () -> Void) {
            xml += "<\(name)>\n"
            body()
            xml += "</\(name)>\n"
        }

        func text(_ name: String, _ value: String, attributes: [(String, String)] = []) {
            xml += "<\(name)" + attributes.map { " \($0.0)=\"\(Writer.escape($0.1))\"" }.joined() + ">\(Writer.escape(value))</\(name)>\n"
        }

        func link(rel: String, type: String, href: String) {
            xml += "<link rel=\"\(rel)\" type=\"\(type)\" href=\"\(Writer.escape(href))\"/>\n"
        }

        static func escape(_ text: String) -> String {
            var out = ""
            out.reserveCapacity(text.utf8.count)
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
                default:
                    let value = scalar.value
                    let allowed = (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
                    out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
                }
            }
            return out
        }
    }
}
