import Foundation
import Testing
import TopRegionsTestSupport

/// regions-top on a missing or empty database: with a key it runs flickr-recent |
/// place-resolve | regions-load itself (the executables beside it, joined by pipes) and then
/// answers; without one it says how. flickr-fake's request log proves one refresh and no
/// more: exactly the requests the same pipeline typed in a shell makes.
@Suite struct RefreshWhenEmptyEndToEndTests {
    static let world = ["--seed", "5", "--photos", "900", "--regions", "30", "--places-per-region", "2"]
    static let note = "regions-top: the database has no photos yet; refreshing it from Flickr: flickr-recent | place-resolve | regions-load\n"
    static let hint = "fill it with flickr-recent | place-resolve | regions-load, or set FLICKR_API_KEY (or give --api-key-file) and regions-top does that itself"

    /// A request as the log has it, minus nothing: method and every parameter, sorted.
    static func summaries(_ requests: [FakeFlickrProcess.LoggedRequest]) -> [String] {
        requests.map { request in
            "\(request.kind) \(request.method ?? request.path) " + request.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }.sorted()
    }

    /// The refresh typed in a shell, into `db`, against a fake of the same world: its
    /// requests, its stderr, and regions-top's answer from the database it filled.
    static func byHand(_ scratch: TemporaryDirectory, db: String, arguments: [String]) throws -> (requests: [String], stderr: String, answer: RunResult) {
        let witness = try FakeFlickrProcess(world, scratch: scratch)
        var environment = witness.environment(home: scratch.path)
        environment["DB"] = db
        let refresh = try Tools.shell(#""$BIN/flickr-recent" --db "$DB" | "$BIN/place-resolve" --db "$DB" | "$BIN/regions-load" --db "$DB""#, environment: environment)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let answer = try Tools.run("regions-top", ["--db", db] + arguments, environment: environment)
        return (summaries(try witness.requests()), refresh.stderr, answer)
    }

    @Test func aMissingDatabaseIsRefreshedOnceThenAnswered() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let arguments = ["--limit", "10", "--format", "ndjson"]

        let first = try Tools.run("regions-top", ["--db", db] + arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let requests = try fake.requests()
        let expected = try Self.byHand(scratch, db: scratch.file("by-hand.db"), arguments: arguments)
        #expect(Self.summaries(requests) == expected.requests)
        #expect(requests.contains { $0.method == "flickr.photos.search" } && requests.contains { $0.method == "flickr.places.getInfo" })
        #expect(first.stdout == expected.answer.stdout)
        #expect(first.stdout.split(separator: "\n").count == 10)
        #expect(first.stderr == Self.note + expected.stderr)
        #expect(!first.stderr.contains("\r"), "no progress in a pipe")

        // The database has photos now: no refresh, not a single request.
        let second = try Tools.run("regions-top", ["--db", db] + arguments, environment: environment)
        #expect(second.status == 0 && second.stderr == "")
        #expect(second.stdout == first.stdout)
        #expect(try fake.requests().count == requests.count)
        let region = try Tools.run("regions-top", ["--db", db, "--region", try Self.firstRegionID(first.stdout)], environment: environment)
        #expect(region.status == 0 && !region.stdout.isEmpty)
        #expect(try fake.requests().count == requests.count)
    }

    /// The first row's region id; a test issue, not a crash of every test, when there is none
    /// (a refresh that failed answers nothing).
    static func firstRegionID(_ ndjson: String) throws -> String {
        let line = try #require(ndjson.split(separator: "\n").first, "no row in regions-top's answer")
        let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(row["region_id"] as? String)
    }

    @Test func aDatabaseWithNoPhotosIsRefreshedTooWithTheKeyFromAFile() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let db = scratch.file("photos.db")
        var environment = fake.environment(home: scratch.path)
        environment["FLICKR_API_KEY"] = nil
        let keyFile = scratch.file("key")
        try (FakeFlickrProcess.apiKey + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        try Tools.makeEmptyDatabase(db, environment: environment)

        let run = try Tools.run("regions-top", ["--db", db, "--api-key-file", keyFile, "--format", "ndjson"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try Self.byHand(scratch, db: scratch.file("by-hand.db"), arguments: ["--format", "ndjson"])
        #expect(Self.summaries(try fake.requests()) == expected.requests)
        #expect(run.stdout == expected.answer.stdout)
        #expect(!run.stderr.contains(FakeFlickrProcess.apiKey))
    }

    @Test func withoutAKeyItAnswersAtOnceAndSaysHow() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        var environment = fake.environment(home: scratch.path)
        environment["FLICKR_API_KEY"] = nil
        let db = scratch.file("photos.db")

        let missing = try Tools.run("regions-top", ["--db", db], environment: environment)
        #expect(missing.status == 66)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "regions-top: no database at \(db); \(Self.hint)\n")
        #expect(!FileManager.default.fileExists(atPath: db))

        try Tools.makeEmptyDatabase(db, environment: environment)
        let empty = try Tools.run("regions-top", ["--db", db], environment: environment)
        #expect(empty.status == 0)
        #expect(empty.stdout == "")
        #expect(empty.stderr == "regions-top: the database has no photos yet; \(Self.hint)\n")
        let quiet = try Tools.run("regions-top", ["--db", db, "-q", "--recents"], environment: environment)
        #expect(quiet.status == 0 && quiet.stdout == "" && quiet.stderr == "")
        #expect(try fake.requests().isEmpty)
    }

    @Test func noRefreshTurnsItOff() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")

        let missing = try Tools.run("regions-top", ["--db", db, "--no-refresh"], environment: environment)
        #expect(missing.status == 66)
        #expect(missing.stderr == "regions-top: no database at \(db); fill it with flickr-recent | place-resolve | regions-load\n")
        try Tools.makeEmptyDatabase(db, environment: environment)
        let empty = try Tools.run("regions-top", ["--db", db, "--no-refresh", "--regions"], environment: environment)
        #expect(empty.status == 0 && empty.stdout == "")
        #expect(empty.stderr == "regions-top: the database has no photos yet; fill it with flickr-recent | place-resolve | regions-load\n")
        #expect(try fake.requests().isEmpty)
    }

    @Test func aFailingStagesStatusAndMessageComeThroughUnchanged() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        var environment = fake.environment(home: scratch.path)
        environment["FLICKR_API_KEY"] = "wrong-key-5e7a1c"
        let db = scratch.file("photos.db")

        // What the same pipeline says typed in a shell with this key.
        var shell = environment
        shell["DB"] = scratch.file("by-hand.db")
        let byHand = try Tools.shell(#""$BIN/flickr-recent" --db "$DB" | "$BIN/place-resolve" --db "$DB" | "$BIN/regions-load" --db "$DB"; echo "${PIPESTATUS[*]}""#, environment: shell)
        #expect(byHand.stdout == "78 0 0\n")
        #expect(byHand.stderr.hasPrefix("flickr-recent: flickr.photos.search: Flickr error 100: Invalid API Key"))
        // A pipeline that stored nothing leaves no database (nor -wal, -shm or lock): the
        // README's 66 for "no database" still holds.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("by-hand.db") } == [])
        #expect(try Tools.run("regions-top", ["--db", shell["DB"]!, "--no-refresh"], environment: environment).status == 66)
        let run = try Tools.run("regions-top", ["--db", db], environment: environment)
        #expect(run.status == 78)
        #expect(run.stdout == "")
        #expect(run.stderr == Self.note + byHand.stderr + "regions-top: the refresh failed: flickr-recent exited with status 78\n")
        #expect(!run.stderr.contains("wrong-key-5e7a1c"))
        #expect(try fake.requests().count == 2, "one refused search each, then nothing")
    }

    /// A refresh stopped part way (here by the hourly call limit: one search page, then no
    /// place lookup) ends with the first failing stage's status and answers nothing; the
    /// photos it stored stay, so the database is no longer empty and the next regions-top
    /// answers from them (no region known yet: an empty ranking, said on stderr) without
    /// asking Flickr.
    @Test func aRefreshThatStoppedPartWayKeepsWhatItStoredAndIsNotRepeated() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path, ["FLICKR_HOURLY_LIMIT": "1"])
        let db = scratch.file("photos.db")

        var shell = environment
        shell["DB"] = scratch.file("by-hand.db")
        let byHand = try Tools.shell(#""$BIN/flickr-recent" --db "$DB" | "$BIN/place-resolve" --db "$DB" | "$BIN/regions-load" --db "$DB"; echo "${PIPESTATUS[*]}""#, environment: shell)
        #expect(byHand.stdout == "75 75 0\n")
        let run = try Tools.run("regions-top", ["--db", db, "--format", "ndjson"], environment: environment)
        #expect(run.status == 75)
        #expect(run.stdout == "")
        #expect(run.stderr == Self.note + byHand.stderr + "regions-top: the refresh failed: flickr-recent exited with status 75\n")
        let requests = try fake.requests()
        #expect(requests.map { $0.method ?? $0.path } == ["flickr.photos.search", "flickr.photos.search"])
        let stored = try Tools.run("/usr/bin/sqlite3", [db, "SELECT count(*), count(region) FROM photo"], environment: environment)
        #expect(stored.stdout == "500|0\n")

        let again = try Tools.run("regions-top", ["--db", db, "--format", "ndjson"], environment: environment)
        #expect(again.status == 0 && again.stdout == "", "\(again.stderr)")
        #expect(again.stderr == "regions-top: no region has photos yet: the photos stored have no region yet (place-resolve --pending looks their places up)\n")
        #expect(try fake.requests().count == requests.count)
    }

    /// On a terminal the stages show their progress there, as they would typed in a shell;
    /// the answer follows.
    @Test func onATerminalTheStagesShowTheirProgress() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let out = scratch.file("out")
        let session = try TerminalSession(
            "regions-top", ["--db", scratch.file("photos.db"), "--format", "csv", "--limit", "3"],
            environment: fake.environment(home: scratch.path, ["TERM": "xterm"]), stdout: out)
        #expect(session.finish() == 0, "\(session.text)")
        #expect(session.text.hasPrefix(Self.note.replacingOccurrences(of: "\n", with: "\r\n")), "\(session.text)")
        #expect(session.text.contains("\r\u{1B}[Kflickr-recent: page 1 (1 of 2 in this query), 500 photos"), "\(session.text)")
        #expect(session.text.contains("\r\u{1B}[Kplace-resolve: "), "\(session.text)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\r\n").count == 4)
    }

    /// With stand-ins beside a copy of regions-top: each stage gets the database and the
    /// verbosity, reads what the one before wrote; the first stage that fails, in pipeline
    /// order, decides the status (here one a signal ended: 128 + 15, as a shell says), not a
    /// later one failing after it.
    @Test func theFirstFailingStageDecidesEvenOneASignalEnded() throws {
        let scratch = TemporaryDirectory()
        let beside = scratch.file("beside")
        try FileManager.default.createDirectory(atPath: beside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Tools.path("regions-top"), toPath: beside + "/regions-top")
        // flickr-recent writes its two lines in one write (stdio to a pipe), before
        // place-resolve reads the first, so it never meets the closed pipe.
        let standIns = [
            "flickr-recent": #"/usr/bin/printf 'one\ntwo\n'; echo "flickr-recent: 2 photos" >&2"#,
            "place-resolve": #"read -r line; echo "place-resolve: got $line" >&2; kill -TERM $$"#,
            "regions-load": #"cat > "$(dirname "$0")/loaded"; echo "regions-load: stand-in" >&2; exit 3"#,
        ]
        for (name, body) in standIns {
            let script = "#!/bin/bash\nprintf '%s\\n' \"$*\" > \"$(dirname \"$0\")/\(name).arguments\"\n\(body)\n"
            try script.write(toFile: beside + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: beside + "/" + name)
        }
        let db = scratch.file("photos.db")
        let environment = Tools.environment(home: scratch.path, ["FLICKR_API_KEY": "a-key"])
        let run = try Tools.run(beside + "/regions-top", ["--db", db, "-v"], environment: environment)
        #expect(run.status == 143)
        #expect(run.stdout == "")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == String(Self.note.dropLast()))
        #expect(Set(lines.dropFirst().filter { !$0.hasPrefix("regions-top:") }) == ["flickr-recent: 2 photos", "place-resolve: got one", "regions-load: stand-in"])
        #expect(lines.last == "regions-top: the refresh failed: place-resolve was ended by signal 15 (Terminated)")
        for name in standIns.keys {
            #expect(try String(contentsOfFile: beside + "/\(name).arguments", encoding: .utf8) == "--db \(db) --verbose\n", "\(name)")
        }
        #expect(try String(contentsOfFile: beside + "/loaded", encoding: .utf8) == "", "place-resolve wrote nothing before it was ended")
    }

    @Test func withoutTheOtherToolsBesideItTheRefreshIsUnavailable() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let alone = scratch.file("alone")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Tools.path("regions-top"), toPath: alone + "/regions-top")
        let db = scratch.file("photos.db")
        let run = try Tools.run(alone + "/regions-top", ["--db", db], environment: fake.environment(home: scratch.path))
        #expect(run.status == 69)
        #expect(run.stderr == "regions-top: cannot refresh the empty database: flickr-recent is not installed beside regions-top (in \(alone))\n")
        #expect(try fake.requests().isEmpty)
    }

    @Test func twoStartedAtOnceRefreshOnce() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let arguments = ["--db", db, "--format", "ndjson", "-q"]
        let runs = try [Tools.start("regions-top", arguments, environment: environment), Tools.start("regions-top", arguments, environment: environment)]
            .map { try $0.wait() }
        #expect(runs.map(\.status) == [0, 0], "\(runs.map(\.stderr))")
        #expect(runs[0].stdout == runs[1].stdout && !runs[0].stdout.isEmpty)
        let expected = try Self.byHand(scratch, db: scratch.file("by-hand.db"), arguments: ["--format", "ndjson"])
        #expect(Self.summaries(try fake.requests()) == expected.requests)
        #expect(runs[0].stdout == expected.answer.stdout)
    }

    /// The same, when one of them names the database through a symbolic link: the refresh
    /// lock belongs to the file, not to the path given.
    @Test func twoStartedAtOnceThroughASymbolicLinkRefreshOnce() throws {
        let scratch = TemporaryDirectory()
        let fake = try FakeFlickrProcess(Self.world, scratch: scratch)
        let environment = fake.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        try Tools.makeEmptyDatabase(db, environment: environment)
        let alias = scratch.file("alias.db")
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: db)
        let runs = try [db, alias].map { try Tools.start("regions-top", ["--db", $0, "--format", "ndjson", "-q"], environment: environment) }
            .map { try $0.wait() }
        #expect(runs.map(\.status) == [0, 0], "\(runs.map(\.stderr))")
        #expect(runs[0].stdout == runs[1].stdout && !runs[0].stdout.isEmpty)
        let expected = try Self.byHand(scratch, db: scratch.file("by-hand.db"), arguments: ["--format", "ndjson"])
        #expect(Self.summaries(try fake.requests()) == expected.requests)
    }
}
