import Foundation
import GRDB
import TopRegionsRecords

extension PhotoOrder {
    /// The ORDER BY terms over `photo`, each listing ending on the unique id so that the
    /// order is total and the same on every run.
    var sql: String {
        switch self {
        case .uploaded: "photo.uploaded DESC, photo.id"
        case .title: "photo.title = '', \(Self.titleKey.name)(photo.title), photo.id"
        case .viewed: "photo.view_seq DESC, photo.uploaded DESC, photo.id"
        }
    }

    /// A title's ordering key: Unicode case folding and diacritics removed, so that the
    /// order is the one a reader expects whatever the script or the capitals (SQLite's
    /// own lower() and NOCASE fold ASCII only). A function of the connection, not of the
    /// schema: nothing stored depends on it.
    static let titleKey = DatabaseFunction("topregions_title_key", argumentCount: 1, pure: true) { values in
        guard let title = String.fromDatabaseValue(values[0]) else { return nil }
        return RegionName.sortKey(title)
    }
}

extension Queries {
    /// The row ids of `list`'s photos in its order, when it holds at most `most` photos
    /// (nil: more, or a search, whose `searchMatches` gives them): what a list's summary keeps
    /// so that any of its pages reads its 30 photos by row id, instead of walking past the
    /// photos before them (a third of a deep page's time, in a 15,000-photo region).
    public func rowids(of list: PhotoList, atMost most: Int) throws -> [Int64]? {
        guard let selection = Self.selection(of: list) else { return nil }
        let rowids = try store.read { db in
            try Int64.fetchAllCached(db, sql: """
                SELECT photo.rowid FROM photo WHERE \(selection.condition) ORDER BY \(selection.order) LIMIT ?
                """, arguments: selection.arguments + [most + 1])
        }
        return rowids.count <= most ? rowids : nil
    }

    /// Which photos `list` holds and in what order, each kind in its own order when the list
    /// names none; nil for a search (the full-text index finds its photos).
    static func selection(of list: PhotoList) -> Selection? {
        let (order, window, view) = (list.order, list.window, list.view)
        switch list.kind {
        case .region(let region): return regionSelection(region.regionID, order: order ?? .uploaded, window: window, view: view)
        case .all: return allSelection(order: order ?? .uploaded, window: window, view: view)
        case .recents: return recentsSelection(order: order ?? .viewed, window: window, view: view)
        case .search: return nil
        }
    }

    /// Which photos a list holds (`condition` over `photo`, with its `arguments`) and their
    /// order (SQL).
    struct Selection {
        var condition: String
        var order: String
        var arguments: StatementArguments
    }

    /// The photos of a region (its place id the argument), every photo, the photos viewed
    /// (Recents): conditions over `photo`, for pages, counts and map spots alike.
    static let regionCondition = "photo.region = (SELECT id FROM region WHERE place_id = ?)"
    static let everyPhotoCondition = "true"
    static let viewedCondition = "photo.view_seq IS NOT NULL"

    static func regionSelection(_ regionID: String, order: PhotoOrder, window: TimeWindow?, view: GeoBox?) -> Selection {
        // Newest first walks photo_in_region (region, uploaded DESC, id), within a window too.
        let terms = order == .uploaded ? "photo.region, " + order.sql : order.sql
        let (condition, arguments) = keeping(regionCondition, [regionID], to: window, view: view)
        return Selection(condition: condition, order: terms, arguments: arguments)
    }

    static func allSelection(order: PhotoOrder, window: TimeWindow?, view: GeoBox?) -> Selection {
        let (condition, arguments) = keeping(everyPhotoCondition, [], to: window, view: view)
        return Selection(condition: condition, order: order.sql, arguments: arguments)
    }

    static func recentsSelection(order: PhotoOrder, window: TimeWindow?, view: GeoBox?) -> Selection {
        let (condition, arguments) = keeping(viewedCondition, [], to: window, view: view)
        return Selection(condition: condition, order: order == .viewed ? "photo.view_seq DESC" : order.sql, arguments: arguments)
    }

    static func fetchPhotos(_ db: Database, _ selection: Selection, limit: Int?, offset: Int) throws -> [StoredPhoto] {
        try fetchPhotos(db, where: selection.condition, order: selection.order, arguments: selection.arguments, limit: limit, offset: offset)
    }

    /// How many photos are stored.
    public func photoCount() throws -> Int {
        try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo")! }
    }

    /// Photos the full-text index finds for `query`, optionally only in one region: best
    /// match first (FTS5's bm25, a word in the title weighing most), equal scores by id;
    /// or in `order` when given.
    ///
    /// The matches are ordered on their row ids and scores alone, and only the `limit`
    /// first are read whole: a common word matching a large share of a big store costs
    /// a sort of small rows, not of whole photos.
    public func search(
        _ query: SearchQuery, inRegion regionID: String? = nil, order: PhotoOrder? = nil, window: TimeWindow? = nil, view: GeoBox? = nil,
        limit: Int?, offset: Int = 0
    ) throws -> [StoredPhoto] {
        try store.read { db in
            let rowids = try Self.searchRows(
                query, inRegion: regionID, order: order, window: window, view: view, limit: limit, offset: offset, db) { $0[0] as Int64 }
            return try Self.photos(rowids: rowids, db)
        }
    }

    /// Every photo `search` finds, in its order, as row ids: a list of 24,000 matches is
    /// 190 KB, so a server pages through it without ranking the matches again for each page.
    /// With them, from the same read, where they are for the list's map: each spot once,
    /// rounded to `decimals` decimal degrees, in row id order, as `positions(of:decimals:)`
    /// gives a list's.
    public func searchMatches(
        _ query: SearchQuery, inRegion regionID: String? = nil, order: PhotoOrder? = nil, window: TimeWindow? = nil, view: GeoBox? = nil,
        decimals: Int
    ) throws -> (rowids: [Int64], positions: [MapSpot]) {
        let located = "photo.rowid, photo.latitude, photo.longitude"
        // A photo without a position has NaN for it (SQLite stores no NaN): 24 bytes a match,
        // not the 40 of optionals, and sorted in place, not copied, for its spots below. The
        // server's memory peaks while a broad search is computed, so each byte a match counts
        // (docs/PERFORMANCE.md, "The server's memory after broad searches").
        var matches = try store.read { db in
            try Self.searchRows(query, inRegion: regionID, order: order, window: window, view: view, limit: nil, offset: 0, columns: located, db) { row in
                (rowid: row[0] as Int64, latitude: row[1] as Double? ?? .nan, longitude: row[2] as Double? ?? .nan)
            }
        }
        let rowids = matches.map(\.rowid)
        // Each spot once with its photos, in the order of its first photo by row id.
        matches.removeAll { $0.latitude.isNaN || $0.longitude.isNaN }
        matches.sort { $0.rowid < $1.rowid }
        var spots = SpotCounter(decimals: decimals)
        for match in matches {
            spots.add(latitude: match.latitude, longitude: match.longitude)
        }
        return (rowids, spots.spots)
    }

    /// Whole photos by row id (as `searchMatches` gives them), in the order given.
    public func photos(rowids: [Int64]) throws -> [StoredPhoto] {
        try store.read { db in try Self.photos(rowids: rowids, db) }
    }

    /// `columns` of the photos `search` finds, in its order, each row made a value by `value`.
    private static func searchRows<Value>(
        _ query: SearchQuery, inRegion regionID: String?, order: PhotoOrder?, window: TimeWindow?, view: GeoBox?, limit: Int?, offset: Int,
        columns: String = "photo.rowid", _ db: Database, _ value: (Row) -> Value
    ) throws -> [Value] {
        var sql = """
            SELECT \(columns) FROM photo_fts JOIN photo ON photo.rowid = photo_fts.rowid
            WHERE photo_fts MATCH ?
            """
        var arguments: StatementArguments = [query.match]
        if let regionID {
            sql += " AND photo.region = (SELECT id FROM region WHERE place_id = ?)"
            arguments += [regionID]
        }
        if let kept = Self.keptTo(window: window, view: view) {
            sql += " AND " + kept.sql
            arguments += kept.arguments
        }
        sql += " ORDER BY " + (order?.sql ?? "bm25(photo_fts, \(searchWeights)), photo.id")
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit ?? -1, offset]
        }
        return try sayingProblems(of: query) {
            let rows = try Row.fetchCursorCached(db, sql: sql, arguments: arguments)
            var values: [Value] = []
            while let row = try rows.next() { values.append(value(row)) }
            return values
        }
    }

    /// bm25's weight for each indexed column (title, description, photographer, region): a
    /// word in a photo's title says more about it than one in its description.
    static let searchWeights = "4.0, 1.0, 2.0, 2.0"

    /// What is said when the search index refuses a query the toolkit wrote: never SQLite's
    /// own words (a person asked for words, not for SQL), which a trace (-v) may show.
    static func ftsProblem(_: String) -> String {
        "the search index cannot read it; search for words, \"a phrase\", OR, NOT, -word, word*, title:word"
    }

    /// Whole photos by row id, in the order given.
    static func photos(rowids: [Int64], _ db: Database) throws -> [StoredPhoto] {
        guard !rowids.isEmpty else { return [] }
        var byRowid: [Int64: StoredPhoto] = [:]
        // The row ids bound as one JSON array: one statement, prepared once per connection.
        try eachPhoto(db, sql: """
            SELECT \(photoColumns), photo.rowid
            FROM photo
            JOIN photographer ON photographer.id = photo.photographer
            LEFT JOIN region ON region.id = photo.region
            WHERE photo.rowid IN (SELECT value FROM json_each(?))
            """, arguments: [jsonArray(rowids)]) { photo, column in
            byRowid[column.int(PhotoColumn.count) ?? 0] = photo
        }
        return rowids.compactMap { byRowid[$0] }
    }

    /// The condition over `photo.uploaded` that keeps to `window`; nil for every stored photo.
    static func windowCondition(_ window: TimeWindow?) -> (sql: String, arguments: StatementArguments)? {
        guard let window, !window.isEverything else { return nil }
        if let start = window.start { return ("photo.uploaded > ? AND photo.uploaded <= ?", [start, window.end]) }
        return ("photo.uploaded <= ?", [window.end])
    }

    /// The condition that keeps to `view`'s box (edges included); nil for anywhere.
    static func viewCondition(_ view: GeoBox?) -> (sql: String, arguments: StatementArguments)? {
        guard let view else { return nil }
        return ("photo.latitude BETWEEN ? AND ? AND photo.longitude BETWEEN ? AND ?", [view.south, view.north, view.west, view.east])
    }

    /// The conditions that keep to `window` and to `view`; nil when neither keeps to anything.
    static func keptTo(window: TimeWindow?, view: GeoBox?) -> (sql: String, arguments: StatementArguments)? {
        let kept = [windowCondition(window), viewCondition(view)].compactMap { $0 }
        guard !kept.isEmpty else { return nil }
        return (kept.map(\.sql).joined(separator: " AND "), kept.dropFirst().reduce(kept[0].arguments) { $0 + $1.arguments })
    }

    /// `condition` with its `arguments`, and the window's and the view's conditions after it.
    static func keeping(
        _ condition: String, _ arguments: StatementArguments, to window: TimeWindow?, view: GeoBox? = nil
    ) -> (String, StatementArguments) {
        guard let kept = keptTo(window: window, view: view) else { return (condition, arguments) }
        return (condition + " AND " + kept.sql, arguments + kept.arguments)
    }
}
