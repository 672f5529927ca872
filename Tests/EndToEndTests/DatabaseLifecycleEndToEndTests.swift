import Foundation
import Testing
import TopRegionsTestSupport

/// Issues 26.4 and 25.4 through the built binaries: which files the tools make their
/// database, which they leave alone, and when a new database comes to be.
@Suite struct DatabaseLifecycleEndToEndTests {
    static let record = #"{"id":"5","owner":"a@N01","place_id":"p1"}"# + "\n"

    /// Every tool that opens the database, each as a user would run it on `db`, with what it
    /// reads on standard input.
    static func everyTool(_ db: String, cache: String) -> [(tool: String, arguments: [String], input: String)] {
        [
            ("regions-load", ["--db", db], record),
            ("regions-load", ["--db", db, "--dry-run", "--prune-older-than", "1d"], ""),
            ("place-resolve", ["--db", db], record),
            ("flickr-recent", ["--db", db, "--pages", "1"], ""),
            ("thumb-get", ["--db", db], "5\n"),
            ("photo-cache", ["--db", db, "--cache-dir", cache], "5\n"),
            ("regions-top", ["--db", db], ""),
        ]
    }

    /// Each file in `directory` and its bytes; a -shm by name only (it is SQLite's shared
    /// memory, rewritten by any reader, this toolkit's or the sqlite3 shell's).
    static func contents(_ directory: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            contents[name] = name.hasSuffix("-shm") ? Data() : try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return contents
    }

    static func sqlite(_ db: String, _ statements: [String]) throws {
        let run = try Tools.run("/usr/bin/sqlite3", [db] + statements, environment: Tools.environment(home: "/tmp"))
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Runs every tool on `db` in `directory` and expects each to refuse with `status` and
    /// `message`, leaving every file there as it was (no -wal, -shm or lock file beside it).
    static func expectEveryToolRefuses(_ db: String, in directory: String, home: String, status: Int32, message: String) throws {
        let before = try contents(directory)
        // A key and an address that cannot answer: flickr-recent gets as far as the database.
        let environment = Tools.environment(home: home, ["FLICKR_API_KEY": "a-key", "FLICKR_API_BASE": "http://127.0.0.1:9/services/rest/"])
        for (tool, arguments, input) in everyTool(db, cache: home + "/cache") {
            let run = try Tools.run(tool, arguments, input: Array(input.utf8), environment: environment)
            #expect(run.status == status, "\(tool) \(arguments): \(run.stderr)")
            #expect(run.stderr == "\(tool): \(message)\n", "\(tool) \(arguments)")
            #expect(run.stdout == "", "\(tool) \(arguments)")
            #expect(try contents(directory) == before, "\(tool) \(arguments) changed \(directory)")
        }
    }

    @Test func anotherProgramsSQLiteFileIsRefusedAndLeftAsItWas() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.file("d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/o.db"
        try Self.sqlite(db, ["create table foo(x)", "insert into foo values (1)"])
        try Self.expectEveryToolRefuses(
            db, in: directory, home: scratch.path, status: 65,
            message: "\(db) is another program's SQLite database (1 table: foo), not this toolkit's; nothing was changed")
        #expect(try Tools.run("/usr/bin/sqlite3", [db, "pragma journal_mode"], environment: Tools.environment(home: "/tmp")).stdout == "delete\n")

        // Another GRDB program's database (its own migrations), in WAL mode, its last
        // transaction still in its -wal: the same.
        let grdb = directory + "/grdb.db"
        try Self.sqlite(grdb, [
            "pragma journal_mode = wal", ".filectrl persist_wal 1", "pragma wal_autocheckpoint = 0",
            "create table grdb_migrations (identifier text not null primary key)", "insert into grdb_migrations values ('v1 notes')",
            "create table note (text)",
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: grdb + "-wal")).count > 0)
        try Self.expectEveryToolRefuses(
            grdb, in: directory, home: scratch.path, status: 65,
            message: "\(grdb) is another program's SQLite database (2 tables: grdb_migrations, note), not this toolkit's; nothing was changed")
    }

    @Test func aDatabaseANewerVersionUpgradedIsRefusedByWritersAndReaders() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.file("d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/photos.db"
        let environment = Tools.environment(home: scratch.path)
        #expect(try Tools.run("regions-load", ["-q", "--db", db], input: Array(Self.record.utf8), environment: environment).status == 0)
        let message = "the database \(db) was upgraded by a newer version of this toolkit (its migration 'v9 from a later version' is unknown to this one); use that version or a later one; nothing was changed"

        // Upgraded by a later version that kept the -wal (as this toolkit's writers do)...
        try Self.sqlite(db, [".filectrl persist_wal 1", "insert into grdb_migrations values ('v9 from a later version')"])
        #expect(FileManager.default.fileExists(atPath: db + "-wal"))
        try Self.expectEveryToolRefuses(db, in: directory, home: scratch.path, status: 78, message: message)
        // ...and one that did not.
        try Self.sqlite(db, ["pragma wal_checkpoint"])
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        try Self.expectEveryToolRefuses(db, in: directory, home: scratch.path, status: 78, message: message)
    }

    /// What is still ours to create: a new path, an empty file, a blank SQLite file.
    @Test func anEmptyOrBlankFileIsStillOursToCreate() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let empty = scratch.file("empty.db")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let blank = scratch.file("blank.db")
        try Self.sqlite(blank, ["pragma page_size = 8192", "vacuum"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: blank)).count == 8192)
        for db in [scratch.file("new.db"), empty, blank] {
            let load = try Tools.run("regions-load", ["--db", db], input: Array(Self.record.utf8), environment: environment)
            #expect(load.status == 0 && load.stderr == "regions-load: read 1, new 1, updated 0, already stored 0\n", "\(db): \(load.stderr)")
            let top = try Tools.run("regions-top", ["--db", db, "--photos", "--format", "ndjson"], environment: environment)
            #expect(top.status == 0 && top.stdout.hasPrefix(#"{"id":"5","owner":"a@N01""#) && top.stdout.split(separator: "\n").count == 1, "\(db): \(top.stdout) \(top.stderr)")
        }
    }

    // MARK: 25.4 a new database is made by the first write

    /// Every tool, run on a new path in a way that writes nothing (a missing key or setting,
    /// no record, a bad first line, nothing to delete), ends as before and leaves the
    /// directory empty: no database, -wal, -shm or lock file. So regions-top still says there
    /// is no database, instead of answering from an empty one.
    @Test func aRunThatWritesNothingCreatesNoDatabase() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.file("d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/new.db"
        let record = Array(Self.record.utf8)
        let noKey = Tools.environment(home: scratch.path)
        let key = Tools.environment(home: scratch.path, ["FLICKR_API_KEY": "a-key", "FLICKR_API_BASE": "http://127.0.0.1:9/services/rest/"])
        let runs: [(tool: String, arguments: [String], input: [UInt8], environment: [String: String], status: Int32, message: String)] = [
            ("flickr-recent", ["--db", db], [], noKey, 78, "flickr-recent: no Flickr API key: set FLICKR_API_KEY or give --api-key-file (https://www.flickr.com/services/apps/create/)\n"),
            ("flickr-recent", ["--db", db, "--api-key-file", scratch.file("no-such-key")], [], noKey, 78, "flickr-recent: cannot read the API key file \(scratch.file("no-such-key"))"),
            ("flickr-recent", ["--db", db], [], key.merging(["FLICKR_API_BASE": "ftp://example.com/"]) { $1 }, 78, "flickr-recent: FLICKR_API_BASE must be an http or https URL\n"),
            ("flickr-recent", ["--db", db], [], key.merging(["FLICKR_HOURLY_LIMIT": "none"]) { $1 }, 78, "flickr-recent: FLICKR_HOURLY_LIMIT must be a positive number of calls, not 'none'\n"),
            // Flickr out of reach (a refused connection): nothing fetched, nothing to record.
            ("flickr-recent", ["--db", db, "--since-last", "--retries", "0"], [], key, 75, "flickr-recent: flickr.photos.search: "),
            ("place-resolve", ["--db", db], record, noKey, 78, """
                place-resolve: 1 record, 0 places known, 0 looked up
                place-resolve: no Flickr API key: set FLICKR_API_KEY or give --api-key-file (https://www.flickr.com/services/apps/create/); \
                1 record passed on without a region (place-resolve --pending gives them one once it can look their places up)

                """),
            ("place-resolve", ["--db", db], Array(#"{"id":"6","owner":"a@N01"}"#.utf8), noKey, 0, "place-resolve: 1 record, 0 places known, 0 looked up\n"),
            ("place-resolve", ["--db", db], [], key, 0, "place-resolve: 0 records, 0 places known, 0 looked up\n"),
            ("place-resolve", ["--db", db, "--pending"], [], key, 66, "place-resolve: no database at \(db) (photos get there with flickr-recent | place-resolve | regions-load)\n"),
            ("place-resolve", ["--db", db], Array("x\n".utf8), key, 65, "place-resolve: stdin: line 1, column 1: invalid JSON"),
            ("regions-load", ["--db", db], [], noKey, 0, "regions-load: read 0, new 0, updated 0, already stored 0\n"),
            ("regions-load", ["--db", db], Array("x\n".utf8) + record, noKey, 65, "regions-load: stdin: line 1, column 1: invalid JSON"),
            ("regions-load", ["--db", db, "--delete", "5"], record, noKey, 64, "regions-load: --delete: no photo 5 is stored (a typo?); nothing changed\n"),
            ("regions-load", ["--db", db, "--prune-older-than", "7d"], [], noKey, 0, "regions-load: read 0, new 0, updated 0, already stored 0, pruned 0\n"),
            ("thumb-get", ["--db", db], Array("5\n".utf8), key, 66, "thumb-get: no database at \(db)"),
            ("photo-cache", ["--db", db, "--cache-dir", scratch.file("cache")], Array("5\n".utf8), key, 66, "photo-cache: no database at \(db)"),
            // With a key that cannot be read, the refresh's flickr-recent fails before writing.
            ("regions-top", ["--db", db, "--api-key-file", scratch.file("no-such-key")], [], noKey, 78, "regions-top: the database has no photos yet; refreshing it from Flickr"),
            ("regions-top", ["--db", db], [], noKey, 66, "regions-top: no database at \(db);"),
        ]
        for run in runs {
            let result = try Tools.run(run.tool, run.arguments, input: run.input, environment: run.environment)
            #expect(result.status == run.status, "\(run.tool) \(run.arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(run.message), "\(run.tool) \(run.arguments): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [], "\(run.tool) \(run.arguments) left files")
        }

        // The refresh as typed in a shell without a key: the same.
        var environment = noKey
        environment["DB"] = db
        let pipeline = try Tools.shell(#""$BIN/flickr-recent" --db "$DB" | "$BIN/place-resolve" --db "$DB" | "$BIN/regions-load" --db "$DB"; echo "${PIPESTATUS[*]}""#, environment: environment)
        #expect(pipeline.stdout == "78 0 0\n", "\(pipeline.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        #expect(try Tools.run("regions-top", ["--db", db, "--no-refresh"], environment: noKey).status == 66)

        // The first write makes it.
        #expect(try Tools.run("regions-load", ["-q", "--db", db], input: record, environment: noKey).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["new.db", "new.db-shm", "new.db-wal", "new.db.lock"])
    }
}

extension DatabaseLifecycleEndToEndTests {
    // MARK: 26.6 the -wal emptied when the writers finish

    /// Whether process `pid` has `path` open.
    static func hasOpen(_ pid: pid_t, _ path: String) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
    }

    /// Eight writers and four readers at once, while a ninth reader holds the database open
    /// (regions-top writing a long listing into a pipe nobody reads yet, as into a pager):
    /// when the last writer has finished, the -wal is empty (0 bytes), although SQLite skips
    /// its own checkpoint at close while another process has the database open, and readers
    /// (read-only) never make one. Before, it kept what the writers had written.
    @Test func theWALIsEmptyOnceTheWritersFinishWhileReadersHaveTheDatabaseOpen() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("c.db")
        let lines = try String(contentsOfFile: Tools.fixtures.appendingPathComponent("photos.ndjson").path, encoding: .utf8)
            .split(separator: "\n").map { $0 + "\n" }
        let parts = (0..<9).map { part in stride(from: part, to: lines.count, by: 9).map { lines[$0] }.joined() }
        #expect(try Tools.run("regions-load", ["-q", "--db", db], input: Array(parts[0].utf8), environment: environment).status == 0)

        let held = Process()
        held.executableURL = URL(fileURLWithPath: Tools.path("regions-top"))
        held.arguments = ["--db", db, "--photos", "--format", "ndjson"]
        held.environment = environment
        let listing = Pipe()
        held.standardOutput = listing
        held.standardError = FileHandle.nullDevice
        try held.run()
        let blocked = Processes.within(30) {
            (try? String(contentsOfFile: "/proc/\(held.processIdentifier)/wchan", encoding: .utf8))?.hasSuffix("pipe_write") == true
        }
        #expect(blocked && Self.hasOpen(held.processIdentifier, db), "the reader does not hold the database open")

        let writers = try parts.dropFirst().map { try Tools.start("regions-load", ["-q", "--db", db], input: Array($0.utf8), environment: environment) }
        let questions = [["--regions"], ["--limit", "5"], ["--search", "harbour"], ["--photos", "--limit", "50"]]
        let readers = try questions.map { try Tools.start("regions-top", ["--db", db, "--format", "ndjson"] + $0, environment: environment) }
        for run in try writers.map({ try $0.wait() }) + readers.map({ try $0.wait() }) {
            #expect(run.status == 0, "\(run.stderr)")
        }
        let wal = try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int
        #expect(wal == 0, "the -wal holds \(wal ?? -1) bytes with every writer finished")
        // Nothing lost on the way: the same regions as the whole file loaded at once.
        let whole = scratch.file("whole.db")
        #expect(try Tools.run("regions-load", ["-q", "--db", whole, Tools.fixtures.appendingPathComponent("photos.ndjson").path], environment: environment).status == 0)
        let regions = try [db, whole].map { try Tools.run("regions-top", ["--db", $0, "--regions", "--format", "ndjson"], environment: environment).stdout }
        #expect(regions[0] == regions[1] && !regions[0].isEmpty)

        // The held reader reads on, and reading leaves it empty.
        let output = listing.fileHandleForReading.readDataToEndOfFile()
        held.waitUntilExit()
        #expect(held.terminationStatus == 0)
        let ids = Set(parts[0].split(separator: "\n").map { (try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["id"] as! String })
        #expect(output.split(separator: UInt8(ascii: "\n")).count == ids.count)
        #expect(try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int == 0)
    }
}

extension DatabaseLifecycleEndToEndTests {
    // MARK: 26.7 the lock file is the database owner's

    /// Root runs a writer on a user's database whose lock file does not exist yet: the lock
    /// file it makes is the database's owner's, with the database's permissions, as SQLite
    /// makes the -wal and -shm; so the owner's writers go on working (before: a root-owned
    /// lock file, 0644, and the owner's writers ended with 73).
    @Test(.enabled(if: getuid() == 0, "only root can give a file away"))
    func aLockFileRootMakesIsTheDatabaseOwners() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let directory = scratch.file("d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = directory + "/photos.db"
        #expect(try Tools.run("regions-load", ["-q", "--db", db], input: Array(Self.record.utf8), environment: environment).status == 0)
        try FileManager.default.removeItem(atPath: db + ".lock")
        let owner = try #require(getpwnam("nobody")).pointee.pw_uid
        let group = try #require(getgrnam("nogroup")).pointee.gr_gid
        for path in [directory, db, db + "-wal", db + "-shm"] { #expect(chown(path, owner, group) == 0) }
        #expect(chmod(db, 0o664) == 0)

        let byRoot = try Tools.run("regions-load", ["-q", "--db", db], input: Array(#"{"id":"6","owner":"a@N01"}"#.utf8), environment: environment)
        #expect(byRoot.status == 0, "\(byRoot.stderr)")
        var lock = stat()
        #expect(stat(db + ".lock", &lock) == 0)
        #expect(lock.st_uid == owner && lock.st_gid == group, "the lock file is \(lock.st_uid):\(lock.st_gid)")
        #expect(lock.st_mode & 0o777 == 0o664)

        let records = scratch.file("records.ndjson")
        try Data(#"{"id":"7","owner":"a@N01"}"#.utf8 + [0x0A]).write(to: URL(fileURLWithPath: records))
        let byOwner = try InputsAndPathsEndToEndTests.asReader(scratch, "regions-load", ["--db", db, records], environment: environment)
        #expect(byOwner.status == 0, "\(byOwner.stderr)")
        #expect(byOwner.stderr == "regions-load: read 1, new 1, updated 0, already stored 0\n")
    }
}
