import GRDB

extension PhotoWriter {
    /// Removes photos first stored before `cutoff` (Unix seconds), keeping every count exact,
    /// and forgets photographers left with no photo. Returns how many photos went.
    public func prune(storedBefore cutoff: Int64) throws -> Int {
        try store.write { db in try Self.prune(storedBefore: cutoff, db) }
    }

    /// `prune(storedBefore:)` when the photos it would remove are still those a person
    /// was shown (`shown`, given their ids in order), checked in the same transaction; nil,
    /// and nothing changed, when they are not: a page's preview listed 565 photos and its
    /// button then forgot 730, a load having stored more meanwhile.
    public func prune(storedBefore cutoff: Int64, ifStill shown: ([String]) -> Bool) throws -> Int? {
        try store.write { db in
            guard shown(try Self.idsStored(before: cutoff, db)) else { return nil }
            return try Self.prune(storedBefore: cutoff, db)
        }
    }

    private static func prune(storedBefore cutoff: Int64, _ db: Database) throws -> Int {
        try CountDeltas.prepare(db)
        try RefreshRuns.forget(storedBefore: cutoff, db)
        try db.execute(sql: """
            INSERT INTO count_delta (region, photographer, n, uploaded)
                SELECT region, photographer, -1, uploaded FROM photo WHERE added_at < ? AND region IS NOT NULL
            """, arguments: [cutoff])
        try SearchIndex.forget(db, photosWhere: "added_at < ?", arguments: [cutoff])
        try db.execute(sql: "DELETE FROM photo WHERE added_at < ?", arguments: [cutoff])
        let pruned = db.changesCount
        try Self.forgetKept(storedBefore: cutoff, db)
        try CountDeltas.apply(db)
        try Self.forgetOrphans(db)
        return pruned
    }

    /// The photos `prune(storedBefore:)` would remove, by id: a dry run changes nothing.
    public func photosStored(before cutoff: Int64) throws -> [String] {
        try store.read { db in try Self.idsStored(before: cutoff, db) }
    }

    private static func idsStored(before cutoff: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM photo WHERE added_at < ? ORDER BY id", arguments: [cutoff])
    }

    /// Records that the photos were viewed at `now`, in this order (Recents lists the last
    /// one first).
    public func recordViews(_ ids: [String], now: Int64) throws {
        guard !ids.isEmpty else { return }
        try store.write(changesContent: false) { db in try Self.recordViews(ids.map { ($0, now) }, db) }
    }

    /// Records views, each at its time, in this order, in the transaction under way.
    /// Its statements prepared once per connection: the server writes thousands of views a
    /// second under load, and preparing the UPDATE anew for each was 6% of its CPU.
    static func recordViews(_ views: [(id: String, at: Int64)], _ db: Database) throws {
        var next = try Int64.fetchOneCached(db, sql: "SELECT value FROM store_state WHERE key = 'view_seq'") ?? 0
        for view in views {
            next += 1
            try db.executeCached(sql: "UPDATE photo SET viewed_at = ?, view_seq = ? WHERE id = ?", arguments: [view.at, next, view.id])
        }
        try db.executeCached(sql: "INSERT OR REPLACE INTO store_state (key, value) VALUES ('view_seq', ?)", arguments: [next])
    }

    /// One scan of `photo` (NOT IN builds a set once), not one per photographer.
    static func forgetOrphans(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM photographer WHERE id NOT IN (SELECT photographer FROM photo)
            """)
    }
}
