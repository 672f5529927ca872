import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    // MARK: One photo

    /// One photo as a person views it on a served page: the full image (through the photo
    /// cache), its title, description, photographer, upload time and region, a map pin, the
    /// link to its page on Flickr, and the form that deletes it. `notice`: a line above it
    /// (already HTML), e.g. what an action just did.
    public static func photo(
        _ photo: StoredPhoto, site: Site, formatTime: TimeFormatter = Reports.formatTime, notice: String? = nil,
        places: [PlaceLabel] = []
    ) -> [UInt8] {
        let record = photo.record
        let title = record.title.isEmpty ? "(untitled)" : record.title
        let photographer = record.ownerName.isEmpty ? (record.owner.isEmpty ? "(unknown)" : record.owner) : record.ownerName
        var page = Page(title: title, site: site)
        var facts = ["by <span dir=\"auto\">\(escape(photographer))</span>"]
        if let uploaded = record.uploaded { facts.append("uploaded \(escape(formatTime(uploaded)))") }
        if let region = record.region, let regionID = record.regionID {
            facts.append("in <a href=\"\(escape(site.region(regionID)))\" dir=\"auto\">\(escape(region))</a>")
        }
        page.heading(title, subtitle: facts.joined(separator: " · "))
        if let notice { page.html += "<p class=\"notice\">\(notice)</p>\n" }
        page.html += "<div class=\"split photo-view\">\n"
        if record.photoURL != nil {
            // The column shows it at most 460 px wide: the image itself, opened alone, is the
            // full size (Flickr's 1024 px).
            page.html += "<figure class=\"full\"><a href=\"\(site.image(record.id))\" title=\"Open the full size\">"
                + "<img src=\"\(site.image(record.id))\" alt=\"\(escape(title))\"></a>"
                + "<figcaption><a href=\"\(site.image(record.id))\">Full size</a></figcaption></figure>\n"
        } else {
            page.html += "<p class=\"notice\">Flickr gave no address for this photo's full image.</p>\n"
        }
        page.html += "<div class=\"about\">\n"
        let description = Reports.plainText(record.description)
        if !description.isEmpty { page.html += "<p class=\"description\" dir=\"auto\">\(escape(description))</p>\n" }
        page.html += "<p><a class=\"flickr\" href=\"\(escape(flickrPage(owner: record.owner, photoID: record.id)))\">This photo on Flickr</a></p>\n"
        if let license = record.license.map(PhotoLicense.of) { page.html += "<p class=\"license\">\(licenseHTML(license))</p>\n" }
        if let map = locatorMap(photo, places: places, site: site) { page.html += map }
        if site.canChange { page.html += """
            <form class="action" action="\(escape(site.photo(record.id)))/delete" method="post">\
            <input type="hidden" name="token" value="\(escape(site.formToken))">\
            <button>Delete this photo</button> <span class="hint">A refresh will not bring it back.</span></form>

            """
        }
        page.html += "</div>\n</div>\n"
        page.footer("The full photo is kept in a small cache on this computer, least recently viewed out first.")
        return page.finish()
    }

    /// A short page that says what happened (an action's outcome, an error), with links on.
    public static func message(
        title: String, text: String, site: Site, status: String? = nil, extra: String = "", reloadAfter: Int? = nil
    ) -> [UInt8] {
        var page = Page(title: title, site: site, reloadAfter: reloadAfter)
        page.heading(title, subtitle: status.map(escape) ?? "")
        page.html += "<p>\(text)</p>\n\(extra)"
        page.footer("")
        return page.finish()
    }
}
