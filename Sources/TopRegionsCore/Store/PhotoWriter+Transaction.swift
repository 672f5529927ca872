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
    /// trusted as far as `ledger` tells, and whose renames may wait in `renames` for a later
    /// transaction (nil: they are written at the end of this one).
    func transaction<T>(
        now: Int64, ledger: LookAheadLedger?, renames: PendingRenames? = nil, _ body: (BatchGroup) throws -> T
    ) throws -> T {
        var committed: BatchGroup?
        let result = try store.write { db in
            try ledger?.begin(db)
            let group = try BatchGroup(db, now: now, ledger: ledger, renames: renames)
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
    /// Photographers renamed by the batches, waiting to take their new name (`naming`).
    let renames: PendingRenames
    /// Whether `renames` wait beyond this transaction (a load's, while it goes on).
    private let defersRenames: Bool
    /// Whether this transaction renamed a photographer (what a look-ahead of an earlier
    /// snapshot cannot see).
    private(set) var renamedAny = false
    /// What the batches' new photos add to `region_photographer` and the upload buckets, not
    /// yet written.
    var newPhotoCounts = PhotoWriter.NewPhotos()
    /// Whether new photographers wait for the end of the transaction: only while SQLite's
    /// foreign key checks are off (the loader's connection), for a photo may not refer to a
    /// photographer not written yet otherwise. (Deferred checks would not do: a parent row
    /// inserted while children wait for it makes SQLite look for them in `photo`, which no
    /// index leads to by photographer.)
    let defersNewPhotographers: Bool

    init(_ db: Database, now: Int64, ledger: LookAheadLedger? = nil, renames: PendingRenames? = nil) throws {
        self.db = db
        self.now = now
        self.ledger = ledger
        self.renames = renames ?? PendingRenames()
        defersRenames = renames != nil
        defersNewPhotographers = try Bool.fetchOneCached(db, sql: "PRAGMA foreign_keys") == false
        try PhotoWriter.prepareStaging(db)
    }

    /// The rows waiting in memory for the transaction's end: new photographers and the new
    /// photos' (region, photographer) counts.
    var waitingRows: Int { newPhotographers.count + newPhotoCounts.pairs.count }

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
        let id = try nextPhotographerID ?? (Int64.fetchOneCached(db, sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM photographer") ?? 1)
        nextPhotographerID = id + 1
        // A rename waiting for this id was another photographer's, forgotten since (another
        // writer's prune or delete left them no photo) and no longer theirs to take.
        renames.names[id] = nil
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

    /// `photographer` (as stored, or waiting to be) as a batch names them (`name`; empty
    /// says nothing). Their photos carry the stored name until the rename is written, with
    /// all of them, once (`PendingRenames`).
    func naming(_ photographer: PhotoWriter.Named, nsid: String, as name: String) -> PhotoWriter.Named {
        renames.name(photographer, nsid: nsid, as: name, holdingBackPhotos: defersRenames)
        return photographer
    }

    /// Whether the new photos of some photographers wait for their rename to be indexed
    /// (`SearchIndex.addNew`): `held_back_photographer` is brought up to date first.
    func holdsBackPhotos() throws -> Bool {
        if !renames.heldBackSinceWritten.isEmpty {
            let insert = try BulkStatement(db, sql: "INSERT OR IGNORE INTO held_back_photographer (id) VALUES (?)")
            for id in renames.heldBackSinceWritten {
                insert.bind(1, id)
                try insert.run()
            }
            renames.heldBackSinceWritten = []
        }
        return !renames.heldBack.isEmpty
    }

    /// Writes the waiting renames (`rename`), then indexes the photos they held back.
    func writeRenames(_ renames: PendingRenames? = nil) throws {
        let renames = renames ?? self.renames
        if !renames.names.isEmpty { try rename(renames) }
        if !renames.heldBack.isEmpty {
            // The photos held back, now that they carry their last name.
            try SearchIndex.indexWaiting(db)
            try db.executeCached(sql: "DELETE FROM held_back_photographer")
            renames.heldBack = []
            renames.heldBackSinceWritten = []
        }
    }

    /// The renamed photographers take their last name, and so do their photos (in the search
    /// index too, but for those held back from it), which carried the name stored: one
    /// statement each for the whole transaction, or for `SearchIndex.photosPerStatement`
    /// photos. Their photos with a region are found by reading `photo_window` whole (a few
    /// bytes a photo, where the photos' rows are hundreds: no index leads to photos by
    /// photographer, which would cost every load for what only renames need); the others
    /// through `photo_unplaced_by_photographer`. Only then is each found photo's row read.
    private func rename(_ renames: PendingRenames) throws {
        renamedAny = true
        // The waiting ones are written first, like any stored photographer.
        try writeNewPhotographers()
        let stage = try BulkStatement(db, sql: "INSERT INTO renamed_photographer (id, nsid, name) VALUES (?, ?, ?)")
        for (id, rename) in renames.names.sorted(by: { $0.key < $1.key }) {
            stage.bind(1, id)
            stage.bind(2, rename.nsid)
            stage.bind(3, rename.name)
            try stage.run()
        }
        // Every photo carries its photographer's stored name, so the photos of those whose
        // name changes are the ones to rewrite, found from the indexes alone: comparing each
        // photo's own name read its row, in upload order (200k renamed photos: 0.19 s
        // against 0.07).
        // A photographer forgotten since (another writer's prune or delete left them no
        // photo) is not renamed, nor whoever took their row id since: SQLite gives a new row
        // the largest id plus one, so a forgotten last row's id is given again.
        try db.executeCached(sql: """
            DELETE FROM renamed_photographer WHERE NOT EXISTS (SELECT 1 FROM photographer p WHERE p.id = renamed_photographer.id AND p.nsid = renamed_photographer.nsid)
                OR name = (SELECT name FROM photographer WHERE id = renamed_photographer.id);
            UPDATE photographer SET name = r.name FROM renamed_photographer r WHERE photographer.id = r.id;
            INSERT INTO reindexing (photo)
                SELECT rowid FROM photo INDEXED BY photo_window
                WHERE region IS NOT NULL AND photographer IN (SELECT id FROM renamed_photographer);
            INSERT INTO reindexing (photo)
                SELECT p.rowid FROM renamed_photographer r CROSS JOIN photo p INDEXED BY photo_unplaced_by_photographer
                    ON p.photographer = r.id AND p.region IS NULL;
            """)
        try SearchIndex.inChunks(of: "reindexing", db) { chunk in
            // (Those held back from the index are only rewritten: see `SearchIndex`.)
            try SearchIndex.reindexing(db, photosWhere: "rowid IN (\(chunk))", arguments: chunk.arguments) {
                // OR IGNORE: no statement journal (see `merge`); nothing can be ignored.
                try db.executeCached(sql: """
                    UPDATE OR IGNORE photo SET owner_name = r.name FROM renamed_photographer r
                    WHERE photo.rowid IN (\(chunk)) AND r.id = photo.photographer
                    """, arguments: chunk.arguments)
            }
        }
        try db.executeCached(sql: "DELETE FROM reindexing")
        try db.executeCached(sql: "DELETE FROM renamed_photographer")
        renames.names = [:]
    }

    /// What the transaction left to its end: the new photographers, the renames, the new photos' counts,
    /// then the count changes of merged batches and learned places (which may take away
    /// what the new photos added, so they come after).
    func finish() throws {
        try writeNewPhotographers()
        if !defersRenames || renames.names.count >= PendingRenames.most { try writeRenames() }
        try PhotoWriter.addNewPhotoCounts(newPhotoCounts, db)
        newPhotoCounts = PhotoWriter.NewPhotos()
        try CountDeltas.apply(db)
        // Photos a load killed before its end held back from the search index (another
        // load's, still running, are indexed too: its rename then rewrites them in the
        // index, as it does stored photos).
        if renames.heldBack.isEmpty, try SearchIndex.hasWaiting(db) { try SearchIndex.indexWaiting(db) }
    }
}

extension String {
    /// Whether this text sorts before `other` as SQLite compares texts by default (BINARY:
    /// byte by byte in UTF-8), the order of a text key's index.
    func precedesInSQLite(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}

/// Photographers renamed by the records (row id → their last name), waiting to take it, and
/// their photos with them. A rename rewrites each of their photos, search index included,
/// so it is done once however often the name changes before: at the end of a transaction,
/// or of a load (`Loader`) for its renames, which then wait from one of its transactions to
/// the next. Records whose name goes back and forth (as old and new pages meet after a
/// person renames their account) made a load rewrite the same photos transaction after
/// transaction, in 2.2 times the time of the same records without renames. Meanwhile each
/// transaction's photos carry the name stored, so every commit leaves the store as one
/// name per photographer; a load stopped halfway (even by kill -9) leaves those renames
/// undone, as if their records had come later.
final class PendingRenames {
    /// Row id → the name the photographer is to take (and their NSID, to tell them from
    /// another photographer given the same row id after they were forgotten).
    var names: [Int64: (nsid: String, name: String)] = [:]
    /// At most this many wait (about 100 bytes each): more are written with the next commit.
    /// Each such pass rewrites its photographers' photos while the decoder holds its next
    /// batch; at 20,000, 200k records of Flickr's shape, 30,075 of them renamed, took two
    /// passes and peaked 3 MB higher, in 10% more time, than with one at the end.
    static let most = 40_000

    /// Photographers renamed since the renames were last written, whose new photos wait to
    /// be indexed until they are (`SearchIndex`): indexed as they come, each photo would be
    /// taken out of the index and put back by the rename. Only while renames wait beyond a
    /// transaction (a load's).
    var heldBack: Set<Int64> = []
    /// Those of `heldBack` not yet in `temp.held_back_photographer`.
    var heldBackSinceWritten: [Int64] = []
    /// At most this many photographers' photos are held back (a few bytes each in memory):
    /// the photos of those renamed after are indexed as they come, and rewritten in the
    /// index by the rename. Writing the renames when this many were held back (as `most`
    /// does) made 1M records of Flickr's shape take 11% longer: each pass reads every
    /// photo's place in `photo_window` to find the renamed photographers' photos.
    static let mostHeldBack = 80_000

    /// A record naming `photographer` (as stored, NSID `nsid`) `name` (empty says nothing);
    /// `holdingBackPhotos`: whether a rename holds back the photographer's new photos.
    func name(_ photographer: PhotoWriter.Named, nsid: String, as name: String, holdingBackPhotos: Bool) {
        guard !name.isEmpty else { return }
        if name == photographer.name {
            names[photographer.id] = nil  // back to what is stored: nothing to rewrite
        } else {
            names[photographer.id] = (nsid, name)
            if holdingBackPhotos, heldBack.count < Self.mostHeldBack, heldBack.insert(photographer.id).inserted {
                heldBackSinceWritten.append(photographer.id)
            }
        }
    }
}
