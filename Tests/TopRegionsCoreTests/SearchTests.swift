import GRDB
import Testing
@testable import TopRegionsRecords
@testable import TopRegionsStore
@testable import TopRegionsSupport
import TopRegionsTestSupport

/// Full-text search and the orders of photo listings, on the store.
@Suite struct SearchTests {
    // MARK: What people type, as FTS5 reads it

    @Test(arguments: [
        ("harbour", #""harbour""#),
        ("Harbour at dusk", #""Harbour" "at" "dusk""#),
        ("Île-de-France", #""Île-de-France""#),
        ("rock'n'roll st. john's", #""rock'n'roll" "st." "john's""#),
        (#""old town" night"#, #""old town" "night""#),
        ("harb*", #""harb"*"#),
        (#""nova sco"*"#, #""nova sco"*"#),
        ("fog OR mist", #""fog" OR "mist""#),
        ("fog AND (night OR dusk)", #""fog" AND ( "night" OR "dusk" )"#),
        ("fog NOT night", #""fog" NOT "night""#),
        ("fog -night", #""fog" NOT "night""#),
        ("fog or not", #""fog" "or" "not""#),
        ("title:fog photographer:ann", #"title : "fog" owner_name : "ann""#),
        (#"region:"nova scotia""#, #"region_name : "nova scotia""#),
        ("title:(fog OR mist)", #"title : ( "fog" OR "mist" )"#),
        ("10:30 a:b", #""10:30" "a:b""#),
        ("fog & night", #""fog" "night""#),
        // Beside a group, FTS5 needs the AND written (regression: "syntax error near "NEAR"").
        ("NEAR(fog night)", #""NEAR" AND ( "fog" "night" )"#),
        ("(fog) night", #"( "fog" ) AND "night""#),
        ("fog title:(a OR b)", #""fog" AND title : ( "a" OR "b" )"#),
        // A control character (a NUL from a form) separates words (regression: FTS5 read
        // a NUL as the end of the query: "unterminated string").
        ("fog\u{0}night\u{1}", #""fog" "night""#),
        ("東京", #""東京""#),
    ])
    func queriesAreWrittenAsFTS5Strings(typed: String, match: String) throws {
        #expect(try SearchQuery(typed).match == match)
    }

    @Test(arguments: [
        (#""foo"#, #"unbalanced quote (") in: "foo"#),
        ("fog OR", "OR needs something to search for after it (in: fog OR)"),
        ("OR fog", "OR needs something to search for before it (in: OR fog)"),
        ("fog AND OR night", "AND needs something to search for after it (in: fog AND OR night)"),
        ("NOT fog", "NOT needs something to search for before it (in: NOT fog)"),
        ("-fog", "-word leaves photos with that word out of what the other words find: give a word to search for first, as in fog -night (in: -fog)"),
        ("(fog", "a ( is never closed (in: (fog)"),
        ("fog)", "a ) has no ( before it (in: fog))"),
        ("fog ()", "empty parentheses, or an operator before a ) (in: fog ())"),
        ("*", "a * must end a word, as in harb* (in: *)"),
        ("title:", "nothing to search for in: title: (give a word, such as harbour)"),
        ("fog title:", "a field (such as title:) needs a word after it (in: fog title:)"),
        ("", "nothing to search for (give a word, such as harbour)"),
        ("   ", "nothing to search for (give a word, such as harbour)"),
        ("  & - ", "nothing to search for in:   & -  (give a word, such as harbour)"),
    ])
    func queriesThatCannotMeanAnythingSayWhy(typed: String, message: String) {
        #expect(throws: SearchQuery.Problem(message: message)) { try SearchQuery(typed) }
    }

    /// Every query SearchQuery accepts parses in FTS5: a sweep of awkward inputs either is
    /// refused with a Problem or runs.
    @Test func acceptedQueriesAlwaysParse() throws {
        let (directory, store) = try Self.store()
        _ = directory
        // A photo the words find: FTS5 reads a query only when it has something to search.
        _ = try PhotoWriter(store: store).store([Self.photo("1", title: "fog a b x y NEAR é", description: "fog")], now: 1)
        let pieces = ["fog", "\"a b\"", "OR", "AND", "NOT", "(", ")", "*", "-x", "title:", "x:y", "^", "+", ".", "'", "{", "}", ":", "NEAR", "é", "\"\"", "\u{0}"]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let typed = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            guard let query = try? SearchQuery(typed) else { continue }
            #expect(throws: Never.self, "\(typed) → \(query.match)") {
                _ = try Queries(store: store).search(query, limit: 1)
            }
        }
    }

    // MARK: Searching the store

    static func store() throws -> (TemporaryDirectory, Store) {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        return (directory, store)
    }

    static func photo(_ id: String, title: String = "", description: String = "", owner: String = "a@N01", ownerName: String = "",
                      region: String? = nil, uploaded: Int64? = nil) -> PhotoRecord {
        var record = PhotoRecord(id: id, owner: owner, ownerName: ownerName, title: title, description: description)
        record.regionID = region
        record.region = region.map { "Region \($0)" }
        record.uploaded = uploaded
        return record
    }

    @Test func bestMatchFirstATitleWeighsMostEqualScoresByID() throws {
        let (directory, store) = try Self.store()
        _ = directory
        _ = try PhotoWriter(store: store).store([
            Self.photo("5", description: "We walked down to the harbour after lunch, then home along the beach road.", owner: "e@N01"),
            Self.photo("4", title: "Harbour", owner: "d@N01"),
            Self.photo("3", title: "Harbour", owner: "c@N01"),
            Self.photo("2", title: "Old harbour at dusk, with boats", owner: "b@N01"),
            Self.photo("1", title: "Market"),
            Self.photo("6", owner: "f@N01", ownerName: "Harbour Photo Club"),
        ], now: 1)
        let found = try Queries(store: store).search(SearchQuery("harbour"), limit: nil).map(\.record.id)
        #expect(found == ["3", "4", "2", "6", "5"])
        #expect(try Queries(store: store).search(SearchQuery("harbour"), limit: 2).map(\.record.id) == ["3", "4"])
        #expect(try Queries(store: store).search(SearchQuery("nothing"), limit: nil).isEmpty)
    }

    /// A map's spots are rounded in Swift (SQLite's round() prints and reparses every number),
    /// the same way SQLite's round() rounds, ties (32.4965, -16.0035) included: a photo is on
    /// the spot it was on when SQLite rounded it.
    @Test func spotsAreRoundedAsSQLiteRoundsThem() throws {
        var generator = SeededGenerator(seed: 38)
        var values: [Double] = []
        for _ in 0..<5_000 {
            values.append(Double(Int.random(in: -180_000...180_000, using: &generator)) / 1_000 + 0.0005)  // a tie at 3 decimals
            values.append(Double(Int.random(in: -1_800...1_800, using: &generator)) / 10 + 0.05)  // a tie at 1
            values.append(Double.random(in: -180...180, using: &generator))
        }
        values += [32.4965, -16.0035, 64.4395, 0.0005, -0.0005, 0.05, -0.05, 179.9995, -179.9995]
        let db = try DatabaseQueue()
        let sqlite = try db.read { db in
            try values.map { value in try Row.fetchOne(db, sql: "SELECT round(?, 1), round(?, 3)", arguments: [value, value])! }
        }
        let (one, three) = (Queries.SpotCounter(decimals: 1), Queries.SpotCounter(decimals: 3))
        let different = zip(values, sqlite).filter { value, row in one.rounded(value) != row[0] as Double || three.rounded(value) != row[1] as Double }
            .map(\.0)
        #expect(different.count == 0, "\(different.count) rounded otherwise than SQLite, such as \(Array(different.prefix(5)))")
    }

    /// A list's map reads each spot once with its photos: a search's spots (read with its
    /// matches) and the same list's spots read alone agree, and count every placed photo.
    @Test func mapSpotsCountEveryPlacedPhotoOnce() throws {
        let (directory, store) = try Self.store()
        _ = directory
        func at(_ id: String, _ latitude: Double?, _ longitude: Double?) -> PhotoRecord {
            var record = Self.photo(id, title: "Harbour \(id)", owner: "\(id)@N01")
            record.latitude = latitude
            record.longitude = longitude
            return record
        }
        _ = try PhotoWriter(store: store).store([
            at("1", 44.6401, -63.5701), at("2", 44.64012, -63.57008), at("3", 44.6401, -63.5701),
            at("4", 45.1, -61.2), at("5", nil, nil),
        ], now: 1)
        let queries = Queries(store: store)
        let list = PhotoList(.search(try SearchQuery("harbour"), region: nil))
        let alone = try queries.positions(of: list, decimals: 3).sorted { $0.latitude < $1.latitude }
        #expect(alone == [MapSpot(latitude: 44.64, longitude: -63.57, photos: 3), MapSpot(latitude: 45.1, longitude: -61.2, photos: 1)])
        let withMatches = try queries.searchMatches(try SearchQuery("harbour"), decimals: 3).positions
        #expect(withMatches == [MapSpot(latitude: 44.64, longitude: -63.57, photos: 3), MapSpot(latitude: 45.1, longitude: -61.2, photos: 1)])
        #expect(try queries.positions(of: .all, decimals: 1).map(\.photos).reduce(0, +) == 4)
    }

    /// A search that finds nothing is offered the words of the index a typo away, the one
    /// in most photos first; operators and column names stay as typed. Regression: "harbor"
    /// and "habour" found nothing and suggested nothing beside "harbour".
    @Test func aSearchThatFindsNothingIsOfferedTheNearestWords() throws {
        let (directory, store) = try Self.store()
        _ = directory
        _ = try PhotoWriter(store: store).store([
            Self.photo("1", title: "Harbour at dusk"), Self.photo("2", title: "Old harbour"), Self.photo("3", title: "Harbor fog"),
            Self.photo("4", title: "Café Lumière", description: "Fog over the bay"),
        ], now: 1)
        let queries = Queries(store: store)
        #expect(try queries.mendedSearch("habour") == "harbour", "the nearer of harbour and harbor, then the one in more photos")
        #expect(try queries.mendedSearch("harbuor dusk") == "harbour dusk", "only the word the index lacks")
        #expect(try queries.mendedSearch("title:lumiere") == nil, "held, without its accent")
        #expect(try queries.mendedSearch("title:lumierr OR fgo") == "title:lumiere OR fog")
        #expect(try queries.mendedSearch("zzzzzz") == nil)
        #expect(try queries.mendedSearch("AND OR") == nil)
    }

    @Test func searchFindsNamesWithoutCapitalsOrAccentsAndStaysInARegion() throws {
        let (directory, store) = try Self.store()
        _ = directory
        let writer = PhotoWriter(store: store)
        var paris = Self.photo("1", title: "Louvre", region: "R1")
        paris.region = "Île-de-France, France"
        _ = try writer.store([
            paris, Self.photo("2", title: "Fog", owner: "z@N01", ownerName: "Zoë Ångström", region: "R2"), Self.photo("3", title: "fog", region: "R3"),
        ], now: 1)
        let queries = Queries(store: store)
        #expect(try queries.search(SearchQuery("ile de france"), limit: nil).map(\.record.id) == ["1"])
        #expect(try queries.search(SearchQuery("ILE-DE-FRANCE"), limit: nil).map(\.record.id) == ["1"])
        #expect(try queries.search(SearchQuery("zoe angstrom"), limit: nil).map(\.record.id) == ["2"])
        #expect(try queries.search(SearchQuery("photographer:zoe"), limit: nil).map(\.record.id) == ["2"])
        #expect(try queries.search(SearchQuery("title:zoe"), limit: nil).isEmpty)
        // Equal titles: the shorter photo (no photographer's name) first.
        #expect(try queries.search(SearchQuery("fog"), limit: nil).map(\.record.id) == ["3", "2"])
        #expect(try queries.search(SearchQuery("fog"), inRegion: "R3", limit: nil).map(\.record.id) == ["3"])
        #expect(try queries.search(SearchQuery("region:r2"), limit: nil).map(\.record.id) == ["2"])
        // A record naming its region later renames it: the photos are found by the new name.
        var renamed = Self.photo("4", region: "R1")
        renamed.region = "Paris Region"
        _ = try writer.store([renamed], now: 2)
        let foundParis = try queries.search(SearchQuery("paris"), limit: nil).map(\.record.id)
        // Both match only by region; the untitled one is the shorter document, so bm25 puts it first.
        #expect(foundParis == ["4", "1"])
        #expect(try queries.search(SearchQuery("france"), limit: nil).isEmpty)
    }

    // MARK: Orders

    @Test func listingsAreOrderedByUploadTitleOrViewEqualOnesByID() throws {
        let (directory, store) = try Self.store()
        _ = directory
        let writer = PhotoWriter(store: store)
        _ = try writer.store([
            Self.photo("1", title: "banana", region: "R", uploaded: 100),
            Self.photo("2", title: "Émile", region: "R", uploaded: 300),
            Self.photo("3", title: "", region: "R", uploaded: 200),
            Self.photo("4", title: "apple", region: "R", uploaded: 300),
            Self.photo("5", title: "Apple", region: "S", uploaded: nil),
            Self.photo("6", title: "emile", region: "S", uploaded: 50),
            Self.photo("7", title: "Zebra", region: "S", uploaded: 400),
            Self.photo("8", title: "ärger", region: "S", uploaded: 60),
        ], now: 1)
        try writer.recordViews(["6", "1"], now: 5)
        try writer.recordViews(["3"], now: 6)
        let queries = Queries(store: store)
        let region = RegionRank(rank: 1, regionID: "R", name: "R", photographers: 1, photos: 4, latitude: nil, longitude: nil)
        #expect(try queries.photos(in: PhotoList(.all, order: .uploaded), limit: nil).map(\.record.id) == ["7", "2", "4", "3", "1", "8", "6", "5"])
        #expect(try queries.photos(in: PhotoList(.all, order: .title), limit: nil).map(\.record.id) == ["4", "5", "8", "1", "2", "6", "7", "3"])
        #expect(try queries.photos(in: PhotoList(.all, order: .viewed), limit: nil).map(\.record.id) == ["3", "1", "6", "7", "2", "4", "8", "5"])
        #expect(try queries.photos(in: PhotoList(.all, order: .title), limit: 3).map(\.record.id) == ["4", "5", "8"])
        #expect(try queries.photos(in: PhotoList(.region(region), order: .title), limit: nil).map(\.record.id) == ["4", "1", "2", "3"])
        #expect(try queries.photos(in: PhotoList(.recents, order: .viewed), limit: nil).map(\.record.id) == ["3", "1", "6"])
        #expect(try queries.photos(in: PhotoList(.recents, order: .title), limit: nil).map(\.record.id) == ["1", "6", "3"])
        #expect(try queries.search(SearchQuery("apple OR emile OR banana"), order: .title, limit: nil).map(\.record.id) == ["4", "5", "1", "2", "6"])
        #expect(try queries.photoCount() == 8)
    }

    /// `regions-top --photos --limit 50` walks photo_by_upload and stops: no sort of every
    /// photo, whatever their number.
    @Test func newestPhotosFirstReadsAnIndexNotASort() throws {
        let (directory, store) = try Self.store()
        _ = directory
        let records = (0..<300).map { Self.photo("\($0)", title: "t", uploaded: Int64($0 % 17)) }
        _ = try PhotoWriter(store: store).store(records, now: 1)
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT \(Queries.photoColumns) FROM photo
                JOIN photographer ON photographer.id = photo.photographer LEFT JOIN region ON region.id = photo.region
                WHERE true ORDER BY \(PhotoOrder.uploaded.sql) LIMIT 50
                """).map { $0["detail"] as String }
        }
        #expect(plan.contains("SCAN photo USING INDEX photo_by_upload"))
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        let newest = try Queries(store: store).photos(in: PhotoList(.all, order: .uploaded), limit: 50)
        #expect(newest.count == 50 && newest.first?.record.uploaded == 16)
    }

    // MARK: The index on an older database

    /// A database made before the index (schema v3) gets it on first open: every stored
    /// photo indexed under its photographer's and region's names.
    @Test func migrationIndexesWhatIsStored() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.db")
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v3 thumbnails and view order")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO photographer (id, nsid, name) VALUES (1, 'a@N01', 'Ann Lee'), (2, 'b@N01', '');
                INSERT INTO region (id, place_id, name, sort_key, photographers, photos) VALUES (1, 'R1', 'Nova Scotia, Canada', 'nova scotia, canada', 1, 1);
                INSERT INTO photo (id, photographer, title, description, region, added_at) VALUES
                    ('1', 1, 'Harbour', '', 1, 1), ('2', 2, 'Fog', 'over the harbour', NULL, 1);
                INSERT INTO region_photographer VALUES (1, 1, 1);
                """)
        }
        try queue.close()
        let store = try Store.open(path: path)
        let queries = Queries(store: store)
        #expect(try queries.search(SearchQuery("harbour"), limit: nil).map(\.record.id) == ["1", "2"])
        #expect(try queries.search(SearchQuery("ann scotia"), limit: nil).map(\.record.id) == ["1"])
        try store.write { try $0.execute(sql: "INSERT INTO photo_fts (photo_fts, rank) VALUES ('integrity-check', 1)") }
        let sql = try store.read { try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'photo_fts'") }
        // What Datasette looks for to offer search on the photo table.
        #expect(sql?.contains("content=[photo]") == true)
    }
}
