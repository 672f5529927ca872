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
