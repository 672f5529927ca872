import Foundation
import Testing
@testable import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsTestSupport

/// The pages of `regions-top --format html`, as bytes: what they embed, link and escape. The
/// browser test (EndToEndTests, HTMLPagesEndToEndTests) checks what Chromium makes of them.
@Suite struct HTMLPageTests {
    static let hostileScript = "<script>alert(1)</script>"
    static let hostileAttribute = "\"><img src=x onerror=alert(1)>"
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

    static func row(_ rank: Int, _ id: String, _ name: String, _ photographers: Int, at position: (Double, Double)? = (10, 20)) -> RegionRank {
        RegionRank(
            rank: rank, regionID: id, name: name, photographers: photographers, photos: photographers * 2,
            latitude: position?.0, longitude: position?.1)
    }

    static func photo(_ id: String, title: String = "Harbour", owner: String = "12345678@N04", ownerName: String = "Jane",
                      at position: (Double, Double)? = (44.6, -63.5), uploaded: Int64 = 1_700_000_000, viewed: Int64? = nil) -> StoredPhoto {
        StoredPhoto(
            record: PhotoRecord(
                id: id, owner: owner, ownerName: ownerName, title: title, description: "<b>Bold</b> &amp; brave",
                latitude: position?.0, longitude: position?.1, uploaded: uploaded, regionID: "R1", region: "Nova Scotia, Canada"),
            addedAt: 1_700_000_100, viewedAt: viewed)
    }

    static let region = row(0, "R1.x_y-z", "Nova Scotia, Canada", 3)

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Every page

    @Test func pagesAreSelfContainedAndForbidScriptsAndRemoteLoads() {
        let pages = [
            Self.text(HTMLPage.regions([Self.row(1, "A", "Alpha", 5), Self.row(2, "B", "Beta", 2)])),
            Self.text(HTMLPage.photos(
                [Self.photo("1"), Self.photo("2")], list: PhotoList(.region(Self.region)),
                images: .init(thumbnails: ["1": Self.jpeg], cachedFiles: ["2": "/cache/2.jpg"]))),
            Self.text(HTMLPage.photos([Self.photo("1", viewed: 1_700_000_500)], list: .recents, images: .init(thumbnails: [:]))),
        ]
        for html in pages {
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">\n<head>\n<meta charset=\"utf-8\">\n"))
            #expect(html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; form-action 'none'\">"))
            #expect(!html.contains("<script"))
            #expect(!html.contains("url("))
            // Whatever the page loads comes from itself.
            #expect(PageText.attributes("src", in: html).allSatisfy { $0.hasPrefix("data:") })
            #expect(PageText.occurrences("<link ", in: html) == 1 && html.contains("<link rel=\"icon\" href=\"data:,\">"))
            #expect(html.contains("Made with Natural Earth"))
            #expect(html.hasSuffix("</body>\n</html>\n"))
        }
    }

    @Test func theSameInputGivesTheSameBytes() {
        let rows = (1...50).map { Self.row($0, "R\($0)", "Region \($0)", 100 - $0, at: (Double($0) - 25, Double($0 * 7) - 180)) }
        #expect(HTMLPage.regions(rows) == HTMLPage.regions(rows))
        let photos = (1...40).map { Self.photo("\($0)", at: (44 + Double($0) / 100, -63 - Double($0) / 50)) }
        let images = HTMLPage.Images(
            thumbnails: Dictionary(uniqueKeysWithValues: (1...20).map { ("\($0)", Self.jpeg + [UInt8($0)]) }),
            cachedFiles: ["3": "/c/3.jpg", "4": "/c/4.jpg"])
        let first = HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: images)
        #expect(first == HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: images))
        #expect(Reports.photos(photos, format: .html, list: .recents) == Reports.photos(photos, format: .html, list: .recents))
    }

    // MARK: Hostile text

    @Test func textFromFlickrIsEscapedEverywhereItAppears() {
        let hostileName = Self.hostileScript + Self.hostileAttribute + " 'quoted' & more"
        let top = Self.text(HTMLPage.regions([Self.row(1, "R1", hostileName, 3)]))
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &#39;quoted&#39; &amp; more"
        // In the list, and in the marker's hover text.
        #expect(PageText.occurrences(escaped, in: top) == 2)
        #expect(!top.contains("<img"))
        #expect(!top.contains("onerror=alert(1)>"))

        let photos = [
            Self.photo(Self.hostileAttribute, title: Self.hostileScript, owner: "o\"w<n>e r", ownerName: Self.hostileAttribute),
            Self.photo("2", title: "Title\u{0}with\u{7}controls\u{FFFE}"),
        ]
        let region = Self.row(0, "R'1 \"x\"", hostileName, 1)
        let page = Self.text(HTMLPage.photos(
            photos, list: PhotoList(.region(region)), images: .init(thumbnails: [Self.hostileAttribute: Self.jpeg])))
        #expect(!page.contains("<script"))
        #expect(PageText.occurrences("<img ", in: page) == 1)
        #expect(page.contains("<div class=\"title\" dir=\"auto\">&lt;script&gt;alert(1)&lt;/script&gt;</div>"))
        #expect(page.contains("<div class=\"meta\" dir=\"auto\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</div>"))
        #expect(page.contains("alt=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(page.contains("<h1 dir=\"auto\">\(escaped)</h1>"))
        #expect(page.contains("<title>\(escaped) · topregions</title>"))
        // Control characters HTML forbids become U+FFFD.
        #expect(page.contains("Title\u{FFFD}with\u{FFFD}controls\u{FFFD}"))
        // Ids in links are percent-encoded, in element ids made safe.
        #expect(page.contains("href=\"https://www.flickr.com/photos/o%22w%3Cn%3Ee%20r/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E\""))
        let anchors = PageText.attributes("id", in: page)
        #expect(anchors.allSatisfy { $0.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0) } })
        // The command that fetches thumbnails quotes the id for the shell.
        #expect(page.contains("<code>regions-top --region &#39;R&#39;\\&#39;&#39;1 &quot;x&quot;&#39; | thumb-get</code>"))
    }

    @Test func escapeCoversMarkupQuotesAndControls() {
        #expect(HTMLPage.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(HTMLPage.escape("tab\tline\nreturn\r\u{1B}[31m\u{85}") == "tab\tline\nreturn\n\u{FFFD}[31m\u{FFFD}")
        #expect(HTMLPage.escape("שלום עולם · Москва · 東京") == "שלום עולם · Москва · 東京")
    }

    // MARK: Top regions

    @Test func theWorldMapHasOneMarkerPerPlacedRegionSizedByPhotographers() {
        let rows = [
            Self.row(1, "A", "Alpha", 100, at: (48.85, 2.35)), Self.row(2, "B", "Beta", 25, at: (-33.9, 151.2)),
            Self.row(3, "C", "Gamma", 1, at: nil), Self.row(4, "D", "Delta", 1, at: (0, 0)),
        ]
        let html = Self.text(HTMLPage.regions(rows))
        #expect(PageText.occurrences("<circle class=\"marker\"", in: html) == 3)
        #expect(PageText.occurrences("<tr><td class=\"n\">", in: html) == 4)
        // Largest first; area proportional to photographers (radius 56 for the most, half for a quarter of them).
        // The name is isolated (U+2068 … U+2069), so a right-to-left name leaves the counts in their order.
        #expect(html.contains("<a href=\"region-A.html\"><circle class=\"marker\" cx=\"1823.5\" cy=\"411.5\" r=\"56\"><title>1. \u{2068}Alpha\u{2069}: 100 photographers, 200 photos</title></circle></a>"))
        #expect(html.contains("<circle class=\"marker\" cx=\"3312\" cy=\"1239\" r=\"28\">"))
        // The smallest stay visible.
        #expect(html.contains("<circle class=\"marker\" cx=\"1800\" cy=\"900\" r=\"7\">"))
        #expect(html.range(of: "region-A.html\"><circle")!.lowerBound < html.range(of: "region-B.html\"><circle")!.lowerBound)
        #expect(html.contains("<figcaption>1 region without a known position is only in the list.</figcaption>"))
        #expect(html.contains("<td><a href=\"region-C.html\" dir=\"auto\">Gamma</a></td><td class=\"n\">1</td><td class=\"n\">2</td>"))
        #expect(html.contains("<svg viewBox=\"0 60 3600 1420\""))
        #expect(html.contains("<path class=\"land\" d=\"M"))
    }

    @Test func anEmptyDatabaseSaysHowPhotosGetThere() {
        let html = Self.text(HTMLPage.regions([]))
        #expect(html.contains("No region has photos yet."))
        #expect(html.contains("<code>flickr-recent | place-resolve | regions-load</code>"))
        #expect(!html.contains("<svg"))

        let region = Self.text(HTMLPage.photos([], list: PhotoList(.region(Self.region)), images: .init(thumbnails: [:])))
        #expect(region.contains("<p class=\"notice\">No photo of this region is stored (any more).</p>"))
        #expect(!region.contains("<svg") && !region.contains("no thumbnail yet"))
    }

    @Test func regionPagesAreNamedAfterTheirIdSafely() {
        #expect(HTMLPage.regionPageName("R061.TguWePmt") == "region-R061.TguWePmt.html")
        #expect(HTMLPage.regionPageName("kH8dLOubBZRvX_YZ") == "region-kH8dLOubBZRvX_YZ.html")
        let hostile = HTMLPage.regionPageName("../../etc/passwd")
        #expect(hostile.hasPrefix("region-") && hostile.hasSuffix(".html") && !hostile.contains("/"))
        #expect(HTMLPage.regionPageName("a b") != HTMLPage.regionPageName("a_b"))
    }

    // MARK: Photo pages

    @Test func theRegionMapIsFramedOnTheGeoJSONBoundingBox() throws {
        let photos = [
            Self.photo("1", at: (44.0, -64.0)), Self.photo("2", at: (45.0, -61.0)), Self.photo("3", at: (44.5, -62.5)),
            Self.photo("4", at: nil),
        ]
        let html = Self.text(HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: .init(thumbnails: [:])))
        let geojson = try #require(try JSONSerialization.jsonObject(with: Data(Reports.photos(photos, format: .geojson, list: PhotoList(.region(Self.region))))) as? [String: Any])
        let bbox = try #require(geojson["bbox"] as? [Double])
        #expect(bbox == [-64.15, 43.95, -60.85, 45.05])
        #expect(PageText.attributes("data-bbox", in: html) == ["-64.15,43.95,-60.85,45.05"])
        // 3.3 degrees wide at 44.5 degrees north is 23.54 units, 1.1 degrees tall is 11: made 4:3 around the box.
        #expect(html.contains("<svg viewBox=\"826.3 446.17 23.54 17.65\""))
        #expect(html.contains("<path class=\"land\" transform=\"scale(0.7133 1)\""))
        // Each photo a dot, and a pin over the map (in percent of its frame) leading to its card.
        #expect(PageText.occurrences("<circle class=\"dot\"", in: html) == 3)
        #expect(PageText.occurrences("<a class=\"pin\"", in: html) == 3)
        #expect(html.contains("<a class=\"pin\" href=\"#photo-2\" style=\"left:"))
    }

    /// A lone photo's map spans 0.3 degree of latitude (about 33 km: a city and around it),
    /// as does a city's whose photos lie closer together.
    @Test func aLonePhotoGetsAtLeastAThirdOfADegreeOfMap() {
        let html = Self.text(HTMLPage.photos([Self.photo("1", at: (0, 0))], list: .recents, images: .init(thumbnails: [:])))
        #expect(PageText.attributes("data-bbox", in: html) == ["-0.01,-0.01,0.01,0.01"])
        #expect(html.contains("<svg viewBox=\"1798 898.5 4 3\""))
    }

    /// The points of a path written as the maps write them: each ring an absolute `M x y`,
    /// then `l` with relative pairs, closed by `z`.
    static func absolutePoints(ofPath path: String) -> [WorldOutline.Point] {
        var points: [WorldOutline.Point] = []
        for ring in path.split(separator: "M") {
            let numbers = ring.replacingOccurrences(of: "z", with: " ").replacingOccurrences(of: "l", with: " ")
                .replacingOccurrences(of: "-", with: " -").split(separator: " ").compactMap { Double($0) }
            guard numbers.count >= 2 else { continue }
            var current = WorldOutline.Point(x: numbers[0], y: numbers[1])
            points.append(current)
            for pair in stride(from: 2, to: numbers.count - 1, by: 2) {
                current = WorldOutline.Point(x: current.x + numbers[pair], y: current.y + numbers[pair + 1])
                points.append(current)
            }
        }
        return points
    }

    /// The world maps (the top page's, a list's spread over continents) are drawn from the
    /// 1:50m countries: islands a 1:110m outline leaves out are land on them, and the open
    /// sea beside them is not.
    @Test func theWorldOutlineHasTheIslandsOfA50mMap() {
        func onLand(_ latitude: Double, _ longitude: Double) -> Bool {
            let point = Geography.Point(x: (longitude + 180) * 10, y: (90 - latitude) * 10)
            return WorldOutline.rings.contains { Geography.Area.ring($0, contains: point) }
        }
        let islands = [
            ("Mallorca", 39.6, 2.95), ("Tenerife", 28.27, -16.6), ("Skye", 57.3, -6.2), ("Rhodes", 36.2, 28.0),
            ("Zanzibar", -6.1, 39.35), ("Gotland", 57.45, 18.5), ("Okinawa", 26.5, 127.95), ("Mauritius", -20.25, 57.55),
        ]
        for (name, latitude, longitude) in islands {
            #expect(onLand(latitude, longitude), "\(name) is not on the world map")
        }
        #expect(!onLand(40.5, 4.5) && !onLand(29.5, -19.0), "open sea drawn as land")
    }

    /// A region's map carries the land of its view, not the whole world's: rings outside
    /// it left out, rings across its edge cut just outside it. (A view of 2 degrees or more,
    /// drawn from the 1:50m countries; `ShoreMapTests` for a city's.)
    @Test func aRegionsMapCarriesOnlyTheLandInView() throws {
        #expect(WorldOutline.rings.count == 691 && WorldOutline.rings.map(\.count).reduce(0, +) == 12236, "as the generator says")
        let html = Self.text(HTMLPage.photos([Self.photo("1", at: (44.0, -63.5)), Self.photo("2", at: (46.5, -62.0))],
                                             list: PhotoList(.region(Self.region)), images: .init(thumbnails: [:])))
        let land = try #require(html.components(separatedBy: "<path class=\"land\"").dropFirst().first?.components(separatedBy: " d=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(!land.isEmpty && land.count * 20 < WorldOutline.path.count, "\(land.count) bytes of land")
        // Every point within the view widened by 5%.
        let viewBox = try #require(PageText.attributes("viewBox", in: html).first).split(separator: " ").compactMap { Double($0) }
        let xScale = cos((44.0 + 46.5) / 2 * Double.pi / 180)
        let points = Self.absolutePoints(ofPath: String(land))
        #expect(points.count > 20)
        let margin = viewBox[3] * 4 / 3 / xScale * 0.05 + 0.01
        for point in points {
            #expect(point.x >= viewBox[0] / xScale - margin && point.x <= (viewBox[0] + viewBox[2]) / xScale + margin)
            #expect(point.y >= viewBox[1] - margin && point.y <= viewBox[1] + viewBox[3] + margin)
        }
        // Mid-Pacific: no land at all.
        #expect(WorldOutline.path(within: (x: 400, y: 900, width: 40, height: 30)).isEmpty)
        // A square across the edge, cut to it.
        let square = [WorldOutline.Point(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 0, y: 10)]
        #expect(WorldOutline.clip(square, left: 5, top: -1, right: 20, bottom: 20)
            == [.init(x: 5, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 5, y: 10)])
    }

    /// Many photos at one spot are one counted disc, not a blot of dots: a spot's photos
    /// and those near it under one number; discs never overlap; fewer photos stay dots.
    @Test func manyPhotosAtOneSpotAreOneCountedCluster() throws {
        let points = [
            HTMLPage.MapPoint(latitude: 44.0, longitude: -63.0, photos: 40),
            HTMLPage.MapPoint(latitude: 44.0, longitude: -63.0, photos: 5),  // the same spot
            HTMLPage.MapPoint(latitude: 44.03, longitude: -63.0, photos: 3),  // under its disc
            HTMLPage.MapPoint(latitude: 45.0, longitude: -61.0, photos: 12),
            HTMLPage.MapPoint(latitude: 44.5, longitude: -62.0, photos: 9),  // too few: a dot
            HTMLPage.MapPoint(latitude: 44.7, longitude: -61.5, photos: 1),
        ]
        let svg = try #require(HTMLPage.listMap(of: points)).drawing
        let clusters = svg.components(separatedBy: "<g class=\"cluster\">").dropFirst()
        #expect(clusters.map { String($0.dropFirst("<title>".count).prefix { $0 != "<" }) } == ["48 photos", "12 photos"])
        #expect(clusters.map { String($0.components(separatedBy: "\">").last!.prefix { $0 != "<" }) } == ["48", "12"])
        #expect(PageText.occurrences("<circle class=\"dot\"", in: svg) == 2)
        let discs = clusters.map { cluster in ["cx", "cy", "r"].map { Double(PageText.attributes($0, in: cluster)[0])! } }
        let (dx, dy) = (discs[0][0] - discs[1][0], discs[0][1] - discs[1][1])
        #expect((dx * dx + dy * dy).squareRoot() >= discs[0][2] + discs[1][2])
        // A disc that would overlap a bigger one joins it instead.
        let close = [HTMLPage.MapPoint(latitude: 44.0, longitude: -63.0, photos: 400), HTMLPage.MapPoint(latitude: 44.06, longitude: -63.0, photos: 20),
                     HTMLPage.MapPoint(latitude: 46.0, longitude: -60.0, photos: 1)]
        let joined = try #require(HTMLPage.listMap(of: close)).drawing
        #expect(PageText.occurrences("<g class=\"cluster\">", in: joined) == 1 && joined.contains("<title>420 photos</title>"))
    }

    /// On the world's map a city's photos are counted where they are: a spot further from a
    /// bigger disc than a dot's reach is a disc of its own, as large as fits beside it.
    /// Regression: Saint Petersburg's 362 photos and Cairo's 75 were counted in a disc of 945
    /// on Krasnodar, 1,650 km away.
    @Test func aCitysPhotosAreCountedWhereTheyAreOnTheWorldsMap() throws {
        let points = [
            HTMLPage.MapPoint(latitude: 45.04, longitude: 38.98, photos: 500),  // Krasnodar
            HTMLPage.MapPoint(latitude: 59.94, longitude: 30.31, photos: 400),  // Saint Petersburg
            HTMLPage.MapPoint(latitude: 30.04, longitude: 31.24, photos: 75),  // Cairo
            HTMLPage.MapPoint(latitude: -36.85, longitude: 174.76, photos: 80),  // Auckland: the world in view
            HTMLPage.MapPoint(latitude: 40.71, longitude: -74.0, photos: 30),  // New York
        ]
        let svg = try #require(HTMLPage.listMap(of: points)).drawing
        let clusters = svg.components(separatedBy: "<g class=\"cluster\">").dropFirst()
        #expect(Set(clusters.map { String($0.dropFirst("<title>".count).prefix { $0 != "<" }) })
            == ["500 photos", "400 photos", "75 photos", "80 photos", "30 photos"])
        let discs = clusters.map { cluster in ["cx", "cy", "r"].map { Double(PageText.attributes($0, in: cluster)[0])! } }
        for (i, a) in discs.enumerated() {
            for b in discs[(i + 1)...] {
                let (dx, dy) = (a[0] - b[0], a[1] - b[1])
                #expect((dx * dx + dy * dy).squareRoot() >= a[2] + b[2] - 1e-6, "discs overlap: \(a) \(b)")
            }
        }
        // Each disc whole in the frame. Regression: Auckland's, by 180 degrees, was cut in half.
        let box = try #require(PageText.attributes("viewBox", in: svg).first).split(separator: " ").map { Double($0)! }
        for disc in discs {
            #expect(disc[0] - disc[2] >= box[0] - 0.01 && disc[0] + disc[2] <= box[0] + box[2] + 0.01, "\(disc) in \(box)")
            #expect(disc[1] - disc[2] >= box[1] - 0.01 && disc[1] + disc[2] <= box[1] + box[3] + 0.01, "\(disc) in \(box)")
        }
        #expect(abs(box[2] * 3 - box[3] * 4) < 0.1)
    }

    /// The page's pins lie under the map's counted clusters and names (an `<svg>` of their
    /// own, laid over the frame, that takes no clicks): a pin on a cluster's spot or a city
    /// no longer hides its number or its name, and still answers a click. No name covers a
    /// cluster's number either.
    @Test func pinsLieUnderTheClustersAndNames() throws {
        // Halifax between the other photos, so that its name has room on either side.
        let points = [
            HTMLPage.MapPoint(latitude: 44.65, longitude: -63.57, photos: 40), HTMLPage.MapPoint(latitude: 45.0, longitude: -62.0, photos: 1),
            HTMLPage.MapPoint(latitude: 44.4, longitude: -65.0, photos: 1),
        ]
        let map = try #require(HTMLPage.listMap(of: points, outline: true))
        let html = try #require(HTMLPage.photoMap([Self.photo("1", at: (44.65, -63.57))], map: map, site: .served(formToken: "t")))
        let base = try #require(html.components(separatedBy: "</svg>").first)
        let pins = try #require(html.range(of: "<a class=\"pin\""))
        let over = try #require(html.range(of: "<svg class=\"over\""))
        #expect(pins.lowerBound < over.lowerBound)
        #expect(!base.contains("class=\"cluster\"") && !base.contains("class=\"places\"") && base.contains("class=\"dot\""))
        let overlay = String(html[over.lowerBound...]).components(separatedBy: "</svg>")[0]
        #expect(overlay.contains("<g class=\"cluster\">") && overlay.contains(">\u{2068}Halifax\u{2069}</text>"))
        // Halifax's name, whose dot is under the cluster, goes above the disc, not over its number.
        let disc = try ["cy", "r"].map { try #require(Double(PageText.attributes($0, in: overlay.components(separatedBy: "<g class=\"cluster\">")[1])[0])) }
        let halifax = try #require(overlay.components(separatedBy: ">\u{2068}Halifax\u{2069}</text>")[0].components(separatedBy: "<text").last)
        let baseline = try #require(Double(PageText.attributes("y", in: halifax)[0]))
        #expect(baseline <= disc[0] - disc[1])
        #expect(try #require(PageText.attributes("viewBox", in: overlay).first) == PageText.attributes("viewBox", in: base).first)
        #expect(HTMLPage.style.contains("figure.map svg.over{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}"))
    }

    /// A photo's page shows the land around it (3 degrees of latitude, its coasts, borders and
    /// cities), its country in a corner with that view marked (a locator map), and where that
    /// is in words.
    @Test func aPhotosPageHasALocatorMapWithItsCountryInACorner() throws {
        // Bedford, on the bay north of Halifax, Nova Scotia: a town of its own, but Halifax
        // (10 km away, 20 times its people) is how a person says where it is.
        let html = Self.text(HTMLPage.photo(Self.photo("1", at: (44.73, -63.66)), site: .served(formToken: "t")))
        let viewBox = try #require(PageText.attributes("viewBox", in: html).first).split(separator: " ").compactMap { Double($0) }
        // 3 degrees of latitude, 4:3, centred on the photo (longitudes scaled by cos 44.73°).
        #expect(viewBox.count == 4 && viewBox[3] == 30 && abs(viewBox[2] - 40) < 0.01)
        let xScale = cos(44.73 * Double.pi / 180)
        #expect(abs((viewBox[0] + viewBox[2] / 2) / xScale - 1163.4) < 0.1 && abs(viewBox[1] + viewBox[3] / 2 - 452.7) < 0.1)
        #expect(html.contains("<figcaption dir=\"auto\">Near Halifax · Nova Scotia, Canada</figcaption>"))
        #expect(html.contains(">\u{2068}Halifax\u{2069}</text>"))
        // The inset: Canada, with the same view marked on it, in the inset's own scale.
        let inset = try #require(html.components(separatedBy: "<svg class=\"inset\"").dropFirst().first)
        #expect(inset.contains("aria-label=\"Where the map lies in Canada\""))
        let insetScale = try #require(Double(PageText.attributes("transform", in: inset)[0].dropFirst("scale(".count).prefix { $0 != " " }))
        let view = try #require(inset.components(separatedBy: "<rect class=\"view\"").dropFirst().first)
        let number = { (name: String) in Double(PageText.attributes(name, in: view)[0])! }
        #expect(abs((number("x") + number("width") / 2) / insetScale - 1163.4) < 0.1 && abs(number("y") + number("height") / 2 - 452.7) < 0.1)
        #expect(PageText.occurrences("<a class=\"pin\"", in: html) == 1)
        // A list's map has no inset.
        let list = Self.text(HTMLPage.photos([Self.photo("1")], list: .recents, images: .init(thumbnails: [:])))
        #expect(!list.contains("<svg class=\"inset\""))
    }

    @Test func thumbnailsAreEmbeddedByTypeAndMissingOnesArePlaceholdersWithTheFetchCommand() {
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0]
        let photos = ["jpeg", "png", "gif", "corrupt", "missing", "empty"].map { Self.photo($0) }
        let images = HTMLPage.Images(thumbnails: [
            "jpeg": Self.jpeg, "png": Self.png, "gif": gif, "corrupt": Array("<html>not an image</html>".utf8), "empty": [],
        ])
        #expect(images.unusableThumbnails(among: photos) == ["corrupt", "empty"])
        let html = Self.text(HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: images))
        #expect(PageText.attributes("src", in: html) == [
            "data:image/jpeg;base64,\(Data(Self.jpeg).base64EncodedString())",
            "data:image/png;base64,\(Data(Self.png).base64EncodedString())",
            "data:image/gif;base64,\(Data(gif).base64EncodedString())",
        ])
        #expect(PageText.occurrences("<span class=\"placeholder\">no thumbnail</span>", in: html) == 3)
        #expect(html.contains("1 of 6 photos has no thumbnail yet. Fetch them with <code>regions-top --region R1.x_y-z | thumb-get</code>, then make this page again."))
        #expect(html.contains("2 stored thumbnails are not an image and show a placeholder."))

        let recents = Self.text(HTMLPage.photos([Self.photo("1", viewed: 1)], list: .recents, images: .init(thumbnails: [:])))
        #expect(recents.contains("Fetch them with <code>regions-top --recents | thumb-get</code>"))
    }

    @Test func withoutAThumbnailTableEveryPhotoIsAPlaceholder() {
        let html = Self.text(HTMLPage.photos([Self.photo("1"), Self.photo("2")], list: PhotoList(.region(Self.region)), images: .init(thumbnails: nil)))
        #expect(html.contains("This database has no thumbnail table, so every photo shows a placeholder."))
        #expect(PageText.occurrences("<span class=\"placeholder\">", in: html) == 2)
        #expect(!html.contains("<img"))
    }

    @Test func photosLinkToTheCachedFileElseToFlickr() {
        let photos = [Self.photo("111"), Self.photo("222", owner: "98765432@N01"), Self.photo("333", owner: "")]
        let images = HTMLPage.Images(thumbnails: [:], cachedFiles: ["111": "/home/ann/.cache/top regions/Zürich/111.jpg"])
        let html = Self.text(HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: images))
        // The photo's link, then the link to its page on Flickr that every photo shown has.
        #expect(PageText.attributes("href", in: html).filter { !$0.hasPrefix("#") && !$0.hasPrefix("data:") && !$0.hasPrefix("https://www.naturalearthdata")
            && !$0.hasPrefix("https://www.geonames.org") && !$0.hasPrefix("https://creativecommons.org") && !$0.hasSuffix(".html") } == [
            "file:///home/ann/.cache/top%20regions/Z%C3%BCrich/111.jpg", "https://www.flickr.com/photos/12345678@N04/111",
            "https://www.flickr.com/photos/98765432@N01/222", "https://www.flickr.com/photos/98765432@N01/222",
            "https://www.flickr.com/photo.gne?id=333", "https://www.flickr.com/photo.gne?id=333",
        ])
        #expect(html.contains("title=\"Open the cached photo: Bold &amp; brave\""))
        #expect(html.contains("title=\"Open on Flickr: Bold &amp; brave\""))
    }

    @Test func cardsShowTitlePhotographerAndTimesThroughTheGivenFormatter() {
        let photos = [
            Self.photo("1", title: "", ownerName: "", uploaded: 100, viewed: 200),
            Self.photo("2", title: "تل أبيب", ownerName: "דוד", uploaded: 300),
        ]
        let html = Self.text(HTMLPage.photos(photos, list: .recents, images: .init(thumbnails: [:]), formatTime: { "t\($0)" }))
        #expect(html.contains("<div class=\"title\" dir=\"auto\">(untitled)</div>\n<div class=\"meta\" dir=\"auto\">12345678@N04</div>\n<div class=\"meta\">viewed t200<br>uploaded t100<br><span dir=\"auto\">Nova Scotia, Canada</span><br><a class=\"flickr\" href=\"https://www.flickr.com/photos/12345678@N04/1\">on Flickr</a></div>"))
        #expect(html.contains("<div class=\"title\" dir=\"auto\">تل أبيب</div>\n<div class=\"meta\" dir=\"auto\">דוד</div>\n<div class=\"meta\">uploaded t300<br>"))

        let region = Self.text(HTMLPage.photos(photos, list: PhotoList(.region(Self.region)), images: .init(thumbnails: [:]), formatTime: { "t\($0)" }))
        #expect(region.contains("<div class=\"meta\">uploaded t100<br><a class=\"flickr\""))
        #expect(!region.contains("viewed t"))
        // Regression: the first line began with the raw id ("Region R1.x_y-z: ...").
        #expect(region.contains("<p class=\"sub\">6 photos by 3 photographers; the newest 2 here.</p>"))
    }

    @Test func numbersAreWrittenTheSameWayEveryTime() {
        #expect(HTMLPage.number(1823.5) == "1823.5")
        #expect(HTMLPage.number(-0.004) == "0")
        #expect(HTMLPage.number(-12.345) == "-12.35" || HTMLPage.number(-12.345) == "-12.34")
        #expect(HTMLPage.number(0.71325, places: 4) == "0.7133" || HTMLPage.number(0.71325, places: 4) == "0.7132")
        #expect(HTMLPage.number(3600) == "3600")
    }
}
