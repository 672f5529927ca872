import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    /// One photo's card, appended to `html`: its thumbnail leading to the photo, title,
    /// photographer, times, and the link back to its page on Flickr (which Flickr's terms
    /// ask of every photo shown).
    static func card(
        _ photo: StoredPhoto, list: PhotoList, images: Images, site: Site = .files, formatTime: TimeFormatter,
        snippet: String? = nil, into html: inout PageText
    ) {
        let record = photo.record
        let title = record.title.isEmpty ? "(untitled)" : record.title
        let photographer = record.ownerName.isEmpty ? (record.owner.isEmpty ? "(unknown)" : record.owner) : record.ownerName
        let flickr = flickrPage(owner: record.owner, photoID: record.id)
        let link: String
        let hover: String
        if site.isServed {
            link = site.photo(record.id)
            hover = "Open the photo"
        } else if let file = images.cachedFiles[record.id] {
            link = fileURL(file)
            hover = "Open the cached photo"
        } else {
            link = flickr
            hover = "Open on Flickr"
        }
        let description = snippet ?? Reports.snippet(record.description)

        // Written piece by piece into the page's bytes: a page's 30 cards were a seventh of
        // a served page's time as interpolated strings.
        html += "<li class=\"card\" id=\"photo-"
        html += anchor(record.id)
        html += "\"><a class=\"thumb\" href=\""
        html.escaping(link)
        html += "\" title=\""
        html += hover
        if !description.isEmpty {
            html += ": "
            html.escaping(description)
        }
        html += "\">"
        if site.isServed, record.thumbURL != nil {
            // Asked for only when it comes on screen; the server fetches it from Flickr once.
            html += "<img src=\""
            html += site.thumbnail(record.id)
            html += "\" loading=\"lazy\" alt=\""
            html.escaping(title)
            html += "\" width=\"150\" height=\"150\">"
        } else if !site.isServed, let bytes = images.thumbnails?[record.id], let type = imageType(of: bytes) {
            html += "<img src=\"data:\(type);base64,"
            base64(bytes, into: &html.bytes)
            html += "\" alt=\""
            html.escaping(title)
            html += "\" width=\"150\" height=\"150\">"
        } else {
            html += "<span class=\"placeholder\">no thumbnail</span>"
        }
        html += "</a>\n<div class=\"title\" dir=\"auto\">"
        html.escaping(title)
        html += "</div>\n<div class=\"meta\" dir=\"auto\">"
        html.escaping(photographer)
        html += "</div>\n<div class=\"meta\">"
        // The lines under the names, each after a <br> but the first.
        var lines = 0
        func line() {
            if lines > 0 { html += "<br>" }
            lines += 1
        }
        if case .recents = list.kind, let viewed = photo.viewedAt {
            line()
            html += "viewed "
            html.escaping(formatTime(viewed))
        }
        if let uploaded = record.uploaded {
            line()
            html += "uploaded "
            html.escaping(formatTime(uploaded))
        }
        if let region = record.region, list.showsRegions {
            line()
            if site.isServed, let regionID = record.regionID {
                html += "<a href=\""
                html.escaping(site.region(regionID))
                html += "\" dir=\"auto\">"
                html.escaping(region)
                html += "</a>"
            } else {
                html += "<span dir=\"auto\">"
                html.escaping(region)
                html += "</span>"
            }
        }
        line()
        html += "<a class=\"flickr\" href=\""
        html.escaping(flickr)
        html += "\">on Flickr</a>"
        if let license = record.license.map(PhotoLicense.of) {
            line()
            html += licenseHTML(license)
        }
        html += "</div>\n"
        html += "</li>\n"
    }
}

extension HTMLPage {
    /// A photo's license as a page shows it: its name, linked to its text when it has one.
    static func licenseHTML(_ license: PhotoLicense) -> String {
        guard let url = license.url else { return "<span class=\"license\">\(escape(license.name))</span>" }
        return "<a class=\"license\" rel=\"license\" href=\"\(escape(url))\">\(escape(license.name))</a>"
    }
}
