import GRDB
import TopRegionsIngest
import TopRegionsRecords

// The temporary tables a batch is staged in, and the photographers it refers to.

extension PhotoWriter {
    static func prepareStaging(_ db: Database) throws {
        try CountDeltas.prepare(db)
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS incoming (
                \(StagedColumn.allCases.map(\.declaration).joined(separator: ",\n    ")),
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
            -- Photographers or regions whose name changes in this batch.
            CREATE TEMP TABLE IF NOT EXISTS renamed (id INTEGER PRIMARY KEY);
            -- Stored photos gaining a region from a place just learned, by rowid.
            CREATE TEMP TABLE IF NOT EXISTS attaching (photo INTEGER PRIMARY KEY, region INTEGER NOT NULL);
            -- Stored photos whose indexed text a merge changes, by rowid.
            CREATE TEMP TABLE IF NOT EXISTS reindexing (photo INTEGER PRIMARY KEY);
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

    /// Upserts photographers (a non-empty name replaces the stored one); returns NSID → row
    /// id and name. A renamed photographer's stored photos take the new name, in the search
    /// index too. Photographers new to the store get their row id now and wait in `group`
    /// to be written at the end of the transaction (`BatchGroup.writeNewPhotographers`).
    ///
    /// The NSID index is as random as NSIDs are: with many photographers stored, its pages
    /// and the rows it leads to are mostly not in the page cache. So each is read once per
    /// batch: one pass finds the stored photographers (ids, names, who is renamed).
    static func upsertPhotographers(
        _ photographers: [(nsid: String, name: String)], known: KnownPhotographers? = nil, _ group: BatchGroup
    ) throws -> [String: Named] {
        let db = group.db
        // A photographer waiting to be written who comes back with another name: written
        // first, so that the rename below finds it (and its photos) like any stored one.
        if photographers.contains(where: { incoming in
            group.newPhotographers[incoming.nsid].map { !incoming.name.isEmpty && incoming.name != $0.name } ?? false
        }) {
            try group.writeNewPhotographers()
        }
        if let known, let map = try Self.storedPhotographers(photographers, knownAhead: known, group) {
            return map
        }
        var map: [String: Named] = [:]
        map.reserveCapacity(photographers.count)
        let stage = try BulkStatement(db, sql: "INSERT INTO incoming_photographer (nsid, name) VALUES (?, ?)")
        for (nsid, name) in photographers {
            if let waiting = group.newPhotographers[nsid] {
                map[nsid] = waiting
                continue
            }
            stage.bind(1, nsid)
            stage.bind(2, name)
            try stage.run()
        }
        var renamed = false
        // CROSS JOIN keeps the batch's photographers the outer loop: with a plain JOIN and no
        // statistics SQLite scanned the whole photographer table instead (each batch), which
        // made a load's time grow with the photographers already stored.
        let stored = try Row.fetchCursor(db, sql: """
            SELECT i.nsid, p.id, p.name, i.name FROM incoming_photographer i CROSS JOIN photographer p ON p.nsid = i.nsid
            """)
        while let row = try stored.next() {
            let id: Int64 = row[1], name: String = row[2], incoming: String = row[3]
            if !incoming.isEmpty && incoming != name {
                renamed = true
                map[row[0]] = Named(id: id, name: incoming)
            } else {
                map[row[0]] = Named(id: id, name: name)
            }
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
        if renamed {
            group.renamedAny = true
            // The same condition as above: who gets a new name.
            try db.execute(sql: """
                INSERT INTO renamed (id)
                    SELECT p.id FROM incoming_photographer i CROSS JOIN photographer p ON p.nsid = i.nsid
                    WHERE i.name <> '' AND p.name <> i.name
                """)
            let theirPhotos = "photographer IN (SELECT id FROM renamed)"
            try SearchIndex.reindexing(db, photosWhere: theirPhotos) {
                try db.execute(sql: """
                    UPDATE photographer SET name = i.name FROM incoming_photographer i
                    WHERE photographer.id IN (SELECT id FROM renamed) AND i.nsid = photographer.nsid
                    """)
                try db.execute(sql: "UPDATE photo SET owner_name = (SELECT name FROM photographer WHERE id = photo.photographer) WHERE \(theirPhotos)")
            }
            try db.execute(sql: "DELETE FROM renamed")
        }
        return map
    }

    /// The batch's photographers from what was found ahead (`PhotographerLookAhead`), which
    /// the ledger trusts, and from what was added since: no statement runs. Nil when one of
    /// them comes with a new name: the rename is the lookup's work (above).
    private static func storedPhotographers(
        _ photographers: [(nsid: String, name: String)], knownAhead known: KnownPhotographers, _ group: BatchGroup
    ) throws -> [String: Named]? {
        var map: [String: Named] = [:]
        map.reserveCapacity(photographers.count)
        var new: [(nsid: String, name: String)] = []
        for (nsid, name) in photographers {
            if let waiting = group.newPhotographers[nsid] {
                map[nsid] = waiting
            } else if let stored = known.found[nsid].map({ Named(id: $0.id, name: $0.name) })
                ?? group.addedPhotographers[nsid] ?? group.ledger?.addedSince(known, nsid: nsid) {
                if !name.isEmpty && name != stored.name { return nil }
                map[nsid] = stored
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
