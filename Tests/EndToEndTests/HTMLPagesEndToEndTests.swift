import Foundation
import Testing
import TopRegionsTestSupport

/// `regions-top --format html` as built: exit statuses and stderr on bad input, links to the
/// photo cache, and, in Chromium with the network off, the pages a person opens.
@Suite struct HTMLPagesEndToEndTests {
    static let hostileScript = "<script>alert(1)</script>"
    static let hostileAttribute = "\"><img src=x onerror=alert(1)>"
    static let fixture = Tools.fixtures.appendingPathComponent("photos.ndjson").path
    /// A JPEG's first bytes: enough for the page to embed it (the browser test decodes real ones).
    static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9]

    static func lines(_ ndjson: String) -> [[String: Any]] {
        ndjson.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    func loadedFixture() throws -> (TemporaryDirectory, [String: String], String) {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let load = try Tools.run("regions-load", ["--db", db, "-q", Self.fixture], environment: environment)
        #expect(load.status == 0)
        return (scratch, environment, db)
    }

    /// A right-to-left override in a region's name ends with the name wherever the name is
    /// shown, also in the map's hover text (an SVG <title>, which cannot carry dir="auto"):
    /// the counts after it read in their own order (issue 26.10).
    @Test func aRightToLeftOverrideInANameEndsWithTheName() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let name = "Evil\u{202E}Name, Place"
        let record = #"{"id":"5","owner":"1@N01","title":"t","latitude":10,"longitude":20,"uploaded":1,"region_id":"R-rlo","region":"\#(name)"}"#
        #expect(try Tools.run("regions-load", ["--db", db, "-q"], input: Array((record + "\n").utf8), environment: environment).status == 0)
        let page = try Tools.run("regions-top", ["--db", db, "--format", "html"], environment: environment).stdout
        #expect(page.contains("<title>1. \u{2068}\(name)\u{2069}: 1 photographer, 1 photo</title>"))
        // The table cell isolates it with dir="auto".
        #expect(page.contains("dir=\"auto\">\(name)</a>"))
    }

    // MARK: Bad input

    @Test func anUnknownRegionStillExits66() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let run = try Tools.run("regions-top", ["--db", db, "--region", "Nowhere", "--format", "html"], environment: environment)
        #expect(run.status == 66)
        #expect(run.stdout == "")
        #expect(run.stderr == "regions-top: no region named \"Nowhere\" (regions-top --regions lists every region)\n")
    }

    @Test func corruptThumbnailsAndAMissingThumbnailTableStillRenderAndSaySo() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let region = "R001.iRFHXRzZ"
        let ids = Self.lines(try Tools.run("regions-top", ["--db", db, "--region", region], environment: environment).stdout)
            .map { $0["id"] as! String }
        #expect(ids.count == 79)
        // Through the sqlite3 shell, as someone poking at the file would.
        func sql(_ statements: String) throws {
            let run = try Tools.run("/usr/bin/sqlite3", [db, statements], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
        }
        func blob(_ bytes: [UInt8]) -> String { "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'" }
        try sql([(ids[0], Self.jpegStart), (ids[1], Array("<html>503</html>".utf8)), (ids[2], [])].map {
            "INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES ('\($0.0)', \(blob($0.1)), 0);"
        }.joined())
        let page = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html"], environment: environment)
        #expect(page.status == 0)
        #expect(page.stderr == "regions-top: 2 stored thumbnails are not an image (photo \(ids[1]), \(ids[2])); the page shows placeholders\n")
        #expect(PageText.occurrences("<img ", in: page.stdout) == 1)
        #expect(page.stdout.contains("<img src=\"data:image/jpeg;base64,\(Data(Self.jpegStart).base64EncodedString())\""))
        // The first page of 30: one shows its thumbnail, two have unusable ones, 27 none yet.
        #expect(PageText.occurrences("<span class=\"placeholder\">no thumbnail</span>", in: page.stdout) == 29)
        #expect(page.stdout.contains("27 of 30 photos have no thumbnail yet. Fetch them with <code>regions-top --region R001.iRFHXRzZ | thumb-get</code>"))

        try sql("DROP TABLE thumbnail")
        let bare = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html"], environment: environment)
        #expect(bare.status == 0)
        #expect(bare.stderr == "regions-top: the database has no thumbnail table; the page shows placeholders\n")
        #expect(PageText.occurrences("<img ", in: bare.stdout) == 0)
        #expect(PageText.occurrences("<span class=\"placeholder\">no thumbnail</span>", in: bare.stdout) == 30)
    }

    // MARK: Pages and links

    /// Flickr's terms: at most 30 photos on a page. A region of 79 is three pages, each
    /// linking to the ones before and after by the file names the rule gives; its count
    /// and its map cover all 79.
    @Test func aLongListIsWrittenThirtyPhotosToAPage() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let region = "R001.iRFHXRzZ"
        let ids = Self.lines(try Tools.run("regions-top", ["--db", db, "--region", region], environment: environment).stdout).map { $0["id"] as! String }
        #expect(ids.count == 79)
        var shown: [String] = []
        for number in 1...3 {
            let run = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html", "--page", "\(number)"], environment: environment)
            #expect(run.status == 0)
            let cards = run.stdout.components(separatedBy: "<li class=\"card\" id=\"photo-").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            #expect(cards.count == (number < 3 ? 30 : 19))
            shown += cards
            #expect(run.stdout.contains("79 photos by") && run.stdout.contains("\((number - 1) * 30 + 1)–\((number - 1) * 30 + cards.count) here"))
            #expect(run.stdout.contains("rel=\"prev\" href=\"\(number == 2 ? "region-\(region).html" : "region-\(region)+2.html")\"") == (number > 1))
            #expect(run.stdout.contains("rel=\"next\" href=\"region-\(region)+\(number + 1).html\"") == (number < 3))
            let name = try Tools.run("regions-top", ["--db", db, "--region", region, "--page", "\(number)", "--page-name"], environment: environment)
            #expect(name.stdout == (number == 1 ? "region-\(region).html\n" : "region-\(region)+\(number).html\n"))
        }
        #expect(shown == ids)
        let beyond = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html", "--page", "4"], environment: environment)
        #expect(beyond.status == 66 && beyond.stdout == "" && beyond.stderr == "regions-top: --page 4: the list has 3 pages of 30 photos\n")
        let notHTML = try Tools.run("regions-top", ["--db", db, "--region", region, "--page", "2"], environment: environment)
        #expect(notHTML.status == 64)
    }

    /// A region's page has one file name, the one the top page links to: region-ID.html
    /// for an id of letters, digits, '.', '-' and '_' (Flickr's; regions-load refuses any
    /// other), with a hash for a long one. --page-name prints it, for a region named by id or
    /// name, and the other pages' names; the top page's footer says so (issue 26.12).
    @Test func pageNamePrintsTheFileTheTopPageLinksTo() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let ids = ["R061.TguWePmt", "x-_.y", ".E5rP.6CGy4E0vRbeE", String(repeating: "x", count: 120)]
        let records = ids.enumerated().map { index, id in
            String(decoding: try! JSONSerialization.data(withJSONObject: [
                "id": "\(index + 1)", "owner": "\(index)@N01", "region_id": id, "region": "Region \(index)",
                "latitude": 10.0 + Double(index), "longitude": 20.0,
            ]), as: UTF8.self)
        }
        let load = try Tools.run("regions-load", ["--db", db, "-q"], input: Array((records.joined(separator: "\n") + "\n").utf8), environment: environment)
        try #require(load.status == 0, "\(load.stderr)")
        func run(_ arguments: [String]) throws -> RunResult {
            try Tools.run("regions-top", ["--db", db] + arguments, environment: environment)
        }
        let top = try run(["--format", "html"])
        let links = top.stdout.components(separatedBy: "<td><a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links.count == 4 && links[0] == "region-R061.TguWePmt.html" && links[3].hasPrefix("region-" + ids[3].prefix(100) + "-"))
        #expect(links[1] == "region-x-_.y.html" && links[2] == "region-.E5rP.6CGy4E0vRbeE.html")
        for (index, id) in ids.enumerated() {
            for named in [id, "Region \(index)", "region \(index)"] {
                let name = try run(["--region", named, "--page-name"])
                #expect(name.status == 0 && name.stderr == "", "\(named): \(name.stderr)")
                #expect(name.stdout == links[index] + "\n", "\(named)")
            }
        }
        #expect(try run(["--page-name"]).stdout == "top-regions.html\n")
        #expect(try run(["--recents", "--page-name"]).stdout == "recents.html\n")
        #expect(try run(["--photos", "--page-name", "--format", "html"]).stdout == "all.html\n")
        let search = try run(["--search", "x", "--page-name"])
        #expect(search.status == 64 && search.stdout == "")
        #expect(search.stderr.hasPrefix("regions-top: --page-name: no page links to a search's page; name its file yourself"), "\(search.stderr)")
        let csv = try run(["--page-name", "--format", "csv"])
        #expect(csv.status == 64 && csv.stderr.hasPrefix("regions-top: --page-name names the --format html page; leave out --format csv"), "\(csv.stderr)")
        let unknown = try run(["--region", "nowhere", "--page-name"])
        #expect(unknown.status == 66 && unknown.stdout == "")
        // Never a refresh: the name of a database's page needs no photos.
        let missing = try Tools.run("regions-top", ["--db", scratch.file("none.db"), "--page-name"], environment: environment.merging(["FLICKR_API_KEY": "k"]) { $1 })
        #expect(missing.status == 0 && missing.stdout == "top-regions.html\n" && missing.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("none.db")))

        // The footer's command writes the first region's page under its link's name, and
        // says how to name any other.
        #expect(top.stdout.contains("<code>regions-top --region R061.TguWePmt --format html &gt; region-R061.TguWePmt.html</code>"))
        #expect(top.stdout.contains("<code>regions-top --region ID --page-name</code>"), "\(top.stdout.suffix(900))")
    }

    @Test func pagesAreTheSameBytesEveryRunAndLinkEachRegionToItsPage() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let first = try Tools.run("regions-top", ["--db", db, "--limit", "5", "--format", "html"], environment: environment)
        let second = try Tools.run("regions-top", ["--db", db, "--limit", "5", "--format", "html"], environment: environment)
        #expect(first.status == 0 && first.stderr == "")
        #expect(first.stdoutBytes == second.stdoutBytes)
        let ids = Self.lines(try Tools.run("regions-top", ["--db", db, "--limit", "5"], environment: environment).stdout)
            .map { $0["region_id"] as! String }
        let links = first.stdout.components(separatedBy: "<td><a href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(links == ids.map { "region-\($0).html"[...] })
        #expect(PageText.occurrences("<circle class=\"marker\"", in: first.stdout) == 5)
        #expect(first.stdout.contains("<code>regions-top --region \(ids[0]) --format html &gt; region-\(ids[0]).html</code>"))

        // The fixture's regions have no centre from Flickr: a marker sits at the mean of the
        // region's newest 20 photos (a bounded read, whatever the region's size).
        for id in ids.prefix(2) {
            let photos = Self.lines(try Tools.run("regions-top", ["--db", db, "--region", id], environment: environment).stdout)
            let newest = photos.prefix(20)
            let longitude = newest.map { $0["longitude"] as! Double }.reduce(0, +) / Double(newest.count)
            let latitude = newest.map { $0["latitude"] as! Double }.reduce(0, +) / Double(newest.count)
            let marker = try #require(first.stdout.components(separatedBy: "<a href=\"region-\(id).html\"><circle class=\"marker\" cx=\"").dropFirst().first)
            let cx = Double(marker.prefix { $0 != "\"" })!
            let cy = Double(marker.components(separatedBy: "cy=\"")[1].prefix { $0 != "\"" })!
            #expect(abs(cx - (longitude + 180) * 10) < 0.006 && abs(cy - (90 - latitude) * 10) < 0.006, "\(id): \(cx), \(cy)")
        }
        #expect(Self.lines(try Tools.run("regions-top", ["--db", db, "--region", ids[0]], environment: environment).stdout).count > 20)
    }

    @Test func photosLinkToTheirCachedFileOnlyWhenTheCacheHoldsIt() throws {
        let (scratch, environment, db) = try loadedFixture()
        let region = "R001.iRFHXRzZ"
        let ids = Self.lines(try Tools.run("regions-top", ["--db", db, "--region", region], environment: environment).stdout)
            .map { ($0["id"] as! String, $0["owner"] as! String) }
        let cache = scratch.file("my cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: cache + "/\(ids[1].0).topregions.jpg"))
        // A file the cache would not have written, though named like the photo: not linked.
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: cache + "/\(ids[2].0).jpg"))
        let fileLink = "href=\"file://\(cache.replacingOccurrences(of: " ", with: "%20"))/\(ids[1].0).topregions.jpg\""

        for arguments in [["--cache-dir", cache], []] {
            let env = arguments.isEmpty ? environment.merging(["TOPREGIONS_CACHE": cache]) { $1 } : environment
            let page = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html"] + arguments, environment: env)
            #expect(page.status == 0 && page.stderr == "")
            #expect(PageText.occurrences("href=\"file://", in: page.stdout) == 1)
            #expect(page.stdout.contains(fileLink))
            #expect(page.stdout.contains("href=\"https://www.flickr.com/photos/\(ids[0].1)/\(ids[0].0)\""))
            // Every card links back to the photo's page on Flickr (Flickr's terms); the one not
            // cached also leads there from its thumbnail.
            let cards = PageText.occurrences("<li class=\"card\"", in: page.stdout)
            #expect(cards == 30)
            #expect(PageText.occurrences("<a class=\"flickr\" href=\"https://www.flickr.com/photos/", in: page.stdout) == cards)
            #expect(PageText.occurrences("href=\"https://www.flickr.com/photos/", in: page.stdout) == 2 * cards - 1)
        }
        // A cache that does not exist holds nothing, and asking does not create it.
        let missing = scratch.file("no-cache")
        let page = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "html", "--cache-dir", missing], environment: environment)
        #expect(page.status == 0 && !page.stdout.contains("file://"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    // MARK: In a browser

    /// A database from the fake's world (real places, names in many scripts) plus photos
    /// with hostile titles and a region with a hostile right-to-left name; thumbnails fetched
    /// by thumb-get (real JPEGs), two left out; two photos viewed through photo-cache. The
    /// pages regions-top writes from it are then opened in Chromium by
    /// Tests/Browser/check_pages.py. UPDATE_SCREENSHOTS=1 copies its screenshots of the top
    /// regions and of a region into docs/ (for the README).
    @Test func pagesOpenInChromiumOfflineWithMapsThumbnailsAndHostileTextAsText() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(["--seed", "2013"], scratch: scratch)
        let db = scratch.file("photos.db")
        var environment = fake.environment(home: scratch.path, ["TOPREGIONS_CACHE": scratch.file("cache"), "TOPREGIONS_DB": db])
        func tool(_ name: String, _ arguments: [String], input: String? = nil) throws -> RunResult {
            let run = try Tools.run(name, arguments, input: input.map { Array($0.utf8) }, environment: environment)
            #expect(run.status == 0, "\(name) \(arguments): \(run.stderr)")
            return run
        }
        let refresh = try Tools.shell(#""$BIN/flickr-recent" -q | "$BIN/place-resolve" -q | "$BIN/regions-load" -q"#, environment: environment)
        try #require(refresh.status == 0, "\(refresh.stderr)")

        let top = Self.lines(try tool("regions-top", ["--limit", "1"]).stdout)[0]
        let topID = top["region_id"] as! String, topName = top["name"] as! String
        var photos = Self.lines(try tool("regions-top", ["--region", topID]).stdout)
        try #require(photos.count >= 10)

        // Hostile titles and right-to-left photographers in the top region; a region whose
        // name is hostile and right-to-left, its photos showing other photos' thumbnails.
        photos[0]["title"] = Self.hostileScript
        photos[0]["owner_name"] = "דוד כהן"
        photos[1]["title"] = Self.hostileAttribute
        photos[1]["owner_name"] = "محمد"
        let hostileRegion = "ירושלים \(Self.hostileScript) \(Self.hostileAttribute)"
        let hostile: [[String: Any]] = (0..<3).map { index in
            [
                "id": "9900000000\(index)", "owner": "99000\(index)@N01", "owner_name": "Photographer \(index)",
                "title": "Old City \(index) \(Self.hostileAttribute)", "description": Self.hostileScript,
                "latitude": 31.776 + Double(index) / 100, "longitude": 35.234 - Double(index) / 100,
                "uploaded": 1_700_000_000 + index, "thumb_url": photos[2 + index]["thumb_url"]!,
                "photo_url": photos[2 + index]["photo_url"]!, "region_id": "R-hostile.1", "region": hostileRegion,
            ]
        }
        let records = try (Array(photos[0...1]) + hostile).map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.withoutEscapingSlashes]), as: UTF8.self)
        }
        _ = try tool("regions-load", ["-q"], input: records.joined(separator: "\n") + "\n")

        // Thumbnails for all but the last two photos of the top region, and for the hostile region.
        let ids = photos.map { $0["id"] as! String }
        _ = try tool("thumb-get", ["-"], input: (ids.dropLast(2) + hostile.map { $0["id"] as! String }).joined(separator: "\n") + "\n")
        _ = try tool("photo-cache", [ids[0]])
        _ = try tool("photo-cache", ["99000000000"])

        let pages = scratch.file("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        func page(_ file: String, _ arguments: [String]) throws {
            let run = try tool("regions-top", arguments + ["--format", "html"])
            #expect(run.stderr == "")
            try Data(run.stdoutBytes).write(to: URL(fileURLWithPath: pages + "/" + file))
        }
        try page("top-regions.html", ["--limit", "200"])
        // A region is shown 30 photos to a page: its first (the hostile texts) and its last
        // (the two photos without a thumbnail).
        let regionPages = (photos.count + 29) / 30
        try #require(regionPages >= 2)
        try page("region-\(topID).html", ["--region", topID])
        try page("region-\(topID)+\(regionPages).html", ["--region", topID, "--page", "\(regionPages)"])
        try page("region-R-hostile.1.html", ["--region", "R-hostile.1"])
        try page("recents.html", ["--recents"])

        let rows = Self.lines(try tool("regions-top", ["--limit", "200"]).stdout).count
        let placed = try JSONSerialization.jsonObject(with: Data(try tool("regions-top", ["--limit", "200", "--format", "geojson"]).stdoutBytes)) as! [String: Any]
        let regionPoints = try JSONSerialization.jsonObject(with: Data(try tool("regions-top", ["--region", topID, "--format", "geojson"]).stdoutBytes)) as! [String: Any]
        // A pin for each photo of the page that has a position (the map's dots are all of them).
        let placedIDs = Set((regionPoints["features"] as! [[String: Any]]).compactMap { $0["id"] as? String })
        let ordered = photos.map { $0["id"] as! String }
        let firstPins = ordered.prefix(30).filter(placedIDs.contains).count
        let lastPins = ordered.dropFirst(30 * (regionPages - 1)).filter(placedIDs.contains).count
        let expect: [String: Any] = [
            "pages": [
                [
                    "file": "top-regions.html", "rows": rows, "markers": (placed["features"] as! [Any]).count,
                    "texts": [hostileRegion], "rtl": [hostileRegion],
                    "follow": ["file": "region-\(topID).html", "h1": topName],
                ],
                [
                    "file": "region-\(topID).html", "points": firstPins, "thumbnails": 30, "placeholders": 0,
                    "texts": [Self.hostileScript, Self.hostileAttribute], "rtl": ["דוד כהן", "محمد"],
                ],
                [
                    "file": "region-\(topID)+\(regionPages).html", "points": lastPins,
                    "thumbnails": photos.count - 30 * (regionPages - 1) - 2, "placeholders": 2,
                ],
                [
                    "file": "region-R-hostile.1.html", "points": 3, "thumbnails": 3, "placeholders": 0,
                    "texts": [hostileRegion, "Old City 0 \(Self.hostileAttribute)"], "rtl": [hostileRegion],
                ],
                ["file": "recents.html", "points": 2, "thumbnails": 2, "placeholders": 0, "texts": [Self.hostileScript]],
            ],
        ]
        try JSONSerialization.data(withJSONObject: expect, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: pages + "/expect.json"))
        #expect(rows > 50 && (placed["features"] as! [Any]).count == rows, "every region has a position")

        // The checker runs with the developer's own python3 (where bin/test installed
        // selenium), without proxies.
        let caller = ProcessInfo.processInfo.environment
        environment = ["PATH": caller["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path, "LANG": "C.UTF-8"]
        let shots = scratch.file("shots")
        let checker = Tools.packageRoot.appendingPathComponent("Tests/Browser/check_pages.py").path
        let check = try Tools.run("/usr/bin/env", ["python3", checker, pages, "--screenshots", shots], environment: environment)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)\n(bin/test installs chromium, chromium-driver and selenium)")
        #expect(check.stdout.hasSuffix("all checks passed\n"))

        if caller["UPDATE_SCREENSHOTS"] == "1" {
            let docs = Tools.packageRoot.appendingPathComponent("docs")
            try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
            for (shot, name) in [("top-regions.png", "top-regions.png"), ("region-\(topID).png", "region.png")] {
                let target = docs.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(atPath: shots + "/" + shot, toPath: target.path)
            }
        }
    }
}
