import GRDB
import TopRegionsRecords

/// Read-only questions to the store.
public struct Queries: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// The regions with the most distinct photographers, then by case-insensitive name, then
    /// region id. Reads `region_ranking` and stops after `limit` rows: no photo is scanned.
    public func topRegions(limit: Int) throws -> [RegionRank] {
        try store.read { db in
            try Self.topRegions(db, limit: limit)
        }
    }

    /// The top-regions query: a walk of the `region_ranking` partial index in its own order,
    /// stopping after LIMIT rows (tests check its plan: no scan, no sort).
    package static let topRegionsSQL = """
        SELECT place_id, name, photographers, photos, latitude, longitude
        FROM region INDEXED BY region_ranking
        WHERE photographers > 0
        ORDER BY photographers DESC, sort_key, place_id
        LIMIT ?
        """

    /// The `limit` regions with the most distinct photographers among the photos uploaded in
    /// `window` (then by name, then id), each with its photographers and photos in it
    /// (`windowCounts`), so every count equals a recount. Every stored photo, without a
    /// window: the maintained counts, as `topRegions(limit:)`.
    public func topRegions(limit: Int, window: TimeWindow?) throws -> [RegionRank] {
        guard let window, !window.isEverything else { return try topRegions(limit: limit) }
        return try store.read { db in
            try Self.ranked(Self.windowCounts(db, window), limit: limit, db)
        }
    }

    /// A region's row with its photographers and photos counted in `window` (every stored
    /// photo: its maintained counts); nil when no region has the id.
    public func region(id regionID: String, window: TimeWindow?) throws -> RegionRank? {
        guard var region = try region(id: regionID) else { return nil }
        guard let condition = Self.windowCondition(window) else { return region }
        let row = try store.read { db in
            try Row.fetchOneCached(db, sql: """
                SELECT COUNT(DISTINCT photo.photographer), COUNT(*) FROM photo
                WHERE photo.region = (SELECT id FROM region WHERE place_id = ?) AND \(condition.sql)
                """, arguments: [regionID] + condition.arguments)!
        }
        region.photographers = row[0]
        region.photos = row[1]
        return region
    }

    static func topRegions(_ db: Database, limit: Int) throws -> [RegionRank] {
        let rows = try Row.fetchAllCached(db, sql: topRegionsSQL, arguments: [limit])
        return rows.enumerated().map { index, row in
            RegionRank(
                rank: index + 1, regionID: row[0], name: row[1], photographers: row[2], photos: row[3],
                latitude: row[4], longitude: row[5])
        }
    }

    /// The region a user's words name: its id, its name (any case, any Unicode
    /// normalization), the start of its name or words of it; else the nearest names (see
    /// `RegionMatcher`).
    public func region(matching query: String) throws -> RegionMatch {
        try regionMatcher().match(query)
    }

    /// Every region (as `allRegions` orders them), ready to match words against, with the
    /// Latin keys of names in other scripts as the loads stored them.
    package func regionMatcher() throws -> RegionMatcher {
        let rows = try regionRows(limit: nil)
        return RegionMatcher(regions: rows.map(\.region), latinParts: rows.map(\.latinParts))
    }

    /// Every region the store knows, with or without photos now, by name (case-insensitive)
    /// then region id.
    public func allRegions(limit: Int? = nil) throws -> [RegionRank] {
        try regionRows(limit: limit).map(\.region)
    }

    /// `allRegions`, each with its stored Latin parts.
    private func regionRows(limit: Int?) throws -> [(region: RegionRank, latinParts: String?)] {
        try store.read { db in
            try Row.fetchAllCached(db, sql: """
                SELECT place_id, name, photographers, photos, latitude, longitude, latin_parts FROM region
                ORDER BY sort_key, place_id LIMIT ?
                """, arguments: [limit ?? -1]).map {
                (RegionRank(rank: 0, regionID: $0[0], name: $0[1], photographers: $0[2], photos: $0[3], latitude: $0[4], longitude: $0[5]), $0[6])
            }
        }
    }

    /// Whether any photo is stored (an empty store is refreshed before it is asked).
    public func hasPhotos() throws -> Bool {
        try store.read { db in
            try Bool.fetchOneCached(db, sql: "SELECT EXISTS (SELECT 1 FROM photo)")!
        }
    }

    /// Stored photos by id, in the order asked; ids not stored are left out.
    public func photos(ids: [String]) throws -> [String: StoredPhoto] {
        try store.read { db in
            var found: [String: StoredPhoto] = [:]
            try Self.inChunks(ids) { marks, chunk in
                // (Not through the statement cache: one statement for each number of ids.)
                for photo in try Self.fetchPhotos(db, where: "photo.id IN (\(marks))", order: "photo.id",
                                                  arguments: StatementArguments(chunk), limit: nil, cached: false) {
                    found[photo.record.id] = photo
                }
            }
            return found
        }
    }

    /// The oldest upload time of a stored photo; nil when none has one.
    public func oldestUpload() throws -> Int64? {
        try store.readStatement { db in
            try Int64.fetchOneCached(db, sql: "SELECT MIN(uploaded) FROM photo")
        }
    }

    /// The newest upload time ever stored: where an incremental fetch starts.
    public func newestUpload() throws -> Int64? {
        try store.readStatement { db in
            try Int64.fetchOneCached(db, sql: "SELECT value FROM store_state WHERE key = 'newest_upload'")
        }
    }

    /// Places already looked up, among `placeIDs`.
    public func knownPlaces(among placeIDs: [String]) throws -> [String: PlaceResolution] {
        try store.read { db in
            var known: [String: PlaceResolution] = [:]
            try Self.inChunks(placeIDs) { marks, chunk in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT pl.place_id, r.place_id, r.name, r.latitude, r.longitude
                    FROM place pl LEFT JOIN region r ON r.id = pl.region
                    WHERE pl.place_id IN (\(marks))
                    """, arguments: StatementArguments(chunk))
                for row in rows {
                    let placeID: String = row[0]
                    let region: RegionInfo? = (row[1] as String?).map {
                        RegionInfo(placeID: $0, name: row[2], latitude: row[3], longitude: row[4])
                    }
                    known[placeID] = PlaceResolution(placeID: placeID, region: region)
                }
            }
            return known
        }
    }

    /// Whether a stored photo waits for its place to be looked up (`pendingPlaces`).
    public func hasPendingPlaces() throws -> Bool {
        try store.read { db in
            try Bool.fetchOneCached(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE \(Self.waitsForItsPlace))")!
        }
    }

    /// Places of stored photos that have never been looked up.
    public func pendingPlaces() throws -> [String] {
        try store.read { db in
            try String.fetchAllCached(db, sql: "SELECT DISTINCT place_id FROM photo WHERE \(Self.waitsForItsPlace) ORDER BY place_id")
        }
    }

    /// A photo (`photo`) stored without a region whose place was never looked up.
    static let waitsForItsPlace = """
        region IS NULL AND place_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM place WHERE place.place_id = photo.place_id)
        """

    /// Runs `body` over `values` 500 at a time, with the chunk's `?,?,…` placeholders: an
    /// IN list per query, bound, whatever the number of values.
    static func inChunks<Value>(_ values: [Value], _ body: (_ marks: String, _ chunk: [Value]) throws -> Void) rethrows {
        for start in stride(from: 0, to: values.count, by: 500) {
            let chunk = Array(values[start..<min(start + 500, values.count)])
            try body(Array(repeating: "?", count: chunk.count).joined(separator: ","), chunk)
        }
    }

    /// `[1,2,3]`: integers bound as one value, for `IN (SELECT value FROM json_each(?))`.
    static func jsonArray(_ values: [Int64]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    static let photoColumns = PhotoColumn.selectList

    static func fetchPhotos(
        _ db: Database, where condition: String, order: String, arguments: StatementArguments, limit: Int?, offset: Int = 0,
        cached: Bool = true
    ) throws -> [StoredPhoto] {
        if offset > 0 {
            // SQLite makes every row an OFFSET skips, joins and long texts included: page 400
            // of a region read 12,000 whole photos. The skipping walks the order's index alone
            // (row ids), and only the page's photos are read whole.
            let rowids = try Int64.fetchAllCached(db, sql: """
                SELECT photo.rowid FROM photo WHERE \(condition) ORDER BY \(order) LIMIT ? OFFSET ?
                """, arguments: arguments + [limit ?? -1, offset])
            return try photos(rowids: rowids, db)
        }
        var sql = """
            SELECT \(photoColumns)
            FROM photo
            JOIN photographer ON photographer.id = photo.photographer
            LEFT JOIN region ON region.id = photo.region
            WHERE \(condition)
            ORDER BY \(order)
            """
        var arguments = arguments
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit ?? -1, offset]
        }
        var photos: [StoredPhoto] = []
        try eachPhoto(db, sql: sql, arguments: arguments, cached: cached) { photo, _ in photos.append(photo) }
        return photos
    }

    /// Runs `body` on each photo a query of `photoColumns` (then, optionally, more columns
    /// `body` reads from the statement) returns, read straight from SQLite's columns: a
    /// listing of thousands of photos otherwise spends most of its time copying each row
    /// and decoding each value through generic code.
    static func eachPhoto(
        _ db: Database, sql: String, arguments: StatementArguments, cached: Bool = true, _ body: (StoredPhoto, ColumnReader) throws -> Void
    ) throws {
        // Through the statement cache unless the SQL varies with the data.
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let columns = ColumnReader(statement: statement.sqliteStatement)
        while try rows.next() != nil {
            try body(try storedPhoto(columns), columns)
        }
    }

    static func storedPhoto(_ column: ColumnReader) throws -> StoredPhoto {
        typealias C = PhotoColumn
        var extra = JSONObject()
        if let text = column.text(C.extra), case .object(let object) = try? JSONParser.parse(text) {
            extra = object
        }
        var record = PhotoRecord(
            id: try column.required(C.id), owner: try column.required(C.owner), ownerName: try column.required(C.ownerName),
            latitude: column.double(C.latitude), longitude: column.double(C.longitude), placeID: column.text(C.placeID),
            uploaded: column.int(C.uploaded), regionID: column.text(C.regionID), region: column.text(C.region), extra: extra)
        for (slot, field) in PhotoRecord.plainFields.enumerated() {
            let index = C.plain[slot]
            record.setText(field.kind.isNeverAbsent ? try column.required(index) : column.text(index), ofPlain: slot)
        }
        guard let addedAt = column.int(C.addedAt) else { throw ColumnReader.missing(C.addedAt) }
        return StoredPhoto(record: record, addedAt: addedAt, viewedAt: column.int(C.viewedAt))
    }
}

extension Queries {
    /// Regions whose centre Flickr did not give (loaded from records without place-resolve)
    /// get the mean position of their photos, so they still appear on a map.
    public func fillingCentres(_ rows: [RegionRank]) throws -> [RegionRank] {
        try store.read { db in
            try rows.map { row in
                guard row.latitude == nil || row.longitude == nil else { return row }
                var row = row
                if let centre = try Row.fetchOneCached(db, sql: """
                    SELECT AVG(latitude), AVG(longitude) FROM photo
                    WHERE region = (SELECT id FROM region WHERE place_id = ?) AND latitude IS NOT NULL AND longitude IS NOT NULL
                    """, arguments: [row.regionID]) {
                    let round6 = { (value: Double?) in value.map { ($0 * 1e6).rounded() / 1e6 } }
                    row.latitude = round6(centre[0])
                    row.longitude = round6(centre[1])
                }
                return row
            }
        }
    }
}
