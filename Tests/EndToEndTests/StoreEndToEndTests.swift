import Foundation
import Testing
import TopRegionsTestSupport

/// regions-load and regions-top as built executables, on the committed fixture.
@Suite struct StoreEndToEndTests {
    static let fixture = Tools.fixtures.appendingPathComponent("photos.ndjson").path

    /// Loads the fixture into a new database and returns the scratch space holding it.
    func loadedFixture() throws -> (TemporaryDirectory, [String: String], String) {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let load = try Tools.run("regions-load", ["--db", db, Self.fixture], environment: environment)
        #expect(load.status == 0)
        #expect(load.stderr == "regions-load: read 3040, new 3000, updated 0, already stored 40\n")
        #expect(load.stdout == "")
        return (scratch, environment, db)
    }

    @Test func goldenTopRegions() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let top = try Tools.run("regions-top", ["--db", db], environment: environment)
        #expect(top.status == 0 && top.stderr == "")
        #expect(top.stdout.split(separator: "\n").count == 50)
        try expectGolden(top.stdout, "top50.ndjson")

        let all = try Tools.run("regions-top", ["--db", db, "--limit", "64", "--format", "table"], environment: environment)
        try expectGolden(all.stdout, "top64.txt")
        let csv = try Tools.run("regions-top", ["--db", db, "--limit", "5", "--format", "csv"], environment: environment)
        try expectGolden(csv.stdout, "top5.csv")
        let geo = try Tools.run("regions-top", ["--db", db, "--limit", "3", "--format", "geojson"], environment: environment)
        try expectGolden(geo.stdout, "top3.geojson")
        let region = try Tools.run("regions-top", ["--db", db, "--region", "nova scotia, canada"], environment: environment)
        try expectGolden(region.stdout, "region-nova-scotia.ndjson")
        let regionGeo = try Tools.run("regions-top", ["--db", db, "--region", "Alpha Region, Testland", "--format", "geojson"], environment: environment)
        try expectGolden(regionGeo.stdout, "region-alpha.geojson")
    }

    /// The ranking from an independent reading of the fixture (Foundation's JSON parser, the
    /// documented rules, Swift sets) equals what regions-top prints.
    @Test func topRegionsEqualAnIndependentRecomputation() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let top = try Tools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson"], environment: environment)
        let printed = top.stdout.split(separator: "\n").map { line -> String in
            let row = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return "\(row["region_id"]!) \(row["name"]!) \(row["photographers"]!) \(row["photos"]!)"
        }
        #expect(printed == Self.recompute(fixture: Self.fixture))
        #expect(printed.count == 64)
    }

    static func recompute(fixture: String) -> [String] {
        let text = try! String(contentsOfFile: fixture, encoding: .utf8)
        var last: [String: [String: Any]] = [:]
        var order: [String] = []
        var placeRegion: [String: String] = [:]
        var names: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let id = object["id"] as! String
            if last[id] == nil { order.append(id) }
            last[id] = object
            if let region = object["region_id"] as? String {
                names[region] = object["region"] as? String
                if let place = object["place_id"] as? String, placeRegion[place] == nil { placeRegion[place] = region }
            }
        }
        var owners: [String: Set<String>] = [:]
        var photos: [String: Int] = [:]
        for id in order {
            let object = last[id]!
            let region = (object["region_id"] as? String) ?? (object["place_id"] as? String).flatMap { placeRegion[$0] }
            guard let region else { continue }
            owners[region, default: []].insert(object["owner"] as! String)
            photos[region, default: 0] += 1
        }
        return owners.keys.sorted { a, b in
            let (ca, cb) = (owners[a]!.count, owners[b]!.count)
            if ca != cb { return ca > cb }
            let folding: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
            let (na, nb) = (names[a]!.folding(options: folding, locale: nil), names[b]!.folding(options: folding, locale: nil))
            if na != nb { return Array(na.utf8).lexicographicallyPrecedes(Array(nb.utf8)) }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }.map { "\($0) \(names[$0]!) \(owners[$0]!.count) \(photos[$0]!)" }
    }

    @Test func loadingTheSameFileAgainChangesNothing() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let before = try Tools.run("regions-top", ["--db", db, "--limit", "100"], environment: environment)
        let again = try Tools.run("regions-load", ["--db", db], input: Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture))), environment: environment)
        #expect(again.status == 0)
        #expect(again.stderr == "regions-load: read 3040, new 0, updated 0, already stored 3040\n")
        let after = try Tools.run("regions-top", ["--db", db, "--limit", "100"], environment: environment)
        #expect(after.stdout == before.stdout)
    }

    @Test func aBadLineStopsTheLoadAndItsBatchIsNotWritten() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        var lines = (1...25).map { #"{"id":"\#($0)","owner":"o\#($0 % 4)@N01","region_id":"R1","region":"Somewhere"}"# }
        lines.append(#"{"id":"26","owner":"o@N01","latitude":"north"}"#)
        lines.append(#"{"id":"27","owner":"o@N01"}"#)
        let load = try Tools.run("regions-load", ["--db", db, "--batch-size", "10"], input: Array((lines.joined(separator: "\n") + "\n").utf8), environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == """
            regions-load: stdin: line 26, column 28: field "latitude" must be a number, not "north"
            (stored the 20 records up to stdin line 20; nothing after that was written)

            """)
        let top = try Tools.run("regions-top", ["--db", db], environment: environment)
        #expect(top.stdout == #"{"rank":1,"region_id":"R1","name":"Somewhere","photographers":4,"photos":20}"# + "\n")
    }

    @Test func aBadFirstBatchWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let input = #"{"id":"1","owner":"o@N01","region_id":"R1"}"# + "\n{oops\n"
        let load = try Tools.run("regions-load", ["--db", scratch.file("x.db")], input: Array(input.utf8), environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == "regions-load: stdin: line 2, column 2: invalid JSON: unexpected 'o', expected a member name in quotes\n(nothing was written)\n")
        let top = try Tools.run("regions-top", ["--db", scratch.file("x.db")], environment: environment)
        #expect(top.stdout == "")
    }

    @Test func skipBadLinesReportsEachAndExits65() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let file = scratch.file("in.ndjson")
        let input = """
            {"id":"1","owner":"a@N01","region_id":"R1","region":"One"}
            {"id":"2"}
            {"id":"3","owner":"b@N01","region_id":"R1","region":"One"}
            not json

            {"id":"4","owner":"c@N01","region_id":"R2","region":"Two"}
            """
        try input.write(toFile: file, atomically: true, encoding: .utf8)
        let load = try Tools.run("regions-load", ["--db", db, "--skip-bad-lines", file], environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == """
            regions-load: skipped \(file): line 2, column 1: missing field "owner" (the photographer's NSID)
            regions-load: skipped \(file): line 4, column 1: invalid JSON: unexpected 'n', expected a value
            regions-load: read 3, new 3, updated 0, already stored 0, 2 bad lines

            """)
        let top = try Tools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
        #expect(top.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R1,One,2,2,,\r\n2,R2,Two,1,1,,\r\n")
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

    @Test func pruneAndDeleteKeepCountsExactAndDeletedPhotosStayDeleted() throws {
        let scratch = TemporaryDirectory()
        let db = scratch.file("photos.db")
        let early = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1000000"])
        let later = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1090000"])
        let old = (1...4).map { #"{"id":"\#($0)","owner":"o\#($0)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        let new = (5...7).map { #"{"id":"\#($0)","owner":"o\#($0 % 2)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        _ = try Tools.run("regions-load", ["--db", db], input: Array(old.utf8), environment: early)
        _ = try Tools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        let csv = ["--db", db, "--format", "csv"]
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,5,7,,"))

        let prune = try Tools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: later)
        #expect(prune.status == 0)
        #expect(prune.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 4\n")
        // Owners o1 and o0 remain (ids 5, 7 → o1; 6 → o0).
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        // An id that was never stored is a typo: refused, and nothing deleted.
        let typo = try Tools.run("regions-load", ["--db", db, "--delete", "6", "--delete", "99"], environment: later)
        #expect(typo.status == 64)
        #expect(typo.stderr == "regions-load: --delete: no photo 99 is stored (a typo?); nothing changed\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        let delete = try Tools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        #expect(delete.status == 0)
        #expect(delete.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, deleted 1\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,1,2,,"))
        let reload = try Tools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        #expect(reload.stderr == "regions-load: read 3, new 0, updated 0, already stored 2, kept out as deleted 1\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,1,2,,"))

        // Deleting again says so; undeleting brings it back at once, as it was.
        let again = try Tools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        #expect(again.stderr == "regions-load: photo 6 was already deleted\nregions-load: read 0, new 0, updated 0, already stored 0, deleted 0\n")
        let notDeleted = try Tools.run("regions-load", ["--db", db, "--undelete", "5"], environment: later)
        #expect(notDeleted.status == 64)
        #expect(notDeleted.stderr == "regions-load: --undelete: photo 5 was not deleted; nothing changed\n")
        let undelete = try Tools.run("regions-load", ["--db", db, "--undelete", "6"], environment: later)
        #expect(undelete.status == 0)
        #expect(undelete.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, undeleted 1\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))
        let back = try Tools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        #expect(back.stderr == "regions-load: read 3, new 0, updated 0, already stored 3\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        // Deleted, then pruned with the photos first stored as long ago: what was kept goes
        // too; undeleting then only lets a later load store it again.
        _ = try Tools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        let muchLater = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1300000"])
        #expect(try Tools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: muchLater).stderr
            == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 2\n")
        let forgotten = try Tools.run("regions-load", ["--db", db, "--undelete", "6"], environment: muchLater)
        #expect(forgotten.status == 0)
        #expect(forgotten.stderr == """
            regions-load: photo 6 was pruned while deleted: it is no longer kept out, and a later refresh stores it again if Flickr still lists it
            regions-load: read 0, new 0, updated 0, already stored 0, undeleted 1

            """)
        #expect(try sqlite(db, "SELECT COUNT(*) FROM photo") == "0")
        #expect(try sqlite(db, "SELECT COUNT(*) FROM deleted_photo") == "0")
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

    /// `--prune-older-than 7` once meant seven seconds and emptied the database.
    @Test func pruneNeedsAUnitAndDryRunChangesNothing() throws {
        let scratch = TemporaryDirectory()
        let db = scratch.file("photos.db")
        let early = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1000000"])
        let later = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1090000"])
        let old = (1...4).map { #"{"id":"\#($0)","owner":"o\#($0)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        let new = (5...7).map { #"{"id":"\#($0)","owner":"o\#($0 % 2)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        _ = try Tools.run("regions-load", ["--db", db], input: Array(old.utf8), environment: early)
        _ = try Tools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        let csv = ["--db", db, "--format", "csv"]
        let before = try Tools.run("regions-top", csv, environment: later).stdout
        #expect(before.contains("1,R1,One,5,7,,"))

        for age in ["7", "7.5", " 7 "] {
            let bare = try Tools.run("regions-load", ["--db", db, "--prune-older-than", age], environment: later)
            #expect(bare.status == 64, "\(age)")
            #expect(bare.stderr.contains("has no unit: write it with one of s, m, h, d, w"), "\(age)")
        }
        #expect(try Tools.run("regions-top", csv, environment: later).stdout == before)

        let dry = try Tools.run("regions-load", ["--db", db, "--prune-older-than", "1d", "--delete", "6", "--dry-run"], environment: later)
        #expect(dry.status == 0)
        #expect(dry.stdout == """
            {"action":"delete","id":"6"}
            {"action":"prune","id":"1"}
            {"action":"prune","id":"2"}
            {"action":"prune","id":"3"}
            {"action":"prune","id":"4"}

            """)
        #expect(dry.stderr == "regions-load: dry run: would delete 1, undelete 0, prune 4 (stored before 1970-01-12 14:46 UTC); nothing changed\n")
        #expect(try Tools.run("regions-top", csv, environment: later).stdout == before)
        let dryFiles = try Tools.run("regions-load", ["--db", db, "--delete", "6", "--dry-run", "x.ndjson"], environment: later)
        #expect(dryFiles.status == 64)
        let dryAlone = try Tools.run("regions-load", ["--db", db, "--dry-run"], environment: later)
        #expect(dryAlone.status == 64)

        let prune = try Tools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: later)
        #expect(prune.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 4\n")
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

    @Test func theDefaultDatabaseLivesUnderXDGDataHome() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let load = try Tools.run("regions-load", [], input: Array(#"{"id":"1","owner":"a@N01","region_id":"R","region":"Here"}"#.utf8), environment: environment)
        #expect(load.status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/data/topregions/topregions.db"))
        var viaVariable = environment
        viaVariable["TOPREGIONS_DB"] = scratch.path + "/data/topregions/topregions.db"
        viaVariable["XDG_DATA_HOME"] = scratch.path + "/elsewhere"
        let top = try Tools.run("regions-top", [], environment: viaVariable)
        #expect(top.stdout == #"{"rank":1,"region_id":"R","name":"Here","photographers":1,"photos":1}"# + "\n")
    }
}

extension StoreEndToEndTests {
    @Test func aChangedRecordUpdatesTheStoredPhotoAndItsCounts() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let first = #"{"id":"1","owner":"a@N01","title":"Old","region_id":"R1","region":"One"}"# + "\n"
            + #"{"id":"2","owner":"b@N01","place_id":"P9"}"# + "\n"
        let second = #"{"id":"1","owner":"a@N01","title":"New","region_id":"R2","region":"Two"}"# + "\n"
            + #"{"id":"3","owner":"c@N01","place_id":"P9","region_id":"R2","region":"Two"}"# + "\n"
        _ = try Tools.run("regions-load", ["--db", db], input: Array(first.utf8), environment: environment)
        let update = try Tools.run("regions-load", ["--db", db], input: Array(second.utf8), environment: environment)
        #expect(update.stderr == "regions-load: read 2, new 1, updated 1, already stored 0\n")
        // Photo 1 moved from R1 to R2; photo 2 was waiting for P9, which record 3 resolved.
        let top = try Tools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
        #expect(top.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R2,Two,3,3,,\r\n")
        let photos = try Tools.run("regions-top", ["--db", db, "--region", "Two", "--format", "csv"], environment: environment)
        #expect(photos.stdout.contains("1,a@N01,,New,"))
    }
}

extension StoreEndToEndTests {
    /// kill -9 in the middle of a load: what is stored is whole batches, with exact counts.
    @Test func aKilledLoadLeavesWholeBatchesAndExactCounts() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let input = scratch.file("big.ndjson")
        let lines = (0..<300_000).map { i in
            #"{"id":"\#(i)","owner":"o\#(i % 499)@N01","title":"Photo \#(i)","region_id":"R\#(i % 61)","region":"Region \#(i % 61)","place_id":"P\#(i % 613)"}"#
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
        // The load can simply be run again: it finishes the job.
        let again = try Tools.run("regions-load", ["-q", "--db", db, input], environment: environment)
        #expect(again.status == 0)
        let total = try Tools.run("/usr/bin/sqlite3", [db, "SELECT COUNT(*), SUM(photos) FROM region"], environment: environment)
        #expect(total.stdout == "61|300000\n")
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
