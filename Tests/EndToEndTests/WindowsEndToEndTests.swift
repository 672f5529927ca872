import Foundation
import Testing
import TopRegionsTestSupport

/// Right now: regions-top --window and --until, and the served pages' windows, against the
/// fake Flickr's ground truth for the same span of upload time (its own count, from its own
/// world: an independent computation).
@Suite struct WindowsEndToEndTests {
    /// The fake's clock: its world's photos were uploaded in the 12 hours to it.
    static let now = 1_763_800_000

    struct Setup {
        let network: NetworkEndToEndTests.Setup
        var environment: [String: String]
        var db: String { network.db }

        init(_ fakeArguments: [String] = []) throws {
            network = try NetworkEndToEndTests.Setup(fakeArguments)
            let (run, statuses) = try network.refresh()
            precondition(statuses == [0, 0, 0], run.stderr)
            environment = network.environment
            environment["TOPREGIONS_NOW"] = "\(WindowsEndToEndTests.now)"
            environment["TZ"] = "UTC"
        }

        func top(_ arguments: [String]) throws -> RunResult {
            try Tools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson", "--no-refresh"] + arguments, environment: environment)
        }

        /// The fake's truth for uploads in (end - length, end].
        func truth(length: Int, end: Int = WindowsEndToEndTests.now) throws -> [String] {
            try network.truth("?min_upload_date=\(end - length + 1)&max_upload_date=\(end)")
        }
    }

    @Test func aWindowCountsExactlyThePhotosUploadedInIt() throws {
        let setup = try Setup()
        for (window, seconds) in [("1h", 3600), ("6h", 21_600), ("90m", 5400), ("24h", 86_400)] {
            let run = try setup.top(["--window", window])
            #expect(run.status == 0, "\(window): \(run.stderr)")
            let lines = FakeFlickrProcess.truthLines(run.stdout)
            #expect(!lines.isEmpty)
            #expect(lines == (try setup.truth(length: seconds)), "\(window)")
        }
        // All, and a 24 hours that holds the fake's 12: the same as every stored photo.
        let everything = try setup.top([])
        #expect(try setup.top(["--window", "24h"]).stdout == everything.stdout)
        #expect(try setup.top(["--window", "all"]).stdout == everything.stdout)
        // A window that ends in the past.
        let earlier = try setup.top(["--window", "3h", "--until", "\(Self.now - 6 * 3600)"])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        #expect(FakeFlickrProcess.truthLines(earlier.stdout) == (try setup.truth(length: 3 * 3600, end: Self.now - 6 * 3600)))
        #expect(earlier.stderr == "regions-top: the photos in the 3 hours to 2025-11-22 02:26 +00:00\n")
        // A region's photos in a window: the truth's count for it, newest first, each in it.
        let region = try #require(try setup.truth(length: 3600).first).split(separator: " | ")
        let photos = try setup.top(["--region", String(region[0]), "--window", "1h"])
        let uploads = photos.stdout.split(separator: "\n").map {
            (try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["uploaded"] as! Int
        }
        #expect(uploads.count == Int(region[3])!)
        #expect(uploads.allSatisfy { $0 > Self.now - 3600 && $0 <= Self.now } && uploads == uploads.sorted(by: >))
        let all = try setup.top(["--photos", "--window", "1h"])
        #expect(all.stdout.split(separator: "\n").count == (try setup.truth(length: 3600)).map { Int($0.split(separator: " | ")[3])! }.reduce(0, +)
                + (try Self.uploadsWithoutRegion(setup, after: Self.now - 3600)))
    }

    /// Photos with no region uploaded after `start` (country-level places): in All, in no region.
    static func uploadsWithoutRegion(_ setup: Setup, after start: Int) throws -> Int {
        Int(try sqlite(setup.db, "SELECT COUNT(*) FROM photo WHERE region IS NULL AND uploaded > \(start) AND uploaded <= \(now)"))!
    }

    /// A window that cannot mean anything is a usage error that says what would work.
    @Test func aWindowThatCannotMeanAnythingIsAUsageError() throws {
        let setup = try Setup()
        let forms = "a window is a number and a unit (1h, 6h, 24h, 7d, 30d, 90m) or all"
        for (arguments, message) in [
            (["--window", "0h"], "regions-top: --window: '0h' is no time at all: give more than 0 (e.g. 1h, 24h, 7d); \(forms)"),
            (["--window=-3d"], "regions-top: --window: '-3d' is negative: an age counts back from now, and is written without a sign (e.g. 3d); \(forms)"),
            // Regression: ArgumentParser took "-1h" for an option ("Missing value for '--window <span>'").
            (["--window", "-1h"], "regions-top: --window: '-1h' is negative: an age counts back from now, and is written without a sign (e.g. 1h); \(forms)"),
            (["--window", "1y2"], "regions-top: --window: cannot read '1y2' as an age: a number and a unit, one of s, m, h, d, w (e.g. 90m, 12h, 7d, 2w); \(forms)"),
            (["--window", "7"], "regions-top: --window: '7' has no unit: write it with one of s, m, h, d, w (e.g. 7d for days); \(forms)"),
            (["--window", "1h", "--until", "\(Self.now + 60)"], "regions-top: --until: 2025-11-22 08:27 UTC is in the future; a window ends now at the latest (leave --until out)"),
            (["--until", "2020-01-01"], "regions-top: --until: 2020-01-01 00:00 UTC is before the first stored photo (uploaded 2025-11-21 20:27 UTC); nothing is in that window"),
            // Regression: "0-12-30 00:00" for the time given.
            (["--until", "0001-01-01"], "regions-top: --until: '0001-01-01' is before 1970-01-01, when Unix time begins; nothing is in that window"),
            (["--window", "1h", "--recents"], "regions-top: --window keeps to upload time: give it with the top list, --region, --photos or --search, not --recents"),
        ] {
            let run = try setup.top(arguments + ["--utc"])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout == "")
        }
    }

    /// The served pages keep to a window given as ?window=, say it, and carry it through their
    /// links; without one, the top page shows the last 24 hours when the newest upload is in
    /// them; a window that cannot mean anything is a 400 in the same words.
    @Test func servedPagesKeepToTheirWindowAndSayIt() throws {
        let setup = try Setup()
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", setup.network.scratch.file("cache"), "--port", "0"],
                                       environment: setup.environment, scratch: setup.network.scratch)
        defer { server.stop() }
        func get(_ path: String) throws -> HTTPExchange { try HTTPExchange.request(server.base + path, scratch: setup.network.scratch) }
        let top = try get("/")
        #expect(top.text.contains("The 50 regions with the most distinct photographers in the 24 hours to 2025-11-22 08:26 +00:00, most first."))
        #expect(top.text.contains("<strong aria-current=\"page\">24 hours</strong>"))
        #expect(top.text.contains("<a href=\"/?window=1h\">Last hour</a>"))
        let hour = try get("/?window=1h")
        #expect(hour.status == 200)
        #expect(hour.text.contains("in the hour to 2025-11-22 08:26 +00:00"))
        // A served window ends at the end of the present minute: 08:26:59.
        let truth = try setup.truth(length: 3600, end: (Self.now / 60 + 1) * 60 - 1)
        let rows = PageText.attributes("href", in: hour.text).filter { $0.hasPrefix("/regions/") }
        #expect(rows.suffix(truth.count).allSatisfy { $0.hasSuffix("?window=1h") })
        for line in truth.prefix(5) {
            let parts = line.split(separator: " | ")
            #expect(hour.text.contains("<td class=\"n\">\(parts[2])</td><td class=\"n\">\(parts[3])</td>"), "\(line)")
        }
        // A region in the window: its counts, and its pages' links keep the window.
        let region = String(truth[0].split(separator: " | ")[0])
        let page = try get("/regions/\(region)?window=1h")
        #expect(page.text.contains("\(truth[0].split(separator: " | ")[3]) photos by \(truth[0].split(separator: " | ")[2]) photographers in the hour to"))
        #expect(page.text.contains("sort=title") && page.text.contains("window=1h&amp;sort=title"))
        #expect(page.text.contains("<input type=\"hidden\" name=\"window\" value=\"1h\">"))
        // Every stored photo, asked for, is carried too: its order and its map's parts kept
        // to all of them (they fell back to the last 24 hours, the served default here).
        let all = try get("/regions/\(region)?window=all")
        #expect(all.text.contains("href=\"/regions/\(region)?window=all&amp;sort=title\""))
        #expect(all.text.contains("href=\"/regions/\(region)?window=all&amp;bbox="))
        let bad = try get("/?window=0h")
        #expect(bad.status == 400)
        #expect(bad.text.contains("window: &#39;0h&#39; is no time at all") || bad.text.contains("window: '0h' is no time at all"), "\(bad.text)")
    }

    /// A world with a surge (a region whose photographers triple in the last 3 hours): the
    /// surging region tops the rising list, with its photographers in the window and in the
    /// window before as the fake counts them; the largest region that stays as it is is not on
    /// it; the served page says the same.
    @Test func theSurgingRegionRisesAndALargeSteadyOneDoesNot() throws {
        let setup = try Setup(["--surge", "120"])
        let world = try JSONSerialization.jsonObject(with: Data(try setup.network.fake.control("/_fake/world", post: false).utf8)) as! [String: Any]
        let surging = try #require(world["surge_region_id"] as? String)
        let run = try setup.top(["--rising", "--window", "3h"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "regions-top: the regions rising in the 3 hours to 2025-11-22 08:26 +00:00 against the 3 hours before\n")
        let rows = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let first = try #require(rows.first)
        #expect(first["region_id"] as? String == surging)
        let now = try setup.truth(length: 3 * 3600).first { $0.hasPrefix(surging + " | ") }!.split(separator: " | ")
        let before = try setup.truth(length: 3 * 3600, end: Self.now - 3 * 3600).first { $0.hasPrefix(surging + " | ") }?.split(separator: " | ")
        #expect(first["photographers"] as? Int == Int(now[2]))
        #expect(first["photographers_before"] as? Int == before.map { Int($0[2])! } ?? 0)
        // The largest region before the surge, as large now: not rising.
        let steady = try #require(try setup.truth(length: 3 * 3600, end: Self.now - 3 * 3600).first { !$0.hasPrefix(surging + " | ") })
        let steadyID = String(steady.split(separator: " | ")[0])
        #expect(!rows.contains { $0["region_id"] as? String == steadyID }, "\(steady) rises")
        // The rule's words in --help, and the served page.
        let help = try Tools.run("regions-top", ["--help"], environment: setup.environment)
        #expect(help.stdout.contains("1.5 times as many"))
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", setup.network.scratch.file("cache"), "--port", "0"],
                                       environment: setup.environment, scratch: setup.network.scratch)
        defer { server.stop() }
        let page = try HTTPExchange.request(server.base + "/rising?window=3h", scratch: setup.network.scratch)
        #expect(page.status == 200)
        #expect(page.text.contains("whose photographers grew most in the 3 hours to 2025-11-22 08:26 +00:00 against the 3 hours before"))
        let links = PageText.attributes("href", in: page.text).filter { $0.hasPrefix("/regions/") }
        #expect(links.last { _ in true } != nil && links.contains("/regions/\(surging)?window=3h"))
        #expect(try HTTPExchange.request(server.base + "/rising?window=all", scratch: setup.network.scratch).status == 400)
        let top = try HTTPExchange.request(server.base + "/", scratch: setup.network.scratch)
        #expect(top.text.contains("<a class=\"rising\" href=\"/rising?window=24h\">Rising</a>"))
        let bad = try setup.top(["--rising", "--window", "all"])
        #expect(bad.status == 64 && bad.stderr.contains("--rising compares a window with the one before"))

        // As GeoJSON, every rising region is a point with its growth (regression: regions
        // without a stored centre were left out).
        let geojson = try setup.top(["--rising", "--window", "3h", "--format", "geojson"])
        let collection = try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as! [String: Any]
        let features = collection["features"] as! [[String: Any]]
        #expect(features.count == rows.count)
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["region_id"] as? String == surging && properties["growth"] as? Double == first["growth"] as? Double)
        // No page links to a rising page written by hand: --page-name says so (regression: it
        // named the top list's page, which writing it there would replace).
        let name = try setup.top(["--rising", "--page-name"])
        #expect(name.status == 64 && name.stderr.contains("--page-name: no page links to the rising regions' page"))
    }

    /// A TOPREGIONS_NOW that is not a time is a configuration error (78), not the real clock
    /// in silence; empty is unset.
    @Test func aClockThatIsNotATimeIsAConfigurationError() throws {
        for text in ["garbage", "2025-11-22T08:00:00Z", "-5", "nan"] {
            let run = try Tools.run("regions-top", ["--db", "/nonexistent/x.db", "--no-refresh"], environment: ["TOPREGIONS_NOW": text])
            #expect(run.status == 78 && run.stderr == "regions-top: TOPREGIONS_NOW: cannot read '\(text)' as a time: give Unix seconds (such as 1764338400), or leave it unset for the clock\n", "\(text): \(run.stderr)")
        }
        // Numbers that are not whole seconds up to year 9999: the first two crashed every
        // tool (a trap converting them to whole seconds), the others passed for times.
        for text in ["99999999999999999999", "9223372036854775807", "253402300800", "1e9", "+1763800000", "1763800000.5", " 1763800000"] {
            for (tool, arguments) in [("regions-load", ["--db", "/nonexistent/x.db"]), ("regions-top", ["--db", "/nonexistent/x.db", "--no-refresh", "--window", "1h"]),
                                      ("flickr-recent", ["--pages", "1"])] {
                let run = try Tools.run(tool, arguments, environment: ["TOPREGIONS_NOW": text])
                #expect(run.status == 78 && run.stderr == "\(tool): TOPREGIONS_NOW: cannot read '\(text)' as a time: give Unix seconds (such as 1764338400), or leave it unset for the clock\n", "\(tool) \(text): \(run.stderr)")
            }
        }
        let lastSecond = try Tools.run("regions-top", ["--db", "/nonexistent/x.db", "--no-refresh"], environment: ["TOPREGIONS_NOW": "253402300799"])
        #expect(lastSecond.status == 66, "\(lastSecond.stderr)")
        let unset = try Tools.run("regions-top", ["--db", "/nonexistent/x.db", "--no-refresh"], environment: ["TOPREGIONS_NOW": ""])
        #expect(unset.status != 78)
    }
}
