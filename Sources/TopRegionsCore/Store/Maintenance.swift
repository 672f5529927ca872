import GRDB

extension PhotoWriter {
    /// Removes photos first stored before `cutoff` (Unix seconds), keeping every count exact,
    /// and forgets photographers left with no photo. Returns how many photos went.
    public func prune(storedBefore cutoff: Int64) throws -> Int {
        try store.write { db in
            try CountDeltas.prepare(db)
            try db.execute(sql: """
                INSERT INTO count_delta (region, photographer, n)
                    SELECT region, photographer, -1 FROM photo WHERE added_at < ? AND region IS NOT NULL
                """, arguments: [cutoff])
            try SearchIndex.remove(db, photosWhere: "added_at < ?", arguments: [cutoff])
            try db.execute(sql: "DELETE FROM photo WHERE added_at < ?", arguments: [cutoff])
            let pruned = db.changesCount
            try CountDeltas.apply(db)
            try Self.forgetOrphans(db)
            return pruned
        }
    }

    /// Deletes photos by id and remembers them as deleted, so a later load of the same
    /// photo does not bring it back. Returns the ids that were stored (the others are
    /// still remembered as deleted).
    public func delete(ids: [String], now: Int64) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        return try store.write { db in
            try CountDeltas.prepare(db)
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS doomed (id TEXT PRIMARY KEY) WITHOUT ROWID")
            let doomed = try BulkStatement(db, sql: "INSERT OR IGNORE INTO doomed (id) VALUES (?)")
            for id in ids {
                doomed.bind(1, id)
                try doomed.run()
            }
            let stored = try String.fetchAll(db, sql: "SELECT id FROM photo WHERE id IN (SELECT id FROM doomed) ORDER BY id")
            try SearchIndex.remove(db, photosWhere: "id IN (SELECT id FROM doomed)")
            try db.execute(sql: """
                INSERT INTO count_delta (region, photographer, n)
                    SELECT region, photographer, -1 FROM photo WHERE id IN (SELECT id FROM doomed) AND region IS NOT NULL;
                DELETE FROM photo WHERE id IN (SELECT id FROM doomed);
                INSERT INTO deleted_photo (id, deleted_at) SELECT id, ? FROM doomed WHERE true
                    ON CONFLICT (id) DO NOTHING;
                """, arguments: [now])
            try db.execute(sql: "DELETE FROM doomed")
            try CountDeltas.apply(db)
            try Self.forgetOrphans(db)
            return stored
        }
    }

    /// The photos `prune(storedBefore:)` would remove, by id: a dry run changes nothing.
    public func photosStored(before cutoff: Int64) throws -> [String] {
        try store.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM photo WHERE added_at < ? ORDER BY id", arguments: [cutoff])
        }
    }

    /// Where each of `ids` stands: stored, deleted earlier (and so kept out), or neither
    /// (never stored: likely a typo).
    public func deletionStatus(of ids: [String]) throws -> (stored: Set<String>, deleted: Set<String>) {
        try store.read { db in
            var stored = Set<String>(), deleted = Set<String>()
            try Queries.inChunks(Array(Set(ids))) { marks, chunk in
                stored.formUnion(try String.fetchAll(db, sql: "SELECT id FROM photo WHERE id IN (\(marks))", arguments: StatementArguments(chunk)))
                deleted.formUnion(try String.fetchAll(db, sql: "SELECT id FROM deleted_photo WHERE id IN (\(marks))", arguments: StatementArguments(chunk)))
            }
            return (stored, deleted)
        }
    }

    /// Forgets that the photos were deleted, so a later load stores them again. Returns the
    /// ids that had been deleted.
    public func undelete(ids: [String]) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        return try store.write { db in
            var undeleted: [String] = []
            for id in Set(ids).sorted() {
                try db.execute(sql: "DELETE FROM deleted_photo WHERE id = ?", arguments: [id])
                if db.changesCount > 0 { undeleted.append(id) }
            }
            return undeleted
        }
    }

    /// Records that the photos were viewed at `now`, in this order (Recents lists the last
    /// one first).
    public func recordViews(_ ids: [String], now: Int64) throws {
        guard !ids.isEmpty else { return }
        try store.write(changesContent: false) { db in try Self.recordViews(ids.map { ($0, now) }, db) }
    }

    /// Records views, each at its time, in this order, in the transaction under way.
    static func recordViews(_ views: [(id: String, at: Int64)], _ db: Database) throws {
        var next = try Int64.fetchOne(db, sql: "SELECT value FROM store_state WHERE key = 'view_seq'") ?? 0
        for view in views {
            next += 1
            try db.execute(sql: "UPDATE photo SET viewed_at = ?, view_seq = ? WHERE id = ?", arguments: [view.at, next, view.id])
        }
        try db.execute(sql: "INSERT OR REPLACE INTO store_state (key, value) VALUES ('view_seq', ?)", arguments: [next])
    }

    /// One scan of `photo` (NOT IN builds a set once), not one per photographer.
    static func forgetOrphans(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM photographer WHERE id NOT IN (SELECT photographer FROM photo)
            """)
    }
}
