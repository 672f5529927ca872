import Foundation
import Testing
import TopRegionsTestSupport

/// regions-serve through its built binary, asked by curl, against flickr-fake: what only a
/// process and a socket show (Host headers, connections, signals, another process's writes,
/// the Refresh button's stages, the server's size, a read-only filesystem). What each page
/// shows, the images fetched once and the forms are tested in process
/// (Tests/TopRegionsServerTests: ServedPagesTests, ServedImagesTests, ServedActionsTests).
@Suite struct ServeEndToEndTests {
    struct Setup {
        let scratch = TemporaryDirectory()
        let fake: FakeFlickrProcess
        let db: String
        let cache: String
        let environment: [String: String]
        let server: ServerProcess
        /// The top regions as regions-top gives them (NDJSON rows).
        let top: [[String: Any]]

        init(_ serveArguments: [String] = []) throws {
            fake = try FakeFlickrProcess(NetworkEndToEndTests.world + ["--large-bytes", "20000"], scratch: scratch)
            db = scratch.file("photos.db")
            cache = scratch.file("cache")
            environment = fake.environment(home: scratch.path, ["TZ": "UTC"])
            var env = environment
            env["DB"] = db
            let refresh = try Tools.shell(#""$BIN/flickr-recent" -q --db "$DB" | "$BIN/place-resolve" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB""#, environment: env)
            precondition(refresh.status == 0, refresh.stderr)
            top = ServeEndToEndTests.lines(try Tools.run("regions-top", ["--db", db], environment: environment).stdout)
            server = try ServerProcess(["--db", db, "--cache-dir", cache, "--port", "0"] + serveArguments, environment: environment, scratch: scratch)
        }

        func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPExchange {
            try HTTPExchange.request(server.base + path, headers: headers, scratch: scratch)
        }

        func post(_ path: String, form: String, headers: [String: String] = [:]) throws -> HTTPExchange {
            try HTTPExchange.request(server.base + path, method: "POST", headers: headers, form: form, scratch: scratch)
        }

        func regionsTop(_ arguments: [String]) throws -> [[String: Any]] {
            ServeEndToEndTests.lines(try Tools.run("regions-top", ["--db", db] + arguments, environment: environment).stdout)
        }

        /// Image requests to the fake so far, as "<id>_<suffix>".
        /// The stored photos' records, as regions-top --photos writes them, one a line.
        func storedRecords() throws -> [Substring] {
            try Tools.run("regions-top", ["--db", db, "--photos"], environment: environment).stdout.split(separator: "\n")
        }

        func imageRequests() throws -> [String] {
            try fake.imageRequests().map { request in
                let file = request.path.split(separator: "/").last!
                let parts = file.split(separator: "_")
                return "\(parts[0])_\(parts.last!.prefix { $0 != "." })"
            }
        }
    }

    /// `count` copies of `records` under new ids (copy N's ids start with 9N): new photos for
    /// a load, NDJSON.
    static func copies(of records: [Substring], _ count: Int) -> String {
        var text = ""
        for copy in 1...count {
            for line in records { text += line.replacingOccurrences(of: "{\"id\":\"", with: "{\"id\":\"9\(copy)") + "\n" }
        }
        return text
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    // MARK: Images

    /// While another process holds the database's write lock (a cron load's transaction),
    /// photo pages and lists answer without waiting for it: a view is written beside the
    /// answer, once the lock is free, in the order viewed. A view from another site's page
    /// (a link, an <img>) is not recorded. Regression: each photo page waited for the lock (up
    /// to the 60 s busy timeout) and held a worker meanwhile, stalling every other page.
    @Test func pagesNeverWaitForAnotherProcessesWrite() throws {
        let setup = try Setup()
        let regionID = setup.top[0]["region_id"] as! String
        let ids = try setup.regionsTop(["--region", regionID, "--limit", "12"]).map { $0["id"] as! String }
        let crossSite = try setup.regionsTop(["--region", regionID, "--limit", "13"]).map { $0["id"] as! String }[12]
        let lock = try LockHolder(setup.db)
        // More photo pages at once than the server has threads; then the lists.
        let urls = ids.map { "'\(setup.server.base)/photos/\($0)'" }
        let views = try Tools.shell(
            urls.map { "curl -s --max-time 20 -o /dev/null -w '%{http_code}\\n' \($0) &" }.joined(separator: "\n") + "\nwait",
            environment: setup.environment)
        #expect(views.stdout.split(separator: "\n").sorted() == Array(repeating: "200", count: 12), "\(views.stdout) \(views.stderr)")
        for path in ["/", "/all", "/regions/\(regionID)", "/recents"] {
            #expect(try setup.get(path).status == 200, "\(path)")
        }
        #expect(try setup.get("/photos/\(crossSite)", headers: ["Sec-Fetch-Site": "cross-site"]).status == 200)
        lock.release()

        // One at a time, so the order viewed is known; the twelve above are all there.
        for id in ids.prefix(3).reversed() { #expect(try setup.get("/photos/\(id)").status == 200) }
        let recents = try setup.get("/recents")
        let listed = PageText.attributes("id", in: recents.text).filter { $0.hasPrefix("photo-") }.map { String($0.dropFirst(6)) }
        #expect(Array(listed.prefix(3)) == Array(ids.prefix(3)))
        #expect(Set(listed) == Set(ids), "every view recorded, none from the other site")
        #expect(try setup.regionsTop(["--recents"]).map { $0["id"] as! String } == listed)
    }

    @Test func theServedPhotosStayWithinTheCachesCapHoweverLongItServes() throws {
        let setup = try Setup(["--max-bytes", "50K"])
        let regionID = setup.top[0]["region_id"] as! String
        let ids = try setup.regionsTop(["--region", regionID, "--limit", "5"]).map { $0["id"] as! String }
        for id in ids {
            let image = try setup.get("/photos/\(id).jpg")
            #expect(image.status == 200 && image.body.count == 20_000)
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: setup.cache).filter { $0.hasSuffix(".jpg") }
        let bytes = try entries.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: setup.cache + "/" + $1)[.size] as? Int) ?? 0) }
        #expect(entries.count == 2 && bytes <= 50 << 10, "\(entries.count) photos, \(bytes) bytes in a 50K cache")
        #expect(try setup.imageRequests() == ids.map { "\($0)_b" })
    }

    // MARK: Actions

    @Test func theRefreshButtonRunsThePipelineOnceAndShowsItsProgress() throws {
        let setup = try Setup()
        let token = try #require(PageText.token(in: try setup.get("/").text))
        let searchesBefore = try setup.fake.requests(method: "flickr.photos.search").count
        #expect(try setup.post("/refresh", form: "").status == 403)
        let started = try setup.post("/refresh", form: "token=\(token)")
        #expect(started.status == 303 && started.headers["location"] == "/refresh")
        // A second press while it runs starts nothing more.
        _ = try setup.post("/refresh", form: "token=\(token)")
        var progress = try setup.get("/refresh")
        while progress.text.contains("http-equiv=\"refresh\"") {
            progress = try setup.get("/refresh")
        }
        #expect(progress.text.contains("The refresh finished: 0 new photos"), "\(progress.text)")
        let searches = try setup.fake.requests(method: "flickr.photos.search").count - searchesBefore
        #expect(searches > 0)
        // The same searches as the first refresh made: the pipeline ran once, not twice.
        #expect(searches == searchesBefore, "\(searches) searches, the first refresh made \(searchesBefore)")
    }

    /// A refresh that fails says which stage, with its status, once (regression: "status 78,
    /// status 78"), and that what was stored stays.
    @Test func aFailedRefreshSaysWhichStageFailedAndHow() throws {
        let setup = try Setup()
        var refused = setup.environment
        refused["FLICKR_API_KEY"] = "wrong-key-5e7a1c"
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", setup.cache, "--port", "0", "-q"], environment: refused, scratch: setup.scratch)
        defer { server.stop() }
        let token = try #require(PageText.token(in: try HTTPExchange.request(server.base + "/", scratch: setup.scratch).text))
        #expect(try HTTPExchange.request(server.base + "/refresh", method: "POST", form: "token=\(token)", scratch: setup.scratch).status == 303)
        var progress = try HTTPExchange.request(server.base + "/refresh", scratch: setup.scratch)
        while progress.text.contains("http-equiv=\"refresh\"") {
            progress = try HTTPExchange.request(server.base + "/refresh", scratch: setup.scratch)
        }
        #expect(progress.text.contains(
            "The refresh failed: flickr-recent exited with status 78. What it stored before stays. The server's terminal says why."), "\(progress.text)")
        #expect(!progress.text.contains("wrong-key-5e7a1c"))
    }

    /// A database on a read-only filesystem, without its -wal and -shm (a copy burnt to a
    /// disc, a read-only mount): read by regions-top and --export, and served as it is, with
    /// what would change it not offered and refused 503; nothing fetched that could not be
    /// kept. Regression: every reader exited 73 asking to "run a writing tool once", and
    /// regions-serve could not create its lock file. (A mount namespace of its own:
    /// `unshare -rm`, from util-linux.)
    @Test func aDatabaseOnAReadOnlyFilesystemIsReadAndServedAsItIs() throws {
        let setup = try Setup()
        let before = try Tools.run("regions-top", ["--db", setup.db, "--format", "ndjson"], environment: setup.environment).stdout
        let photo = try #require(setup.regionsTop(["--region", setup.top[0]["region_id"] as! String, "--limit", "1"]).first?["id"] as? String)
        let mount = setup.scratch.file("readonly"), out = setup.scratch.file("out")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var environment = setup.environment
        (environment["DB"], environment["RO"], environment["OUT"], environment["PHOTO"]) = (setup.db, mount, out, photo)
        environment["CACHE"] = setup.scratch.file("ro-cache")
        let run = try Tools.shell(#"""
            unshare -rm bash -c '
                mount -t tmpfs tmpfs "$RO" && cp "$DB" "$RO/p.db" && mount -o remount,ro "$RO" || exit 99
                "$BIN/regions-top" --db "$RO/p.db" --format ndjson > "$OUT/top.ndjson" 2> "$OUT/top.err"; echo "top $?"
                "$BIN/regions-serve" --db "$RO/p.db" --export "$OUT/site" > /dev/null 2> "$OUT/export.err"; echo "export $?"
                "$BIN/regions-serve" --db "$RO/p.db" --port 0 --cache-dir "$CACHE" > "$OUT/url" 2> "$OUT/serve.err" &
                server=$!
                until [ -s "$OUT/url" ] || ! kill -0 $server 2>/dev/null; do sleep 0.05; done
                url=$(cat "$OUT/url")
                curl -s "$url" > "$OUT/top.html"
                curl -s -o /dev/null -w "refresh %{http_code}\n" -X POST -d token=x "$url"refresh
                curl -s -o /dev/null -w "prune %{http_code}\n" "$url"prune?older_than=7d
                curl -s "$url"photos/$PHOTO > "$OUT/photo.html"
                curl -s -o /dev/null -w "thumbnail %{http_code}\n" "$url"thumbs/$PHOTO.jpg
                kill -TERM $server; wait $server; echo "serve $?"
                # Its photo cache on the read-only filesystem too: served all the same, without
                # full photos (it refused to start, 73).
                "$BIN/regions-serve" --db "$RO/p.db" --port 0 --cache-dir "$RO/cache" > "$OUT/url2" 2> "$OUT/serve2.err" &
                server=$!
                until [ -s "$OUT/url2" ] || ! kill -0 $server 2>/dev/null; do sleep 0.05; done
                url=$(cat "$OUT/url2")
                curl -s -o /dev/null -w "no cache: top %{http_code}\n" "$url"
                curl -s -o /dev/null -w "no cache: photo %{http_code}\n" "$url"photos/$PHOTO.jpg
                kill -TERM $server; wait $server; echo "serve $?"
                ls "$RO"
            '
            """#, environment: environment)
        #expect(run.status == 0, "\(run.stderr) (this test needs unshare -rm: a mount namespace of its own)")
        #expect(run.stdout == "top 0\nexport 0\nrefresh 503\nprune 503\nthumbnail 200\nserve 0\nno cache: top 200\nno cache: photo 503\nserve 0\np.db\n",
                "\(run.stdout)\n\(run.stderr)")
        #expect(try String(contentsOfFile: out + "/serve2.err", encoding: .utf8).contains(": full photos are not shown\n"))
        #expect(try String(contentsOfFile: out + "/top.ndjson", encoding: .utf8) == before)
        #expect(FileManager.default.fileExists(atPath: out + "/site/top-regions.html"))
        let serveErr = try String(contentsOfFile: out + "/serve.err", encoding: .utf8)
        #expect(serveErr.hasPrefix("regions-serve: the database \(mount)/p.db cannot be written here (a read-only filesystem, or another user's file): serving it as it is"))
        let top = try String(contentsOfFile: out + "/top.html", encoding: .utf8)
        #expect(top.contains("<table class=\"ranking\">") && top.contains(">Read-only</span>") && !top.contains("action=\"/refresh\""))
        let page = try String(contentsOfFile: out + "/photo.html", encoding: .utf8)
        #expect(page.contains("This photo on Flickr") && !page.contains("/delete\""))
        // Nothing was fetched: a thumbnail could not have been kept.
        #expect(try setup.imageRequests().isEmpty)
    }

    @Test func anEmptyDatabaseIsRefreshedOnTheFirstVisitWhenAKeyIsConfigured() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(NetworkEndToEndTests.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("new.db")
        let server = try ServerProcess(["--db", db, "--cache-dir", scratch.file("cache"), "--port", "0", "-q"], environment: environment, scratch: scratch)
        let first = try HTTPExchange.request(server.base + "/", scratch: scratch)
        #expect(first.status == 303 && first.headers["location"] == "/refresh")
        var progress = try HTTPExchange.request(server.base + "/refresh", scratch: scratch)
        while progress.text.contains("http-equiv=\"refresh\"") {
            progress = try HTTPExchange.request(server.base + "/refresh", scratch: scratch)
        }
        let stored = try Tools.run("regions-top", ["--db", db, "--photos"], environment: environment).stdout.split(separator: "\n").count
        #expect(stored > 0 && progress.text.contains("The refresh finished: \(stored) new photos"), "\(progress.text)")
        let top = try HTTPExchange.request(server.base + "/", scratch: scratch)
        #expect(top.status == 200 && top.text.contains("<table class=\"ranking\">"))
        #expect(server.stop().status == 0)

        // Without a key: a database that is not there is an error, and nothing is made.
        var keyless = environment
        keyless["FLICKR_API_KEY"] = nil
        let missing = try Tools.run("regions-serve", ["--db", scratch.file("other.db"), "--port", "0"], environment: keyless)
        #expect(missing.status == 66 && !FileManager.default.fileExists(atPath: scratch.file("other.db")))
    }

    @Test func exportWritesTheLinkedSiteAsFiles() throws {
        let setup = try Setup()
        let site = setup.scratch.file("site")
        let export = try Tools.run("regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == site + "/top-regions.html\n")
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: site)).subtracting([".topregions-export"])
        let files = written.filter { $0.hasSuffix(".html") }
        let feeds = written.filter { $0.hasSuffix(".atom") }
        let stored = try setup.regionsTop(["--photos"]).count
        let regionPages = setup.top.reduce(0) { $0 + (($1["photos"] as! Int) + 29) / 30 }
        // The parts of a region's map one can look closer at: pages of their own, named with
        // their box (region-ID~W,S,E,N.html), each listing the region's photos inside the box.
        let zoomed = files.filter { $0.contains("~") }
        #expect(files.count - zoomed.count == 1 + regionPages + (stored + 29) / 30 + 1)
        #expect(!zoomed.isEmpty)
        // Those of a region with more photos than a page shows (fewer are each a pin already).
        for region in setup.top.prefix(8) {
            let id = region["region_id"] as! String
            let photos = try setup.regionsTop(["--region", id])
            let firsts = zoomed.filter { $0.hasPrefix("region-\(id)~") && !$0.contains("+") }
            #expect(firsts.isEmpty == (photos.count <= 30), "\(id): \(photos.count) photos, \(firsts.count) parts of its map")
            for name in firsts {
                let box = name.dropFirst("region-\(id)~".count).dropLast(".html".count).split(separator: ",").compactMap { Double($0) }
                #expect(box.count == 4, "\(name)")
                let inside = photos.filter {
                    let (latitude, longitude) = ($0["latitude"] as! Double, $0["longitude"] as! Double)
                    return longitude >= box[0] && latitude >= box[1] && longitude <= box[2] && latitude <= box[3]
                }
                let page = try String(contentsOfFile: site + "/" + name, encoding: .utf8)
                #expect(page.contains("; \(inside.count) photo\(inside.count == 1 ? "" : "s") in this part of the map"), "\(name)")
                let pages = zoomed.filter { $0.hasPrefix(String(name.dropLast(5)) + "+") }.count + 1
                #expect(pages == (inside.count + 29) / 30, "\(name): \(pages) pages for \(inside.count) photos")
            }
        }
        // A feed for each region, and one of the rising regions.
        #expect(feeds == Set(setup.top.map { "region-\($0["region_id"] as! String).atom" } + ["rising.atom"]))
        #expect(written.count == files.count + feeds.count)
        #expect(export.stderr == "regions-serve: wrote \(files.count) pages and \(feeds.count) feeds into \(site)\n")
        // Every link between pages leads to a file that is there; every page at most 30 photos.
        for name in files {
            let page = try String(contentsOfFile: site + "/" + name, encoding: .utf8)
            for link in PageText.attributes("href", in: page) where link.hasSuffix(".html") {
                #expect(files.contains(link), "\(name) links to \(link)")
            }
            #expect(PageText.occurrences("<li class=\"card\"", in: page) <= 30)
            #expect(page.contains("img-src data:;"))
        }
        let big = try #require(setup.top.first { ($0["photos"] as! Int) > 30 })
        let id = big["region_id"] as! String
        #expect(files.contains("region-\(id).html") && files.contains("region-\(id)+2.html"))
        let second = try String(contentsOfFile: site + "/region-\(id)+2.html", encoding: .utf8)
        #expect(second.contains("rel=\"prev\" href=\"region-\(id).html\""))
        // Nothing was downloaded for it.
        #expect(try setup.imageRequests().isEmpty)
    }

    /// The export writes only where it may: a new or empty directory, or its own earlier
    /// export, whose pages it replaces (removing those no longer in the site). A directory
    /// holding anything else is refused with nothing written. Regression: hand-made files
    /// were overwritten without a word.
    @Test func exportNeverOverwritesFilesItDidNotWrite() throws {
        let setup = try Setup()
        let mine = setup.scratch.file("mine")
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: mine + "/top-regions.html"))
        try Data("more".utf8).write(to: URL(fileURLWithPath: mine + "/notes.txt"))
        // Named as a killed export's leftovers: in a directory that is not the site's, they
        // are someone's too (they were removed before the directory was refused).
        let lookalikes = ["index.html.tmp-2024", "feed.atom.tmp-1", ".topregions-export.tmp-backup"]
        for name in lookalikes { try Data(name.utf8).write(to: URL(fileURLWithPath: mine + "/" + name)) }
        let refused = try Tools.run("regions-serve", ["--db", setup.db, "--export", mine], environment: setup.environment)
        #expect(refused.status == 73)
        #expect(refused.stderr == """
            regions-serve: will not write the site into \(mine): it holds 2 files an earlier export did not write \
            (notes.txt, top-regions.html); give an empty or new directory

            """)
        #expect(refused.stdout == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine).sorted() == (["notes.txt", "top-regions.html"] + lookalikes).sorted())
        #expect(try String(contentsOfFile: mine + "/top-regions.html", encoding: .utf8) == "my notes")
        for name in lookalikes { try FileManager.default.removeItem(atPath: mine + "/" + name) }

        // Its own export, again: replaced in place, a page it no longer writes removed.
        let site = setup.scratch.file("site")
        #expect(try Tools.run("regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment).status == 0)
        let first = Set(try FileManager.default.contentsOfDirectory(atPath: site))
        try Data("old".utf8).write(to: URL(fileURLWithPath: site + "/region-GONE.html"))
        let manifest = try String(contentsOfFile: site + "/.topregions-export", encoding: .utf8)
        try Data((manifest + "region-GONE.html\n").utf8).write(to: URL(fileURLWithPath: site + "/.topregions-export"))
        let again = try Tools.run("regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: site)) == first)
        // A file put in it by hand makes it someone else's too.
        try Data("index".utf8).write(to: URL(fileURLWithPath: site + "/index.html"))
        let touched = try Tools.run("regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment)
        #expect(touched.status == 73 && touched.stderr.contains("(index.html)"), "\(touched.stderr)")
        #expect(try String(contentsOfFile: site + "/index.html", encoding: .utf8) == "index")
    }

    /// A large write from a page leaves the server its size. Regression: pruning 200k photos
    /// from the page left it 80 MB larger for the rest of its life (its writing connection
    /// kept a writing tool's 64 MB page cache full of the pages the prune changed).
    @Test func aPruneOfManyPhotosLeavesTheServerItsSize() throws {
        let setup = try Setup()
        // Copies of every stored photo under new ids: about 20,000 photos.
        let photos = try setup.storedRecords()
        let records = Self.copies(of: photos, 20_000 / photos.count + 1)
        let load = try Tools.run("regions-load", ["--db", setup.db, "-q"], input: Array(records.utf8), environment: setup.environment)
        #expect(load.status == 0, "\(load.stderr)")
        let stored = try setup.regionsTop(["--photos"]).count
        var env = setup.environment
        env["TOPREGIONS_NOW"] = "\(Int(Date().timeIntervalSince1970) + 100)"
        let later = try ServerProcess(["--db", setup.db, "--cache-dir", setup.cache, "--port", "0", "-q"], environment: env, scratch: setup.scratch)
        defer { later.stop() }
        func residentKiB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(later.process.processIdentifier)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
        let preview = try HTTPExchange.request(later.base + "/prune?older_than=1m", scratch: setup.scratch)
        #expect(preview.status == 200 && preview.text.contains("\(stored) photos were stored before"))
        let before = try residentKiB()
        let token = try #require(PageText.token(in: preview.text))
        let listed = "before=\(try #require(PageText.field("before", in: preview.text)))&photos=\(try #require(PageText.field("photos", in: preview.text)))"
        let pruned = try HTTPExchange.request(later.base + "/prune", method: "POST", form: "token=\(token)&older_than=1m&" + listed, scratch: setup.scratch)
        #expect(pruned.status == 200 && pruned.text.contains("\(stored) photos stored more than 1m ago are forgotten"))
        // The pages the prune changed, about 20 MB of them, are not kept: at most SQLite's
        // default cache (2 MB) and what the prune itself held.
        let grown = try residentKiB() - before
        #expect(grown < 8_000, "the server grew by \(grown) KiB")
    }

    // MARK: Safety

    @Test func foreignHostsBadIdsAndOversizedRequestsAreRefused() throws {
        let setup = try Setup()
        // DNS rebinding: another name pointed at 127.0.0.1.
        let foreign = try setup.get("/", headers: ["Host": "attacker.example:\(setup.server.port)"])
        #expect(foreign.status == 403)
        #expect(try setup.get("/", headers: ["Host": "localhost:\(setup.server.port)"]).status == 200)
        #expect(try setup.get("/", headers: ["Host": "127.0.0.1:\(setup.server.port + 1)"]).status == 403)
        // Ids are checked before they reach a path or a query.
        for path in ["/photos/..%2F..%2Fetc%2Fpasswd", "/photos/../../etc/passwd", "/thumbs/%2e%2e.jpg", "/photos/12a", "/photos/1%00.jpg", "/etc/passwd", "/thumbs/"] {
            let answer = try setup.get(path)
            #expect([400, 404].contains(answer.status), "\(path): \(answer.status)")
            #expect(!answer.text.contains("root:"))
        }
        let hostile = try setup.get("/regions/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
        #expect(hostile.status == 404 && !hostile.text.contains("<img") && hostile.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
        // No listing of a directory, no method but GET, HEAD and POST, no large form.
        #expect(try setup.get("/photos/").status == 404)
        #expect(try HTTPExchange.request(setup.server.base + "/", method: "PUT", scratch: setup.scratch).status == 405)
        #expect(try setup.post("/photos/1/delete", form: String(repeating: "x", count: 100_000)).status == 413)
        #expect(try setup.get("/" + String(repeating: "a", count: 5_000)).status == 414)
        // The key is in no page.
        for path in ["/", "/all", "/recents", "/search?q=harbour"] {
            #expect(!(try setup.get(path).text.contains(FakeFlickrProcess.apiKey)))
        }
    }

    @Test func thirtyTwoClientsAreAllAnsweredWhileRegionsLoadWrites() throws {
        let setup = try Setup()
        let regionID = setup.top[0]["region_id"] as! String
        // Ten copies of every stored photo under new ids: a load of a few seconds.
        let photos = try setup.storedRecords()
        let records = Self.copies(of: photos, 10)
        let load = try Tools.start("regions-load", ["--db", setup.db, "-q"], input: Array(records.utf8), environment: setup.environment)
        let paths = ["/", "/regions/\(regionID)", "/regions/\(regionID)?page=2", "/all", "/search?q=harbour", "/recents"]
        let clients = (0..<32).map { client in
            "(for i in $(seq 1 12); do curl -s -o /dev/null -w '%{http_code}\\n' '\(setup.server.base)\(paths[client % paths.count])'; done) &"
        }.joined(separator: "\n") + "\nwait"
        let answers = try Tools.shell(clients, environment: setup.environment)
        let loaded = try load.wait()
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let codes = answers.stdout.split(separator: "\n")
        #expect(codes.count == 32 * 12)
        #expect(Set(codes) == ["200"], "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
        // And the pages show what was loaded: the first after the load may show the list as
        // it was a moment before (computed again beside it: ComputedOnce.staleFor), the next
        // ones what was stored.
        let stored = try setup.regionsTop(["--photos"]).count
        #expect(stored == photos.count * 11)
        var shown = false
        for _ in 0..<200 where !shown {
            shown = try setup.get("/all").text.contains("\(stored) photos stored")
        }
        #expect(shown)
    }

    // MARK: The process

    @Test func itSaysWhereItServesAndStopsCleanlyOnSIGTERM() throws {
        let setup = try Setup()
        #expect(setup.server.url.hasPrefix("http://127.0.0.1:") && setup.server.url.hasSuffix("/"))
        #expect(try setup.get("/").status == 200)
        let (status, stderr) = setup.server.stop()
        #expect(status == 0)
        #expect(stderr.hasPrefix("regions-serve: serving \(setup.db) at \(setup.server.url)"))
        #expect(stderr.hasSuffix("regions-serve: stopped\n"))

        let quiet = try ServerProcess(["--db", setup.db, "--cache-dir", setup.cache, "--port", "0", "-q"], environment: setup.environment, scratch: setup.scratch)
        let stopped = quiet.stop()
        #expect(stopped.status == 0 && stopped.stderr == "")

        // A taken port, a database that is not there, an address that is none: said, with a status.
        let taken = try Tools.run("regions-serve", ["--db", setup.db, "--port", "\(setup.fake.baseURL.split(separator: ":").last!)"], environment: setup.environment)
        #expect(taken.status == 69 && taken.stderr.contains("is taken"))
        var keyless = setup.environment
        keyless["FLICKR_API_KEY"] = nil
        let missing = try Tools.run("regions-serve", ["--db", setup.scratch.file("none.db"), "--port", "0"], environment: keyless)
        #expect(missing.status == 66 && missing.stderr.hasPrefix("regions-serve: no database at"))
        #expect(!FileManager.default.fileExists(atPath: setup.scratch.file("none.db")))
        let bad = try Tools.run("regions-serve", ["--db", setup.db, "--bind", "example.invalid"], environment: setup.environment)
        #expect(bad.status == 64 && bad.stderr.contains("--bind"))
    }

    @Test func aRequestUnderWayWhenStoppedIsFinishedAndLeavesNoPartialFile() throws {
        let setup = try Setup()
        let regionID = setup.top[0]["region_id"] as! String
        let id = try setup.regionsTop(["--region", regionID, "--limit", "1"])[0]["id"] as! String
        // The image host takes 1.5 s to answer: the photo's download is under way meanwhile.
        try setup.fake.control("/_fake/faults?latency_ms=1500&faults_on=images")
        func received() throws -> Int {
            let object = try JSONSerialization.jsonObject(with: Data(try setup.fake.control("/_fake/received", post: false).utf8)) as! [String: Any]
            return object["requests"] as! Int
        }
        let before = try received()
        let body = setup.scratch.file("photo.jpg")
        let curl = try Tools.start("/usr/bin/curl", ["-sS", "-o", body, "-w", "%{http_code}", setup.server.base + "/photos/\(id).jpg"],
                                   environment: setup.environment)
        while try received() == before {}  // the server has asked the fake: the request is under way
        let stopped = setup.server.stop()
        let fetched = try curl.wait()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(fetched.stdout == "200", "\(fetched.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: body)).count == 20_000)
        // The photo is in the cache whole, and nothing half-written is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: setup.cache).sorted()
        #expect(names.filter { !$0.hasPrefix(".") && $0 != "CACHEDIR.TAG" } == ["\(id).topregions.jpg"], "\(names)")
        #expect(names.allSatisfy { !$0.contains("tmp") }, "\(names)")
    }

    /// A download that would take minutes (an image server that does not answer) does not
    /// hold the stop up: SIGTERM ends the server after its 10 s of grace, the download is
    /// ended, and nothing half-written stays in the cache. Regression: it ran on for the
    /// download's 300 s.
    @Test func aStopEndsADownloadThatWouldTakeMinutes() throws {
        let setup = try Setup()
        let regionID = setup.top[0]["region_id"] as! String
        let id = try setup.regionsTop(["--region", regionID, "--limit", "1"])[0]["id"] as! String
        try setup.fake.control("/_fake/faults?latency_ms=250000&faults_on=images")
        func received() throws -> Int {
            let object = try JSONSerialization.jsonObject(with: Data(try setup.fake.control("/_fake/received", post: false).utf8)) as! [String: Any]
            return object["requests"] as! Int
        }
        let before = try received()
        let curl = try Tools.start("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", setup.server.base + "/photos/\(id).jpg"],
                                   environment: setup.environment)
        while try received() == before {}  // the server has asked the image server: the download is under way
        let stopped = setup.server.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.hasSuffix("regions-serve: stopped\n"), "\(stopped.stderr)")
        let fetched = try curl.wait()
        #expect(fetched.stdout != "200", "the photo was not served: its download was ended")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: setup.cache)) ?? []
        #expect(!names.contains { $0.hasSuffix(".jpg") || $0.contains("tmp") }, "\(names)")
    }

    /// At most as many connections as the descriptor limit leaves room for (under ulimit -n
    /// 128: 32): one more is answered 503 at once, not left waiting; a head that does not come
    /// within 10 s closes its connection, freeing its place; an HTTP/1.0 request without
    /// keep-alive gets Connection: close and its connection closed after the answer.
    /// Regression: 1,260 slow connections held every descriptor, others timed out; HTTP/1.0
    /// was held open 60 s.
    @Test func slowAndExcessConnectionsDoNotHoldTheServer() throws {
        let scratch = TemporaryDirectory()
        let db = scratch.file("photos.db")
        let load = try Tools.run("regions-load", ["-q", "--db", db, Tools.fixtures.appendingPathComponent("photos.ndjson").path],
                                 environment: Tools.environment(home: scratch.path))
        #expect(load.status == 0)
        let environment = Tools.environment(home: scratch.path)
        let port = try Self.freePort()
        let server = try Tools.start("/bin/bash", ["-c", #"ulimit -n 128 && exec "$0" "$@""#, Tools.path("regions-serve"),
                                                    "--db", db, "--cache-dir", scratch.file("cache"), "--port", "\(port)", "-q"],
                                     environment: environment)
        defer { kill(server.pid, SIGTERM); _ = try? server.wait() }
        let check = try Tools.run("/usr/bin/env", ["python3", "-c", """
            import socket, sys
            port = int(sys.argv[1])
            def connect():
                for attempt in range(200):
                    try:
                        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(60); return s
                    except ConnectionRefusedError:
                        import time; time.sleep(0.05)  # the server is starting
                raise SystemExit("cannot connect")
            def read_all(s):
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: return data
                    data += chunk
            def read_one(s):
                data = b""
                while b"\\r\\n\\r\\n" not in data: data += s.recv(65536)
                head, body = data.split(b"\\r\\n\\r\\n", 1)
                length = int([l for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:")][0].split(b":")[1])
                while len(body) < length: body += s.recv(65536)
                return head.split(b"\\r\\n")[0].decode()
            # 32 connections, each answered once (so counted in), then sending half a head.
            held = [connect() for _ in range(32)]
            for s in held: s.sendall(b"GET /recents HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port)
            print("held", set(read_one(s) for s in held))
            for s in held: s.sendall(b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n" % port)
            extra = connect(); extra.sendall(b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port)
            print("extra", read_all(extra).split(b"\\r\\n")[0].decode())
            print("closed", all(read_all(s) == b"" for s in held))
            # 32 POSTs whose bodies come a byte every 3 s (never the idle timeout's 10 s of
            # silence): each is closed once its body is 10 s late, and their places freed.
            import select, time
            slow = [connect() for _ in range(32)]
            for s in slow:
                s.sendall(b"POST /refresh HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nContent-Length: 4000\\r\\n\\r\\n" % port)
            started, open_ = time.monotonic(), list(slow)
            while open_ and time.monotonic() - started < 40:
                for s in list(open_):
                    readable, _, _ = select.select([s], [], [], 0)
                    try:
                        if readable and s.recv(65536) == b"": open_.remove(s); continue
                        s.sendall(b"x")
                    except (BrokenPipeError, ConnectionResetError):
                        open_.remove(s)
                time.sleep(3)
            print("slow closed", not open_)
            after = connect(); after.sendall(b"GET /recents HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port)
            print("after", read_one(after))
            # A body larger than any form is refused before it is waited for.
            huge = connect(); huge.sendall(b"POST /refresh HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nContent-Length: 99999999999\\r\\n\\r\\n" % port)
            print("huge", read_one(huge).split(" ")[1])
            old = connect(); old.sendall(b"GET /all HTTP/1.0\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port)
            answer = read_all(old)
            print("1.0", answer.split(b"\\r\\n")[0].decode(), b"\\r\\nconnection: close\\r\\n" in answer.lower())
            """, "\(port)"], environment: environment)
        #expect(check.stdout == """
            held {'HTTP/1.1 200 OK'}
            extra HTTP/1.1 503 Service Unavailable
            closed True
            slow closed True
            after HTTP/1.1 200 OK
            huge 413
            1.0 HTTP/1.1 200 OK True

            """, "\(check.stderr)")
    }

    static func freePort() throws -> Int {
        let probe = try Tools.run("/usr/bin/env", ["python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"],
                                  environment: ["PATH": "/usr/bin:/bin"])
        return Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    /// Bound to every address, the server still answers only to this machine's names and
    /// addresses and to --allow-host's: a page on another site whose name now points here
    /// (DNS rebinding) can neither read a page, and so the form token, nor delete a photo.
    /// Regression: a wildcard bind accepted any Host.
    @Test func boundToEveryAddressItAnswersOnlyToThisMachinesNames() throws {
        let setup = try Setup(["--bind", "0.0.0.0", "--allow-host", "photos.home.arpa"])
        // The address it says opens it from this machine (browsers refuse http://0.0.0.0/).
        #expect(setup.server.url == "http://127.0.0.1:\(setup.server.port)/")
        let port = setup.server.port
        let regionID = setup.top[0]["region_id"] as! String
        let id = try setup.regionsTop(["--region", regionID, "--limit", "1"])[0]["id"] as! String
        let token = try #require(PageText.token(in: try setup.get("/photos/\(id)").text))

        let rebound = try setup.get("/photos/\(id)", headers: ["Host": "evil.example:\(port)"])
        #expect(rebound.status == 403)
        #expect(PageText.token(in: rebound.text) == nil)
        #expect(rebound.text.hasPrefix("This server answers only to "))
        let deleting = try setup.post("/photos/\(id)/delete", form: "token=\(token)", headers: ["Host": "evil.example:\(port)"])
        #expect(deleting.status == 403)
        #expect(try setup.regionsTop(["--region", regionID, "--limit", "1"])[0]["id"] as? String == id, "the photo is still there")
        for host in ["evil.example", "127.0.0.1.evil.example:\(port)", "localhost:\(port + 1)", "", "[::1", "localhost:99999"] {
            #expect(try setup.get("/", headers: ["Host": host]).status == 403, "\(host)")
        }

        // This machine's own names and addresses, with the port; the names given, with any.
        let hostname = try Tools.run("/bin/hostname", [], environment: setup.environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var accepted = ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST.:\(port)", "0.0.0.0:\(port)", "\(hostname):\(port)",
                        "photos.home.arpa", "photos.home.arpa:443", "Photos.Home.Arpa."]
        let addresses = try Tools.run("/bin/hostname", ["-I"], environment: setup.environment).stdout.split(separator: " ").map(String.init)
            .filter { !$0.contains(":") && !$0.hasPrefix("\n") }
        accepted += addresses.map { "\($0):\(port)" }
        for host in accepted {
            #expect(try setup.get("/", headers: ["Host": host]).status == 200, "\(host)")
        }
        // Reached through one of the machine's addresses, as another machine would.
        if let address = addresses.first {
            let outside = try HTTPExchange.request("http://\(address):\(port)/", scratch: setup.scratch)
            #expect(outside.status == 200)
        }
        let stderr = setup.server.stop().stderr
        #expect(stderr.contains("regions-serve: listening on 0.0.0.0, not only on this machine: anyone who can reach it may browse the photos"))
    }

    /// --bind takes a name of this machine's (it listens on the address the name resolves to,
    /// and answers to the name); an address that is not this machine's fails before anything
    /// is said about what it would expose; a name that resolves to nothing is a usage error.
    @Test func bindTakesThisMachinesNamesAndRefusesOtherAddressesFirst() throws {
        let setup = try Setup(["--bind", "localhost"])
        #expect(setup.server.url == "http://localhost:\(setup.server.port)/")
        #expect(try setup.get("/").status == 200)
        #expect(try setup.get("/", headers: ["Host": "127.0.0.1:\(setup.server.port)"]).status == 200)
        #expect(try setup.get("/", headers: ["Host": "evil.example:\(setup.server.port)"]).status == 403)
        // A request must name one host: two Host headers, or an absolute-form target naming
        // another than its Host, are 400 (the check read the first Host, and answered 200).
        let port = setup.server.port
        let raw = try Tools.run("/usr/bin/env", ["python3", "-c", """
            import socket, sys
            port = int(sys.argv[1])
            for request in [b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nHost: evil.example\\r\\n\\r\\n" % port,
                            b"GET http://evil.example/ HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port,
                            b"GET http://127.0.0.1:%d/ HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nConnection: close\\r\\n\\r\\n" % (port, port)]:
                s = socket.create_connection(("127.0.0.1", port)); s.settimeout(30); s.sendall(request)
                answer = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    answer += chunk
                print(answer.split(b"\\r\\n")[0].decode())
            """, "\(port)"], environment: setup.environment)
        #expect(raw.stdout == "HTTP/1.1 400 Bad Request\nHTTP/1.1 400 Bad Request\nHTTP/1.1 200 OK\n", "\(raw.stdout)\(raw.stderr)")
        #expect(!setup.server.stop().stderr.contains("not only on this machine"))

        let elsewhere = try Tools.run("regions-serve", ["--db", setup.db, "--port", "0", "--bind", "10.99.99.99"], environment: setup.environment)
        #expect(elsewhere.status == 69)
        #expect(elsewhere.stderr == "regions-serve: cannot listen on http://10.99.99.99:0/: 10.99.99.99 is not an address of this machine\n")
        let unknown = try Tools.run("regions-serve", ["--db", setup.db, "--port", "0", "--bind", "no-such-host.invalid"], environment: setup.environment)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--bind: 'no-such-host.invalid' is neither an IP address nor a name that resolves to one"))
        let badName = try Tools.run("regions-serve", ["--db", setup.db, "--port", "0", "--allow-host", "https://x.example/"], environment: setup.environment)
        #expect(badName.status == 64 && badName.stderr.contains("--allow-host: 'https://x.example/' is not a host name"))
    }
}

