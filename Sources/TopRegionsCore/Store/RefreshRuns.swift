import GRDB
import TopRegionsRecords

/// The spans of upload time `flickr-recent` runs fetched (`refresh_run`): what tells a gap in
/// a window (no run fetched it: counts missing) from a quiet span (fetched, few photos).
public struct RefreshRuns: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// Records a run. It changes what pages say of their windows' coverage.
    public func record(_ run: RefreshRun) throws {
        guard run.from <= run.to else { return }
        try store.write { db in
            try db.execute(sql: """
                INSERT INTO refresh_run (started_at, covered_from, covered_to, flickr_total, photos, complete)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [run.startedAt, run.from, run.to, run.flickrTotal, run.photos, run.complete])
        }
    }

    /// Before the photos first stored before `cutoff` are pruned: the runs that stored them
    /// are forgotten, and no run left claims the uploads up to the newest of them, since some
    /// of those are gone (a gap, honestly, rather than counts missing in silence).
    static func forget(storedBefore cutoff: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM refresh_run WHERE started_at < ?", arguments: [cutoff])
        guard let newestPruned = try Int64.fetchOne(db, sql: "SELECT MAX(uploaded) FROM photo WHERE added_at < ?", arguments: [cutoff]) else { return }
        try db.execute(sql: "UPDATE refresh_run SET covered_from = ?1 + 1 WHERE covered_from <= ?1", arguments: [newestPruned])
        try db.execute(sql: "DELETE FROM refresh_run WHERE covered_from > covered_to")
    }

    /// Every run recorded, oldest first.
    public func all() throws -> [RefreshRun] {
        try store.read { try Self.runs($0, sql: "SELECT * FROM refresh_run ORDER BY started_at, rowid", arguments: []) }
    }

    static func runs(_ db: Database, sql: String, arguments: StatementArguments) throws -> [RefreshRun] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            RefreshRun(startedAt: row["started_at"], from: row["covered_from"], to: row["covered_to"],
                       flickrTotal: row["flickr_total"], photos: row["photos"], complete: row["complete"])
        }
    }
}

extension Queries {
    /// How the recorded refreshes cover the uploads in `(start, end]` (`start` nil: from the
    /// first stored photo), with the stored photos' first and last upload times.
    public func coverage(start: Int64?, end: Int64) throws -> Coverage {
        try store.read { db in try Self.coverage(db, start: start, end: end) }
    }

    static func coverage(_ db: Database, start: Int64?, end: Int64) throws -> Coverage {
        let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(uploaded) FROM photo")
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(uploaded) FROM photo")
        let knownFrom = try Int64.fetchOne(db, sql: "SELECT MIN(covered_from) FROM refresh_run")
        // The runs that reach into the span: ending in or after it, starting before its end.
        let runs = try RefreshRuns.runs(db, sql: """
            SELECT * FROM refresh_run WHERE covered_to > ? AND covered_from <= ? ORDER BY covered_from
            """, arguments: [start ?? Int64.min, end])
        return Coverage(runs: runs, oldestUpload: oldest, newestUpload: newest, knownFrom: knownFrom)
    }
}
