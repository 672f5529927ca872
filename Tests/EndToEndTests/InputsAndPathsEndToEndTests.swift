import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 13.3–13.7 and issue 12.2, 12.3, 12.5 through the built binaries: what the tools
/// accept as input, paths and times, whose locks they share, what a reader without write
/// access can do, and what --verbose hides.
@Suite struct InputsAndPathsEndToEndTests {
    static func lines(_ records: [String]) -> [UInt8] {
        Array(records.map { $0 + "\n" }.joined().utf8)
    }

    // MARK: 13.3 uploads in the future

    @Test func aFutureUploadIsStoredWithAWarningAndNeverStallsSinceLast() throws {
        let setup = try NetworkEndToEndTests.Setup(environment: ["TOPREGIONS_NOW": "1763800000"])
        let (refresh, statuses) = try setup.refresh()
        #expect(statuses == [0, 0, 0], "\(refresh.stderr)")
        let watermark = try sqlite(setup.db, "SELECT value FROM store_state WHERE key = 'newest_upload'")
        #expect(Int(watermark)! <= 1_763_800_000)

        // One record from a broken exporter: uploaded in the year 5138.
        let future = try Tools.run("regions-load", ["--db", setup.db], input: Self.lines([#"{"id":"1","owner":"a@N01","uploaded":99999999999}"#]),
                                   environment: setup.environment)
        #expect(future.status == 0)
        #expect(future.stderr == """
            regions-load: stdin: line 1: photo 1 says it was uploaded 5138-11-16 09:46 UTC, more than a day from now; stored, but flickr-recent --since-last does not start from it
            regions-load: read 1, new 1, updated 0, already stored 0, uploaded in the future 1

            """)
        #expect(try sqlite(setup.db, "SELECT uploaded FROM photo WHERE id = '1'") == "99999999999", "nothing lost")
        #expect(try sqlite(setup.db, "SELECT value FROM store_state WHERE key = 'newest_upload'") == watermark)

        let next = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--since-last"], environment: setup.environment)
        #expect(next.status == 0, "\(next.stderr)")
        let search = try setup.fake.requests(method: "flickr.photos.search").last!
        #expect(search.params["min_upload_date"] == String(Int(watermark)! - 900))

        // A watermark already in the future (stored by an older version) is clamped to now.
        _ = try Tools.run("/usr/bin/sqlite3", [setup.db, "UPDATE store_state SET value = 99999999999 WHERE key = 'newest_upload'"], environment: setup.environment)
        let clamped = try Tools.run("flickr-recent", ["--db", setup.db, "--since-last", "--pages", "1"], environment: setup.environment)
        #expect(clamped.status == 0, "\(clamped.stderr)")
        #expect(clamped.stderr.hasPrefix("flickr-recent: the newest upload stored (5138-11-16 09:46 UTC) is in the future; starting from now instead\n"))
        #expect(try setup.fake.requests(method: "flickr.photos.search").last!.params["min_upload_date"] == String(1_763_800_000 + 300 - 900))
        #expect(!clamped.stdout.isEmpty, "photos of the last minutes are found again")
    }

    // MARK: 13.4 one database, two paths

    @Test func oneDatabaseThroughASymlinkAndItsRealPathSharesOneLock() throws {
        let setup = try NetworkEndToEndTests.Setup(["--latency-ms", "30"])
        let records = try Tools.run("flickr-recent", ["-q", "--db", setup.scratch.file("other.db")], environment: setup.environment)
        let input = setup.scratch.file("records.ndjson")
        try Data(records.stdoutBytes).write(to: URL(fileURLWithPath: input))
        let real = setup.scratch.file("real/photos.db")
        try FileManager.default.createDirectory(atPath: setup.scratch.file("real"), withIntermediateDirectories: true)
        try Tools.makeEmptyDatabase(real, environment: setup.environment)
        try FileManager.default.createSymbolicLink(atPath: setup.scratch.file("link"), withDestinationPath: setup.scratch.file("real"))
        let link = setup.scratch.file("link/photos.db")
        try FileManager.default.createSymbolicLink(atPath: setup.scratch.file("alias.db"), withDestinationPath: real)

        let byReal = try Tools.start("place-resolve", ["-q", "--db", real, input], environment: setup.environment)
        let byLink = try Tools.start("place-resolve", ["-q", "--db", link, input], environment: setup.environment)
        let byAlias = try Tools.start("place-resolve", ["-q", "--db", setup.scratch.file("alias.db"), input], environment: setup.environment)
        let results = try [byReal.wait(), byLink.wait(), byAlias.wait()]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        #expect(results[0].stdout == results[1].stdout && results[1].stdout == results[2].stdout)
        let lookups = try setup.fake.requests(method: "flickr.places.getInfo")
        #expect(!lookups.isEmpty)
        #expect(lookups.count == Set(lookups.map { $0.params["place_id"]! }).count, "a place was asked twice")
        // One lock file, beside the real file.
        #expect(FileManager.default.fileExists(atPath: real + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: setup.scratch.file("alias.db.lock")))
    }

    // MARK: 13.5 empty paths

    @Test func anEmptyPathIsAUsageErrorNamingTheOption() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path, ["FLICKR_API_KEY": "k", "FLICKR_API_BASE": "http://127.0.0.1:9/services/rest/"])
        for tool in ["flickr-recent", "place-resolve", "regions-load", "regions-top", "thumb-get", "photo-cache"] {
            let run = try Tools.run(tool, ["--db", ""], input: [], environment: env)
            #expect(run.status == 64, "\(tool): \(run.stderr)")
            #expect(run.stderr.hasPrefix("\(tool): --db: the path is empty"), "\(tool): \(run.stderr)")
        }
        for tool in ["photo-cache", "regions-top"] {
            let cache = try Tools.run(tool, ["--cache-dir", ""], environment: env)
            #expect(cache.status == 64 && cache.stderr.hasPrefix("\(tool): --cache-dir: the path is empty"), "\(tool): \(cache.stderr)")
        }
        let out = try Tools.run("thumb-get", ["--out", "", "1"], environment: env)
        #expect(out.status == 64 && out.stderr.hasPrefix("thumb-get: --out: the path is empty"), "\(out.stderr)")
        let key = try Tools.run("flickr-recent", ["--api-key-file", ""], environment: env)
        #expect(key.status == 64 && key.stderr.hasPrefix("flickr-recent: --api-key-file: the path is empty"), "\(key.stderr)")
        let file = try Tools.run("regions-load", [""], environment: env)
        #expect(file.status == 64 && file.stderr.hasPrefix("regions-load: a file name is empty"), "\(file.stderr)")
        // Nothing went to the default database or cache.
        #expect(!FileManager.default.fileExists(atPath: scratch.file("data/topregions/topregions.db")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("cache/topregions")))
    }

    // MARK: 13.6 paths that are not databases

    @Test func aPathThatIsNotADatabaseIsRefusedAndNothingIsLeftBesideIt() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path)
        try FileManager.default.createDirectory(atPath: scratch.file("directory"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.file("fifo"), 0o644) == 0)
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: scratch.file("notes.txt")))
        // Passes the header check, then turns out damaged.
        try Data(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0x5A, count: 4080)).write(to: URL(fileURLWithPath: scratch.file("damaged.db")))
        let devNullLockExisted = FileManager.default.fileExists(atPath: "/dev/null.lock")
        defer { if !devNullLockExisted { try? FileManager.default.removeItem(atPath: "/dev/null.lock") } }

        let cases: [(path: String, status: Int32, message: String)] = [
            ("/dev/null", 66, "the database /dev/null is a device, not a database file; nothing was created"),
            (scratch.file("directory"), 66, "the database \(scratch.file("directory")) is a directory, not a database file; nothing was created"),
            (scratch.file("fifo"), 66, "the database \(scratch.file("fifo")) is a pipe (FIFO), not a database file; nothing was created"),
            (scratch.file("notes.txt"), 65, "\(scratch.file("notes.txt")) is not an SQLite database; nothing was changed"),
            (scratch.file("damaged.db"), 65, "\(scratch.file("damaged.db")) is not an SQLite database\n"),
        ]
        for (path, status, message) in cases {
            for tool in ["regions-load", "regions-top", "place-resolve"] {
                let run = try Tools.run("/usr/bin/timeout", ["-s", "KILL", "60", Tools.path(tool), "--db", path], input: [], environment: env)
                #expect(run.status == status, "\(tool) \(path): \(run.status) \(run.stderr)")
                #expect(run.stderr.hasPrefix("\(tool): \(message)"), "\(tool) \(path): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
                for suffix in [".lock", "-wal", "-shm"] {
                    #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(tool) left \(path)\(suffix)")
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("directory")).isEmpty)
    }

    // MARK: 13.7 input edges

    @Test func inputEdgesAreAcceptedOrRefusedAsTheRecordReferenceSays() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let two = Self.lines([#"{"id":"1","owner":"a@N01"}"#, #"{"id":"2","owner":"b@N01"}"#])

        // A byte order mark starting a stream is skipped: on stdin, and in each file given.
        let stdin = try Tools.run("regions-load", ["--db", db], input: bom + two, environment: env)
        #expect(stdin.status == 0 && stdin.stderr == "regions-load: read 2, new 2, updated 0, already stored 0\n", "\(stdin.stderr)")
        try Data(bom + Self.lines([#"{"id":"3","owner":"a@N01"}"#])).write(to: URL(fileURLWithPath: scratch.file("a.ndjson")))
        try Data(bom + Self.lines([#"{"id":"4","owner":"a@N01"}"#])).write(to: URL(fileURLWithPath: scratch.file("b.ndjson")))
        let files = try Tools.run("regions-load", ["--db", db, scratch.file("a.ndjson"), scratch.file("b.ndjson")], environment: env)
        #expect(files.status == 0 && files.stderr == "regions-load: read 2, new 2, updated 0, already stored 0\n", "\(files.stderr)")
        // Anywhere else it is an error, on the line it is on.
        let inside = try Tools.run("regions-load", ["--db", db], input: Array(two.prefix(27)) + bom + Array(two.dropFirst(27)), environment: env)
        #expect(inside.status == 65)
        #expect(inside.stderr.hasPrefix("regions-load: stdin: line 2, column 1: invalid JSON: unexpected byte 0xEF, expected a value\n"), "\(inside.stderr)")

        // Numbers in strings must be decimal number text.
        for text in ["0x1F", "0x1p4", "inf", "nan", "1_000"] {
            let run = try Tools.run("regions-load", ["--db", db], input: Self.lines([#"{"id":"5","owner":"a@N01","latitude":"\#(text)"}"#]), environment: env)
            #expect(run.status == 65)
            #expect(run.stderr == "regions-load: stdin: line 1, column 27: field \"latitude\" must be a number, not \"\(text)\"\n(nothing was written)\n")
            let time = try Tools.run("regions-load", ["--db", db], input: Self.lines([#"{"id":"5","owner":"a@N01","uploaded":"\#(text)"}"#]), environment: env)
            #expect(time.status == 65)
            #expect(time.stderr == "regions-load: stdin: line 1, column 27: field \"uploaded\" must be a whole number, not \"\(text)\"\n(nothing was written)\n")
        }
        let negative = try Tools.run("regions-load", ["--db", db], input: Self.lines([#"{"id":"5","owner":"a@N01","uploaded":-60}"#]), environment: env)
        #expect(negative.status == 65)
        #expect(negative.stderr == "regions-load: stdin: line 1, column 27: field \"uploaded\" is -60, before 1970: an upload time is Unix seconds\n(nothing was written)\n")

        // Photo ids are decimal digits, at most 32.
        let path = try Tools.run("regions-load", ["--db", db], input: Self.lines([#"{"id":"6","owner":"a@N01"}"#, #"{"id":"../../etc/x","owner":"a@N01"}"#]), environment: env)
        #expect(path.status == 65)
        #expect(path.stderr == "regions-load: stdin: line 2, column 2: field \"id\" must be a photo id: decimal digits only, not \"../../etc/x\"\n(nothing was written)\n")
        let huge = Array(#"{"id":""#.utf8) + [UInt8](repeating: 0x37, count: 10 << 20) + Array(#"","owner":"a@N01"}"#.utf8) + [0x0A]
        let long = try Tools.run("regions-load", ["--db", db], input: huge, environment: env)
        #expect(long.status == 65)
        #expect(long.stderr == "regions-load: stdin: line 1, column 2: field \"id\" is 10485760 bytes long; at most 32 are accepted\n(nothing was written)\n")
        #expect(try sqlite(db, "SELECT group_concat(id) FROM (SELECT id FROM photo ORDER BY id)") == "1,2,3,4", "nothing of the bad loads was stored")
        // An id a tool is given must have that form too.
        let given = try Tools.run("photo-cache", ["--db", db, "--cache-dir", scratch.file("cache"), "../../etc/x"], environment: env)
        #expect(given.status == 64 && given.stderr == "photo-cache: \"../../etc/x\" is not a photo id (decimal digits, at most 32)\n", "\(given.stderr)")
        let piped = try Tools.run("thumb-get", ["--db", db], input: Array("1\n\"../x\"\n".utf8), environment: env)
        #expect(piped.status == 65 && piped.stderr == "thumb-get: stdin: line 2: \"../x\" is not a photo id (decimal digits, at most 32)\n", "\(piped.stderr)")
    }

    /// Issue 26.11: a number too large for a Double is out of range (it was "null"), and a
    /// long value is quoted cut, with its length (a 5,000-digit number made a 5 KB message).
    @Test func messagesSayOutOfRangeAndCutLongValues() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path)
        let digits = String(repeating: "7", count: 5000)
        let cut = String(repeating: "7", count: 40) + "… (5000 characters)"
        let cases: [(field: String, message: String)] = [
            (#""latitude":-1e400"#, #"column 27: field "latitude" is -1e400, out of range (-90…90)"#),
            (#""longitude":"1e400""#, #"column 27: field "longitude" is "1e400", out of range (-180…180)"#),
            (#""latitude":\#(digits)"#, #"column 27: field "latitude" is \#(cut), out of range (-90…90)"#),
            (#""uploaded":\#(digits)"#, #"column 27: field "uploaded" is \#(cut), out of range for Unix seconds"#),
            (#""uploaded":"x\#(digits)""#, #"column 27: field "uploaded" must be a whole number, not "x\#(digits.prefix(39))…" (5001 characters)"#),
            ("\"\(digits)\" 1", "column 5030: invalid JSON: unexpected '1', expected ':' after \"\(digits.prefix(40))…\" (5000 characters)"),
        ]
        for (field, message) in cases {
            let line = Self.lines([#"{"id":"1","owner":"a@N01",\#(field)}"#])
            for tool in ["regions-load", "place-resolve"] {
                let run = try Tools.run(tool, ["--db", scratch.file("photos.db")], input: line, environment: env)
                #expect(run.status == 65, "\(tool): \(run.stderr)")
                #expect(run.stderr.hasPrefix("\(tool): stdin: line 1, \(message)\n"), "\(tool): \(run.stderr)")
            }
        }
    }

    // MARK: 12.2 --since

    @Test func sinceReadsISO8601InLocalTimeAndRefusesAnythingElse() throws {
        let setup = try NetworkEndToEndTests.Setup(environment: ["TZ": "America/New_York"])
        let run = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--since", "2025-11-22 06:00", "--pages", "1"], environment: setup.environment)
        #expect(run.status == 0, "\(run.stderr)")
        // 06:00 in New York (EST, -05:00) is 11:00 UTC.
        #expect(try setup.fake.requests(method: "flickr.photos.search").last!.params["min_upload_date"] == "1763809200")
        let zoned = try Tools.run("flickr-recent", ["-q", "--db", setup.db, "--since", "2025-11-22T06:00:00.5+01:00", "--pages", "1"], environment: setup.environment)
        #expect(zoned.status == 0)
        #expect(try setup.fake.requests(method: "flickr.photos.search").last!.params["min_upload_date"] == "1763787600")
        let asked = try setup.fake.requests().count
        for bad in ["2025-11-22garbage", "2025-11-22T25:00", "2025-02-30"] {
            let refused = try Tools.run("flickr-recent", ["--db", setup.db, "--since", bad], environment: setup.environment)
            #expect(refused.status == 64, "\(bad)")
            #expect(refused.stderr.hasPrefix("flickr-recent: --since: cannot read '\(bad)' as a time; give Unix seconds (1763800000), an ISO 8601 date (2025-11-22: midnight, local time) or date-time"), "\(refused.stderr)")
        }
        #expect(try setup.fake.requests().count == asked, "a refused time asks Flickr nothing")
        let help = try Tools.run("flickr-recent", ["--help"], environment: setup.environment)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("an ISO 8601 date or date-time (local time unless it ends with a zone such as Z or +01:00)"))
    }

    // MARK: 12.3 reading without write access

    /// Runs `tool` as a user who may read the database but not write it or its directory:
    /// `nobody` when the tests run as root (root ignores permissions), else the current
    /// user, against files and directories without write permission. The binary is copied
    /// where that user can run it.
    static func asReader(_ scratch: TemporaryDirectory, _ tool: String, _ arguments: [String], environment: [String: String]) throws -> RunResult {
        let binary = scratch.file("bin/\(tool)")
        if !FileManager.default.fileExists(atPath: binary) {
            try FileManager.default.createDirectory(atPath: scratch.file("bin"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Tools.path(tool), toPath: binary)
            chmod(scratch.path, 0o755)
            chmod(scratch.file("bin"), 0o755)
            chmod(binary, 0o755)
        }
        if getuid() == 0 {
            return try Tools.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", binary] + arguments, environment: environment)
        }
        return try Tools.run(binary, arguments, environment: environment)
    }

    @Test func aReaderWithoutWriteAccessCanQueryTheDatabase() throws {
        let scratch = TemporaryDirectory()
        let env = Tools.environment(home: scratch.path)
        let directory = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/photos.db"
        // A copy the reader can read wherever the checkout lies (a clone in `mktemp -d` is 0700).
        let fixture = scratch.file("photos.ndjson")
        try FileManager.default.copyItem(atPath: Tools.fixtures.appendingPathComponent("photos.ndjson").path, toPath: fixture)
        chmod(scratch.path, 0o755)
        chmod(fixture, 0o644)
        #expect(try Tools.run("regions-load", ["-q", "--db", db, fixture], environment: env).status == 0)
        let expected = try Tools.run("regions-top", ["--db", db, "--format", "ndjson"], environment: env)
        #expect(expected.status == 0 && !expected.stdout.isEmpty)
        // The writer left -wal and -shm for readers.
        #expect(FileManager.default.fileExists(atPath: db + "-shm") && FileManager.default.fileExists(atPath: db + "-wal"))

        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        // Not vacuous: the reader really cannot write here.
        let probe = try Self.asReader(scratch, "regions-load", ["-q", "--db", directory + "/new.db", fixture], environment: env)
        #expect(probe.status == 73, "the reader could write the directory: \(probe.stderr)")
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()

        let top = try Self.asReader(scratch, "regions-top", ["--db", db, "--format", "ndjson"], environment: env)
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stdout == expected.stdout)
        let region = try Self.asReader(scratch, "regions-top", ["--db", db, "--region", "Nova Scotia, Canada", "--format", "ndjson"], environment: env)
        #expect(region.status == 0 && region.stdout.split(separator: "\n").count > 10, "\(region.stderr)")
        let dry = try Self.asReader(scratch, "regions-load", ["--db", db, "--prune-older-than", "1d", "--delete", "53100000043", "--dry-run"], environment: env)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix(#"{"action":"delete","id":"53100000043"}"#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before, "a reader created files")

        // An older database without -shm: SQLite cannot open it read-only here...
        chmod(directory, 0o755)
        try FileManager.default.removeItem(atPath: db + "-shm")
        try FileManager.default.removeItem(atPath: db + "-wal")
        chmod(directory, 0o555)
        let noShm = try Self.asReader(scratch, "regions-top", ["--db", db, "--format", "ndjson"], environment: env)
        #expect(noShm.status == 73)
        #expect(noShm.stderr == "regions-top: cannot read the database \(db) without write access to its directory: SQLite needs \(db)-shm, which is missing (a writing tool of this toolkit leaves it; run one once as a user who may write the database)\n")
        // ...unless nobody can write it (no write permission at all): then it is read as an
        // unchanging file.
        chmod(db, 0o444)
        defer { chmod(db, 0o644) }
        let frozen = try Self.asReader(scratch, "regions-top", ["--db", db, "--format", "ndjson"], environment: env)
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(frozen.stdout == expected.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before.filter { !$0.hasSuffix("-shm") && !$0.hasSuffix("-wal") })
    }

    // MARK: 12.5 --verbose hides the key, not its letters

    @Test func verboseHidesTheKeyValueNotEveryOccurrenceOfItsText() throws {
        let setup = try NetworkEndToEndTests.Setup(["--api-key", "k"], environment: ["FLICKR_API_KEY": "k"])
        let run = try Tools.run("flickr-recent", ["--db", setup.db, "--verbose", "--pages", "1"], environment: setup.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("?method=flickr.photos.search&has_geo=1&license=1,2,4,7&extras=original_format,description,geo,date_upload,owner_name,license,url_sq,url_l&sort=date-posted-asc&per_page=500&page=1&format=json&nojsoncallback=1&api_key=[API%20key] → 200"), "\(run.stderr)")
        #expect(!run.stderr.contains("[API key]r"), "\(run.stderr)")
    }
}
