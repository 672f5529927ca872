import GRDB

/// Deleting photos by hand so that no later load brings them back, and undoing that.
extension PhotoWriter {
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
}
