import Foundation
import GRDB
import TopRegionsIngest
import TopRegionsRecords

/// Deleting photos by hand so that no later load brings them back, and undoing that.
///
/// A deleted photo is kept out of every list, not erased: `deleted_photo` keeps it as a
/// record (what a load would store), with when it was first stored, its views and its
/// thumbnail, until a prune of photos that old forgets it (its id stays deleted). Undeleting
/// it stores it again as it was, through the writer, so every count is exact.
extension PhotoWriter {
    /// What undeleting a photo did.
    public enum Undeletion: Sendable, Equatable {
        /// Stored again as it was, with its thumbnail and views.
        case restored
        /// Only no longer kept out: a prune had forgotten it (a later load stores it again).
        case forgotten
    }

    /// Deletes photos by id and remembers them as deleted, so a later load of the same
    /// photo does not bring it back. Returns the ids that were stored (the others are
    /// still remembered as deleted).
    public func delete(ids: [String], now: Int64) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        return try store.write { db in
            try CountDeltas.prepare(db)
            try db.createTemporaryTablesOnce(last: "doomed", sql: "CREATE TEMP TABLE IF NOT EXISTS doomed (id TEXT PRIMARY KEY) WITHOUT ROWID")
            let doomed = try BulkStatement(db, sql: "INSERT OR IGNORE INTO doomed (id) VALUES (?)")
            for id in ids {
                doomed.bind(1, id)
                try doomed.run()
            }
            let stored = try String.fetchAll(db, sql: "SELECT id FROM photo WHERE id IN (SELECT id FROM doomed) ORDER BY id")
            try Self.keepForUndelete(db, now: now)
            try SearchIndex.forget(db, photosWhere: "id IN (SELECT id FROM doomed)")
            try db.execute(sql: """
                INSERT INTO count_delta (region, photographer, n, uploaded)
                    SELECT region, photographer, -1, uploaded FROM photo WHERE id IN (SELECT id FROM doomed) AND region IS NOT NULL;
                DELETE FROM photo WHERE id IN (SELECT id FROM doomed);
                INSERT INTO deleted_photo (id, deleted_at) SELECT id, ? FROM doomed WHERE true
                    ON CONFLICT (id) DO NOTHING;
                """, arguments: [now])
            try db.executeCached(sql: "DELETE FROM doomed")
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

    /// Undoes `delete`: a photo kept is stored again as it was when deleted (its record,
    /// when it was first stored, its views, its thumbnail), with the names its photographer
    /// and region have now; one a prune forgot is only no longer kept out, so a later load
    /// stores it again. Ids that were not deleted are left out of the answer.
    public func undelete(ids: [String], now: Int64) throws -> [String: Undeletion] {
        guard !ids.isEmpty else { return [:] }
        return try transaction(now: now) { group in
            let db = group.db
            var outcomes: [String: Undeletion] = [:]
            for id in Set(ids).sorted() {
                guard let kept = try Row.fetchOne(db, sql: """
                    SELECT record, added_at, viewed_at, view_seq, thumbnail, thumbnail_fetched_at FROM deleted_photo WHERE id = ?
                    """, arguments: [id]) else { continue }
                try db.executeCached(sql: "DELETE FROM deleted_photo WHERE id = ?", arguments: [id])
                guard let text = kept["record"] as String?, var record = try Self.keptRecord(text) else {
                    outcomes[id] = .forgotten
                    continue
                }
                if let name = try String.fetchOne(db, sql: "SELECT name FROM photographer WHERE nsid = ?", arguments: [record.owner]) {
                    record.ownerName = name
                }
                if let region = record.regionID, let name = try String.fetchOne(db, sql: "SELECT name FROM region WHERE place_id = ?", arguments: [region]) {
                    record.region = name
                }
                _ = try group.store(PreparedBatch([record]))
                try db.executeCached(sql: "UPDATE photo SET added_at = ?, viewed_at = ?, view_seq = ? WHERE id = ?", arguments: [
                    kept["added_at"] as Int64?, kept["viewed_at"] as Int64?, kept["view_seq"] as Int64?, id,
                ])
                if let thumbnail = kept["thumbnail"] as Data? {
                    try db.executeCached(sql: """
                        INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES (?, ?, ?) ON CONFLICT (photo_id) DO NOTHING
                        """, arguments: [id, thumbnail, kept["thumbnail_fetched_at"] as Int64? ?? now])
                }
                outcomes[id] = .restored
            }
            return outcomes
        }
    }

    /// Keeps what undelete needs of the photos in `doomed` that are stored, before they go.
    /// A photo deleted again while still kept keeps what was kept first.
    static func keepForUndelete(_ db: Database, now: Int64) throws {
        let photos = try Queries.fetchPhotos(db, where: "photo.id IN (SELECT id FROM doomed)", order: "photo.id", arguments: [], limit: nil)
        guard !photos.isEmpty else { return }
        let keep = try db.cachedStatement(sql: """
            INSERT INTO deleted_photo (id, deleted_at, record, added_at, viewed_at, view_seq, thumbnail, thumbnail_fetched_at)
            SELECT photo.id, ?, ?, photo.added_at, photo.viewed_at, photo.view_seq, thumbnail.bytes, thumbnail.fetched_at
            FROM photo LEFT JOIN thumbnail ON thumbnail.photo_id = photo.id WHERE photo.id = ?
            ON CONFLICT (id) DO NOTHING
            """)
        for photo in photos {
            var writer = JSONWriter()
            photo.record.write(to: &writer)
            try keep.execute(arguments: [now, String(decoding: writer.bytes, as: UTF8.self), photo.record.id])
        }
    }

    /// A kept record, read back; nil if it no longer reads as one (never expected).
    static func keptRecord(_ text: String) throws -> PhotoRecord? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            (try? RecordDecoder.decode(line: UnsafeBufferPointer(buffer), number: 1, source: "deleted_photo"))?.first
        }
    }

    /// Forgets what was kept of deleted photos first stored before `cutoff`, as a prune of
    /// photos that old forgets them; their ids stay deleted.
    static func forgetKept(storedBefore cutoff: Int64, _ db: Database) throws {
        try db.executeCached(sql: """
            UPDATE deleted_photo SET record = NULL, added_at = NULL, viewed_at = NULL, view_seq = NULL, thumbnail = NULL,
                thumbnail_fetched_at = NULL
            WHERE record IS NOT NULL AND added_at < ?
            """, arguments: [cutoff])
    }
}
