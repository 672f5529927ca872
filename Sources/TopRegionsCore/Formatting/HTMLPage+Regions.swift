import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    // MARK: Top regions

    /// A world map with one marker per region (area proportional to its photographers),
    /// then the ranked list; each region links to `regionPageName(_:)` beside this page.
    /// `window`: the span of upload time the counts keep to (nil: every stored photo),
    /// said in the heading, with tabs for the others on a served page.
    /// `phrase`: how the heading says the window, when known better than the window alone
    /// says it (how many photos are stored, and since when); `coverage`: what the refreshes
    /// missed of it, said under the heading.
    public static func regions(
        _ rows: [RegionRank], site: Site = .files, window: TimeWindow? = nil, times: TimeFormat = .utc,
        phrase: String? = nil, coverage: [String] = []
    ) -> [UInt8] {
        var page = Page(title: "Top regions", site: site, feeds: [("Rising regions", site.risingFeed(window: "24h"))])
        let among = "photographers " + (phrase ?? window?.phrase(times) ?? "among the stored photos")
        page.heading("Top regions", subtitle: rows.isEmpty
            ? (window == nil ? "No region has photos yet." : "No region has photos \(window!.phrase(times)).")
            : "The \(rows.count == 1 ? "region" : "\(rows.count) regions") with the most distinct \(among), most first.")
        page.coverageNotice(coverage)
        page.windowTabs(current: window?.lengthText ?? "all") { site.top(window: $0) }
        if rows.isEmpty {
            page.html += "<p class=\"notice\">Photos get into the database with <code>flickr-recent | place-resolve | regions-load</code>.</p>\n"
        } else {
            page.html += worldMap(rows, site: site)
            page.html += ranking(rows, site: site)
        }
        if site.isServed {
            page.footer("Each region leads to its photos, 30 to a page.")
            return page.finish()
        }
        let example = rows.first.map(\.regionID) ?? "ID"
        page.footer("""
            Each region links to its own page, <code>\(escape(regionPageName(example)))</code> and so on, in the same \
            directory as this one. Make one with <code>regions-top --region \(escape(shellWord(example))) --format html \
            &gt; \(escape(regionPageName(example)))</code>; <code>regions-top --region ID --page-name</code> prints the \
            name of any region's page.
            """)
        return page.finish()
    }

    static func worldMap(_ rows: [RegionRank], site: Site = .files) -> String {
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
            svg += "<a href=\"\(escape(site.region(row.regionID)))\"><circle class=\"marker\" cx=\"\(number(projectX(row.longitude!)))\""
            svg += " cy=\"\(number(projectY(row.latitude!)))\" r=\"\(number(radius(row)))\"><title>"
            svg += "\(row.rank). \(escape(isolated(row.name))): \(count(row.photographers, "photographer")), \(count(row.photos, "photo"))"
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

    /// The ranking's "Photographers" heading, with a soft hyphen: unbroken, it was the
    /// widest word of the table at a phone's width, so the region column was left about
    /// 100 px and names broke mid-word ("Cundinamar" over "ca") to fit it (390 px).
    static let photographersHeading = "Photo&shy;graphers"

    static func ranking(_ rows: [RegionRank], site: Site = .files) -> String {
        var html = """
            <table class="ranking">
            <thead><tr><th class="n">#</th><th>Region</th><th class="n">\(photographersHeading)</th><th class="n">Photos</th></tr></thead>
            <tbody>

            """
        for row in rows {
            html += "<tr><td class=\"n\">\(row.rank)</td><td><a href=\"\(escape(site.region(row.regionID)))\" dir=\"auto\">\(escape(row.name))</a></td>"
            html += "<td class=\"n\">\(row.photographers)</td><td class=\"n\">\(row.photos)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }
}
