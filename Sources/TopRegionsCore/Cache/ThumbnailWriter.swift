import Foundation
import TopRegionsStore
import TopRegionsSupport

/// Stores downloaded thumbnails in few transactions, on a thread of its own: a batch is
/// committed once it holds `batchSize` thumbnails or its oldest has waited `interval`
/// seconds, whichever comes first, and at the end. One commit (one sync of the WAL) per
/// batch instead of one per thumbnail is what lets a cold run keep up with the downloads.
///
/// Each thumbnail's key lock ("thumb:<id>") stays held from before its download until the
/// transaction that stores it commits, and is released just after: a process asking for the
/// same photo meanwhile waits, then finds it stored, so no thumbnail is downloaded twice.
/// The writer commits on its own clock, never waiting for a downloader, so a download that
/// waits for another process's lock always sees it released within `interval` plus a
/// commit: two processes cannot wait for each other. A process killed before a commit
/// loses the thumbnails of that batch, which were never stored; their locks go with the
/// process, and a later run downloads them again.
///
/// Each held lock is an open descriptor, so at most `maxHeld` thumbnails wait for their
/// commit at once (queued or being committed); a downloader adding one more waits for a
/// commit. Under a low `ulimit -n` that is one, and a cold run holds a descriptor or two
/// more than one storing each thumbnail as it comes.
final class ThumbnailWriter: Sendable {
    /// A downloaded thumbnail waiting for its commit, with its photo's lock held.
    struct Pending: Sendable {
        var photoID: String
        var bytes: [UInt8]
        var fetchedAt: Int64
        var lock: KeyLock
        /// Hears nil once the thumbnail is stored (its lock released), else why not.
        var stored: @Sendable ((any Error)?) -> Void
    }

    private struct State: Sendable {
        var pending: [Pending] = []
        /// Queued and being committed: the locks held.
        var held = 0
        var since: Date?
        var finishing = false
        var finished = false
    }

    private let state = Guarded(State())
    private let store: Store
    private let batchSize: Int
    private let interval: TimeInterval
    private let maxHeld: Int

    init(store: Store, batchSize: Int = 100, interval: TimeInterval = 0.05, maxHeld: Int = 200) {
        self.store = store
        self.batchSize = max(1, min(batchSize, maxHeld))
        self.interval = interval
        self.maxHeld = max(1, maxHeld)
        let thread = Thread { [self] in commitUntilFinished() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a downloaded thumbnail; `pending.stored` hears when it is committed.
    func add(_ pending: Pending) {
        let maxHeld = maxHeld, batchSize = batchSize
        state.wait(until: { $0.held < maxHeld }) { state in
            if state.pending.isEmpty { state.since = Date() }
            state.pending.append(pending)
            state.held += 1
        } wakingOnlyIf: { state in
            // The committing thread waits for a full batch, or for the deadline the first
            // thumbnail of a batch sets; other adders wait for fewer held, finish() for the
            // end: an add in between changes nothing they wait for.
            state.pending.count == 1 || state.pending.count >= batchSize
        }
    }

    /// Commits what is queued and stops the writer; returns once everything is committed.
    func finish() {
        state.withLock { $0.finishing = true }
        state.wait(until: { $0.finished }, then: { _ in })
    }

    private func commitUntilFinished() {
        let batchSize = batchSize, interval = interval
        while true {
            let (batch, last) = state.wait(
                until: { $0.pending.count >= batchSize || $0.finishing },
                orUntil: { $0.since.map { $0.addingTimeInterval(interval) } },
                then: { state -> ([Pending], Bool) in
                    let batch = state.pending
                    state.pending = []
                    state.since = nil
                    return (batch, state.finishing)
                })
            commit(batch)
            state.withLock { $0.held -= batch.count }
            if last { break }
        }
        state.withLock { $0.finished = true }
    }

    private func commit(_ batch: [Pending]) {
        guard !batch.isEmpty else { return }
        var failure: (any Error)?
        do {
            try ThumbnailStore(store: store).keep(batch.map { ($0.photoID, $0.bytes, $0.fetchedAt) })
        } catch {
            failure = error
        }
        for pending in batch {
            pending.lock.unlock()
            pending.stored(failure)
        }
    }
}
