import GRDB
import TopRegionsIngest

// Several batches in one transaction (a load stores the batches its decoder has ready
// together), and what their statements leave to its end.

extension PhotoWriter {
    /// Runs `body` in one transaction, in which it stores batches with `BatchGroup.store`;
    /// all of them are committed together, or none. What the batches add to the
    /// photographers and to the (region, photographer) counts is written at the end, once,
    /// in key order (`BatchGroup`).
    public func transaction<T>(now: Int64, _ body: (BatchGroup) throws -> T) throws -> T {
        try transaction(now: now, ledger: nil, body)
    }

    /// A transaction whose batches may come with look-aheads (`PhotographerLookAhead`),
    /// trusted as far as `ledger` tells.
    func transaction<T>(now: Int64, ledger: LookAheadLedger?, _ body: (BatchGroup) throws -> T) throws -> T {
        var committed: BatchGroup?
        let result = try store.write { db in
            try ledger?.begin(db)
            let group = try BatchGroup(db, now: now, ledger: ledger)
            let result = try body(group)
            try group.finish()
            committed = group
            return result
        }
        if let committed { ledger?.committed(committed) }
        return result
    }
}

/// The batches of one transaction. Two structures take most of what a load writes when
/// photographers are many: the NSID index (NSIDs are random, so a batch's new photographers
/// land on most of its pages) and `region_photographer` (a batch adds to pairs all over
/// it). A page is written once per transaction however many of its rows changed, so the
/// new photographers and the new photos' counts of every batch wait here, in memory (up to
/// about 6 MB for 40,000 records of Flickr's many photographers), and go in once, sorted,
/// before the commit: a transaction of several batches writes those pages once, not once
/// per batch. Meanwhile the batches see the waiting photographers as stored ones.
public final class BatchGroup {
    let db: Database
    let now: Int64
    /// Photographers first seen in this transaction, not yet in `photographer`: NSID → the
    /// row id they will get, and their name.
    var newPhotographers: [String: PhotoWriter.Named] = [:]
    /// The row id the next new photographer gets.
    private var nextPhotographerID: Int64?
    /// What the loader knows of the commits since a look-ahead's snapshot (nil: batches
    /// come without look-aheads).
    let ledger: LookAheadLedger?
    /// The photographers this transaction added to `photographer` so far, kept while a
    /// ledger may need them (`LookAheadLedger.committed`).
    private(set) var addedPhotographers: [String: PhotoWriter.Named] = [:]
    /// Whether a batch renamed a stored photographer (what a look-ahead cannot see).
    var renamedAny = false
    /// What the batches' new photos add to `region_photographer`, not yet written.
    var newPhotoCounts: [PhotoWriter.RegionPhotographer: Int64] = [:]
    /// Whether new photographers wait for the end of the transaction: only while SQLite's
    /// foreign key checks are off (the loader's connection), for a photo may not refer to a
    /// photographer not written yet otherwise. (Deferred checks would not do: a parent row
    /// inserted while children wait for it makes SQLite look for them in `photo`, which no
    /// index leads to by photographer.)
    let defersNewPhotographers: Bool

    init(_ db: Database, now: Int64, ledger: LookAheadLedger? = nil) throws {
        self.db = db
        self.now = now
        self.ledger = ledger
        defersNewPhotographers = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false
        try PhotoWriter.prepareStaging(db)
    }

    /// Stores one batch in the group's transaction.
    public func store(_ batch: PreparedBatch) throws -> BatchResult {
        try store(batch, known: nil)
    }

    /// Stores one batch in the group's transaction; `known`, its photographers looked up
    /// ahead, is used if `ledger` trusts it.
    func store(_ batch: PreparedBatch, known: KnownPhotographers?) throws -> BatchResult {
        let result = try PhotoWriter.store(batch, known: known.flatMap { ledger?.trusts($0, in: self) == true ? $0 : nil }, in: self)
        ledger?.stored(known)
        return result
    }

    /// A row id for a photographer new to the store, as SQLite would give it: one more than
    /// the largest, counting those waiting here.
    func photographerID() throws -> Int64 {
        let id = try nextPhotographerID ?? (Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM photographer") ?? 1)
        nextPhotographerID = id + 1
        return id
    }

    /// Writes the waiting photographers into `photographer`, in NSID order, so that each
    /// page of the NSID index is visited once.
    func writeNewPhotographers() throws {
        guard !newPhotographers.isEmpty else { return }
        // One row per statement: a statement of one row cannot stop halfway, so SQLite keeps
        // no statement journal (a multi-row insert without OR IGNORE would keep the original
        // of every index page it changes in memory).
        let insert = try BulkStatement(db, sql: "INSERT INTO photographer (id, nsid, name) VALUES (?, ?, ?)")
        for (nsid, photographer) in newPhotographers.sorted(by: { $0.key.precedesInSQLite($1.key) }) {
            insert.bind(1, photographer.id)
            insert.bind(2, nsid)
            insert.bind(3, photographer.name)
            try insert.run()
        }
        if ledger != nil {
            // Handed over, not copied, when it is the first.
            if addedPhotographers.isEmpty {
                addedPhotographers = newPhotographers
            } else {
                addedPhotographers.merge(newPhotographers) { first, _ in first }
            }
        }
        newPhotographers = [:]
    }

    /// What the transaction left to its end: the new photographers, the new photos' counts,
    /// then the count changes of merged batches and learned places (which may take away
    /// what the new photos added, so they come after).
    func finish() throws {
        try writeNewPhotographers()
        try PhotoWriter.addNewPhotoCounts(newPhotoCounts, db)
        newPhotoCounts = [:]
        try CountDeltas.apply(db)
    }
}

extension String {
    /// Whether this text sorts before `other` as SQLite compares texts by default (BINARY:
    /// byte by byte in UTF-8), the order of a text key's index.
    func precedesInSQLite(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
