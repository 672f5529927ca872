import Foundation
import Testing
import TopRegionsTestSupport

/// flickr-recent | place-resolve | regions-load against flickr-fake, with the fake's request
/// log as the witness of what was asked.
@Suite struct NetworkEndToEndTests {
    static let world = ["--seed", "7", "--places-per-region", "3"]

    struct Setup {
        let scratch = TemporaryDirectory()
        let fake: FakeFlickrProcess
        let db: String
        let environment: [String: String]

        init(_ extraFakeArguments: [String] = [], environment extra: [String: String] = [:]) throws {
            fake = try FakeFlickrProcess(NetworkEndToEndTests.world + extraFakeArguments, scratch: scratch)
            db = scratch.file("photos.db")
            environment = fake.environment(home: scratch.path, extra)
        }

        /// The refresh pipeline; returns its output and the three exit statuses.
        func refresh(recent: [String] = [], resolve: [String] = []) throws -> (RunResult, [Int32]) {
            var env = environment
            env["DB"] = db
            env["RECENT_ARGS"] = recent.joined(separator: " ")
            env["RESOLVE_ARGS"] = resolve.joined(separator: " ")
            let run = try Tools.shell("""
                "$BIN/flickr-recent" -q --db "$DB" $RECENT_ARGS | "$BIN/place-resolve" -q --db "$DB" $RESOLVE_ARGS | "$BIN/regions-load" -q --db "$DB"
                echo "${PIPESTATUS[*]}"
                """, environment: env)
            let statuses = run.stdout.split(separator: "\n").last!.split(separator: " ").map { Int32($0)! }
            return (run, statuses)
        }

        func topLines() throws -> [String] {
            let top = try Tools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson", "--no-refresh"], environment: environment)
            return FakeFlickrProcess.truthLines(top.stdout)
        }

        func truth(_ query: String = "") throws -> [String] {
            FakeFlickrProcess.truthLines(try fake.control("/_fake/truth" + query, post: false))
        }
    }

    @Test func theRefreshProducesExactlyTheGroundTruth() throws {
        let setup = try Setup()
        let (run, statuses) = try setup.refresh()
        #expect(statuses == [0, 0, 0], "\(run.stderr)")
        let top = try setup.topLines()
        #expect(top.count > 50)
        #expect(top == (try setup.truth()))
        // The same truth, computed by the fake's command line from the same world.
        let cli = try Tools.run("flickr-fake", ["--truth"] + Self.world, environment: setup.environment)
        #expect(top == FakeFlickrProcess.truthLines(cli.stdout))
    }

    @Test func everyPlaceIsAskedOnceOverTwoRuns() throws {
        let setup = try Setup()
        _ = try setup.refresh()
        let first = try setup.fake.requests(method: "flickr.places.getInfo")
        let places = Set(first.map { $0.params["place_id"]! })
        #expect(first.count == places.count)
        #expect(places.count > 150)

        let (run, statuses) = try setup.refresh()
        #expect(statuses == [0, 0, 0], "\(run.stderr)")
        #expect(try setup.fake.requests(method: "flickr.places.getInfo").count == first.count)
        #expect(try setup.topLines() == (try setup.truth()))
    }

    @Test func sinceLastAsksOnlyForNewerPhotos() throws {
        let setup = try Setup()
        _ = try setup.refresh()
        let startClock = try Self.clock(setup.fake)
        let firstSearches = try setup.fake.requests(method: "flickr.photos.search").count
        let newest = try Tools.run("/usr/bin/sqlite3", [setup.db, "SELECT value FROM store_state WHERE key = 'newest_upload'"], environment: setup.environment)
        let watermark = Int(newest.stdout.trimmingCharacters(in: .whitespacesAndNewlines))!

        try setup.fake.control("/_fake/clock?advance=7200")
        let (run, statuses) = try setup.refresh(recent: ["--since-last", "--overlap", "10m"])
        #expect(statuses == [0, 0, 0], "\(run.stderr)")
        let second = try setup.fake.requests(method: "flickr.photos.search").dropFirst(firstSearches)
        #expect(!second.isEmpty)
        // Every query of the second run starts at the stored watermark minus the overlap
        // (or later, after a restart at the 4,000-result cap).
        for request in second {
            let from = Int(request.params["min_upload_date"] ?? "0")!
            #expect(from >= watermark - 600)
        }
        #expect(Int(second.first!.params["min_upload_date"]!)! == watermark - 600)
        // The store now holds both windows: the first run's 12 hours and the 2 new hours.
        #expect(try setup.topLines() == (try setup.truth("?min_upload_date=\(startClock - 43_199)&max_upload_date=\(startClock + 7200)")))
    }

    static func clock(_ fake: FakeFlickrProcess) throws -> Int {
        let text = try fake.control("/_fake/clock", post: false)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        return object["now"] as! Int
    }

    @Test(arguments: [
        ["--fail-500", "0.3"],
        ["--fail-105", "0.3"],
        ["--fail-429", "0.3", "--retry-after", "0"],
        ["--truncate", "0.3"],
        ["--latency-ms", "20", "--fail-500", "0.1", "--fault-repeat", "2"],
    ])
    func transientFaultsEndInTheSameDatabaseAsACleanRun(faults: [String]) throws {
        let setup = try Setup(faults)
        let (run, statuses) = try setup.refresh()
        #expect(statuses == [0, 0, 0], "\(faults): \(run.stderr)")
        #expect(try setup.topLines() == (try setup.truth()), "\(faults)")
        let faulted = try setup.fake.requests().filter { $0.fault != "none" }
        #expect(!faulted.isEmpty, "the fault switch \(faults) did nothing")
        // Every place was still asked exactly once successfully.
        let answered = try setup.fake.requests(method: "flickr.places.getInfo").filter { $0.fault == "none" }
        #expect(answered.count == Set(answered.map { $0.params["place_id"]! }).count)
    }

    @Test func aPersistentOutageEndsClearlyWithNothingHalfWritten() throws {
        let setup = try Setup(["--fail-500", "1", "--fault-repeat", "0"])
        let (run, statuses) = try setup.refresh(recent: ["--retries", "2"])
        #expect(statuses[0] == 75)
        #expect(run.stderr.contains("flickr-recent: flickr.photos.search: HTTP 500"))
        #expect(try setup.topLines().isEmpty)
        #expect(try setup.fake.requests(method: "flickr.photos.search").count == 3)
    }

    /// -v says each retry once: what failed (the call's method, named once), which attempt
    /// comes next, and when.
    @Test func verboseSaysEachRetryOnce() throws {
        let setup = try Setup(["--fail-500", "1", "--fault-repeat", "0"], environment: ["TOPREGIONS_BACKOFF_SCALE": "0"])
        let run = try Tools.run("flickr-recent", ["-v", "--db", setup.db, "--retries", "2", "--pages", "1"], environment: setup.environment)
        #expect(run.status == 75)
        let retries = run.stderr.split(separator: "\n").filter { $0.contains("; attempt ") }
        #expect(retries == [
            "flickr-recent: flickr.photos.search: HTTP 500; attempt 2 of 3 in 0.00 s",
            "flickr-recent: flickr.photos.search: HTTP 500; attempt 3 of 3 in 0.00 s",
        ], "\(run.stderr)")
        #expect(try setup.fake.requests(method: "flickr.photos.search").count == 3)
    }

    @Test func placesThatFailStayUnknownUntilPending() throws {
        let setup = try Setup()
        let records = try Tools.run("flickr-recent", ["-q", "--db", setup.db], environment: setup.environment)
        #expect(records.status == 0)
        // Flickr now fails every call: each place's lookup fails after its retries.
        try setup.fake.control("/_fake/faults?fail_500=1&fault_repeat=0&faults_on=rest")
        let resolve = try Tools.run("place-resolve", ["-q", "--db", setup.db, "--retries", "1"], input: records.stdoutBytes, environment: setup.environment)
        #expect(resolve.status == 75)
        #expect(resolve.stderr.contains("places could not be looked up"))
        #expect(resolve.stdout == records.stdout, "records pass through unchanged when their place is unknown")
        let load = try Tools.run("regions-load", ["-q", "--db", setup.db], input: resolve.stdoutBytes, environment: setup.environment)
        #expect(load.status == 0)
        #expect(try setup.topLines().isEmpty)

        // Nothing was remembered as "no region": once Flickr is back, --pending catches up.
        try setup.fake.control("/_fake/faults")
        let pending = try Tools.run("place-resolve", ["--db", setup.db, "--pending"], environment: setup.environment)
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(try setup.topLines() == (try setup.truth()))
    }

    @Test func pendingResolvesPhotosLoadedWithoutRegions() throws {
        let setup = try Setup()
        var env = setup.environment
        env["DB"] = setup.db
        let load = try Tools.shell(#""$BIN/flickr-recent" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB"; echo "${PIPESTATUS[*]}""#, environment: env)
        #expect(load.stdout == "0 0\n")
        #expect(try setup.topLines().isEmpty)
        let pending = try Tools.run("place-resolve", ["--db", setup.db, "--pending"], environment: setup.environment)
        #expect(pending.status == 0)
        #expect(pending.stdout == "")
        #expect(try setup.topLines() == (try setup.truth()))
        let lookups = try setup.fake.requests(method: "flickr.places.getInfo")
        #expect(lookups.count == Set(lookups.map { $0.params["place_id"]! }).count)
        let again = try Tools.run("place-resolve", ["--db", setup.db, "--pending"], environment: setup.environment)
        #expect(again.stderr.hasPrefix("place-resolve: 0 pending places"))
        #expect(try setup.fake.requests(method: "flickr.places.getInfo").count == lookups.count)
    }

    @Test func twoResolversAtOnceAskEachPlaceOnce() throws {
        let setup = try Setup()
        let records = try Tools.run("flickr-recent", ["-q", "--db", setup.db], environment: setup.environment)
        try Data(records.stdoutBytes).write(to: URL(fileURLWithPath: setup.scratch.file("records.ndjson")))
        let a = try Tools.start("place-resolve", ["-q", "--db", setup.db, setup.scratch.file("records.ndjson")], environment: setup.environment)
        let b = try Tools.start("place-resolve", ["-q", "--db", setup.db, setup.scratch.file("records.ndjson")], environment: setup.environment)
        let (ra, rb) = (try a.wait(), try b.wait())
        #expect(ra.status == 0 && rb.status == 0)
        #expect(ra.stdout == rb.stdout)
        let lookups = try setup.fake.requests(method: "flickr.places.getInfo")
        #expect(lookups.count == Set(lookups.map { $0.params["place_id"]! }).count)
    }

    @Test func aWrongKeyStopsAtOnceWithoutShowingTheKey() throws {
        let setup = try Setup()
        let secret = "wrong-key-6f1d2c9a7b"
        var env = setup.environment
        env["FLICKR_API_KEY"] = secret
        let run = try Tools.run("flickr-recent", ["--db", setup.db, "--verbose"], environment: env)
        #expect(run.status == 78)
        #expect(run.stderr.contains("Flickr error 100: Invalid API Key"))
        #expect(run.stderr.contains("api_key=[API%20key]"))
        #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret))
        #expect(try setup.fake.requests().count == 1)
        let resolve = try Tools.run("place-resolve", ["--db", setup.db], input: Array(#"{"id":"1","owner":"a@N01","place_id":"X.y"}"#.utf8), environment: env)
        #expect(resolve.status == 78)
        #expect(!resolve.stderr.contains(secret))
        #expect(!(try String(contentsOfFile: setup.fake.logPath, encoding: .utf8)).contains(secret))
    }

    @Test func aMissingKeyIsAConfigurationError() throws {
        let scratch = TemporaryDirectory()
        let run = try Tools.run("flickr-recent", ["--db", scratch.file("x.db")], environment: Tools.environment(home: scratch.path))
        #expect(run.status == 78)
        #expect(run.stderr.hasPrefix("flickr-recent: no Flickr API key: set FLICKR_API_KEY or give --api-key-file"))
    }

    @Test func theRunBudgetAndTheHourlyLimitStopCallsAndSayWhy() throws {
        let setup = try Setup()
        let budget = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--per-page", "100", "--max-calls", "2"], environment: setup.environment)
        #expect(budget.status == 75)
        #expect(budget.stderr.contains("budget of 2 Flickr calls is spent"))
        // Two pages of 100; the second repeats the first's last photo (as Flickr does when
        // photos shift), which flickr-recent drops.
        #expect(budget.stdout.split(separator: "\n").count == 199)

        // Two calls are already in this database's ledger: a limit of 5 allows three more.
        var env = setup.environment
        env["FLICKR_HOURLY_LIMIT"] = "5"
        let resolve = try Tools.run("place-resolve", ["-q", "--db", setup.db, "--parallel", "1"], input: budget.stdoutBytes, environment: env)
        #expect(resolve.status == 75)
        #expect(resolve.stderr.contains("5 Flickr calls were made with this database in the last hour"))
        #expect(try setup.fake.requests().count == 5)
        // Records still pass through, unresolved where their place was not asked.
        #expect(resolve.stdout.split(separator: "\n").count == 199)
    }

    @Test func retryAfterIsHonoured() throws {
        let setup = try Setup(["--fail-429", "1", "--retry-after", "2"])
        let started = Date()
        let run = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--pages", "1", "--per-page", "10"], environment: setup.environment)
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 10)
        #expect(elapsed >= 2, "the retry came before Retry-After allowed")
        #expect(try setup.fake.requests().map(\.status) == [429, 200])
    }
}

extension NetworkEndToEndTests {
    /// Proxies come from the environment as libcurl reads them: a dead proxy breaks the
    /// call, unless NO_PROXY exempts the host.
    @Test func proxiesFromTheEnvironmentAndNoProxy() throws {
        let setup = try Setup()
        var proxied = setup.environment
        proxied["http_proxy"] = "http://127.0.0.1:9"
        let broken = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--pages", "1", "--retries", "0"], environment: proxied)
        #expect(broken.status == 75)
        #expect(broken.stderr.contains("127.0.0.1 port 9"), "\(broken.stderr)")
        #expect(try setup.fake.requests().isEmpty)

        proxied["NO_PROXY"] = "127.0.0.1"
        let direct = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--pages", "1", "--per-page", "5"], environment: proxied)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdout.split(separator: "\n").count == 5)
    }
}

extension NetworkEndToEndTests {
    /// After a limit stops the lookups, records whose place the store already knows still
    /// get their region; only the unknown ones pass through without.
    @Test func knownPlacesStillCountAfterALimitStopsLookups() throws {
        let setup = try Setup()
        let records = try Tools.run("flickr-recent", ["-q", "--db", setup.db], environment: setup.environment)
        let lines = records.stdout.split(separator: "\n")
        // Learn the places of the second half.
        let secondHalf = Array((lines[(lines.count / 2)...].joined(separator: "\n") + "\n").utf8)
        let learn = try Tools.run("place-resolve", ["-q", "--db", setup.db], input: secondHalf, environment: setup.environment)
        #expect(learn.status == 0)
        let before = try setup.fake.requests(method: "flickr.places.getInfo").count

        let limited = try Tools.run("place-resolve", ["-q", "--db", setup.db, "--max-calls", "1"], input: records.stdoutBytes, environment: setup.environment)
        #expect(limited.status == 75)
        #expect(try setup.fake.requests(method: "flickr.places.getInfo").count == before + 1)
        let known = try Tools.run("/usr/bin/sqlite3", [setup.db, "SELECT place_id FROM place WHERE region IS NOT NULL"], environment: setup.environment)
        let knownPlaces = Set(known.stdout.split(separator: "\n").map(String.init))
        var withRegion = 0
        for line in limited.stdout.split(separator: "\n") {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let place = record["place_id"] as? String, knownPlaces.contains(place) else { continue }
            #expect(record["region_id"] != nil, "a record in known place \(place) lost its region")
            withRegion += 1
        }
        #expect(withRegion > lines.count / 2)
    }
}
