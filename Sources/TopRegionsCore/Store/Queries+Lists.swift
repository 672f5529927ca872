import GRDB
import TopRegionsRecords

extension Queries {
    /// One page of `list`: `limit` photos from `offset`, in `order` (nil: the list's own,
    /// which is best match first for a search and latest view first for Recents).
    public func photos(in list: PhotoList, limit: Int?, offset: Int = 0) throws -> [StoredPhoto] {
        let (order, window) = (list.order, list.window)
        switch list.kind {
        case .region(let region): return try photos(inRegion: region.regionID, order: order ?? .uploaded, window: window, limit: limit, offset: offset)
        case .all: return try allPhotos(order: order ?? .uploaded, window: window, limit: limit, offset: offset)
        case .recents: return try recents(order: order ?? .viewed, window: window, limit: limit, offset: offset)
        case .search(let query, let region):
            return try search(query, inRegion: region?.regionID, order: order, window: window, limit: limit, offset: offset)
        }
    }

    /// How many photos `list` holds. A region's and the whole store's are maintained counts;
    /// Recents and a search count their index entries.
    public func count(of list: PhotoList) throws -> Int {
        if let window = Self.windowCondition(list.window) { return try count(of: list, keptTo: window) }
        return try store.read { db in
            switch list.kind {
            case .region(let region):
                return try Int.fetchOne(db, sql: "SELECT photos FROM region WHERE place_id = ?", arguments: [region.regionID]) ?? 0
            case .all:
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo")!
            case .recents:
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE view_seq IS NOT NULL")!
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
                do {
                    return try Int.fetchOne(db, sql: sql, arguments: arguments)!
                } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                    throw SearchQuery.Problem(message: "cannot search for \(query.text): \(Self.ftsProblem(error.message ?? ""))")
                }
            }
        }
    }

    /// Where the photos of `list` are, each spot once: positions rounded to `decimals`
    /// decimal degrees (3: about 100 m, as fine as a region's map shows; 1 for a world's), so
    /// a list of a million photos comes back as the spots a map can draw.
    /// How many photos of `list` are in its window: counted from the photos in it.
    private func count(of list: PhotoList, keptTo window: (sql: String, arguments: StatementArguments)) throws -> Int {
        try store.read { db in
            var sql = "SELECT COUNT(*) FROM photo"
            var arguments: StatementArguments = []
            switch list.kind {
            case .region(let region):
                sql += " WHERE photo.region = (SELECT id FROM region WHERE place_id = ?)"
                arguments = [region.regionID]
            case .all:
                sql += " WHERE true"
            case .recents:
                sql += " WHERE photo.view_seq IS NOT NULL"
            case .search(let query, let region):
                sql += " JOIN photo_fts ON photo_fts.rowid = photo.rowid WHERE photo_fts MATCH ?"
                arguments = [query.match]
                if let region {
                    sql += " AND photo.region = (SELECT id FROM region WHERE place_id = ?)"
                    arguments += [region.regionID]
                }
            }
            do {
                return try Int.fetchOne(db, sql: sql + " AND " + window.sql, arguments: arguments + window.arguments)!
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                if case .search(let query, _) = list.kind {
                    throw SearchQuery.Problem(message: "cannot search for \(query.text): \(Self.ftsProblem(error.message ?? ""))")
                }
                throw error
            }
        }
    }

    public func positions(of list: PhotoList, decimals: Int) throws -> [(latitude: Double, longitude: Double)] {
        try store.read { db in
            let rounded = "round(photo.latitude, \(decimals)), round(photo.longitude, \(decimals))"
            var sql = "SELECT DISTINCT \(rounded) FROM photo"
            var arguments: StatementArguments = []
            switch list.kind {
            case .region(let region):
                sql += " WHERE photo.region = (SELECT id FROM region WHERE place_id = ?)"
                arguments = [region.regionID]
            case .all:
                sql += " WHERE true"
            case .recents:
                sql += " WHERE photo.view_seq IS NOT NULL"
            case .search(let query, let region):
                let regionID = region?.regionID
                sql += " JOIN photo_fts ON photo_fts.rowid = photo.rowid WHERE photo_fts MATCH ?"
                arguments = [query.match]
                if let regionID {
                    sql += " AND photo.region = (SELECT id FROM region WHERE place_id = ?)"
                    arguments += [regionID]
                }
            }
            sql += " AND photo.latitude IS NOT NULL AND photo.longitude IS NOT NULL"
            if let window = Self.windowCondition(list.window) {
                sql += " AND " + window.sql
                arguments += window.arguments
            }
            do {
                return try Row.fetchAll(db, sql: sql, arguments: arguments).map { (latitude: $0[0], longitude: $0[1]) }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                if case .search(let query, _) = list.kind {
                    throw SearchQuery.Problem(message: "cannot search for \(query.text): \(Self.ftsProblem(error.message ?? ""))")
                }
                throw error
            }
        }
    }

    /// The region with this Flickr place id, with its counts; nil when the store has none.
    public func region(id regionID: String) throws -> RegionRank? {
        try store.read { db in
            try Row.fetchOne(db, sql: """
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
            try Row.fetchAll(db, sql: """
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
