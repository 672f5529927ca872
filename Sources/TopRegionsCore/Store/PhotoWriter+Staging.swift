import GRDB
import TopRegionsIngest
import TopRegionsRecords

// The temporary tables a batch is staged in, and the photographers it refers to.

extension PhotoWriter {
    static func prepareStaging(_ db: Database) throws {
        try CountDeltas.prepare(db)
        try db.createTemporaryTablesOnce(last: "held_back_photographer", sql: """
            CREATE TEMP TABLE IF NOT EXISTS incoming (
                \(StagedColumn.allCases.map(\.declaration).joined(separator: ",\n    ")),
                old_rowid INTEGER,
                old_region INTEGER,
                old_photographer INTEGER,
                old_uploaded INTEGER
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
            -- Regions whose name changes in this batch.
            CREATE TEMP TABLE IF NOT EXISTS renamed (id INTEGER PRIMARY KEY);
            -- Photographers renamed in this transaction, and the name they end it with.
            CREATE TEMP TABLE IF NOT EXISTS renamed_photographer (id INTEGER PRIMARY KEY, nsid TEXT NOT NULL, name TEXT NOT NULL);
            -- Stored photos gaining a region from a place just learned, by rowid.
            CREATE TEMP TABLE IF NOT EXISTS attaching (photo INTEGER PRIMARY KEY, region INTEGER NOT NULL);
            -- Stored photos whose indexed text a merge changes, by rowid.
            CREATE TEMP TABLE IF NOT EXISTS reindexing (photo INTEGER PRIMARY KEY);
            -- Photographers whose new photos a load holds back from the search index until
            -- it writes their rename (PendingRenames).
            CREATE TEMP TABLE IF NOT EXISTS held_back_photographer (id INTEGER PRIMARY KEY);
            """)
    }

    static func clearStaging(_ db: Database) throws {
        try db.executeCached(sql: """
            DELETE FROM incoming;
            DELETE FROM incoming_photographer;
            DELETE FROM incoming_region;
            DELETE FROM incoming_place;
            DELETE FROM learned_place;
            """)
    }

    /// Upserts photographers (a non-empty name replaces the stored one); returns NSID → row
    /// id and name as stored. A renamed photographer takes the new name later, with all their
    /// photos (`PendingRenames`). Photographers new to the store get their
    /// row id now and wait in `group` to be written at the end of the transaction
    /// (`BatchGroup.writeNewPhotographers`).
    ///
    /// The NSID index is as random as NSIDs are: with many photographers stored, its pages
    /// and the rows it leads to are mostly not in the page cache. So each is read once per
    /// batch: one pass finds the stored photographers (ids, names, who is renamed).
    static func upsertPhotographers(
        _ photographers: [(nsid: String, name: String)], known: KnownPhotographers? = nil, _ group: BatchGroup
    ) throws -> [String: Named] {
        let db = group.db
        if let known {
            return try Self.storedPhotographers(photographers, knownAhead: known, group)
        }
        var map: [String: Named] = [:]
        map.reserveCapacity(photographers.count)
        let stage = try BulkStatement(db, sql: "INSERT INTO incoming_photographer (nsid, name) VALUES (?, ?)")
        for (nsid, name) in photographers {
            if let waiting = group.newPhotographers[nsid] {
                map[nsid] = group.naming(waiting, nsid: nsid, as: name)
                continue
            }
            stage.bind(1, nsid)
            stage.bind(2, name)
            try stage.run()
        }
        // CROSS JOIN keeps the batch's photographers the outer loop: with a plain JOIN and no
        // statistics SQLite scanned the whole photographer table instead (each batch), which
        // made a load's time grow with the photographers already stored.
        let stored = try Row.fetchCursor(db, sql: """
            SELECT i.nsid, p.id, p.name, i.name FROM incoming_photographer i CROSS JOIN photographer p ON p.nsid = i.nsid
            """)
        while let row = try stored.next() {
            map[row[0]] = group.naming(Named(id: row[1], name: row[2]), nsid: row[0], as: row[3])
        }
        if map.count < photographers.count {
            // The rest are new: row ids in NSID order (the order SQLite gave them when each
            // batch inserted its own), kept waiting in the group.
            let new = photographers.filter { map[$0.nsid] == nil }.sorted { $0.nsid.precedesInSQLite($1.nsid) }
            for (nsid, name) in new {
                let photographer = Named(id: try group.photographerID(), name: name)
                group.newPhotographers[nsid] = photographer
                map[nsid] = photographer
            }
            if !group.defersNewPhotographers { try group.writeNewPhotographers() }
        }
        return map
    }

    /// The batch's photographers from what was found ahead (`PhotographerLookAhead`), which
    /// the ledger trusts, and from what was added since: no statement runs (renames wait:
    /// `PendingRenames`).
    private static func storedPhotographers(
        _ photographers: [(nsid: String, name: String)], knownAhead known: KnownPhotographers, _ group: BatchGroup
    ) throws -> [String: Named] {
        var map: [String: Named] = [:]
        map.reserveCapacity(photographers.count)
        var new: [(nsid: String, name: String)] = []
        for (nsid, name) in photographers {
            if let waiting = group.newPhotographers[nsid] {
                map[nsid] = group.naming(waiting, nsid: nsid, as: name)
            } else if let stored = known.found[nsid].map({ Named(id: $0.id, name: $0.name) })
                ?? group.addedPhotographers[nsid] ?? group.ledger?.addedSince(known, nsid: nsid) {
                map[nsid] = group.naming(stored, nsid: nsid, as: name)
            } else {
                new.append((nsid, name))
            }
        }
        // Row ids in NSID order, as the lookup gives them.
        new.sort { $0.nsid.precedesInSQLite($1.nsid) }
        for (nsid, name) in new {
            let photographer = Named(id: try group.photographerID(), name: name)
            group.newPhotographers[nsid] = photographer
            map[nsid] = photographer
        }
        if !group.defersNewPhotographers { try group.writeNewPhotographers() }
        return map
    }

    /// Key → row id and name, from a query of those three columns.
    static func namedMap(_ db: Database, sql: String) throws -> [String: Named] {
        var map: [String: Named] = [:]
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            map[row[0]] = Named(id: row[1], name: row[2])
        }
        return map
    }
}
