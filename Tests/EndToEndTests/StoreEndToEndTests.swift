import Foundation
import Testing
import TopRegionsTestSupport

/// regions-load and regions-top as built executables: what only processes show (two loaders
/// at once, a closed pipe, kill -9, every binary's help and version, exit statuses). What
/// they print and store for an input is tested in process (StoreCommandTests).
@Suite struct StoreEndToEndTests {
    static let fixture = Tools.fixture

    /// Loads the fixture into a new database and returns the scratch space holding it.
    func loadedFixture() throws -> (TemporaryDirectory, [String: String], String) {
        try Tools.loadedFixture { try Tools.run($0, $1, environment: $2) }
    }

    @Test func twoLoadersOnANewDatabaseAtOnceBothSucceed() throws {
        for round in 0..<6 {
            let scratch = TemporaryDirectory()
            let environment = Tools.environment(home: scratch.path)
            let db = scratch.file("new.db")
            let half = (0..<2).map { part in
                (0..<3000).map { i in
                    #"{"id":"\#(part * 10_000 + i)","owner":"o\#(i % 97)@N01","region_id":"R\#(i % 7)","region":"Region \#(i % 7)"}"#
                }.joined(separator: "\n")
            }
            try (half[0] + "\n").write(toFile: scratch.file("a.ndjson"), atomically: true, encoding: .utf8)
            try (half[1] + "\n").write(toFile: scratch.file("b.ndjson"), atomically: true, encoding: .utf8)
            // Both start before either has created the schema.
            let a = try Tools.start("regions-load", ["-q", "--batch-size", "500", "--db", db, scratch.file("a.ndjson")], environment: environment)
            let b = try Tools.start("regions-load", ["-q", "--batch-size", "500", "--db", db, scratch.file("b.ndjson")], environment: environment)
            let (ra, rb) = (try a.wait(), try b.wait())
            #expect(ra.status == 0 && rb.status == 0, "round \(round): \(ra.stderr) \(rb.stderr)")
            #expect(ra.stderr == "" && rb.stderr == "", "round \(round)")
            let top = try Tools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
            // 6000 photos over 7 regions; owners i % 97 with i % 7 fixed: every region gets
            // all 97 owners (97 and 7 are coprime) in each half.
            let expected = (0..<7).sorted { "Region \($0)" < "Region \($1)" }.enumerated().map { rank, r in
                let photos = (0..<3000).filter { $0 % 7 == r }.count * 2
                return "\(rank + 1),R\(r),Region \(r),97,\(photos),,\r\n"
            }.joined()
            #expect(top.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n" + expected, "round \(round)")
        }
    }

    /// regions-load --undelete brings a deleted photo back as it was: every table a list,
    /// a count, a search, Recents or thumb-get reads holds exactly what it held before the
    /// delete; its thumbnail is served from the database (no download), and photo-cache
    /// finds it. Regression: the photo stayed gone ("undeleted 1", photo-cache said 66).
    @Test func undeleteRestoresThePhotoExactly() throws {
        let setup = try ImagesEndToEndTests.Setup()
        let id = setup.ids[3]
        #expect(try Tools.run("thumb-get", ["-q", "--db", setup.db, id], environment: setup.environment).status == 0)
        #expect(try setup.photoCache(["-q", id]).status == 0)
        #expect(try setup.photoCache(["-q", setup.ids[5]]).status == 0)
        let requests = try setup.imageRequests()
        func snapshot() throws -> [String] {
            try ["photo", "thumbnail", "region", "region_photographer", "photographer", "place"].map { table in
                try sqlite(setup.db, "SELECT * FROM \(table) ORDER BY 1, 2")
            } + [try sqlite(setup.db, "SELECT id FROM photo JOIN photo_fts ON photo_fts.rowid = photo.rowid ORDER BY id"),
                 try sqlite(setup.db, "SELECT value FROM store_state WHERE key IN ('newest_upload', 'view_seq') ORDER BY key")]
        }
        func answers() throws -> [String] {
            let title = try sqlite(setup.db, "SELECT title FROM photo WHERE id = '\(id)'").split(separator: " ").first.map(String.init) ?? id
            return try [["--limit", "100"], ["--region", setup.region], ["--photos"], ["--recents"], ["--search", title]].map {
                try Tools.run("regions-top", ["--db", setup.db, "--format", "ndjson", "--no-refresh"] + $0, environment: setup.environment).stdout
            }
        }
        let (tables, lists) = (try snapshot(), try answers())

        let deleted = try Tools.run("regions-load", ["--db", setup.db, "--delete", id], environment: setup.environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try answers() != lists)
        #expect(try setup.photoCache(["-q", id]).status == 66)

        let undeleted = try Tools.run("regions-load", ["--db", setup.db, "--undelete", id], environment: setup.environment)
        #expect(undeleted.status == 0 && undeleted.stderr.hasSuffix("undeleted 1\n"), "\(undeleted.stderr)")
        #expect(try snapshot() == tables)
        #expect(try answers() == lists)
        let thumbnail = try Tools.run("thumb-get", ["-v", "--db", setup.db, id], environment: setup.environment)
        #expect(thumbnail.stderr.contains("thumb-get: photo \(id): from the database"), "\(thumbnail.stderr)")
        #expect(try setup.photoCache(["-q", id]).status == 0)
        #expect(try setup.imageRequests() == requests, "nothing asked of Flickr again")
        #expect(try sqlite(setup.db, "SELECT COUNT(*) FROM deleted_photo") == "0")
    }

    @Test func aClosedPipeEndsQuietly() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        var env = environment
        env["DB"] = db
        // Île-de-France has ~180 photos: well over a pipe buffer of NDJSON.
        let run = try Tools.shell(#""$BIN/regions-top" --db "$DB" --region "Île-de-France, France" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}""#, environment: env)
        #expect(run.stdout == "0\n")
        #expect(run.stderr == "")
    }

    @Test func everyToolAnswersHelpAndVersion() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        for tool in ["flickr-recent", "place-resolve", "regions-load", "regions-top", "thumb-get", "photo-cache", "regions-serve"] {
            let help = try Tools.run(tool, ["--help"], environment: environment)
            #expect(help.status == 0, "\(tool)")
            #expect(help.stdout.contains("USAGE: \(tool)"), "\(tool)")
            // The version, then who holds the copyright and the license, by its SPDX id.
            let version = try Tools.run(tool, ["--version"], environment: environment)
            #expect(version.stdout == """
                topregions 0.2.0
                Copyright 2026 the topregions maintainers. License: Apache-2.0 <https://www.apache.org/licenses/LICENSE-2.0>.

                """, "\(tool)")
            let page = try String(contentsOf: Tools.packageRoot.appendingPathComponent("man/\(tool).1"), encoding: .utf8)
            #expect(page.contains(".Sh COPYRIGHT\nCopyright 2026 the topregions maintainers. License: Apache-2.0 "), "\(tool)")
        }
        // The repository says it too: the license's text, and the SPDX id beside the package.
        let license = try String(contentsOf: Tools.packageRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License\n                           Version 2.0, January 2004"))
        let package = try String(contentsOf: Tools.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains("// SPDX-License-Identifier: Apache-2.0"))
    }

    @Test func usageErrorsExit64() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let limit = try Tools.run("regions-top", ["--limit", "0", "--db", scratch.file("x.db")], environment: environment)
        #expect(limit.status == 64)
        #expect(limit.stderr.contains("--limit must be at least 1"))
        let age = try Tools.run("regions-load", ["--prune-older-than", "soon"], environment: environment)
        #expect(age.status == 64)
        let both = try Tools.run("regions-top", ["--region", "x", "--recents"], environment: environment)
        #expect(both.status == 64)
        let missing = try Tools.run("regions-top", ["--db", scratch.file("typo.db")], environment: environment)
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("regions-top: no database at \(scratch.file("typo.db"))"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("typo.db")))
        try Tools.makeEmptyDatabase(scratch.file("x.db"), environment: environment)
        let unknown = try Tools.run("regions-top", ["--db", scratch.file("x.db"), "--region", "Atlantis"], environment: environment)
        #expect(unknown.status == 66)
        // The database has no photos (and there is no key): the hint, then the answer.
        #expect(unknown.stderr == """
            regions-top: the database has no photos yet; fill it with flickr-recent | place-resolve | regions-load, \
            or set FLICKR_API_KEY (or give --api-key-file) and regions-top does that itself
            regions-top: no region named "Atlantis" (regions-top --regions lists every region)

            """)
    }

}


extension StoreEndToEndTests {
    /// kill -9 in the middle of a load: what is stored is whole batches, with exact counts;
    /// the photos its renames held back from the search index wait, listed, and the next
    /// load indexes them.
    @Test func aKilledLoadLeavesWholeBatchesAndExactCounts() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let input = scratch.file("big.ndjson")
        let lines = (0..<300_000).map { i in
            // Every photographer renamed from one batch to the next (the first holds 1,000
            // records, the others 5,000): "Pat", then "Pat Lee" and "Pat Ray" in turn.
            let batch = (i + 4_000) / 5_000
            let name = batch == 0 ? "Pat" : batch % 2 == 1 ? "Pat Lee" : "Pat Ray"
            return #"{"id":"\#(i)","owner":"o\#(i % 499)@N01","owner_name":"\#(name)","title":"Photo \#(i)","region_id":"R\#(i % 61)","region":"Region \#(i % 61)","place_id":"P\#(i % 613)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let load = try Tools.start("regions-load", ["--db", db, "--batch-size", "5000", input], environment: environment)
        // Wait for the first committed batches, then kill without warning.
        let deadline = Date().addingTimeInterval(60)
        var stored = 0
        while stored < 10_000 && Date() < deadline {
            let count = try Tools.run("/usr/bin/sqlite3", [db, "SELECT COUNT(*) FROM photo"], environment: environment)
            stored = Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            if stored < 10_000 { usleep(10_000) }
        }
        kill(load.pid, SIGKILL)
        let result = try load.wait()
        #expect(result.status != 0)

        let check = try Tools.run("/usr/bin/sqlite3", [db, """
            PRAGMA integrity_check;
            SELECT COUNT(*) FROM photo;
            SELECT COUNT(*) FROM (
                SELECT r.id, r.photographers, r.photos, COUNT(DISTINCT p.photographer) AS n, COUNT(p.id) AS m
                FROM region r LEFT JOIN photo p ON p.region = r.id GROUP BY r.id
            ) WHERE n <> photographers OR m <> photos;
            """], environment: environment)
        let answers = check.stdout.split(separator: "\n")
        #expect(answers.first == "ok")
        let count = Int(answers[1])!
        // The first batch holds 1,000 records, the others 5,000.
        #expect(count >= 10_000 && count < 300_000 && (count - 1000) % 5000 == 0, "\(count) photos stored")
        #expect(answers[2] == "0", "counts differ from a recomputation")
        // Renamed by the second batch, every photographer's photos after the first batch
        // wait for the rename the load never wrote.
        #expect(try sqlite(db, "SELECT COUNT(*) FROM unindexed_photo") == "\(count - 1000)")
        // The load can simply be run again: it finishes the job.
        let again = try Tools.run("regions-load", ["-q", "--db", db, input], environment: environment)
        #expect(again.status == 0)
        let total = try Tools.run("/usr/bin/sqlite3", [db, "SELECT COUNT(*), SUM(photos) FROM region"], environment: environment)
        #expect(total.stdout == "61|300000\n")
        // The next load indexed them; every photo is indexed under its photographer's last
        // name (the 61st batch's, "Pat Ray").
        let index = try Tools.run("/usr/bin/sqlite3", [db, """
            INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1);
            SELECT COUNT(*) FROM unindexed_photo;
            SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH 'photo';
            SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH 'owner_name:ray';
            SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH 'lee';
            """], environment: environment)
        #expect(index.stdout == "0\n300000\n300000\n0\n", "\(index.stdout) \(index.stderr)")
    }
}

extension StoreEndToEndTests {
    /// A region id is what names its pages and files, so one that cannot (`..`, a path) is
    /// refused at the door, naming the line, with nothing stored; every id Flickr gives (a
    /// leading dot included) is stored and has its page. Regression: `..` and `a/../ç"<x>`
    /// were stored, and their pages answered 400.
    @Test func regionIDsThatCannotNameAPageAreRefusedAtTheDoor() throws {
        let scratch = TemporaryDirectory()
        let db = scratch.file("photos.db")
        let environment = Tools.environment(home: scratch.path)
        for (id, shown) in [("..", "\"..\""), (#"a/../ç\"<x>"#, "\"a/../ç\"<x>\""), (".", "\".\"")] {
            let record = #"{"id":"1","owner":"a@N01","region_id":"\#(id)","region":"X"}"# + "\n"
            let load = try Tools.run("regions-load", ["--db", db], input: Array(record.utf8), environment: environment)
            #expect(load.status == 65, "\(id)")
            #expect(load.stderr == """
                regions-load: stdin: line 1, column 27: field "region_id" must be a Flickr place id (letters, digits, '.', '-' and '_', \
                not only dots): every page and file of the region is named by it, not \(shown)
                (nothing was written)

                """, "\(id)")
            #expect(!FileManager.default.fileExists(atPath: db))
        }
        let flickrs = #"{"id":"2","owner":"a@N01","region_id":".E5rP.6CGy4E0vRbeE","region":"Dotted"}"# + "\n"
        #expect(try Tools.run("regions-load", ["-q", "--db", db], input: Array(flickrs.utf8), environment: environment).status == 0)
        let site = scratch.file("site")
        let export = try Tools.run("regions-serve", ["--db", db, "--export", site], environment: environment)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: site + "/region-.E5rP.6CGy4E0vRbeE.html"))
    }
}
