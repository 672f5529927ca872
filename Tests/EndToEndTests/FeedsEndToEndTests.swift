import Foundation
import Testing
import TopRegionsTestSupport

/// Atom feeds to follow a region or the rising list: written by regions-top --format atom, by
/// the export, and served with ETag and Last-Modified; each checked by Python's feedparser and
/// by xmllint against RFC 4287's RELAX NG schema (Tests/Feeds/check_feed.py).
@Suite struct FeedsEndToEndTests {
    /// Runs check_feed.py on `feeds` (file, a word of its title, its entries as expected).
    static func checkFeeds(_ feeds: [(file: String, title: String, entries: [[String: String]])], scratch: TemporaryDirectory) throws {
        let expect = scratch.file("expect-\(UUID().uuidString).json")
        let object: [String: Any] = ["feeds": feeds.map { ["file": $0.file, "title": $0.title, "entries": $0.entries] }]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: expect))
        let checker = Tools.packageRoot.appendingPathComponent("Tests/Feeds/check_feed.py").path
        let caller = ProcessInfo.processInfo.environment
        let run = try Tools.run("/usr/bin/env", ["python3", checker, expect],
                                environment: ["PATH": caller["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path, "LANG": "C.UTF-8"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)\n(bin/test installs feedparser, rnc2rng and xmllint)")
        #expect(run.stdout.hasSuffix("all checks passed\n"))
    }

    /// What a photo's entry is: its stable id, its page on Flickr, its upload time.
    static func entries(_ ndjson: String) -> [[String: String]] {
        ndjson.split(separator: "\n").prefix(30).map { line in
            let photo = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let id = photo["id"] as! String, owner = photo["owner"] as! String
            return ["id": "tag:topregions,2026:flickr-photo/\(id)", "link": "https://www.flickr.com/photos/\(owner)/\(id)",
                    "updated": timestamp(photo["uploaded"] as! Int)]
        }
    }

    /// An HTTP date ("Sat, 22 Nov 2025 08:20:00 GMT") in Unix seconds.
    static func httpTime(_ text: String) -> Int? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text).map { Int($0.timeIntervalSince1970) }
    }

    static func timestamp(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test func regionsTopWritesFeedsThatFeedReadersAndTheSchemaAccept() throws {
        let setup = try WindowsEndToEndTests.Setup(["--surge", "120"])
        let world = try JSONSerialization.jsonObject(with: Data(try setup.network.fake.control("/_fake/world", post: false).utf8)) as! [String: Any]
        let surging = world["surge_region_id"] as! String
        let scratch = setup.network.scratch
        let region = scratch.file("region.atom"), rising = scratch.file("rising.atom")
        let photos = try setup.top(["--region", surging, "--window", "3h"])
        let feed = try setup.top(["--region", surging, "--window", "3h", "--format", "atom"])
        #expect(feed.status == 0, "\(feed.stderr)")
        try Data(feed.stdoutBytes).write(to: URL(fileURLWithPath: region))
        let risingFeed = try setup.top(["--rising", "--window", "3h", "--format", "atom"])
        try Data(risingFeed.stdoutBytes).write(to: URL(fileURLWithPath: rising))
        let rows = try setup.top(["--rising", "--window", "3h"]).stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let end = Self.timestamp(WindowsEndToEndTests.now)
        try Self.checkFeeds([
            (region, "photos uploaded in the 3 hours to", Self.entries(photos.stdout)),
            (rising, "Rising regions", rows.map {
                let id = $0["region_id"] as! String
                return ["id": "tag:topregions,2026:rising/3h/\(id)", "link": "region-\(id).html", "updated": end]
            }),
        ], scratch: scratch)
        // The feed's entry ids stay: the same photo's entry is the same in the all-time feed.
        let always = try setup.top(["--region", surging, "--format", "atom"]).stdout
        let firstID = Self.entries(photos.stdout)[0]["id"]!
        #expect(always.contains("<id>\(firstID)</id>"))
        // Text from Flickr is escaped; the top list has no feed.
        #expect(!feed.stdout.contains("<script"))
        let top = try setup.top(["--format", "atom"])
        #expect(top.status == 64 && top.stderr.contains("--format atom is a feed of photos or of rising regions"))
    }

    /// A served feed carries an ETag and a Last-Modified; a reader that sends either back
    /// for the same feed is answered 304 with no body; once a photo arrives the feed changes
    /// and is sent whole. Pages link their feeds; the export writes them beside its pages.
    @Test func servedFeedsAnswerReadersThatHaveThemWith304() throws {
        let setup = try WindowsEndToEndTests.Setup(["--surge", "120"])
        let world = try JSONSerialization.jsonObject(with: Data(try setup.network.fake.control("/_fake/world", post: false).utf8)) as! [String: Any]
        let surging = world["surge_region_id"] as! String
        let scratch = setup.network.scratch
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", scratch.file("cache"), "--port", "0"],
                                       environment: setup.environment, scratch: scratch)
        defer { server.stop() }
        let path = "/feeds/regions/\(surging)?window=3h"
        let first = try HTTPExchange.request(server.base + path, scratch: scratch)
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "application/atom+xml; charset=utf-8")
        let tag = try #require(first.headers["etag"])
        let modified = try #require(first.headers["last-modified"])
        #expect(first.text.contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"\(server.base)\(path)\"/>"))
        let served = scratch.file("served.atom")
        try Data(first.body).write(to: URL(fileURLWithPath: served))
        // The served window ends at the end of the minute, the CLI's at now: the newest 30 agree
        // (the surge puts well over 30 photos in the region's last 3 hours).
        let photos = try setup.top(["--region", surging, "--window", "3h"])
        #expect(photos.stdout.split(separator: "\n").count > 30)
        try Self.checkFeeds([(served, "photos uploaded in the 3 hours to", Self.entries(photos.stdout))], scratch: scratch)

        let again = try HTTPExchange.request(server.base + path, headers: ["If-None-Match": tag], scratch: scratch)
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == tag)
        let since = try HTTPExchange.request(server.base + path, headers: ["If-Modified-Since": modified], scratch: scratch)
        #expect(since.status == 304 && since.body.isEmpty)
        #expect(try HTTPExchange.request(server.base + path, headers: ["If-None-Match": "\"other\""], scratch: scratch).status == 200)

        // A photo deleted from it moves no upload time, yet the feed changed: a reader going by
        // Last-Modified is sent it whole (the server's clock is held still here, so its new
        // time, a second on, is ahead of it and not sent: FeedChangesTests).
        #expect(Self.httpTime(modified)! <= Self.httpTime(first.headers["date"]!)!)
        let listed = Self.entries(photos.stdout)[5]["id"]!.split(separator: "/").last!
        #expect(try Tools.run("regions-load", ["-q", "--db", setup.db, "--delete", String(listed)], input: [], environment: setup.environment).status == 0)
        let afterDelete = try HTTPExchange.request(server.base + path, headers: ["If-Modified-Since": modified], scratch: scratch)
        #expect(afterDelete.status == 200 && !afterDelete.text.contains("flickr-photo/\(listed)<"))
        #expect(try HTTPExchange.request(server.base + path, headers: ["If-None-Match": afterDelete.headers["etag"]!], scratch: scratch).status == 304)
        // Every stored photo has no window before it: the rising feed refuses it, as the page does.
        #expect(try HTTPExchange.request(server.base + "/feeds/rising?window=all", scratch: scratch).status == 400)

        // A new photo in the region: the feed changes.
        let record = #"{"id":"99900000001","owner":"1@N01","title":"Late arrival","uploaded":\#(WindowsEndToEndTests.now - 5),"region_id":"\#(surging)","region":"Antioquia"}"#
        #expect(try Tools.run("regions-load", ["-q", "--db", setup.db], input: Array((record + "\n").utf8), environment: setup.environment).status == 0)
        let changed = try HTTPExchange.request(server.base + path, headers: ["If-None-Match": tag], scratch: scratch)
        #expect(changed.status == 200 && changed.headers["etag"] != tag)
        #expect(changed.text.contains("tag:topregions,2026:flickr-photo/99900000001"))

        // The pages say where their feeds are.
        let page = try HTTPExchange.request(server.base + "/regions/\(surging)?window=3h", scratch: scratch)
        #expect(page.text.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Antioquia: newest photos\" href=\"/feeds/regions/\(surging)?window=3h\">"))
        let rising = try HTTPExchange.request(server.base + "/feeds/rising?window=3h", scratch: scratch)
        #expect(rising.status == 200 && rising.text.contains("<id>tag:topregions,2026:rising/3h/\(surging)</id>"))

        // The export: a feed beside each region's pages, and the rising regions'.
        let site = scratch.file("site")
        #expect(try Tools.run("regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: site)
        #expect(files.contains("region-\(surging).atom") && files.contains("rising.atom"))
        #expect(files.filter { $0.hasSuffix(".atom") }.count == files.filter {
            // A region's first page; not its later pages (+N) nor its map's parts (~W,S,E,N).
            $0.hasPrefix("region-") && !$0.contains("+") && !$0.contains("~") && $0.hasSuffix(".html")
        }.count + 1)
        let exported = try setup.top(["--region", surging])
        try Self.checkFeeds([(site + "/region-\(surging).atom", "Antioquia", Self.entries(exported.stdout))], scratch: scratch)
        let regionPage = try String(contentsOfFile: site + "/region-\(surging).html", encoding: .utf8)
        #expect(regionPage.contains("href=\"region-\(surging).atom\""))
    }
}
