import Foundation
import Testing
import TopRegionsTestSupport

/// regions-top --search, --photos and --sort through the built binaries, and the same
/// index used by sqlite3, sqlite-utils and Datasette (issue 11).
@Suite struct SearchEndToEndTests {
    static let records = [
        #"{"id":"1","owner":"a@N01","ownername":"Ann","title":"Harbour at dusk","region_id":"R1","region":"Nova Scotia, Canada","dateupload":"1700000100"}"#,
        #"{"id":"2","owner":"b@N01","title":"fog","description":"Down by the harbour","region_id":"R2","region":"Maine, United States","dateupload":"1700000300"}"#,
        #"{"id":"3","owner":"c@N01","title":"Beach","region_id":"R1","region":"Nova Scotia, Canada","dateupload":"1700000200"}"#,
        #"{"id":"4","owner":"d@N01","title":"Île à Vache","region_id":"R3","region":"Île-de-France, France","dateupload":"1700000400"}"#,
    ].joined(separator: "\n") + "\n"

    struct Setup {
        let scratch = TemporaryDirectory()
        let db: String
        let environment: [String: String]

        init() throws {
            db = scratch.file("photos.db")
            environment = Tools.environment(home: scratch.path)
            let load = try Tools.run("regions-load", ["--db", db, "--quiet"], input: Array(SearchEndToEndTests.records.utf8), environment: environment)
            #expect(load.status == 0, "\(load.stderr)")
        }

        func ids(_ arguments: [String]) throws -> [String] {
            let run = try Tools.run("regions-top", ["--db", db, "--format", "ndjson"] + arguments, environment: environment)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stderr == "", "\(arguments)")
            return run.stdout.split(separator: "\n").map { line in
                let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                return object["id"] as! String
            }
        }
    }

    @Test func searchFindsBestMatchFirstInEveryFormat() throws {
        let setup = try Setup()
        // A word in the title counts most; the description's mention comes second.
        #expect(try setup.ids(["--search", "harbour"]) == ["1", "2"])
        #expect(try setup.ids(["--search", "HARBOUR", "--region", "nova"]) == ["1"])
        #expect(try setup.ids(["--search", "ile"]) == ["4"], "accents aside")
        #expect(try setup.ids(["--search", "photographer:ann"]) == ["1"])
        #expect(try setup.ids(["--search", "harb*", "--sort", "uploaded"]) == ["2", "1"])

        let csv = try Tools.run("regions-top", ["--db", setup.db, "--search", "harbour", "--format", "csv"], environment: setup.environment)
        #expect(csv.status == 0)
        #expect(csv.stdout.split(separator: "\r\n").map { String($0.prefix(2)) } == ["id", "1,", "2,"])
        let geojson = try Tools.run("regions-top", ["--db", setup.db, "--search", "harbour", "--format", "geojson"], environment: setup.environment)
        #expect(geojson.status == 0 && geojson.stdout.contains("\"FeatureCollection\""), "\(geojson.stderr)")
        let html = try Tools.run("regions-top", ["--db", setup.db, "--search", "<b>harbour", "--format", "html"], environment: setup.environment)
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout.contains("Search: <span dir=\"auto\">&lt;b&gt;harbour</span>"), "the query is text")
    }

    /// A search that finds nothing says so on stderr, with the stored word a typo away.
    @Test func aSearchThatFindsNothingOffersTheWordATypoAway() throws {
        let setup = try Setup()
        let said = try Tools.run("regions-top", ["--db", setup.db, "--search", "habour"], environment: setup.environment)
        #expect(said.status == 0 && said.stdout.isEmpty, "\(said.stderr)")
        #expect(said.stderr.hasSuffix("; did you mean \"harbour\"?\n"), "\(said.stderr)")
    }

    @Test func aQueryTheIndexCannotReadIsAUsageError() throws {
        let setup = try Setup()
        let said = [
            "\"unclosed": "unbalanced quote (\") in: \"unclosed",
            "harbour OR": "OR needs something to search for after it (in: harbour OR)",
            "NEAR(harbour": "a ( is never closed (in: NEAR(harbour)",
            " ": "nothing to search for (give a word, such as harbour)",
        ]
        for (query, problem) in said {
            let run = try Tools.run("regions-top", ["--db", setup.db, "--search", query], environment: setup.environment)
            #expect(run.status == 64, "\(query)")
            #expect(run.stderr == "regions-top: --search: \(problem)\n", "\(query)")
            #expect(run.stdout == "")
        }
    }

    @Test func everyPhotoNewestFirstOrByTitle() throws {
        let setup = try Setup()
        #expect(try setup.ids(["--photos"]) == ["4", "2", "3", "1"])
        #expect(try setup.ids(["--photos", "--limit", "2"]) == ["4", "2"])
        // Case-folded, accents aside: Beach, fog, Harbour, Île.
        #expect(try setup.ids(["--photos", "--sort", "title"]) == ["3", "2", "1", "4"])
        #expect(try setup.ids(["--region", "Nova Scotia, Canada", "--sort", "title"]) == ["3", "1"])
        let alone = try Tools.run("regions-top", ["--db", setup.db, "--sort", "title"], environment: setup.environment)
        #expect(alone.status == 64 && alone.stderr.contains("--sort orders photos"), "\(alone.stderr)")
    }

    /// An empty answer is said on stderr as its page says it (not with -q), in every
    /// format; stdout keeps its shape whatever the answer: a table's and a CSV's header
    /// line, no NDJSON line, an empty FeatureCollection (issue 25.5).
    @Test func anEmptyAnswerSaysSoOnStderr() throws {
        let setup = try Setup()
        // Photo 5 moves from Yukon to Nova Scotia: Yukon is known, with no photo any more.
        for region in [#""region_id":"R9","region":"Yukon, Canada""#, #""region_id":"R1","region":"Nova Scotia, Canada""#] {
            let load = try Tools.run("regions-load", ["--db", setup.db, "-q"], input: Array("{\"id\":\"5\",\"owner\":\"e@N01\",\(region)}\n".utf8), environment: setup.environment)
            try #require(load.status == 0, "\(load.stderr)")
        }
        let csvHeader = "id,owner,owner_name,title,description,latitude,longitude,place_id,uploaded,thumb_url,photo_url,region_id,region,license,viewed_at\r\n"
        let answers: [([String], String)] = [
            (["--search", "zzz"], "no photo matches \"zzz\" in title, description, photographer or region"),
            (["--search", "harbour", "--region", "ile de france"], "no photo matches \"harbour\" in title, description, photographer or region, in Île-de-France, France"),
            (["--recents"], "no photo has been viewed yet: photo-cache ID views one"),
            (["--region", "yukon"], "no photo of Yukon, Canada (id R9) is stored (any more)"),
        ]
        for (arguments, said) in answers {
            for format in ["table", "csv", "ndjson", "geojson", "html"] {
                let run = try Tools.run("regions-top", ["--db", setup.db, "--format", format] + arguments, environment: setup.environment)
                #expect(run.status == 0, "\(arguments) \(format)")
                #expect(run.stderr == "regions-top: \(said)\n", "\(arguments) \(format)")
                switch format {
                case "table":
                    #expect(run.stdout.hasPrefix("ID ") && run.stdout.filter { $0 == "\n" }.count == 1, "\(run.stdout)")
                case "csv": #expect(run.stdout == csvHeader)
                case "ndjson": #expect(run.stdout == "")
                case "geojson": #expect(run.stdout.contains("\"features\":[]"), "\(run.stdout)")
                default: #expect(run.stdout.hasPrefix("<!DOCTYPE html>"))
                }
            }
            let quiet = try Tools.run("regions-top", ["--db", setup.db, "-q", "--format", "table"] + arguments, environment: setup.environment)
            #expect(quiet.status == 0 && quiet.stderr == "" && quiet.stdout.hasPrefix("ID "), "\(arguments)")
        }
        // An answer that is not empty says nothing.
        let found = try Tools.run("regions-top", ["--db", setup.db, "--format", "table", "--region", "nova scotia"], environment: setup.environment)
        #expect(found.status == 0 && found.stderr == "")

        // Photos without a region yet: no region to rank.
        let unresolved = setup.scratch.file("unresolved.db")
        let load = try Tools.run("regions-load", ["--db", unresolved, "-q"], input: Array(#"{"id":"7","owner":"g@N01"}"#.utf8 + [0x0A]), environment: setup.environment)
        try #require(load.status == 0, "\(load.stderr)")
        for arguments in [[], ["--regions"]] {
            let top = try Tools.run("regions-top", ["--db", unresolved, "--format", "csv"] + arguments, environment: setup.environment)
            #expect(top.status == 0 && top.stderr == "regions-top: no region has photos yet: the photos stored have no region yet (place-resolve --pending looks their places up)\n", "\(top.stderr)")
            #expect(top.stdout.hasSuffix("latitude,longitude\r\n") && top.stdout.unicodeScalars.filter { $0 == "\n" }.count == 1)
        }

        // An empty database (its one photo deleted) already says so once; nothing more.
        let empty = setup.scratch.file("empty.db")
        _ = try Tools.run("regions-load", ["--db", empty, "-q"], input: Array(#"{"id":"8","owner":"h@N01"}"#.utf8 + [0x0A]), environment: setup.environment)
        let deleted = try Tools.run("regions-load", ["--db", empty, "-q", "--delete", "8"], input: [], environment: setup.environment)
        try #require(deleted.status == 0, "\(deleted.stderr)")
        for arguments in [["--photos"], [], ["--recents"]] {
            let run = try Tools.run("regions-top", ["--db", empty, "--format", "csv"] + arguments, environment: setup.environment)
            #expect(run.status == 0)
            #expect(run.stderr == "regions-top: the database has no photos yet; fill it with flickr-recent | place-resolve | regions-load, "
                + "or set FLICKR_API_KEY (or give --api-key-file) and regions-top does that itself\n", "\(arguments)")
        }
    }

    /// Datasette shows the search box on the photo table, and it, sqlite-utils and plain
    /// SQLite find what regions-top finds (Tests/Peers/check_search.py; bin/test installs
    /// datasette and sqlite-utils from PyPI).
    @Test func otherToolsSearchTheSameFile() throws {
        let setup = try Setup()
        #expect(try setup.ids(["--search", "harbour"]).sorted() == ["1", "2"])
        let caller = ProcessInfo.processInfo.environment
        let environment = ["PATH": caller["PATH"] ?? "/usr/bin:/bin", "HOME": caller["HOME"] ?? setup.scratch.path, "LANG": "C.UTF-8"]
        let checker = Tools.packageRoot.appendingPathComponent("Tests/Peers/check_search.py").path
        let check = try Tools.run("/usr/bin/env", ["python3", checker, setup.db, "harbour", "1", "2"], environment: environment)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout == "all checks passed\n")
    }
}
