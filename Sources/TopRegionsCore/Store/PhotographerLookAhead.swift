import GRDB
import Synchronization
import TopRegionsIngest

// Finding a batch's stored photographers ahead, on the decoding thread, while the writer
// stores the batch before. With many photographers stored, the NSIDs of a batch land on
// most pages of the NSID index, so finding who is stored reads most of it for every batch:
// a sixth of a load of 1M records of Flickr's shape, spent on the writer's thread, the one
// a load waits for. The decoder has time to spare, and a second core.
//
// What the decoder finds comes from a snapshot of the store that may predate the writer's
// latest commits and never sees its open transaction, so the writer trusts it only as far
// as it knows what changed since (`LookAheadLedger`); where it cannot tell, it looks the
// batch up itself, as it did before.

/// The decoding thread's side: a batch's stored photographers, from a snapshot.
final class PhotographerLookAhead: Sendable {
    /// Nil once closed. Held while looking up, so that `close` waits for a lookup under way.
    private let database: Mutex<StoreOnFirstWrite?>
    /// The load's transactions committed so far, once the writer has begun its first (nil
    /// until then: see `lookUp`).
    private let commits = Mutex<Int?>(nil)
    /// Off: every batch is looked up by the writer (the way to compare the two).
    private let enabled: Bool

    init(database: StoreOnFirstWrite, enabled: Bool) {
        self.database = Mutex(database)
        self.enabled = enabled
    }

    /// No more lookups: the decoding thread, which may outlive the load a moment, no longer
    /// holds the store (whose last holder closes it, emptying the -wal, and must be the
    /// loader's caller, not a thread the process does not wait for).
    func close() {
        database.withLock { $0 = nil }
    }

    /// The writer's transactions committed so far: told when one begins (from the first on,
    /// the writer notices other connections' commits) and when one commits.
    func writerCommits(_ count: Int) {
        commits.withLock { $0 = count }
    }

    /// The stored photographers of `batch` (ids and names), from a snapshot that holds at
    /// least the load's first `commitsBefore` transactions; nil before the writer's first
    /// transaction has begun (the writer learns of other connections' commits from then on),
    /// or when the store cannot be read (the writer then looks the batch up itself).
    func lookUp(_ batch: PreparedBatch) -> KnownPhotographers? {
        guard enabled, let before = commits.withLock({ $0 }) else { return nil }
        return database.withLock { database in
            guard let store = database?.existing else { return nil }
            return Self.lookUp(batch, in: store, commitsBefore: before)
        }
    }

    private static func lookUp(_ batch: PreparedBatch, in store: Store, commitsBefore before: Int) -> KnownPhotographers? {
        // The snapshot starts at the first read below, after `before` was read: it holds at
        // least those commits.
        try? store.read { db in
            let lookup = try BulkStatement(db, sql: "SELECT id, name FROM photographer WHERE nsid = ?")
            var found: [String: (id: Int64, name: String)] = [:]
            // In NSID order, so that consecutive lookups share index pages.
            for (nsid, _) in batch.photographers.sorted(by: { $0.nsid.precedesInSQLite($1.nsid) }) {
                lookup.bind(1, nsid)
                try lookup.forEachRow { row in
                    found[nsid] = (row.int(0) ?? 0, row.text(1) ?? "")
                }
            }
            return KnownPhotographers(commitsBefore: before, found: found)
        }
    }
}

/// The writer's side: what changed since a look-ahead's snapshot, as far as the writer
/// knows, to tell whether what the look-ahead found still says who is stored, and as whom.
///
/// A look-ahead misses the photographers written since its snapshot: the open transaction's
/// (waiting in `BatchGroup`, or written by it) and the last committed transaction's, kept
/// here until every batch looked up before that commit is stored (the decoder is one batch
/// ahead, so that is the next transaction's first batch or two). It cannot see renames since
/// its snapshot: after one, batches looked up before it are looked up again. And it cannot
/// see other connections' writes (a photographer stored, renamed or deleted meanwhile): the
/// writer's `PRAGMA data_version` changes when another connection commits, and once it has,
/// no look-ahead is trusted for the rest of the load.
final class LookAheadLedger {
    /// Where the decoder looks batches up: told when each transaction begins.
    let lookAhead: PhotographerLookAhead
    /// The load's own transactions committed so far.
    private(set) var commits = 0
    /// Batches whose look-ahead was trusted.
    private(set) var trusted = 0
    private var dataVersion: Int64?
    private var foreignCommit = false
    /// The photographers the last committed transaction added, while a batch looked up
    /// before it committed may still come; nil once none can.
    private var lastAdded: [String: PhotoWriter.Named]?
    private var lastRenamed = false

    init(_ lookAhead: PhotographerLookAhead) {
        self.lookAhead = lookAhead
    }

    /// At the start of each transaction (its write lock held: nobody else commits until it
    /// ends): another connection committed since the last one began if the data version moved.
    func begin(_ db: Database) throws {
        let version = try Int64.fetchOne(db, sql: "PRAGMA data_version")
        if let dataVersion, dataVersion != version { foreignCommit = true }
        dataVersion = version
        lookAhead.writerCommits(commits)
    }

    /// Whether `known` still tells who of its batch is stored, and under what name, in
    /// `group`'s transaction.
    func trusts(_ known: KnownPhotographers, in group: BatchGroup) -> Bool {
        // Renames wait (`PendingRenames`): the batches of a transaction see the names stored
        // when it began, as the look-ahead does; a transaction that writes renames is one
        // the next look-aheads may predate (`lastRenamed`).
        guard !foreignCommit else { return false }
        let trusted = known.commitsBefore == commits || (known.commitsBefore == commits - 1 && !lastRenamed && lastAdded != nil)
        if trusted { self.trusted += 1 }
        return trusted
    }

    /// A photographer the last transaction added, if `known`'s snapshot predates its commit.
    func addedSince(_ known: KnownPhotographers, nsid: String) -> PhotoWriter.Named? {
        known.commitsBefore < commits ? lastAdded?[nsid] : nil
    }

    /// A batch looked up after the last commit was stored: so are all the batches looked up
    /// before it, and what that commit added is no longer needed.
    func stored(_ known: KnownPhotographers?) {
        if known?.commitsBefore == commits { lastAdded = nil }
    }

    /// `group`'s transaction committed.
    func committed(_ group: BatchGroup) {
        commits += 1
        lastAdded = group.addedPhotographers
        lastRenamed = group.renamedAny
        lookAhead.writerCommits(commits)
    }
}
