import Foundation
import Testing
import TopRegionsTestSupport

/// Honest coverage: a window's counts are only as good as the refreshes that fed it. Each
/// flickr-recent run records the span of upload time it fetched; an answer whose window holds
/// a span no run fetched says so, on stderr and on the page, and so does one whose window is
/// after the newest stored photo. The fake's virtual clock moves with the tools' own.
@Suite struct CoverageEndToEndTests {
    static let start = WindowsEndToEndTests.now
    static let hour = 3600

    /// "2025-11-22 08:26", as the tools show a time with TZ=UTC (local time, offset +00:00).
    static func clock(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// 12345 as "12,345".
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return digits.enumerated().map { index, digit in
            (index > 0 && (digits.count - index) % 3 == 0 ? "," : "") + String(digit)
        }.joined()
    }

    struct Setup {
        let network: NetworkEndToEndTests.Setup
        var db: String { network.db }

        /// A refresh at the fake's start; then, 6 hours later, one that fetched only the
        /// last 3: the 3 hours between are a gap.
        init() throws {
            network = try NetworkEndToEndTests.Setup(environment: ["TOPREGIONS_NOW": "\(CoverageEndToEndTests.start)", "TZ": "UTC"])
            let (first, statuses) = try network.refresh()
            precondition(statuses == [0, 0, 0], first.stderr)
            _ = try network.fake.control("/_fake/clock?advance=\(6 * CoverageEndToEndTests.hour)")
            let (second, again) = try refresh(at: CoverageEndToEndTests.start + 6 * CoverageEndToEndTests.hour,
                                              recent: ["--since", "\(CoverageEndToEndTests.start + 3 * CoverageEndToEndTests.hour)"])
            precondition(again == [0, 0, 0], second.stderr)
        }

        func environment(at now: Int) -> [String: String] {
            var environment = network.environment
            environment["TOPREGIONS_NOW"] = "\(now)"
            return environment
        }

        func refresh(at now: Int, recent: [String]) throws -> (RunResult, [Int32]) {
            var env = environment(at: now)
            env["DB"] = db
            env["RECENT_ARGS"] = recent.joined(separator: " ")
            let run = try Tools.shell("""
                "$BIN/flickr-recent" -q --db "$DB" $RECENT_ARGS | "$BIN/place-resolve" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB"
                echo "${PIPESTATUS[*]}"
                """, environment: env)
            return (run, run.stdout.split(separator: "\n").last!.split(separator: " ").map { Int32($0)! })
        }

        func top(_ arguments: [String], at now: Int) throws -> RunResult {
            try Tools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson", "--no-refresh"] + arguments, environment: environment(at: now))
        }
    }

    @Test func aWindowHoldingASpanNoRefreshFetchedSaysSo() throws {
        let setup = try Setup()
        let (start, hour) = (Self.start, Self.hour)
        let now = start + 6 * hour
        let oldest = Int(try sqlite(setup.db, "SELECT MIN(uploaded) FROM photo"))!
        let gap = "regions-top: no refresh covered \(Self.clock(start + 1))–\(Self.clock(start + 3 * hour).suffix(5)) +00:00: counts in that span are missing\n"

        // The last 24 hours: they begin before the first photo, and hold the gap.
        let day = try setup.top(["--window", "24h"], at: now)
        #expect(day.status == 0)
        #expect(day.stderr == """
            regions-top: the photos in the 24 hours to \(Self.clock(now)) +00:00
            regions-top: nothing uploaded before \(Self.clock(min(oldest, start - 12 * hour + 1))) +00:00 was fetched: counts before then are missing

            """ + gap)
        // The last 3 hours were fetched whole: nothing to say but the window, and the counts
        // are the fake's truth for them.
        let recent = try setup.top(["--window", "3h"], at: now)
        #expect(recent.stderr == "regions-top: the photos in the 3 hours to \(Self.clock(now)) +00:00\n")
        #expect(FakeFlickrProcess.truthLines(recent.stdout)
            == (try setup.network.truth("?min_upload_date=\(now - 3 * hour + 1)&max_upload_date=\(now)")))
        // Every stored photo, with how many and when; -q says nothing.
        let stored = Int(try sqlite(setup.db, "SELECT COUNT(*) FROM photo"))!
        let all = try setup.top(["--window", "all"], at: now)
        let newest = Int(try sqlite(setup.db, "SELECT MAX(uploaded) FROM photo"))!
        let days = Self.clock(oldest).prefix(10) == Self.clock(newest).prefix(10) ? String(Self.clock(oldest).prefix(10))
            : "\(Self.clock(oldest).prefix(10)) – \(Self.clock(newest).prefix(10))"
        #expect(all.stderr.hasPrefix("regions-top: among all \(Self.grouped(stored)) stored photos, uploaded \(days)\n"))
        #expect(all.stderr.hasSuffix(gap))
        #expect(try setup.top(["--window", "24h", "-q"], at: now).stderr.isEmpty)

        // The served pages say it under their heading.
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", setup.network.scratch.file("cache"), "--port", "0"],
                                       environment: setup.environment(at: now), scratch: setup.network.scratch)
        defer { server.stop() }
        let page = try HTTPExchange.request(server.base + "/?window=24h", scratch: setup.network.scratch)
        #expect(page.text.contains("<div class=\"notice coverage\" role=\"note\"><p>Nothing uploaded before "))
        #expect(page.text.contains("<p>No refresh covered \(Self.clock(start + 1))–\(Self.clock(start + 3 * hour).suffix(5)) +00:00: counts in that span are missing.</p>"))
        let top = try HTTPExchange.request(server.base + "/?window=all", scratch: setup.network.scratch)
        #expect(top.text.contains("most distinct photographers among all \(Self.grouped(stored)) stored photos, uploaded \(days)"))
        let rising = try HTTPExchange.request(server.base + "/rising?window=3h", scratch: setup.network.scratch)
        #expect(rising.text.contains("counts in that span are missing."))

        // Once a refresh fetches the gap, nothing is missing: the page changes with it.
        let (fill, statuses) = try setup.refresh(at: now, recent: ["--since", "\(start - 60)"])
        #expect(statuses == [0, 0, 0], "\(fill.stderr)")
        #expect(try setup.top(["--window", "8h"], at: now).stderr == "regions-top: the photos in the 8 hours to \(Self.clock(now)) +00:00\n")
        #expect(!(try HTTPExchange.request(server.base + "/?window=24h", scratch: setup.network.scratch)).text.contains("No refresh covered"))
    }

    /// A rising list whose window before was never fetched ranks no region: its zeros are
    /// missing counts, and every region would rise from nothing. Regression: the 12 hours the
    /// first refresh fetched, against the 12 hours before them (never fetched), listed the
    /// regions as rising from 0 photographers; so did the 3 hours after the gap against it.
    @Test func aRisingListWithNothingFetchedBeforeRanksNoRegion() throws {
        let setup = try Setup()
        let (start, hour) = (Self.start, Self.hour)
        let now = start + 6 * hour
        // Before the first photo fetched.
        let first = try setup.top(["--rising", "--window", "12h", "--until", "\(start)"], at: now)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stdout.prefix(300))")
        #expect(first.stderr.hasSuffix("""
            regions-top: no region can be ranked: nothing uploaded in the 12 hours before \
            (\(Self.clock(start - 24 * hour)) – \(Self.clock(start - 12 * hour)) +00:00) was fetched: no region can be said to rise against them

            """) || first.stderr.contains("before (\(Self.clock(start - 24 * hour))–"), "\(first.stderr)")
        // The gap, 3 hours long.
        let before = "\(Self.clock(start))–\(Self.clock(start + 3 * hour).suffix(5)) +00:00"
        let sentence = "nothing uploaded in the 3 hours before (\(before)) was fetched: no region can be said to rise against them"
        let rising = try setup.top(["--rising", "--window", "3h"], at: now)
        #expect(rising.status == 0 && rising.stdout.isEmpty)
        #expect(rising.stderr.hasSuffix("regions-top: no region can be ranked: \(sentence)\n"), "\(rising.stderr)")
        let feed = try setup.top(["--rising", "--window", "3h", "--format", "atom"], at: now)
        #expect(!feed.stdout.contains("<entry>") && feed.stdout.contains(sentence.prefix(1).uppercased() + sentence.dropFirst() + "."))
        let server = try ServerProcess(["--db", setup.db, "--cache-dir", setup.network.scratch.file("cache"), "--port", "0"],
                                       environment: setup.environment(at: now), scratch: setup.network.scratch)
        defer { server.stop() }
        let page = try HTTPExchange.request(server.base + "/rising?window=3h", scratch: setup.network.scratch)
        #expect(page.text.contains("No region can be ranked: \(sentence)."))
        let served = try HTTPExchange.request(server.base + "/feeds/rising?window=3h", scratch: setup.network.scratch)
        #expect(!served.text.contains("<entry>") && served.text.contains("was fetched: no region can be said to rise against them."))
        // A window before that was fetched (6 of the first refresh's 12 hours) is compared with.
        let fetched = try setup.top(["--rising", "--window", "6h", "--until", "\(start)"], at: now)
        #expect(!fetched.stderr.contains("can be ranked"), "\(fetched.stderr)")
    }

    /// A window after the newest stored photo is empty because nothing newer was fetched:
    /// the answer says how old the newest photo is, instead of an empty list alone.
    @Test func aWindowAfterTheNewestPhotoSaysHowOldItIs() throws {
        let setup = try Setup()
        let later = Self.start + 12 * Self.hour
        let newest = Int(try sqlite(setup.db, "SELECT MAX(uploaded) FROM photo"))!
        let run = try setup.top(["--window", "1h"], at: later)
        #expect(run.status == 0 && run.stdout.isEmpty)
        let age = (later - newest) / Self.hour
        #expect(run.stderr == """
            regions-top: the photos in the hour to \(Self.clock(later)) +00:00
            regions-top: the newest stored photo is \(age) hours old (uploaded \(Self.clock(newest)) +00:00): nothing newer was fetched; refresh with regions-load --refresh
            regions-top: no region has photos in the hour to \(Self.clock(later)) +00:00

            """)
    }

    /// A window ending in the past (--until) after the newest stored photo says so too
    /// (regression: only a window ending now did, so "--until 0s" said nothing).
    @Test func aWindowEndingInThePastAfterTheNewestPhotoSaysSo() throws {
        let setup = try Setup()
        let later = Self.start + 12 * Self.hour
        let newest = Int(try sqlite(setup.db, "SELECT MAX(uploaded) FROM photo"))!
        let run = try setup.top(["--window", "1h", "--until", "\(later - 60)"], at: later)
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.contains("""
            regions-top: the newest stored photo was uploaded \((later - 60 - newest) / Self.hour) hours before the window's end \
            (at \(Self.clock(newest)) +00:00): nothing newer was fetched
            """), "\(run.stderr)")
    }

    /// A page regions-top writes says its window and what the refreshes missed of it, as the
    /// served page does (regression: "among the stored photos" for any window, no notice).
    @Test func aPageRegionsTopWritesSaysItsWindowAndWhatItMissed() throws {
        let setup = try Setup()
        let now = Self.start + 6 * Self.hour
        let gap = "No refresh covered \(Self.clock(Self.start + 1))–\(Self.clock(Self.start + 3 * Self.hour).suffix(5)) +00:00: counts in that span are missing."
        let top = try setup.top(["--window", "24h", "--format", "html", "-q"], at: now)
        #expect(top.status == 0)
        #expect(top.stdout.contains("most distinct photographers in the 24 hours to \(Self.clock(now)) +00:00"))
        #expect(top.stdout.contains("<div class=\"notice coverage\" role=\"note\">") && top.stdout.contains(gap))
        let photos = try setup.top(["--photos", "--window", "8h", "--format", "html", "-q"], at: now)
        #expect(photos.stdout.contains(gap) && photos.stdout.contains("in the 8 hours to \(Self.clock(now)) +00:00"))
        let later = Self.start + 12 * Self.hour
        let empty = try setup.top(["--window", "1h", "--format", "html", "-q"], at: later)
        #expect(empty.stdout.contains("No region has photos in the hour to \(Self.clock(later)) +00:00."))
        #expect(empty.stdout.contains("The newest stored photo is "))
        // The command it names is one piece on the page (it broke at its "--" at a line's end).
        #expect(empty.stdout.contains("refresh with <code class=\"command\">regions-load --refresh</code>."))
    }

    /// Pruning forgets the runs whose photos went: their span is no longer claimed as fetched.
    @Test func pruningForgetsWhatTheRunsOfThePrunedPhotosFetched() throws {
        let setup = try Setup()
        let now = Self.start + 6 * Self.hour
        let prune = try Tools.run("regions-load", ["-q", "--db", setup.db, "--prune-older-than", "1h"], input: [], environment: setup.environment(at: now))
        #expect(prune.status == 0, "\(prune.stderr)")
        let first = Int(try sqlite(setup.db, "SELECT MIN(uploaded) FROM photo"))!
        #expect(first > Self.start + 3 * Self.hour)
        #expect(try sqlite(setup.db, "SELECT COUNT(*) FROM refresh_run") == "1")
        let day = try setup.top(["--window", "24h"], at: now)
        #expect(day.stderr == """
            regions-top: the photos in the 24 hours to \(Self.clock(now)) +00:00
            regions-top: nothing uploaded before \(Self.clock(Self.start + 3 * Self.hour)) +00:00 was fetched: counts before then are missing

            """)
    }
}
