import Foundation
import Testing
import TopRegionsTestSupport

/// The surface every tool shares: -q and -v, the same status for the same failure, messages
/// that start with the tool's name and say what and where, argument errors that point at the
/// real mistake, counts in English.
@Suite struct InterfaceEndToEndTests {
    static let tools = ["flickr-recent", "place-resolve", "regions-load", "regions-top", "thumb-get", "photo-cache", "regions-serve"]

    @Test func everyToolHasTheSameQuietAndVerbose() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        for tool in Self.tools {
            let help = try Tools.run(tool, ["--help"], environment: environment)
            #expect(help.stdout.contains("  -q, --quiet             Print nothing on stderr but errors: no summary, no\n"), "\(tool)")
            #expect(help.stdout.contains("  -v, --verbose           Trace on stderr what the tool does: requests (API key\n"), "\(tool)")
            let both = try Tools.run(tool, ["-q", "-v"], environment: environment)
            #expect(both.status == 64, "\(tool)")
            #expect(both.stderr.hasPrefix("\(tool): -q (--quiet) and -v (--verbose) contradict each other"), "\(tool): \(both.stderr)")
        }
    }

    /// The crontab line of the README, run as cron runs it (`/bin/sh -c`, cron's few
    /// variables and the line's own) on a new database: it stores exactly the fake's world
    /// and prints nothing, so cron mails nothing; and a second run an hour later too.
    /// Regression: the line gave the key to flickr-recent alone, place-resolve stopped with
    /// 78, and the pipeline said 0 with no photo stored.
    @Test func theReadmeCronLineWorksAsCronRunsIt() throws {
        let readme = try String(contentsOf: Tools.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let cronLine = try #require(readme.split(separator: "\n").first { $0.hasPrefix("*/20 * * * *") })
        let command = cronLine.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)[5]
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "FLICKR_API_KEY=...", with: "FLICKR_API_KEY=\(FakeFlickrProcess.apiKey)")
        let setup = try NetworkEndToEndTests.Setup()
        // What cron gives a job, and the fake's address (a real crontab needs none).
        let env = [
            "HOME": setup.scratch.path, "LOGNAME": "root", "SHELL": "/bin/sh", "PATH": Tools.binDirectory.path + ":/usr/bin:/bin",
            "FLICKR_API_BASE": setup.fake.apiBase, "TOPREGIONS_BACKOFF_SCALE": "0.01",
        ]
        let db = setup.scratch.path + "/.local/share/topregions/topregions.db"
        let first = try Tools.run("/bin/sh", ["-c", command], environment: env)
        #expect(first.status == 0)
        #expect(first.stdout == "" && first.stderr == "", "\(first.stdout)\(first.stderr)")
        let top = try Tools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson", "--no-refresh"], environment: setup.environment)
        #expect(FakeFlickrProcess.truthLines(top.stdout) == (try setup.truth()))
        try setup.fake.control("/_fake/clock?advance=3600")
        let second = try Tools.run("/bin/sh", ["-c", command], environment: env)
        #expect(second.status == 0)
        #expect(second.stdout == "" && second.stderr == "", "\(second.stdout)\(second.stderr)")
        // Without a key, the line fails as the first stage does, and creates nothing.
        let keyless = command.replacingOccurrences(of: "FLICKR_API_KEY=\(FakeFlickrProcess.apiKey) ", with: "")
        var fresh = env
        fresh["HOME"] = setup.scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: fresh["HOME"]!, withIntermediateDirectories: true)
        let failed = try Tools.run("/bin/sh", ["-c", keyless], environment: fresh)
        #expect(failed.status == 78, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("flickr-recent: no Flickr API key"), "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("regions-load: the refresh failed: flickr-recent exited with status 78\n"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh["HOME"]! + "/.local/share/topregions/topregions.db"))
    }

    /// A pipeline in which place-resolve cannot look places up (the key given to
    /// flickr-recent alone, as the README's line once did) loses nothing: place-resolve passes
    /// every record on, says why with 78, regions-load stores them all, and
    /// place-resolve --pending, given the key, gives them their regions: the counts are then
    /// exactly the fake's. Regression: place-resolve dropped every record of a new place.
    @Test func recordsPlaceResolveCannotResolveAreStoredAndResolvedLater() throws {
        let setup = try NetworkEndToEndTests.Setup()
        var env = setup.environment
        env["FLICKR_API_KEY"] = nil
        env["KEY"] = FakeFlickrProcess.apiKey
        env["DB"] = setup.db
        let run = try Tools.shell("""
            FLICKR_API_KEY="$KEY" "$BIN/flickr-recent" -q --db "$DB" | "$BIN/place-resolve" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB"
            echo "${PIPESTATUS[*]}"
            """, environment: env)
        #expect(run.stdout.split(separator: "\n").last == "0 78 0", "\(run.stderr)")
        let fetched = try setup.fake.requests(method: "flickr.photos.search").count
        #expect(fetched > 0)
        #expect(try setup.fake.requests(method: "flickr.places.getInfo").isEmpty)
        let stored = try Tools.run("/usr/bin/sqlite3", [setup.db, "SELECT COUNT(*) FROM photo"], environment: env).stdout
        let truthPhotos = try setup.truth().map { Int($0.split(separator: " | ").last!)! }.reduce(0, +)
        #expect(Int(stored.trimmingCharacters(in: .whitespacesAndNewlines))! >= truthPhotos)
        let said = run.stderr.split(separator: "\n")
        #expect(said.count == 1, "\(run.stderr)")
        #expect(said.first?.hasPrefix("place-resolve: no Flickr API key: set FLICKR_API_KEY or give --api-key-file") == true)
        #expect(said.first?.contains(" records passed on without a region (place-resolve --pending gives them one once it can look their places up)") == true)

        let pending = try Tools.run("place-resolve", ["-q", "--db", setup.db, "--pending"], environment: setup.environment)
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(try setup.topLines() == (try setup.truth()))
    }

    /// The cron line mends what a failed run left: a refresh that ran out of the hour's calls
    /// stored its photos, those whose places it could not look up without a region (75);
    /// the next refresh, whose --since-last fetch never brings those photos again, looks
    /// their places up after its pipeline (place-resolve --pending): the counts are then
    /// exactly the fake's, each place asked once. Regression: they stayed out of every count
    /// until someone ran place-resolve --pending by hand.
    @Test func theNextRefreshResolvesThePlacesAFailedOneLeft() throws {
        let setup = try NetworkEndToEndTests.Setup()
        var limited = setup.environment
        limited["FLICKR_HOURLY_LIMIT"] = "20"
        let failed = try Tools.run("regions-load", ["-q", "--db", setup.db, "--refresh"], environment: limited)
        #expect(failed.status == 75, "\(failed.stderr)")
        let unplaced = { try Tools.run("/usr/bin/sqlite3", [setup.db, "SELECT COUNT(*) FROM photo WHERE region IS NULL AND place_id NOT IN (SELECT place_id FROM place)"], environment: setup.environment).stdout }
        #expect(try unplaced() != "0\n")
        let mended = try Tools.run("regions-load", ["-q", "--db", setup.db, "--refresh"], environment: setup.environment)
        #expect(mended.status == 0 && mended.stderr == "", "\(mended.stderr)")
        #expect(try unplaced() == "0\n")
        #expect(try setup.topLines() == (try setup.truth()))
        let asked = try setup.fake.requests(method: "flickr.places.getInfo").map { $0.params["place_id"] ?? "" }
        #expect(Set(asked).count == asked.count, "a place asked twice")
        // With nothing left to look up, a refresh says no more than before.
        let quiet = try Tools.run("regions-load", ["--db", setup.db, "--refresh"], environment: setup.environment)
        #expect(quiet.status == 0 && !quiet.stderr.contains("pending"), "\(quiet.stderr)")
    }

    /// -v says what each tool does, with the key hidden.
    @Test func verboseTracesWhatEachToolDoes() throws {
        let setup = try ImagesEndToEndTests.Setup()
        let recent = try Tools.run("flickr-recent", ["-v", "--db", setup.db, "--since-last", "--pages", "1", "--per-page", "5"], environment: setup.environment)
        #expect(recent.status == 0)
        #expect(recent.stderr.contains("flickr-recent: --since-last: the newest stored upload is "), "\(recent.stderr)")
        #expect(recent.stderr.contains("flickr-recent: GET \(setup.fake.apiBase)?"), "\(recent.stderr)")
        #expect(!recent.stderr.contains(FakeFlickrProcess.apiKey))

        let thumbs = try Tools.run("thumb-get", ["-v", "--db", setup.db, setup.ids[0]], environment: setup.environment)
        #expect(thumbs.stderr.contains("thumb-get: database \(setup.db)\n"))
        #expect(thumbs.stderr.contains("thumb-get: GET \(setup.fake.baseURL)/"), "\(thumbs.stderr)")
        #expect(thumbs.stderr.contains("_q.jpg → 200, "), "the 150 px square, not the 75 px one the record names")
        #expect(thumbs.stderr.contains("thumb-get: photo \(setup.ids[0]): downloaded, "))
        let again = try Tools.run("thumb-get", ["-v", "--db", setup.db, setup.ids[0]], environment: setup.environment)
        #expect(again.stderr.contains("thumb-get: photo \(setup.ids[0]): from the database, "))

        let photo = try setup.photoCache(["-v", setup.ids[0]])
        #expect(photo.stderr.contains("photo-cache: photo \(setup.ids[0]): downloaded, 100K, "), "\(photo.stderr)")
        let hit = try setup.photoCache(["-v", setup.ids[0]])
        #expect(hit.stderr.contains("photo-cache: photo \(setup.ids[0]): in the cache, "), "\(hit.stderr)")

        let load = try Tools.run("regions-load", ["-v", "--db", setup.scratch.file("v.db"), "--batch-size", "2"], input: recent.stdoutBytes, environment: setup.environment)
        #expect(load.stderr.contains("regions-load: committed 2 records (up to stdin line 2): new 2, updated 0, already stored 0\n"), "\(load.stderr)")
        #expect(load.stderr.contains("regions-load: committed 1 record (up to stdin line 5): new 1, updated 0, already stored 0\n"), "\(load.stderr)")
        #expect(load.stderr.hasSuffix("regions-load: read 5, new 5, updated 0, already stored 0\n"))
    }

    /// A refused connection is "try again later" (75) from every tool that downloads or
    /// calls Flickr, whatever it was fetching.
    @Test func aRefusedConnectionIs75Everywhere() throws {
        let setup = try ImagesEndToEndTests.Setup()
        // Port 1 (tcpmux): nothing listens there, so every connection is refused.
        let dead = "http://127.0.0.1:1"
        _ = try Tools.run("/usr/bin/sqlite3", [setup.db, "UPDATE photo SET thumb_url = '\(dead)/t.jpg', photo_url = '\(dead)/p.jpg'"], environment: setup.environment)
        var env = setup.environment
        env["FLICKR_API_BASE"] = dead + "/services/rest/"
        let record = #"{"id":"1","owner":"a@N01","place_id":"never.seen"}"# + "\n"
        let runs: [(String, [String], String?)] = [
            ("flickr-recent", ["--retries", "1"], nil),
            ("place-resolve", ["--retries", "1"], record),
            ("thumb-get", [setup.ids[0]], nil),
            ("photo-cache", [setup.ids[0]], nil),
        ]
        for (tool, arguments, input) in runs {
            let run = try Tools.run(tool, ["--db", setup.db] + arguments, input: input.map { Array($0.utf8) }, environment: env)
            #expect(run.status == 75, "\(tool): \(run.stderr)")
            #expect(run.stderr.hasPrefix("\(tool): "), "\(tool): \(run.stderr)")
            #expect(run.stderr.contains("Couldn't connect to server") || run.stderr.contains("Connection refused"), "\(tool): \(run.stderr)")
        }
    }

    /// Every message starts with the tool's name and says what failed where, in words.
    @Test func messagesNameTheToolAndSayWhatAndWhere() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        _ = try Tools.run("regions-load", ["-q", "--db", db, StoreEndToEndTests.fixture], environment: environment)

        var env = environment
        env["DB"] = db
        let full = try Tools.shell(#""$BIN/regions-top" --db "$DB" > /dev/full"#, environment: env)
        #expect(full.status == 74)
        #expect(full.stderr == "regions-top: cannot write to standard output: No space left on device\n")

        let cache = try Tools.run("photo-cache", ["--db", db, "--cache-dir", "/etc/passwd/x", "1"], environment: environment)
        #expect(cache.status == 73)
        #expect(cache.stderr == "photo-cache: cannot create the cache directory /etc/passwd/x: Not a directory\n")
        let out = try Tools.run("thumb-get", ["--db", db, "--out", "/etc/passwd/thumbs", "1"], environment: environment)
        #expect(out.status == 73)
        #expect(out.stderr == "thumb-get: cannot create the --out directory /etc/passwd/thumbs: Not a directory\n")
        var noDataHome = environment
        noDataHome["XDG_DATA_HOME"] = "/etc/passwd"
        let dataHome = try Tools.run("regions-load", [], input: [], environment: noDataHome)
        #expect(dataHome.status == 73)
        #expect(dataHome.stderr == "regions-load: cannot create the database directory /etc/passwd/topregions: Not a directory\n")

        for tool in Self.tools {
            let unknown = try Tools.run(tool, ["--no-such-option"], environment: environment)
            #expect(unknown.status == 64, "\(tool)")
            #expect(unknown.stderr.hasPrefix("\(tool): Unknown option '--no-such-option'"), "\(tool): \(unknown.stderr)")
            #expect(!unknown.stderr.contains("Error:"))
        }
        for run in [full, cache, out, dataHome] {
            #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("The operation could not be completed"))
        }
    }

    /// Argument errors point at the real mistake; a lone "help" is a request for help.
    @Test func argumentErrorsPointAtTheRealMistake() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        try Tools.makeEmptyDatabase(db, environment: environment)

        let limit = try Tools.run("regions-top", ["--db", db, "--limit", "-1"], environment: environment)
        #expect(limit.status == 64)
        #expect(limit.stderr.hasPrefix("regions-top: --limit must be at least 1\n"), "\(limit.stderr)")
        let parallel = try Tools.run("thumb-get", ["--db", db, "--parallel", "-3", "1"], environment: environment)
        #expect(parallel.stderr.hasPrefix("thumb-get: --parallel must be between 1 and 32\n"), "\(parallel.stderr)")

        let format = try Tools.run("photo-cache", ["--db", db, "--info", "--format", "table"], environment: environment)
        #expect(format.status == 64)
        #expect(format.stderr.hasPrefix("photo-cache: Unknown option '--format'"), "\(format.stderr)")
        let ids = try Tools.run("photo-cache", ["--db", db, "--info", "123"], environment: environment)
        #expect(ids.status == 64)
        #expect(ids.stderr == "photo-cache: --info and --prune take no photo ids\n")

        for tool in Self.tools {
            let help = try Tools.run(tool, ["help"], input: [], environment: environment)
            #expect(help.status == 0, "\(tool)")
            #expect(help.stdout.contains("USAGE: \(tool)"), "\(tool)")
            #expect(help.stderr == "", "\(tool): \(help.stderr)")
        }
        let helpFile = try Tools.run("regions-load", ["--db", db, "help"], input: [], environment: environment)
        #expect(helpFile.status == 64)
        #expect(helpFile.stderr.hasPrefix("regions-load: no file named 'help' here; for help, give --help"), "\(helpFile.stderr)")
        let helpID = try Tools.run("thumb-get", ["--db", db, "help"], environment: environment)
        #expect(helpID.status == 64)
        #expect(helpID.stderr.hasPrefix("thumb-get: 'help' is not a photo id; for help, give --help"))
        // A file that is really called "help" is read.
        try #"{"id":"9","owner":"z@N01","region_id":"R9","region":"Nine"}"#.write(toFile: scratch.file("help"), atomically: true, encoding: .utf8)
        let realFile = try Tools.run("/bin/sh", ["-c", "cd \"$0\" && \"$1\" --db \"$2\" help", scratch.path, Tools.path("regions-load"), db], environment: environment)
        #expect(realFile.stderr == "regions-load: read 1, new 1, updated 0, already stored 0\n", "\(realFile.stderr)")
    }

    /// Counts read as English: "1 page", "1 record", "(1 repeat dropped)".
    @Test func countsAgreeWithTheirNouns() throws {
        let setup = try NetworkEndToEndTests.Setup()
        let one = try Tools.run("flickr-recent", ["--db", setup.db, "--pages", "1", "--per-page", "1"], environment: setup.environment)
        #expect(one.stderr == "flickr-recent: 1 page, 1 photo; stopped at --pages 1\n")
        // The second page repeats the first's last photo, as Flickr does when photos shift.
        let two = try Tools.run("flickr-recent", ["--db", setup.db, "--pages", "2", "--per-page", "100"], environment: setup.environment)
        #expect(two.stderr == "flickr-recent: 2 pages, 199 photos (1 repeat dropped); stopped at --pages 2\n")

        let resolve = try Tools.run("place-resolve", ["--db", setup.db], input: one.stdoutBytes, environment: setup.environment)
        #expect(resolve.stderr == "place-resolve: 1 record, 1 place known, 1 looked up\n", "\(resolve.stderr)")
        let bad = try Tools.run("regions-load", ["--db", setup.db, "--skip-bad-lines"], input: Array("oops\n".utf8), environment: setup.environment)
        #expect(bad.stderr.hasSuffix("regions-load: read 0, new 0, updated 0, already stored 0, 1 bad line\n"), "\(bad.stderr)")
        _ = try Tools.run("regions-load", ["-q", "--db", setup.db], input: one.stdoutBytes, environment: setup.environment)
        let cache = setup.scratch.file("cache")
        _ = try Tools.run("photo-cache", ["-q", "--db", setup.db, "--cache-dir", cache, String(one.stdout.split(separator: "\"")[3])], environment: setup.environment)
        let prune = try Tools.run("photo-cache", ["--cache-dir", cache, "--prune", "--max-bytes", "0"], environment: setup.environment)
        #expect(prune.stderr.hasPrefix("photo-cache: removed 1 photo ("), "\(prune.stderr)")
    }

    /// flickr-fake answers --version; place-resolve asks for a key only when it must look a
    /// place up.
    @Test func versionsAndKeysOnlyWhenNeeded() throws {
        let scratch = TemporaryDirectory()
        let fakeVersion = try Tools.run("flickr-fake", ["--version"], environment: Tools.environment(home: scratch.path))
        #expect(fakeVersion.status == 0)
        #expect(fakeVersion.stdout == "0.2.0\n", "the toolkit's version, as its man page says")
        // A port it cannot listen on is 64, as its man page says (it ended 1, in the network
        // library's words).
        let setupForPort = try NetworkEndToEndTests.Setup()
        let port = try #require(setupForPort.fake.apiBase.split(separator: ":").last?.split(separator: "/").first)
        let taken = try Tools.run("flickr-fake", ["--port", String(port)], environment: Tools.environment(home: scratch.path))
        #expect(taken.status == 64 && taken.stderr.hasPrefix("flickr-fake: cannot listen on 127.0.0.1:\(port): Address already in use\n"), "\(taken.stderr)")

        let setup = try NetworkEndToEndTests.Setup()
        let records = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--pages", "1", "--per-page", "50"], environment: setup.environment)
        let resolved = try Tools.run("place-resolve", ["-q", "--db", setup.db], input: records.stdoutBytes, environment: setup.environment)
        #expect(resolved.status == 0)
        let before = try setup.fake.requests().count

        var keyless = setup.environment
        keyless["FLICKR_API_KEY"] = nil
        let known = try Tools.run("place-resolve", ["--db", setup.db], input: records.stdoutBytes, environment: keyless)
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stdout == resolved.stdout, "the records pass through with their regions")
        #expect(known.stderr.hasPrefix("place-resolve: 50 records, "))
        let pending = try Tools.run("place-resolve", ["--db", setup.db, "--pending"], environment: keyless)
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(try setup.fake.requests().count == before)

        let unknown = try Tools.run("place-resolve", ["--db", setup.db], input: Array(#"{"id":"1","owner":"a@N01","place_id":"never.seen"}"#.utf8), environment: keyless)
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("\nplace-resolve: no Flickr API key: set FLICKR_API_KEY or give --api-key-file"))
        #expect(unknown.stdout == #"{"id":"1","owner":"a@N01","owner_name":"","title":"","description":"","place_id":"never.seen"}"# + "\n", "passed on, unresolved")
    }

    /// CSV cells that a spreadsheet would run as formulas stay text; numbers stay numbers.
    @Test func csvGuardsAgainstFormulaInjection() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let records = [
            #"{"id":"1","owner":"a@N01","ownername":"@admin","title":"=HYPERLINK(\"http://x\",\"click\")","latitude":40.4,"longitude":-3.7,"region_id":"R1","region":"-Madrid","dateupload":100}"#,
            #"{"id":"2","owner":"b@N01","title":"+1 sunrise","description":"\tindented","latitude":-33.9,"longitude":151.2,"region_id":"R1","region":"-Madrid","dateupload":200}"#,
        ]
        let load = try Tools.run("regions-load", ["--db", db], input: Array(records.joined(separator: "\n").utf8), environment: environment)
        #expect(load.status == 0, "\(load.stderr)")
        let photos = try Tools.run("regions-top", ["--db", db, "--region", "R1", "--format", "csv"], environment: environment)
        let lines = photos.stdout.components(separatedBy: "\r\n")
        #expect(lines[1] == "2,b@N01,,\"'+1 sunrise\",\"'\tindented\",-33.9,151.2,,200,,,R1,\"'-Madrid\",,", "\(lines[1])")
        #expect(lines[2] == #"1,a@N01,"'@admin","'=HYPERLINK(""http://x"",""click"")",,40.4,-3.7,,100,,,R1,"'-Madrid",,"#, "\(lines[2])")
        let regions = try Tools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
        #expect(regions.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R1,\"'-Madrid\",2,2,,\r\n")
    }

    /// Times in tables are local time with their zone said; --utc shows UTC.
    @Test func tableTimesSayTheirZone() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        // 1763852400 is 2025-11-22 23:00 UTC.
        let record = #"{"id":"1","owner":"a@N01","title":"Late","region_id":"R1","region":"Tōkyō, Japan","dateupload":1763852400}"#
        _ = try Tools.run("regions-load", ["-q", "--db", db], input: Array(record.utf8), environment: environment)
        func table(_ extra: [String], zone: String) throws -> String {
            var env = environment
            env["TZ"] = zone
            return try Tools.run("regions-top", ["--db", db, "--region", "R1", "--format", "table"] + extra, environment: env).stdout
        }
        #expect(try table([], zone: "Asia/Tokyo") == """
            ID  UPLOADED (+09:00)  PHOTOGRAPHER  REGION        TITLE
            1   2025-11-23 08:00   a@N01         Tōkyō, Japan  Late

            """)
        #expect(try table([], zone: "America/St_Johns").contains("UPLOADED (-03:30)  PHOTOGRAPHER  REGION        TITLE\n1   2025-11-22 19:30 "))
        #expect(try table(["--utc"], zone: "Asia/Tokyo").contains("UPLOADED (UTC)    PHOTOGRAPHER  REGION        TITLE\n1   2025-11-22 23:00 "))
    }
}
