import GRDB
import TopRegionsRecords

// The temporary tables a batch is staged in, and the photographers it refers to.

extension PhotoWriter {
    static func prepareStaging(_ db: Database) throws {
        try CountDeltas.prepare(db)
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS incoming (
                id TEXT NOT NULL,
                photographer INTEGER NOT NULL,
                region INTEGER,
                title TEXT NOT NULL,
                description TEXT NOT NULL,
                latitude REAL,
                longitude REAL,
                place_id TEXT,
                uploaded INTEGER,
                thumb_url TEXT,
                photo_url TEXT,
                extra TEXT,
                old_rowid INTEGER,
                old_region INTEGER,
                old_photographer INTEGER
            );
            CREATE TEMP TABLE IF NOT EXISTS incoming_photographer (
                nsid TEXT PRIMARY KEY, name TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS incoming_region (
                place_id TEXT PRIMARY KEY, name TEXT, sort_key TEXT, latitude REAL, longitude REAL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS incoming_place (
                place_id TEXT PRIMARY KEY, region_place_id TEXT, answered INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS learned_place (
                place_id TEXT PRIMARY KEY, region_place_id TEXT
            ) WITHOUT ROWID;
            """)
    }

    static func clearStaging(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM incoming;
            DELETE FROM incoming_photographer;
            DELETE FROM incoming_region;
            DELETE FROM incoming_place;
            DELETE FROM learned_place;
            """)
    }

    /// Upserts photographers; returns NSID → row id.
    static func upsertPhotographers(_ photographers: [(nsid: String, name: String)], _ db: Database) throws -> [String: Int64] {
        let stage = try BulkStatement(db, sql: "INSERT INTO incoming_photographer (nsid, name) VALUES (?, ?)")
        for (nsid, name) in photographers {
            stage.bind(1, nsid)
            stage.bind(2, name)
            try stage.run()
        }
        try db.execute(sql: """
            INSERT INTO photographer (nsid, name)
                SELECT nsid, name FROM incoming_photographer WHERE true
                ON CONFLICT (nsid) DO UPDATE SET name = excluded.name
                WHERE excluded.name <> '' AND name <> excluded.name
            """)
        return try idMap(db, sql: "SELECT p.nsid, p.id FROM incoming_photographer i JOIN photographer p ON p.nsid = i.nsid")
    }

    static func idMap(_ db: Database, sql: String) throws -> [String: Int64] {
        var map: [String: Int64] = [:]
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            map[row[0]] = row[1]
        }
        return map
    }
}
