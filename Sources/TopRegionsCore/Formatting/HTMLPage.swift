import Foundation
import TopRegionsRecords
import TopRegionsSupport

/// `regions-top --format html`: one self-contained page per question, for a person to open
/// in a browser. A page is a pure function of its inputs (same rows, thumbnails and cache
/// facts, same bytes), loads nothing (thumbnails are data: URIs, maps are inline SVG drawn
/// here), runs no script, and says so in its Content-Security-Policy. Everything that came
/// from Flickr (titles, descriptions, names, ids) is escaped text.
public enum HTMLPage {
    /// A file's policy: no script, nothing fetched (images only from data: URIs), styles
    /// only inline (`Site.contentSecurityPolicy`).
    public static let contentSecurityPolicy = Site.files.contentSecurityPolicy

    /// How a page shows a time (Unix seconds); one function, so every time on a page looks alike.
    public typealias TimeFormatter = @Sendable (Int64) -> String

    /// `page` with `html` inserted after its header (a notice above the content).
    public static func inserting(_ html: String, afterHeaderOf page: [UInt8]) -> [UInt8] {
        let marker = Array("</header>\n".utf8)
        guard let end = page.indices.first(where: { page[$0...].starts(with: marker) }) else { return page }
        return Array(page[..<(end + marker.count)]) + Array(html.utf8) + Array(page[(end + marker.count)...])
    }

    // MARK: The page around the content

    /// A page's text as the bytes it is written as: what is appended goes in as UTF-8 at once,
    /// with no string of the whole page in between.
    struct PageText {
        var bytes: [UInt8] = []

        static func += (page: inout PageText, text: String) {
            page.bytes.append(contentsOf: text.utf8)
        }

        /// `HTMLPage.escape(text)` appended, with no string of it in between.
        mutating func escaping(_ text: String) {
            HTMLPage.escape(text, into: &bytes)
        }
    }

    struct Page {
        var html = PageText()

        let site: Site

        /// `reloadAfter`: seconds after which the browser loads the page again (a progress page
        /// that needs no script).
        /// `feeds`: the Atom feeds that follow what the page shows (title, address), for
        /// a browser or a feed reader to find (`<link rel="alternate">`).
        init(title: String, site: Site = .files, searchText: String = "", reloadAfter: Int? = nil, feeds: [(title: String, href: String)] = []) {
            self.site = site
            var reload = reloadAfter.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">\n" } ?? ""
            // A page written alone has no feed beside it: only served and exported pages link one.
            for feed in feeds where site.hasFeeds {
                reload += "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"\(HTMLPage.escape(feed.title))\" href=\"\(HTMLPage.escape(feed.href))\">\n"
            }
            html += """
                <!DOCTYPE html>
                <html lang="en" dir="ltr">
                <head>
                <meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="\(site.contentSecurityPolicy)">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="referrer" content="no-referrer">
                \(reload)<title>\(HTMLPage.escape(title)) · topregions</title>
                <link rel="icon" href="data:,">
                <style>\(HTMLPage.style)</style>
                </head>
                <body>
                <nav class="bar"><a href="\(site.top)">Top regions</a> <a href="\(site.all())">All photos</a> \
                <a href="\(site.recents())">Recently viewed</a>
                """
            if site.isServed {
                html += """
                    <form class="search" action="/search" method="get" role="search">\
                    <input type="search" name="q" value="\(HTMLPage.escape(searchText))" aria-label="Search the photos" \
                    placeholder="Search photos" dir="auto">\(site.window.map { "<input type=\"hidden\" name=\"window\" value=\"\(HTMLPage.escape($0))\">" } ?? "") \
                    <button>Search</button></form>
                    """
                html += site.canChange ? """
                    <form class="refresh" action="/refresh" method="post"><input type="hidden" name="token" \
                    value="\(HTMLPage.escape(site.formToken))"><button title="Fetch the latest photos from Flickr">Refresh</button></form>
                    """ : "<span class=\"hint\" title=\"This server cannot change the database\">Read-only</span>"
            }
            html += "</nav>\n"
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
                <p>This product uses the Flickr API but is not endorsed or certified by SmugMug, Inc.</p>
                <p>Made by \(site.isServed ? "regions-serve" : site.hasFeeds ? "regions-serve --export" : "regions-top"). Maps: \(WorldOutline.attribution) (public-domain coasts, \
                borders and subdivisions, <a href="https://www.naturalearthdata.com/">naturalearthdata.com</a>); \
                cities and subdivisions' names from <a href="https://www.geonames.org/">\(Geography.citiesCredit)</a> \
                (<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>); subdivisions of Argentina, China, India and Russia from DCW-GMT, lakes, rivers and (at a city's scale) coasts from GSHHG (LGPL).</p>
                </footer>

                """
        }

        /// The spans of upload time a served page can keep to, as tabs: the one shown (`current`,
        /// "all" for every stored photo) in bold, each other a link (`link`).
        mutating func windowTabs(current: String, link: (String) -> String) {
            guard site.isServed else { return }
            let tabs = [("1h", "Last hour"), ("24h", "24 hours"), ("7d", "7 days"), ("all", "All stored")]
            html += "<nav class=\"tabs\" aria-label=\"When the photos were uploaded\">"
            html += tabs.map { key, label in
                key == current
                    ? "<strong aria-current=\"page\">\(label)</strong>"
                    : "<a href=\"\(HTMLPage.escape(link(key)))\">\(label)</a>"
            }.joined(separator: " ")
            html += " <a class=\"rising\" href=\"\(HTMLPage.escape(site.rising(window: current == "all" ? "24h" : current)))\">Rising</a>"
            html += "</nav>\n"
        }

        /// Links to the pages before and after this one of a list, and where it is.
        mutating func pager(_ paging: Paging, link: (Int) -> String) {
            guard paging.pages > 1 else { return }
            html += "<nav class=\"pager\">"
            if paging.page > 1 {
                html += "<a rel=\"prev\" href=\"\(HTMLPage.escape(link(paging.page - 1)))\">← Previous</a> "
            }
            html += "<span>Page \(paging.page) of \(paging.pages)</span>"
            if paging.page < paging.pages {
                html += " <a rel=\"next\" href=\"\(HTMLPage.escape(link(paging.page + 1)))\">Next →</a>"
            }
            html += "</nav>\n"
        }

        mutating func finish() -> [UInt8] {
            html += "</body>\n</html>\n"
            return html.bytes
        }
    }

    static let style = """

        :root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1d232a;background:#f6f4ef}
        body{margin:0 auto;max-width:1120px;padding:20px 24px;overflow-wrap:anywhere}
        h1{font-size:1.6rem;margin:0 0 4px}
        .sub{color:#56616b;margin:0 0 14px}
        a{color:#1f5f99}
        figure.map{margin:0 0 18px;border:1px solid #b9c9d6;border-radius:8px;background:#cfe0ec}
        figure.map>svg,figure.map .frame>svg{border-radius:8px}
        figure.map svg{display:block;width:100%;height:auto}
        .split{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,7fr);gap:18px;align-items:start}
        .split>figure.map{position:sticky;top:12px;margin:0}
        @media (max-width:760px){.split{grid-template-columns:minmax(0,1fr)}.split>figure.map{position:static}}
        .photos>.notice:first-child{margin-top:0}
        figcaption{padding:6px 10px;background:#fff;color:#56616b;font-size:.85rem}
        .sea{fill:#cfe0ec}
        .land{fill:#ebe6da;stroke:#a39e8e;stroke-width:.7px;vector-effect:non-scaling-stroke}
        .subdivisions{fill:none;stroke:#a39e8e;stroke-width:.6px;stroke-dasharray:4 3;vector-effect:non-scaling-stroke}
        .lakes{fill:#cfe0ec;stroke:#9db8cc;stroke-width:.5px;vector-effect:non-scaling-stroke}
        .rivers{fill:none;stroke:#8fb3cf;stroke-width:1px;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
        .region{fill:#fbf8f0}
        .region-shore{fill:none;stroke:#fbf8f0;stroke-linejoin:round;stroke-linecap:round}
        .borders{fill:none;stroke:#a39e8e;stroke-width:.7px;stroke-linejoin:round;vector-effect:non-scaling-stroke}
        .outline{fill:none;stroke:#6b5f45;stroke-width:2px;stroke-linejoin:round;vector-effect:non-scaling-stroke}
        .cities circle{fill:#3b4650}
        .zoom{position:absolute;cursor:zoom-in}
        .zoom:hover,.zoom:focus{background:rgba(255,255,255,.18);outline:1px dashed #6b5f45;outline-offset:-1px}
        figure.map svg.over{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}
        figure.map svg.inset{position:absolute;right:8px;bottom:8px;width:28%;max-width:150px;border:1px solid #a39e8e;border-radius:4px;box-shadow:0 1px 3px rgba(0,0,0,.25)}
        .inset .view{fill:#d8452b;fill-opacity:.25;stroke:#d8452b;stroke-width:1.5px;vector-effect:non-scaling-stroke}
        .graticule{fill:none;stroke:#fff;stroke-opacity:.6;stroke-width:.6px;vector-effect:non-scaling-stroke}
        .marker,.point{fill:#d8452b;fill-opacity:.62;stroke:#7c2412;stroke-width:1px;vector-effect:non-scaling-stroke}
        .point{fill-opacity:.8}
        a:hover .marker,a:hover .point,a:focus .marker,a:focus .point{fill:#f0a020;fill-opacity:1}
        table.ranking{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.1)}
        th,td{padding:6px 12px;text-align:start;border-bottom:1px solid #ebe7de}
        th{background:#efece4;font-weight:600;white-space:nowrap}
        .n{text-align:end;font-variant-numeric:tabular-nums;width:8em}
        .n{overflow-wrap:normal}
        th.n:first-child,td.n:first-child{width:3em}
        tr:hover td{background:#faf8f3}
        ul.grid{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,166px));justify-content:center;gap:14px}
        .card{background:#fff;border-radius:8px;padding:8px;box-shadow:0 1px 2px rgba(0,0,0,.12);min-width:0}
        .card:target{outline:3px solid #f0a020}
        .thumb{display:block;text-decoration:none}
        .thumb img,.thumb .placeholder{display:block;width:100%;height:auto;aspect-ratio:1;object-fit:cover;border-radius:4px}
        .thumb .placeholder{display:flex;align-items:center;justify-content:center;background:repeating-linear-gradient(45deg,#eeeae1 0 8px,#e3ded3 8px 16px);color:#77715f;font-size:.8rem}
        .title{font-weight:600;margin-top:6px;overflow-wrap:anywhere}
        .meta{color:#56616b;font-size:.82rem;margin-top:2px;overflow-wrap:anywhere}
        .notice{background:#fff6d5;border:1px solid #e6d185;padding:8px 12px;border-radius:6px}
        code{background:#ebe8e0;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
        code.command{white-space:nowrap}
        footer{color:#56616b;font-size:.85rem;margin-top:24px;border-top:1px solid #ddd8cc}
        nav.bar{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;margin:0 0 14px;padding-bottom:10px;border-bottom:1px solid #ddd8cc}
        nav.bar form.search{margin-inline-start:auto;display:flex;gap:6px;min-width:0}
        nav.bar input{min-width:0;width:14em;max-width:100%;padding:4px 6px}
        .pager{margin:12px 0;display:flex;gap:14px;align-items:center;flex-wrap:wrap}
        .sort{margin:0 0 12px}
        nav.tabs{display:flex;flex-wrap:wrap;gap:4px;margin:0 0 12px}
        nav.tabs a,nav.tabs strong{padding:3px 10px;border-radius:14px;border:1px solid #cfc9bb;text-decoration:none}
        nav.tabs strong{background:#1d232a;color:#fff;border-color:#1d232a}
        h2.section{font-size:1.1rem;margin:16px 0 8px;border-bottom:1px solid #ddd8cc}
        .frame{position:relative}
        .dot{fill:#d8452b;fill-opacity:.45}
        .cluster circle{fill:#d8452b;fill-opacity:.3;stroke:#a3321d;stroke-width:1.2px;vector-effect:non-scaling-stroke}
        .cluster text{fill:#5a1a0d;font-weight:700;text-anchor:middle;dominant-baseline:central;paint-order:stroke;stroke:#fbeee9;stroke-width:.2em;stroke-linejoin:round}
        .places text{fill:#3b4650;paint-order:stroke;stroke:#f6f4ef;stroke-width:.25em;stroke-linejoin:round;text-anchor:middle;unicode-bidi:isolate}
        .pin{position:absolute;width:12px;height:12px;margin:-6px 0 0 -6px;border-radius:50%;background:#d8452b;border:2px solid #fff;box-shadow:0 0 0 1px #7c2412}
        .pin:hover,.pin:focus{background:#f0a020;z-index:2}
        .callout{display:none;position:absolute;left:14px;top:-8px;width:200px;background:#fff;color:#1d232a;padding:6px;border-radius:6px;box-shadow:0 2px 8px rgba(0,0,0,.3);font-size:.8rem;text-decoration:none}
        .pin:hover .callout,.pin:focus .callout{display:block}
        .callout img{float:left;margin:0 6px 4px 0;border-radius:3px}
        .callout b,.callout span{display:block;overflow-wrap:anywhere}
        figure.full{margin:0}
        figure.full img{display:block;max-width:100%;height:auto;border-radius:6px;background:#ebe6da}
        .description{white-space:pre-wrap;overflow-wrap:anywhere}
        form.action{margin:12px 0}
        .hint{color:#56616b;font-size:.85rem}
        @media (prefers-color-scheme:dark){
        :root{color:#e4e7ea;background:#15191d}
        .sub,.meta,.hint,footer,figcaption{color:#a3adb6}
        a{color:#8cbcea}
        figure.map{border-color:#34434f;background:#1b2935}
        .sea{fill:#1b2935}
        .land{fill:#3a372f;stroke:#807866}
        .subdivisions{stroke:#807866}
        .lakes{fill:#1b2935;stroke:#34434f}
        .rivers{stroke:#35536b}
        .region{fill:#4a463b}
        .region-shore{stroke:#4a463b}
        .borders{stroke:#807866}
        .outline{stroke:#d9cfb4}
        .cities circle{fill:#dfe4e8}
        figure.map svg.inset{border-color:#807866}
        .graticule{stroke-opacity:.15}
        .places text{fill:#dfe4e8;stroke:#15191d}
        .cluster circle{fill-opacity:.45;stroke:#f08a70}
        .cluster text{fill:#fff;stroke:#5a1a0d}
        figcaption,table.ranking,.card,.callout{background:#1f2428;color:#e4e7ea}
        th{background:#292e33}
        th,td,table.rising tr{border-bottom-color:#30363c}
        tr:hover td{background:#262b30}
        .thumb .placeholder{background:repeating-linear-gradient(45deg,#2b2e30 0 8px,#25282a 8px 16px);color:#a39d8b}
        .notice{background:#3a3318;border-color:#6e5e20}
        code{background:#2b2f34}
        footer,nav.bar,h2.section{border-color:#30363c}
        nav.tabs a{border-color:#3d444b}
        nav.tabs strong{background:#e4e7ea;color:#15191d;border-color:#e4e7ea}
        .pin{border-color:#15191d}
        figure.full img{background:#3a372f}
        }
        @media (max-width:560px){body{padding:12px 10px}th,td{padding:5px 6px}th{white-space:normal}.n{width:auto}th.n:first-child,td.n:first-child{width:auto}td a{overflow-wrap:anywhere}nav.bar form.search{margin-inline-start:0;width:100%}nav.bar input{flex:1}}
        table.rising .n{width:auto}
        @media (max-width:760px){table.rising,table.rising thead,table.rising tbody{display:block}table.rising tr{display:grid;grid-template-columns:3em repeat(4,minmax(0,1fr));border-bottom:1px solid #ebe7de}table.rising :is(th,td){border-bottom:0;width:auto;white-space:normal}table.rising th{font-size:.9em}table.rising :is(th,td):first-child{grid-row:span 2}table.rising :is(th,td):nth-child(2){grid-column:2/-1}}

        """
}
