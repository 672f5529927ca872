import Foundation
import TopRegionsRecords

extension HTMLPage {
    // MARK: Rising regions

    /// The regions whose photographers grew most in `window` against the window before it
    /// (`RisingRegion.Rule`): on the world map by their photographers now, then ranked with
    /// both counts and the growth. Each region leads to its photos in the window.
    /// `coverage`: what the refreshes missed of the two windows, said above the list;
    /// `noBaseline`: nothing of the window before was ever fetched (`Queries.rising(window:limit:)`).
    public static func rising(
        _ rows: [RisingRegion], window: TimeWindow?, site: Site = .files, times: TimeFormat = .utc, coverage: [String] = [],
        noBaseline: Bool = false
    ) -> [UInt8] {
        var page = Page(title: "Rising regions", site: site, feeds: [("Rising regions", site.risingFeed(window: window?.lengthText ?? "24h"))])
        let span = window.map { "in the \($0.spanWords) to \(times.string($0.end)) against the \($0.spanWords) before" } ?? "against the window before"
        let rule = "at least \(JSONWriter.format(RisingRegion.Rule.least)) times as many photographers as before, fewer than \(RisingRegion.Rule.floor) counting as \(RisingRegion.Rule.floor)"
        let noBaselineSentence = noBaseline ? window?.noBaselineSentence(times) ?? "" : ""
        page.heading("Rising regions", subtitle: rows.isEmpty && !noBaselineSentence.isEmpty
            ? "No region can be ranked: " + escape(noBaselineSentence) + "."
            : rows.isEmpty
            ? "No region rose \(escape(span)) (\(escape(rule)))."
            : "The \(rows.count == 1 ? "region" : "\(rows.count) regions") whose photographers grew most \(escape(span)) (\(escape(rule))).")
        page.coverageNotice(coverage)
        page.risingTabs(current: window?.lengthText ?? "24h")
        if !rows.isEmpty {
            page.html += worldMap(rows.map(\.region), site: site)
            // Six columns leave a region's name too little room below about 760 px:
            // there (`table.rising` in the style) each row is two lines, the name on the
            // first, the numbers under their headings on the second.
            page.html += """
                <table class="ranking rising">
                <thead><tr><th class="n">#</th><th>Region</th><th class="n">\(photographersHeading)</th><th class="n">Before</th><th class="n">Growth</th><th class="n">Photos</th></tr></thead>
                <tbody>

                """
            let regionSite = site.windowed(window?.lengthText)
            for row in rows {
                let region = row.region
                page.html += "<tr><td class=\"n\">\(region.rank)</td><td><a href=\"\(escape(regionSite.region(region.regionID)))\" dir=\"auto\">\(escape(region.name))</a></td>"
                page.html += "<td class=\"n\">\(region.photographers)</td><td class=\"n\">\(row.before)</td><td class=\"n\">\(escape(Reports.growthText(row.growth)))</td>"
                page.html += "<td class=\"n\">\(region.photos)</td></tr>\n"
            }
            page.html += "</tbody>\n</table>\n"
        }
        page.footer("A region rises on the photographers it gains, not on its size: a quiet region that fills up tops a large one that stays as it is.")
        return page.finish()
    }
}

extension HTMLPage {
    /// What the refreshes missed of a page's window, one sentence a line (none: nothing).
    public static func coverageNotice(_ sentences: [String]) -> String {
        guard !sentences.isEmpty else { return "" }
        // A command in it is one piece, never broken at its "--" at the end of a line.
        return "<div class=\"notice coverage\" role=\"note\">"
            + sentences.map {
                "<p>" + escape($0.prefix(1).uppercased() + $0.dropFirst())
                    .replacingOccurrences(of: "regions-load --refresh", with: "<code class=\"command\">regions-load --refresh</code>") + ".</p>"
            }.joined()
            + "</div>\n"
    }
}

extension HTMLPage.Page {
    /// What the refreshes missed of the page's window, one sentence a line, in a notice
    /// under the heading: counts there are missing, not zero.
    mutating func coverageNotice(_ sentences: [String]) {
        html += HTMLPage.coverageNotice(sentences)
    }

    /// The windows rising regions can be asked for, as tabs (served pages only).
    mutating func risingTabs(current: String) {
        guard site.isServed else { return }
        let tabs = [("1h", "Last hour"), ("6h", "6 hours"), ("24h", "24 hours"), ("7d", "7 days")]
        html += "<nav class=\"tabs\" aria-label=\"Against the same span before\">"
        html += tabs.map { key, label in
            key == current ? "<strong aria-current=\"page\">\(label)</strong>" : "<a href=\"\(HTMLPage.escape(site.rising(window: key)))\">\(label)</a>"
        }.joined(separator: " ")
        html += "</nav>\n"
    }
}
