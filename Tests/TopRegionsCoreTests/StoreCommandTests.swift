import Foundation
import GRDB
import Testing
import TopRegionsTestSupport

/// regions-load and regions-top run in process (`InProcessTools`) on the committed fixture
/// and on small inputs: what they print, their exit statuses, and what the database holds
/// after. Two loaders at once, a closed pipe, kill -9 and the built binaries' help stay in
/// StoreEndToEndTests.
@Suite struct StoreCommandTests {
    static let fixture = Tools.fixture

    /// Loads the fixture into a new database and returns the scratch space holding it.
    func loadedFixture() throws -> (TemporaryDirectory, [String: String], String) {
        try Tools.loadedFixture { try InProcessTools.run($0, $1, environment: $2) }
    }

    /// Four photos stored at 1,000,000 s by four photographers, then three 25 hours later by
    /// two (one of them new), all in region R1; the environment of the later time, and the
    /// later records.
    func oldAndNew() throws -> (scratch: TemporaryDirectory, db: String, later: [String: String], new: String) {
        let scratch = TemporaryDirectory()
        let db = scratch.file("photos.db")
        let early = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1000000"])
        let later = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1090000"])
        let old = (1...4).map { #"{"id":"\#($0)","owner":"o\#($0)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        let new = (5...7).map { #"{"id":"\#($0)","owner":"o\#($0 % 2)@N01","region_id":"R1","region":"One"}"# }.joined(separator: "\n")
        #expect(try InProcessTools.run("regions-load", ["--db", db], input: Array(old.utf8), environment: early).status == 0)
        #expect(try InProcessTools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later).status == 0)
        return (scratch, db, later, new)
    }

    /// The rows of `table`, read by GRDB (not through the toolkit's queries).
    func count(_ db: String, _ table: String) throws -> Int {
        try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
    }

    @Test func goldenTopRegions() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let top = try InProcessTools.run("regions-top", ["--db", db], environment: environment)
        #expect(top.status == 0 && top.stderr == "")
        #expect(top.stdout.split(separator: "\n").count == 50)
        try expectGolden(top.stdout, "top50.ndjson")

        let all = try InProcessTools.run("regions-top", ["--db", db, "--limit", "64", "--format", "table"], environment: environment)
        try expectGolden(all.stdout, "top64.txt")
        let csv = try InProcessTools.run("regions-top", ["--db", db, "--limit", "5", "--format", "csv"], environment: environment)
        try expectGolden(csv.stdout, "top5.csv")
        let geo = try InProcessTools.run("regions-top", ["--db", db, "--limit", "3", "--format", "geojson"], environment: environment)
        try expectGolden(geo.stdout, "top3.geojson")
        let region = try InProcessTools.run("regions-top", ["--db", db, "--region", "nova scotia, canada"], environment: environment)
        try expectGolden(region.stdout, "region-nova-scotia.ndjson")
        let regionGeo = try InProcessTools.run("regions-top", ["--db", db, "--region", "Alpha Region, Testland", "--format", "geojson"], environment: environment)
        try expectGolden(regionGeo.stdout, "region-alpha.geojson")
    }

    /// The ranking from an independent reading of the fixture (Foundation's JSON parser, the
    /// documented rules, Swift sets) equals what regions-top prints.
    @Test func topRegionsEqualAnIndependentRecomputation() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let top = try InProcessTools.run("regions-top", ["--db", db, "--limit", "1000", "--format", "ndjson"], environment: environment)
        let printed = top.stdout.split(separator: "\n").map { line -> String in
            let row = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return "\(row["region_id"]!) \(row["name"]!) \(row["photographers"]!) \(row["photos"]!)"
        }
        #expect(printed == Self.recompute(fixture: Self.fixture))
        #expect(printed.count == 64)
    }

    @Test func loadingTheSameFileAgainChangesNothing() throws {
        let (scratch, environment, db) = try loadedFixture()
        _ = scratch
        let before = try InProcessTools.run("regions-top", ["--db", db, "--limit", "100"], environment: environment)
        let again = try InProcessTools.run("regions-load", ["--db", db], input: Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture))), environment: environment)
        #expect(again.status == 0)
        #expect(again.stderr == "regions-load: read 3040, new 0, updated 0, already stored 3040\n")
        let after = try InProcessTools.run("regions-top", ["--db", db, "--limit", "100"], environment: environment)
        #expect(after.stdout == before.stdout)
    }

    @Test func aBadLineStopsTheLoadAndItsBatchIsNotWritten() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        var lines = (1...25).map { #"{"id":"\#($0)","owner":"o\#($0 % 4)@N01","region_id":"R1","region":"Somewhere"}"# }
        lines.append(#"{"id":"26","owner":"o@N01","latitude":"north"}"#)
        lines.append(#"{"id":"27","owner":"o@N01"}"#)
        let load = try InProcessTools.run("regions-load", ["--db", db, "--batch-size", "10"], input: Array((lines.joined(separator: "\n") + "\n").utf8), environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == """
            regions-load: stdin: line 26, column 28: field "latitude" must be a number, not "north"
            (stored the 20 records up to stdin line 20; nothing after that was written)

            """)
        let top = try InProcessTools.run("regions-top", ["--db", db], environment: environment)
        #expect(top.stdout == #"{"rank":1,"region_id":"R1","name":"Somewhere","photographers":4,"photos":20}"# + "\n")
    }

    @Test func aBadFirstBatchWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let input = #"{"id":"1","owner":"o@N01","region_id":"R1"}"# + "\n{oops\n"
        let load = try InProcessTools.run("regions-load", ["--db", scratch.file("x.db")], input: Array(input.utf8), environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == "regions-load: stdin: line 2, column 2: invalid JSON: unexpected 'o', expected a member name in quotes\n(nothing was written)\n")
        let top = try InProcessTools.run("regions-top", ["--db", scratch.file("x.db")], environment: environment)
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
        let load = try InProcessTools.run("regions-load", ["--db", db, "--skip-bad-lines", file], environment: environment)
        #expect(load.status == 65)
        #expect(load.stderr == """
            regions-load: skipped \(file): line 2, column 1: missing field "owner" (the photographer's NSID)
            regions-load: skipped \(file): line 4, column 1: invalid JSON: unexpected 'n', expected a value
            regions-load: read 3, new 3, updated 0, already stored 0, 2 bad lines

            """)
        let top = try InProcessTools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
        #expect(top.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R1,One,2,2,,\r\n2,R2,Two,1,1,,\r\n")
    }

    @Test func pruneAndDeleteKeepCountsExactAndDeletedPhotosStayDeleted() throws {
        let (scratch, db, later, new) = try oldAndNew()
        let csv = ["--db", db, "--format", "csv"]
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,5,7,,"))

        let prune = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: later)
        #expect(prune.status == 0)
        #expect(prune.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 4\n")
        // Owners o1 and o0 remain (ids 5, 7 → o1; 6 → o0).
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        // An id that was never stored is a typo: refused, and nothing deleted.
        let typo = try InProcessTools.run("regions-load", ["--db", db, "--delete", "6", "--delete", "99"], environment: later)
        #expect(typo.status == 64)
        #expect(typo.stderr == "regions-load: --delete: no photo 99 is stored (a typo?); nothing changed\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        let delete = try InProcessTools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        #expect(delete.status == 0)
        #expect(delete.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, deleted 1\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,1,2,,"))
        let reload = try InProcessTools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        #expect(reload.stderr == "regions-load: read 3, new 0, updated 0, already stored 2, kept out as deleted 1\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,1,2,,"))

        // Deleting again says so; undeleting brings it back at once, as it was.
        let again = try InProcessTools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        #expect(again.stderr == "regions-load: photo 6 was already deleted\nregions-load: read 0, new 0, updated 0, already stored 0, deleted 0\n")
        let notDeleted = try InProcessTools.run("regions-load", ["--db", db, "--undelete", "5"], environment: later)
        #expect(notDeleted.status == 64)
        #expect(notDeleted.stderr == "regions-load: --undelete: photo 5 was not deleted; nothing changed\n")
        let undelete = try InProcessTools.run("regions-load", ["--db", db, "--undelete", "6"], environment: later)
        #expect(undelete.status == 0)
        #expect(undelete.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, undeleted 1\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))
        let back = try InProcessTools.run("regions-load", ["--db", db], input: Array(new.utf8), environment: later)
        #expect(back.stderr == "regions-load: read 3, new 0, updated 0, already stored 3\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout.contains("1,R1,One,2,3,,"))

        // Deleted, then pruned with the photos first stored as long ago: what was kept goes
        // too; undeleting then only lets a later load store it again.
        _ = try InProcessTools.run("regions-load", ["--db", db, "--delete", "6"], environment: later)
        let muchLater = Tools.environment(home: scratch.path, ["TOPREGIONS_NOW": "1300000"])
        #expect(try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: muchLater).stderr
            == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 2\n")
        let forgotten = try InProcessTools.run("regions-load", ["--db", db, "--undelete", "6"], environment: muchLater)
        #expect(forgotten.status == 0)
        #expect(forgotten.stderr == """
            regions-load: photo 6 was pruned while deleted: it is no longer kept out, and a later refresh stores it again if Flickr still lists it
            regions-load: read 0, new 0, updated 0, already stored 0, undeleted 1

            """)
        #expect(try count(db, "photo") == 0)
        #expect(try count(db, "deleted_photo") == 0)
    }

    /// `--prune-older-than 7` once meant seven seconds and emptied the database.
    @Test func pruneNeedsAUnitAndDryRunChangesNothing() throws {
        let (scratch, db, later, _) = try oldAndNew()
        defer { withExtendedLifetime(scratch) {} }
        let csv = ["--db", db, "--format", "csv"]
        let before = try InProcessTools.run("regions-top", csv, environment: later).stdout
        #expect(before.contains("1,R1,One,5,7,,"))

        for age in ["7", "7.5", " 7 "] {
            let bare = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", age], environment: later)
            #expect(bare.status == 64, "\(age)")
            #expect(bare.stderr.contains("has no unit: write it with one of s, m, h, d, w"), "\(age)")
        }
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout == before)
        // A prune with nothing to prune changes nothing, not even the version readers
        // keep their pages by (it was counted up, so every cached page went stale).
        let version = { try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT value FROM store_state WHERE key = 'content_version'") } }
        let versionBefore = try version()
        let nothing = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "3000d"], environment: later)
        #expect(nothing.status == 0 && nothing.stderr.contains("pruned 0"), "\(nothing.stderr)")
        #expect(try version() == versionBefore)
        // Zero needs no unit, as the guide says (it was refused as "'0' has no unit").
        let zero = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "0", "--dry-run"], environment: later)
        let zeroSeconds = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "0s", "--dry-run"], environment: later)
        #expect(zero.status == 0 && zero.stdout == zeroSeconds.stdout && zero.stderr == zeroSeconds.stderr && zero.stdout.contains("prune"), "\(zero.stderr)")

        let dry = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "1d", "--delete", "6", "--dry-run"], environment: later)
        #expect(dry.status == 0)
        #expect(dry.stdout == """
            {"action":"delete","id":"6"}
            {"action":"prune","id":"1"}
            {"action":"prune","id":"2"}
            {"action":"prune","id":"3"}
            {"action":"prune","id":"4"}

            """)
        #expect(dry.stderr == "regions-load: dry run: would delete 1, undelete 0, prune 4 (stored before 1970-01-12 14:46 UTC); nothing changed\n")
        #expect(try InProcessTools.run("regions-top", csv, environment: later).stdout == before)
        let dryFiles = try InProcessTools.run("regions-load", ["--db", db, "--delete", "6", "--dry-run", "x.ndjson"], environment: later)
        #expect(dryFiles.status == 64)
        let dryAlone = try InProcessTools.run("regions-load", ["--db", db, "--dry-run"], environment: later)
        #expect(dryAlone.status == 64)

        let prune = try InProcessTools.run("regions-load", ["--db", db, "--prune-older-than", "1d"], environment: later)
        #expect(prune.stderr == "regions-load: read 0, new 0, updated 0, already stored 0, pruned 4\n")
    }

    @Test func theDefaultDatabaseLivesUnderXDGDataHome() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let load = try InProcessTools.run("regions-load", [], input: Array(#"{"id":"1","owner":"a@N01","region_id":"R","region":"Here"}"#.utf8), environment: environment)
        #expect(load.status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/data/topregions/topregions.db"))
        var viaVariable = environment
        viaVariable["TOPREGIONS_DB"] = scratch.path + "/data/topregions/topregions.db"
        viaVariable["XDG_DATA_HOME"] = scratch.path + "/elsewhere"
        let top = try InProcessTools.run("regions-top", [], environment: viaVariable)
        #expect(top.stdout == #"{"rank":1,"region_id":"R","name":"Here","photographers":1,"photos":1}"# + "\n")
    }

    @Test func aChangedRecordUpdatesTheStoredPhotoAndItsCounts() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let first = #"{"id":"1","owner":"a@N01","title":"Old","region_id":"R1","region":"One"}"# + "\n"
            + #"{"id":"2","owner":"b@N01","place_id":"P9"}"# + "\n"
        let second = #"{"id":"1","owner":"a@N01","title":"New","region_id":"R2","region":"Two"}"# + "\n"
            + #"{"id":"3","owner":"c@N01","place_id":"P9","region_id":"R2","region":"Two"}"# + "\n"
        _ = try InProcessTools.run("regions-load", ["--db", db], input: Array(first.utf8), environment: environment)
        let update = try InProcessTools.run("regions-load", ["--db", db], input: Array(second.utf8), environment: environment)
        #expect(update.stderr == "regions-load: read 2, new 1, updated 1, already stored 0\n")
        // Photo 1 moved from R1 to R2; photo 2 was waiting for P9, which record 3 resolved.
        let top = try InProcessTools.run("regions-top", ["--db", db, "--format", "csv"], environment: environment)
        #expect(top.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R2,Two,3,3,,\r\n")
        let photos = try InProcessTools.run("regions-top", ["--db", db, "--region", "Two", "--format", "csv"], environment: environment)
        #expect(photos.stdout.contains("1,a@N01,,New,"))
    }

    /// A feed links only web addresses: a record's thumbnail URL of `javascript:` or
    /// `file:` went into its entry's enclosure and its summary's image, for a reader to
    /// follow (the pages serve thumbnails themselves; downloads fetch only http and https).
    @Test func aFeedLinksOnlyWebAddresses() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let records = [
            #"{"id":"1","owner":"a@N01","uploaded":1763790000,"region_id":"R1","region":"One","thumb_url":"javascript:alert(1)"}"#,
            #"{"id":"2","owner":"b@N01","uploaded":1763790001,"region_id":"R1","region":"One","thumb_url":"file:///etc/passwd"}"#,
            #"{"id":"3","owner":"c@N01","uploaded":1763790002,"region_id":"R1","region":"One","thumb_url":"HTTPS://live.staticflickr.com/1/3_s.jpg"}"#,
        ].joined(separator: "\n") + "\n"
        #expect(try InProcessTools.run("regions-load", ["--db", db], input: Array(records.utf8), environment: environment).status == 0)
        let feed = try InProcessTools.run("regions-top", ["--db", db, "--region", "R1", "--format", "atom"], environment: environment)
        #expect(feed.status == 0, "\(feed.stderr)")
        #expect(!feed.stdout.contains("javascript:") && !feed.stdout.contains("file:"), "\(feed.stdout)")
        #expect(PageText.occurrences("HTTPS://live.staticflickr.com/1/3_s.jpg", in: feed.stdout) == 2)
    }

    /// A NUL in a text (JSON's `\u0000`, which RFC 8259 allows) comes out of the listings
    /// as it went in: the database kept it, but every listing printed "abc" for
    /// "abc\u0000def" (read up to the first NUL).
    @Test func aNulInATextComesOutWhole() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let record = #"{"id":"91","owner":"b@N01","owner_name":"Ann\u0000e","title":"abc\u0000def","description":"x\u0000y","uploaded":1763790000,"region_id":"R1","region":"One"}"#
        #expect(try InProcessTools.run("regions-load", ["--db", db], input: Array((record + "\n").utf8), environment: environment).status == 0)
        let listing = try InProcessTools.run("regions-top", ["--db", db, "--region", "R1", "--format", "ndjson"], environment: environment)
        #expect(listing.stdout == #"{"id":"91","owner":"b@N01","owner_name":"Ann\u0000e","title":"abc\u0000def","description":"x\u0000y","uploaded":1763790000,"region_id":"R1","region":"One"}"# + "\n")
        let csv = try InProcessTools.run("regions-top", ["--db", db, "--photos", "--format", "csv"], environment: environment)
        #expect(csv.stdout.contains("91,b@N01,Ann\u{0}e,abc\u{0}def,x\u{0}y,"))
    }

    static func recompute(fixture: String) -> [String] {
        let regions = FixtureRecount(fixture).regions
        return regions.keys.sorted { a, b in
            let (ca, cb) = (regions[a]!.photographers, regions[b]!.photographers)
            if ca != cb { return ca > cb }
            let folding: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
            let (na, nb) = (regions[a]!.name.folding(options: folding, locale: nil), regions[b]!.name.folding(options: folding, locale: nil))
            if na != nb { return Array(na.utf8).lexicographicallyPrecedes(Array(nb.utf8)) }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }.map { "\($0) \(regions[$0]!.name) \(regions[$0]!.photographers) \(regions[$0]!.photos)" }
    }
}
