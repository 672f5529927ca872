import Foundation
import GRDB
import TopRegionsRecords

extension Queries {
    /// One page of `list`: `limit` photos from `offset`, in `order` (nil: the list's own,
    /// which is best match first for a search and latest view first for Recents).
    public func photos(in list: PhotoList, limit: Int?, offset: Int = 0) throws -> [StoredPhoto] {
        if let selection = Self.selection(of: list) {
            return try store.read { db in try Self.fetchPhotos(db, selection, limit: limit, offset: offset) }
        }
        guard case .search(let query, let region) = list.kind else { preconditionFailure("only a search has no selection") }
        return try search(query, inRegion: region?.regionID, order: list.order, window: list.window, view: list.view, limit: limit, offset: offset)
    }

    /// How many photos `list` holds. A region's and the whole store's are maintained counts;
    /// Recents and a search count their index entries.
    public func count(of list: PhotoList) throws -> Int {
        if let kept = Self.keptTo(window: list.window, view: list.view) { return try count(of: list, keptTo: kept) }
        return try store.read { db in
            switch list.kind {
            case .region(let region):
                return try Int.fetchOneCached(db, sql: "SELECT photos FROM region WHERE place_id = ?", arguments: [region.regionID]) ?? 0
            case .all:
                return try Int.fetchOneCached(db, sql: "SELECT COUNT(*) FROM photo")!
            case .recents:
                return try Int.fetchOneCached(db, sql: "SELECT COUNT(*) FROM photo WHERE view_seq IS NOT NULL")!
            case .search(let query, let region):
                let regionID = region?.regionID
                var sql = "SELECT COUNT(*) FROM photo_fts"
                var arguments: StatementArguments = [query.match]
                if let regionID {
                    sql += " JOIN photo ON photo.rowid = photo_fts.rowid WHERE photo_fts MATCH ?"
                    sql += " AND photo.region = (SELECT id FROM region WHERE place_id = ?)"
                    arguments += [regionID]
                } else {
                    sql += " WHERE photo_fts MATCH ?"
                }
                return try Self.sayingProblems(of: query) { try Int.fetchOneCached(db, sql: sql, arguments: arguments)! }
            }
        }
    }

    /// How many photos of `list` are in its window and its view: counted from the photos in them.
    private func count(of list: PhotoList, keptTo window: (sql: String, arguments: StatementArguments)) throws -> Int {
        let photos = Self.photos(of: list)
        return try store.read { db in
            try Self.sayingSearchProblems(of: list) {
                try Int.fetchOneCached(db, sql: "SELECT COUNT(*)" + photos.sql + " AND " + window.sql, arguments: photos.arguments + window.arguments)!
            }
        }
    }

    /// Where the photos of `list` are, each spot once with how many photos it has: positions
    /// rounded to `decimals` decimal degrees (3: about 100 m, as fine as a region's map shows;
    /// 1 for a world's), so a list of a million photos comes back as the spots a map can draw.
    public func positions(of list: PhotoList, decimals: Int) throws -> [MapSpot] {
        let photos = Self.photos(of: list)
        var sql = "SELECT photo.latitude, photo.longitude" + photos.sql + " AND photo.latitude IS NOT NULL AND photo.longitude IS NOT NULL"
        var arguments = photos.arguments
        if let kept = Self.keptTo(window: list.window, view: list.view) {
            sql += " AND " + kept.sql
            arguments += kept.arguments
        }
        // Rounded and counted here, not by SQLite's round() and GROUP BY: its round() prints
        // each number and reads it back, and the grouping sorts every photo (a million
        // photos' spots took 3 of the 4.5 s of All's first page).
        return try store.read { db in
            try Self.sayingSearchProblems(of: list) {
                var spots = SpotCounter(decimals: decimals)
                let rows = try Row.fetchCursorCached(db, sql: sql, arguments: arguments)
                while let row = try rows.next() { spots.add(latitude: row[0], longitude: row[1]) }
                return spots.spots.sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
            }
        }
    }

    /// Photos' positions rounded to `decimals` decimal degrees (as SQLite's round() rounds
    /// them), each spot once with its photos, in the order first seen.
    struct SpotCounter {
        let scale: Double
        private var index: [Spot: Int] = [:]
        private(set) var spots: [MapSpot] = []

        init(decimals: Int) { scale = pow(10, Double(decimals)) }

        private struct Spot: Hashable { var latitude: Double, longitude: Double }

        /// As SQLite's round() gives it: the decimal written, rounded half away from zero.
        /// (A tie such as 32.4965 is 32496.49999… scaled, so it is nudged by 1e-7 of a last
        /// decimal first: far more than the product's error, far less than the distance of
        /// any coordinate of 7 decimals or fewer from a tie.)
        func rounded(_ value: Double) -> Double {
            let scaled = value * scale
            return (scaled + (scaled < 0 ? -1e-7 : 1e-7)).rounded() / scale
        }

        mutating func add(latitude: Double, longitude: Double) {
            let spot = Spot(latitude: rounded(latitude), longitude: rounded(longitude))
            if let known = index[spot] {
                spots[known].photos += 1
            } else {
                index[spot] = spots.count
                spots.append(MapSpot(latitude: spot.latitude, longitude: spot.longitude))
            }
        }
    }

    /// The photos `list` holds, whatever its window: " FROM photo ... WHERE ..." (a condition
    /// may follow with " AND"), and its arguments.
    private static func photos(of list: PhotoList) -> (sql: String, arguments: StatementArguments) {
        switch list.kind {
        case .region(let region):
            (" FROM photo WHERE " + regionCondition, [region.regionID])
        case .all:
            (" FROM photo WHERE " + everyPhotoCondition, [])
        case .recents:
            (" FROM photo WHERE " + viewedCondition, [])
        case .search(let query, let region):
            region.map {
                (" FROM photo JOIN photo_fts ON photo_fts.rowid = photo.rowid WHERE photo_fts MATCH ?"
                    + " AND photo.region = (SELECT id FROM region WHERE place_id = ?)", [query.match, $0.regionID])
            } ?? (" FROM photo JOIN photo_fts ON photo_fts.rowid = photo.rowid WHERE photo_fts MATCH ?", [query.match])
        }
    }

    /// Runs `body`; for a search, SQLite's complaint about the query comes out in words.
    private static func sayingSearchProblems<T>(of list: PhotoList, _ body: () throws -> T) throws -> T {
        guard case .search(let query, _) = list.kind else { return try body() }
        return try sayingProblems(of: query, body)
    }

    /// Runs `body`, a statement matching `query`: SearchQuery writes only what FTS5 parses;
    /// should it ever not, the user reads why in words, not SQL.
    static func sayingProblems<T>(of query: SearchQuery, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw SearchQuery.Problem(message: "cannot search for \(query.text): \(ftsProblem(error.message ?? ""))")
        }
    }

    /// The region with this Flickr place id, with its counts; nil when the store has none.
    public func region(id regionID: String) throws -> RegionRank? {
        try store.readStatement { db in
            try Row.fetchOneCached(db, sql: """
                SELECT place_id, name, photographers, photos, latitude, longitude FROM region WHERE place_id = ?
                """, arguments: [regionID]).map {
                RegionRank(rank: 0, regionID: $0[0], name: $0[1], photographers: $0[2], photos: $0[3], latitude: $0[4], longitude: $0[5])
            }
        }
    }

    /// The named places of a region (as place-resolve stored them), by name, each name once
    /// (at the first of its places), at most `limit`.
    public func places(inRegion regionID: String, limit: Int = 400) throws -> [(name: String, latitude: Double, longitude: Double)] {
        try store.read { db in
            try Row.fetchAllCached(db, sql: """
                SELECT name, latitude, longitude FROM place
                WHERE region = (SELECT id FROM region WHERE place_id = ?) AND name IS NOT NULL
                  AND latitude IS NOT NULL AND longitude IS NOT NULL
                GROUP BY name ORDER BY name LIMIT ?
                """, arguments: [regionID, limit]).map { (name: $0[0], latitude: $0[1], longitude: $0[2]) }
        }
    }

    /// One stored photo, or nil.
    public func photo(id: String) throws -> StoredPhoto? {
        try photos(ids: [id])[id]
    }
}
