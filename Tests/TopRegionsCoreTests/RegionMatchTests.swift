import GRDB
import Testing
@testable import TopRegionsRecords
@testable import TopRegionsStore
import TopRegionsTestSupport

/// `--region`: which region a user's words name, tier by tier, and the names suggested when
/// none does.
@Suite struct RegionMatchTests {
    static func region(_ id: String, _ name: String, photographers: Int = 1) -> RegionRank {
        RegionRank(rank: 0, regionID: id, name: name, photographers: photographers, photos: photographers, latitude: nil, longitude: nil)
    }

    let matcher = RegionMatcher(regions: [
        region("R1", "Nova Scotia, Canada", photographers: 9),
        region("R2", "Île-de-France, France", photographers: 5),
        region("R3", "New York, United States", photographers: 7),
        region("R4", "New South Wales, Australia", photographers: 3),
        region("R5", "Alpha", photographers: 2),
        region("R6", "alpha", photographers: 1),
        region("R7", "Texas, United States", photographers: 4),
        region("R8", "Bangkok, ประเทศไทย", photographers: 6),
        region("R9", "Alphaville", photographers: 1),
    ])

    func found(_ query: String) -> String? {
        if case .found(let region) = matcher.match(query) { return region.regionID }
        return nil
    }

    func ambiguous(_ query: String) -> (ids: [String], by: RegionMatch.AmbiguousBy)? {
        if case .ambiguous(let regions, let by) = matcher.match(query) { return (regions.map(\.regionID), by) }
        return nil
    }

    func suggested(_ query: String) -> [String]? {
        if case .unknown(let closest) = matcher.match(query) { return closest.map(\.regionID) }
        return nil
    }

    /// A search only asks whether its words name a region: every tier answers as when
    /// suggestions are wanted, and no name is looked for when none fits.
    @Test func withoutSuggestionsOnlyTheNamesNotFoundChange() {
        for query in ["R3", "alpha", "ALPHA", "nova scotia", "new", "york", "bangkok", "ile de france", "nova scotai", "zzzz", "", "tripod"] {
            let asked = matcher.match(query, suggesting: false)
            if case .unknown = matcher.match(query) {
                #expect(asked == .unknown(closest: []), "\(query)")
            } else {
                #expect(asked == matcher.match(query), "\(query)")
            }
        }
        #expect(suggested("nova scotai") == ["R1"])
    }

    @Test func theIdThenTheNameInAnyCaseAndNormalization() {
        #expect(found("R3") == "R3")
        #expect(found("nova scotia, canada") == "R1")
        #expect(found("NOVA SCOTIA, CANADA") == "R1")
        // Decomposed, as typed on macOS: I + U+0302 COMBINING CIRCUMFLEX ACCENT.
        #expect(found("I\u{0302}le-de-France, France") == "R2")
        #expect(found("i\u{0302}le-de-france, france") == "R2")
        #expect(found("  Texas, United States ") == "R7")
    }

    @Test func aNameSeveralRegionsShareIsAmbiguousUnlessSpelledExactly() {
        #expect(found("Alpha") == "R5")
        #expect(found("alpha") == "R6")
        #expect(ambiguous("ALPHA")?.ids == ["R5", "R6"])
        #expect(ambiguous("ALPHA")?.by == .sameName)
    }

    @Test func theStartOfTheNameIgnoringCaseAccentsAndPunctuation() {
        #expect(found("nova") == "R1")
        #expect(found("Nova Scotia") == "R1")
        #expect(found("ile de france") == "R2")
        #expect(found("ILE-DE-FRANCE") == "R2")
        #expect(found("bangkok") == "R8")
        #expect(ambiguous("new")?.ids == ["R3", "R4"])
        #expect(ambiguous("new")?.by == .namePrefix)
        // "Alphaville" starts with "alpha" too, but two names are "alpha" exactly.
        #expect(ambiguous("alpha")?.by == nil)
        #expect(found("alphav") == "R9")
    }

    @Test func wholeWordsInAnyOrder() {
        #expect(found("york") == "R3")
        #expect(found("scotia canada") == "R1")
        #expect(found("france ile") == "R2")
        #expect(ambiguous("united states")?.ids == ["R3", "R7"])
        #expect(ambiguous("united states")?.by == .words)
        // A word must be whole: "scot" is the start of no name and no word of one.
        #expect(found("scot") == nil)
    }

    @Test func unknownNamesSuggestTheNearest() {
        #expect(suggested("Nova Scota") == ["R1"])
        #expect(suggested("Nvoa Scotia") == ["R1"], "two letters swapped are one edit")
        #expect(suggested("Yrok") == ["R3"], "near a word of the name")
        #expect(suggested("Texsa") == ["R7"])
        #expect(suggested("Bangkok, Thailand") == ["R8"], "a word of the name")
        #expect(suggested("Bangkoc, Thailand") == ["R8"], "near a word of the name")
        #expect(suggested("Nwe Yrok") == ["R3"], "a typo in each word")
        // Nothing near: names sharing a word, the most photographers first.
        #expect(suggested("Wales, UK") == ["R4"])
        #expect(suggested("States of Jersey") == ["R3", "R7"])
        #expect(suggested("Atlantis") == [])
        #expect(suggested("!!") == [])
    }

    /// Names in another script answer to their Latin transliteration, and are suggested
    /// for words near it; a name near a part of a name is suggested. Regression: "St
    /// Petersburg", "sankt-peterburg" and "lisbon" found nothing and suggested nothing.
    @Test func namesInAnotherScriptAnswerInLatinLetters() {
        let matcher = RegionMatcher(regions: [
            Self.region("SPB", "Санкт-Петербург, Россия", photographers: 74),
            Self.region("LIS", "Lisboa, Portugal", photographers: 23),
            Self.region("ATH", "Αττική, Ελλάδα", photographers: 5),
            Self.region("MOW", "Москва, Россия", photographers: 9),
        ])
        func found(_ query: String) -> String? {
            if case .found(let region) = matcher.match(query) { return region.regionID }
            return nil
        }
        func suggested(_ query: String) -> [String]? {
            if case .unknown(let closest) = matcher.match(query) { return closest.map(\.regionID) }
            return nil
        }
        #expect(found("sankt-peterburg") == "SPB")
        #expect(found("Sankt Peterburg, Rossia") == "SPB")
        #expect(found("moskva") == "MOW")
        #expect(found("attike") == "ATH")
        #expect(suggested("St Petersburg") == ["SPB"])
        #expect(suggested("lisbon") == ["LIS"])
        #expect(RegionName.latinKey("Lisboa, Portugal") == nil, "already in Latin letters")
    }

    /// The Latin letters of a name in another script are kept with its region as a load
    /// writes the name (again when it is renamed), and a database from before them gets them
    /// on first open: the store's matcher answers as one transliterating the names itself,
    /// and a tool matching a name no longer makes ICU's transliterator ready (70 of
    /// `regions-top --region`'s 87 ms, and 6.5 MB of regions-serve's memory).
    @Test func theStoreKeepsTheLatinLettersOfNamesInAnotherScript() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("store.db"))
        let writer = PhotoWriter(store: store)
        func record(_ id: Int, _ region: String, _ name: String) -> PhotoRecord {
            PhotoRecord(id: "\(id)", owner: "a@N01", placeID: "P\(region)", regionID: region, region: name)
        }
        _ = try writer.store([
            record(1, "SPB", "Санкт-Петербург, Россия"), record(2, "TYO", "東京都, Japan"),
            record(3, "LIS", "Lisboa, Portugal"), record(4, "ATH", "Αττική, Ελλάδα"),
        ], now: 1)
        func kept(_ store: Store) throws -> [String: String] {
            try store.read { db in
                var kept: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT place_id, latin_parts FROM region WHERE latin_parts IS NOT NULL") {
                    kept[row[0]] = row[1]
                }
                return kept
            }
        }
        #expect(try kept(store) == [
            "SPB": "sankt peterburg,rossia", "TYO": "dong jing dou,japan", "ATH": RegionName.latinParts("Αττική, Ελλάδα")!,
        ])
        let queries = Queries(store: store)
        let queried = ["sankt-peterburg", "St Petersburg", "tokio", "dong jing", "lisbon", "attike", "Ellada", "Russia", "zzz"]
        func answers(_ matcher: RegionMatcher) -> [RegionMatch] { queried.map { matcher.match($0) } }
        #expect(answers(try queries.regionMatcher()) == answers(RegionMatcher(regions: try queries.allRegions())))
        #expect(try queries.region(matching: "sankt peterburg") == .found(try queries.allRegions().first { $0.regionID == "SPB" }!))

        // Renamed into Latin letters, and out of them; named again as it is (kept as it was).
        _ = try writer.store([
            record(5, "ATH", "Attica, Greece"), record(6, "LIS", "Лиссабон, Португалия"), record(7, "SPB", "Санкт-Петербург, Россия"),
        ], now: 2)
        #expect(try kept(store) == [
            "SPB": "sankt peterburg,rossia", "TYO": "dong jing dou,japan", "LIS": RegionName.latinParts("Лиссабон, Португалия")!,
        ])
        #expect(answers(try queries.regionMatcher()) == answers(RegionMatcher(regions: try queries.allRegions())))
        // Its centre learned, its name as it was: kept as it was.
        _ = try writer.record([PlaceResolution(placeID: "PSPB", region: RegionInfo(placeID: "SPB", name: "Санкт-Петербург, Россия", latitude: 59.9, longitude: 30.3))], now: 3)
        #expect(try kept(store)["SPB"] == "sankt peterburg,rossia")
        #expect(try queries.allRegions().first { $0.regionID == "SPB" }?.latitude == 59.9)

        // A database from before (schema v13) gets them on first open.
        let path = directory.file("old.db")
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v13 photographers and photos by the ten minutes of their upload")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO region (place_id, name, sort_key) VALUES
                    ('SPB', 'Санкт-Петербург, Россия', ''), ('LIS', 'Lisboa, Portugal', ''), ('Q1', 'Q1', 'q1');
                """)
        }
        try queue.close()
        #expect(try kept(try Store.open(path: path)) == ["SPB": "sankt peterburg,rossia"])
    }

    @Test func editDistanceCountsASwapOfNeighboursAsOneEdit() {
        func distance(_ a: String, _ b: String) -> Int {
            RegionMatcher.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("abc", "acb") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("texsa", "texas") == 1)
    }
}

/// One order for every name, whatever its accents, capitals or Unicode normalization, in SQL
/// (the ranking's ties, --regions) and in Swift alike. Regression: accented names (Épire,
/// Île-de-France, Österreich) sorted after Z.
@Suite struct NameOrderTests {
    static let names = [
        "Zürich", "Österreich (precomposed)".precomposedStringWithCanonicalMapping, "Épire", "Iowa", "Île-de-France",
        "Österreich (decomposed)".decomposedStringWithCanonicalMapping, "Andalucía", "ohio",
    ]
    static let expected = ["Andalucía", "Épire", "Île-de-France", "Iowa", "ohio", "Österreich (decomposed)", "Österreich (precomposed)", "Zürich"]

    static func store(_ directory: TemporaryDirectory) throws -> Store {
        let store = try Store.open(path: directory.file("store.db"))
        // One photo and photographer in each region: every rank ties, so the names order them.
        _ = try PhotoWriter(store: store).store(names.enumerated().map { index, name in
            var record = PhotoRecord(id: "\(index + 1)", owner: "\(index)@N01", title: "", description: "")
            record.regionID = "R\(index)"
            record.region = name
            return record
        }, now: 1)
        return store
    }

    @Test func regionsSortByNameIgnoringCaseAccentsAndNormalization() throws {
        let directory = TemporaryDirectory()
        let store = try Self.store(directory)
        let byName = try Queries(store: store).allRegions().map { $0.name.precomposedStringWithCanonicalMapping }
        #expect(byName == Self.expected.map(\.precomposedStringWithCanonicalMapping))
        #expect(try Queries(store: store).topRegions(limit: 50).map { $0.name.precomposedStringWithCanonicalMapping } == byName)
        // Swift sorts by the same key.
        #expect(Self.names.sorted { RegionName.sortKey($0) < RegionName.sortKey($1) }.map(\.precomposedStringWithCanonicalMapping) == byName)
    }

    /// A database whose names were ordered by the old key is put in order by its upgrade.
    @Test func theUpgradeOrdersNamesStoredBefore() throws {
        let directory = TemporaryDirectory()
        let store = try Self.store(directory)
        try store.write { db in
            try db.execute(sql: "UPDATE region SET sort_key = lower(name)")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v10 %'")
        }
        // The old order: Épire after Zürich.
        let old = try Queries(store: store).allRegions().map(\.name)
        #expect(old.firstIndex(of: "Zürich")! < old.firstIndex(of: "Épire")!)
        let upgraded = try Store.open(path: directory.file("store.db"))
        #expect(try Queries(store: upgraded).allRegions().map { $0.name.precomposedStringWithCanonicalMapping }
            == Self.expected.map(\.precomposedStringWithCanonicalMapping))
    }
}
