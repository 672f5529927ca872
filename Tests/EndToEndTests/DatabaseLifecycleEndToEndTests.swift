import Foundation
import Testing

/// Issue 26.4 through the built binaries: which files the tools make their database, and
/// which they leave alone.
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
        let scratch = Scratch()
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
        let scratch = Scratch()
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
        let scratch = Scratch()
        let environment = Tools.environment(home: scratch.path)
        let empty = scratch.file("empty.db")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let blank = scratch.file("blank.db")
        try Self.sqlite(blank, ["pragma page_size = 8192", "vacuum"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: blank)).count == 8192)
        for db in [scratch.file("new.db"), empty, blank] {
            let load = try Tools.run("regions-load", ["--db", db], input: Array(Self.record.utf8), environment: environment)
            #expect(load.status == 0 && load.stderr == "regions-load: read 1, new 1, updated 0, skipped 0\n", "\(db): \(load.stderr)")
            let top = try Tools.run("regions-top", ["--db", db, "--photos", "--format", "ndjson"], environment: environment)
            #expect(top.status == 0 && top.stdout.hasPrefix(#"{"id":"5","owner":"a@N01""#) && top.stdout.split(separator: "\n").count == 1, "\(db): \(top.stdout) \(top.stderr)")
        }
    }
}
