import Foundation
import Testing
import TopRegionsTestSupport

/// What a person at a terminal sees: tools that wait for input say so, downloads show
/// progress, tables fit the width, photo-cache prints paths. Run through a pseudo-terminal;
/// the same commands in pipes must show none of it.
@Suite struct TerminalEndToEndTests {
    /// A tool started with no input on a terminal says what it waits for, and Ctrl-D ends
    /// it normally.
    @Test(arguments: [
        ("regions-load", "reading records from the terminal; end with Ctrl-D", "regions-load: read 0, new 0, updated 0, already stored 0"),
        ("place-resolve", "reading records from the terminal; end with Ctrl-D", "place-resolve: 0 records, 0 places known, 0 looked up"),
        ("thumb-get", "reading photo ids or records from the terminal; end with Ctrl-D", nil),
        ("photo-cache", "reading photo ids or records from the terminal; end with Ctrl-D", nil),
    ] as [(String, String, String?)])
    func aToolWaitingForTheTerminalSaysSoAndCtrlDEndsIt(tool: String, message: String, summary: String?) throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path, ["TOPREGIONS_CACHE": scratch.file("cache")])
        let db = scratch.file("photos.db")
        try Tools.makeEmptyDatabase(db, environment: environment)
        let session = try TerminalSession(tool, ["--db", db], environment: environment)
        #expect(session.read(until: message), "\(tool) said: \(session.text)")
        #expect(session.text.hasPrefix("\(tool): \(message)"))
        session.type("\u{04}")
        #expect(session.finish() == 0, "\(session.text)")
        if let summary { #expect(session.text.contains(summary), "\(session.text)") }

        // In a pipe nobody is told anything.
        let piped = try Tools.run(tool, ["--db", db], input: [], environment: environment)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("from the terminal"))
    }

    /// Records typed at the terminal are read; -q keeps it quiet.
    @Test func recordsTypedAtTheTerminalAreLoaded() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let session = try TerminalSession("regions-load", ["--db", db], environment: environment)
        #expect(session.read(until: "Ctrl-D"))
        session.type(#"{"id":"1","owner":"a@N01","region_id":"R1","region":"Île-de-France, France"}"# + "\n")
        session.type("\u{04}")
        #expect(session.finish() == 0)
        #expect(session.text.contains("regions-load: read 1, new 1, updated 0, already stored 0"), "\(session.text)")

        let quiet = try TerminalSession("regions-load", ["-q", "--db", db], environment: environment)
        quiet.type("\u{04}")
        #expect(quiet.finish() == 0)
        #expect(!quiet.text.contains("regions-load"), "\(quiet.text)")
    }

    /// A slow download shows its progress on a terminal's stderr, rewritten in place; in a
    /// pipe (or with -q) there is none.
    @Test func downloadsShowProgressOnATerminalOnly() throws {
        let setup = try ImagesEndToEndTests.Setup()
        try setup.fake.control("/_fake/faults?drip_ms=10&faults_on=images")
        let out = setup.scratch.file("out")
        let session = try TerminalSession("photo-cache", ["--db", setup.db, setup.ids[0], setup.ids[1]], environment: setup.environment, stdout: out)
        #expect(session.finish() == 0, "\(session.text)")
        let shown = session.text
        #expect(shown.contains("\r\u{1B}[Kphoto-cache: 0 of 2 photos, "), "\(shown)")
        #expect(shown.contains("\r\u{1B}[Kphoto-cache: 2 of 2 photos, 200K downloaded"), "\(shown)")
        #expect(shown.hasSuffix("\r\u{1B}[K"), "the progress line is not cleared at the end")
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 2)

        let thumbs = try TerminalSession("thumb-get", ["--db", setup.db, setup.ids[2], setup.ids[3], setup.ids[4]], environment: setup.environment, stdout: out)
        #expect(thumbs.finish() == 0, "\(thumbs.text)")
        #expect(thumbs.text.contains("thumb-get: 3 thumbnails downloaded (3 of 3 in this batch)"), "\(thumbs.text)")

        let piped = try setup.photoCache([setup.ids[5]])
        #expect(piped.status == 0 && piped.stderr == "")
        let quiet = try TerminalSession("photo-cache", ["-q", "--db", setup.db, setup.ids[6]], environment: setup.environment, stdout: out)
        #expect(quiet.finish() == 0)
        #expect(quiet.text == "")
    }

    /// On a terminal photo-cache prints the cached file's path; --path does so in a pipe,
    /// so `xdg-open "$(photo-cache --path ID)"` opens the photo.
    @Test func photoCachePrintsPathsForPeopleAndRecordsForPipes() throws {
        let setup = try ImagesEndToEndTests.Setup()
        let path = setup.cache + "/" + ImagesEndToEndTests.entry(setup.ids[0])
        let session = try TerminalSession("photo-cache", ["--db", setup.db, setup.ids[0]], environment: setup.environment)
        #expect(session.finish() == 0)
        // Whatever progress showed was cleared; what stays is the path.
        let shown = session.text.components(separatedBy: "\r\u{1B}[K").last
        #expect(shown == path + "\r\n", "\(session.text)")

        var env = setup.environment
        env["DB"] = setup.db
        env["ID"] = setup.ids[0]
        let opened = try Tools.shell(#"cat "$("$BIN/photo-cache" --db "$DB" --path "$ID")" | head -c 3 | od -An -tx1"#, environment: env)
        #expect(opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ff d8 ff", "\(opened.stderr)")
        let both = try setup.photoCache(["--path", setup.ids[0], setup.ids[1]])
        #expect(both.stdout == "\(path)\n\(setup.cache)/\(ImagesEndToEndTests.entry(setup.ids[1]))\n")

        let piped = try setup.photoCache([setup.ids[0]])
        let record = try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as! [String: Any]
        #expect(record["path"] as? String == path)
        #expect(record["id"] as? String == setup.ids[0])

        // --info's times say their zone: local time (TZ), or UTC with --utc.
        var tokyo = setup.environment
        tokyo["TZ"] = "Asia/Tokyo"
        let info = try TerminalSession("photo-cache", ["--info"], environment: tokyo)
        #expect(info.finish() == 0)
        #expect(info.text.contains("entries    2\r\n"), "\(info.text)")
        #expect(info.text.range(of: #"oldest     \d+, used \d{4}-\d\d-\d\d \d\d:\d\d \+09:00\r\n"#, options: .regularExpression) != nil, "\(info.text)")
        let utc = try TerminalSession("photo-cache", ["--info", "--utc"], environment: tokyo)
        #expect(utc.finish() == 0)
        #expect(utc.text.range(of: #"newest     \d+, used \d{4}-\d\d-\d\d \d\d:\d\d UTC\r\n"#, options: .regularExpression) != nil, "\(utc.text)")
    }

    /// Tables are cut to the terminal's width (or COLUMNS) with "…"; not cut in a pipe.
    @Test func tablesFitTheTerminal() throws {
        let (scratch, environment, db) = try StoreEndToEndTests().loadedFixture()
        _ = scratch
        // A terminal ends lines with "\r\n" (one Character in Swift, so split on scalars).
        func lines(_ text: String) -> [String] {
            text.unicodeScalars.split(separator: "\n").map { String(String.UnicodeScalarView($0)) }
        }
        func widest(_ text: String) -> Int {
            lines(text).map { line in line.unicodeScalars.filter { $0.value >= 0x20 }.count }.max() ?? 0
        }
        var env = environment
        env["NO_COLOR"] = "1"
        let wide = try Tools.run("regions-top", ["--db", db, "--region", "Île-de-France, France", "--format", "table"], environment: env)
        #expect(widest(wide.stdout) > 80)

        let session = try TerminalSession("regions-top", ["--db", db, "--region", "Île-de-France, France"], environment: env, columns: 50)
        #expect(session.finish() == 0)
        #expect(lines(session.text).count == lines(wide.stdout).count)
        #expect(widest(session.text) <= 50, "\(session.text)")
        #expect(session.text.contains("…"))
        #expect(session.text.hasPrefix("ID "), "\(session.text)")

        env["COLUMNS"] = "72"
        let columns = try Tools.run("regions-top", ["--db", db, "--region", "Île-de-France, France", "--format", "table"], environment: env)
        #expect(widest(columns.stdout) <= 72 && widest(columns.stdout) >= 60)
        let top = try TerminalSession("regions-top", ["--db", db, "--limit", "5"], environment: env, columns: 30)
        #expect(top.finish() == 0)
        #expect(widest(top.text) <= 72, "COLUMNS wins over the terminal's width")
    }

    /// A page is for a browser: sent to a terminal it is refused (64) with the way to a
    /// file, before anything else happens (no refresh, no database made); --force writes
    /// it; redirected to a file it is written as before.
    @Test func aPageIsNotWrittenToATerminal() throws {
        let (scratch, environment, db) = try StoreEndToEndTests().loadedFixture()
        func refusal(_ file: String) -> String {
            "regions-top: --format html writes a page for a browser, not for a terminal: send it to a file (> \(file)), "
                + "or give --force to write it here anyway\r\n"
        }
        for (arguments, file) in [
            ([], "top-regions.html"), (["--recents"], "recents.html"), (["--photos"], "all.html"),
            (["--region", "nova scotia"], "page.html"), (["--search", "harbour"], "page.html"),
        ] as [([String], String)] {
            let refused = try TerminalSession("regions-top", ["--db", db, "--format", "html"] + arguments, environment: environment)
            #expect(refused.finish() == 64, "\(arguments)")
            #expect(refused.text == refusal(file), "\(arguments)")
        }

        // Refused before a missing database is refreshed (or made): nothing is asked of Flickr.
        let missing = scratch.file("missing.db")
        let flickr = Tools.environment(home: scratch.path, ["FLICKR_API_KEY": "k", "FLICKR_API_BASE": "http://127.0.0.1:9/services/rest/"])
        let early = try TerminalSession("regions-top", ["--db", missing, "--format", "html"], environment: flickr)
        #expect(early.finish() == 64)
        #expect(early.text == refusal("top-regions.html"), "\(early.text)")
        #expect(!FileManager.default.fileExists(atPath: missing))

        let forced = try TerminalSession("regions-top", ["--db", db, "--format", "html", "--force"], environment: environment)
        #expect(forced.finish() == 0)
        #expect(forced.text.hasPrefix("<!DOCTYPE html>\r\n") && forced.text.hasSuffix("</html>\r\n"))

        let page = scratch.file("top-regions.html")
        let redirected = try TerminalSession("regions-top", ["--db", db, "--format", "html"], environment: environment, stdout: page)
        #expect(redirected.finish() == 0)
        #expect(redirected.text == "")
        let piped = try Tools.run("regions-top", ["--db", db, "--format", "html"], environment: environment)
        #expect(try String(contentsOfFile: page, encoding: .utf8) == piped.stdout)
        #expect(piped.stdout.hasPrefix("<!DOCTYPE html>\n"))
    }

    /// flickr-recent's progress on a terminal says where it is in the query, and says so in
    /// words when the query found nothing (not "1 of 0"); counts agree in number (issue 25.6).
    @Test(arguments: [
        (0, "page 1 (the query found no photos), 0 photos", "1 page, 0 photos"),
        (1, "page 1 (1 of 1 in this query), 1 photo", "1 page, 1 photo"),
    ])
    func recentProgressSaysWhatTheQueryFound(photos: Int, progress: String, summary: String) throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(["--photos", "\(photos)", "--future-photos", "0"], scratch: scratch)
        let out = scratch.file("out")
        let session = try TerminalSession(
            "flickr-recent", ["--db", scratch.file("photos.db"), "--per-page", "1", "--license", "any"], environment: fake.environment(home: scratch.path), stdout: out)
        #expect(session.finish() == 0, "\(session.text)")
        // The last progress line shown, cleared, then the summary.
        #expect(session.text.hasSuffix("\r\u{1B}[Kflickr-recent: \(progress)\r\u{1B}[Kflickr-recent: \(summary)\r\n"), "\(session.text)")
        #expect(!session.text.contains(" of 0 "))
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == photos)
    }
}
