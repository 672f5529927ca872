import Foundation
import GRDB
import Synchronization
import TopRegionsSupport

/// Records views (what Recents lists) beside the pages that show the photos, never in their
/// way: a page hands its view over and answers at once.
///
/// Views are written by a thread of their own, in batches, on a connection of their own that
/// never waits for the database's write lock: while another process writes (a cron load
/// holds the lock for seconds), a page would otherwise hold a worker for up to the busy
/// timeout, and every other page queued behind those workers. A batch that finds the lock
/// taken is tried again shortly (50 ms, doubling to 1 s); one that cannot be written (a full
/// disk) is dropped, and `note` says so once per episode. At most `maxPending` views wait;
/// past that the oldest are dropped, said the same way.
///
/// A batch's commit does not wait for the disk (`synchronous = NORMAL`, which WAL keeps
/// consistent): Recents writes what waits before it reads, and a commit that waited for
/// the disk (3 ms here, far longer while a load writes) was most of its time. A power cut
/// may lose the views of the last moments, never the database's consistency nor anything
/// but views (every other write of the toolkit still waits for the disk).
public final class ViewRecorder: Sendable {
    private struct State {
        var pending: [(id: String, at: Int64)] = []
        /// Views dropped since views were last written, and whether that was said.
        var dropped = 0
        var droppingSaid = false
        var stopping = false
    }

    private let connection: DatabaseQueue
    private let state = Mutex(State())
    /// Held while a batch is written: the thread's and `flushIfFree`'s never interleave.
    private let writing = Mutex(())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let note: @Sendable (String) -> Void
    private let maxPending: Int

    public init(store: Store, maxPending: Int = 10_000, note: @escaping @Sendable (String) -> Void) throws {
        connection = try store.separateWriter()
        try connection.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
        self.note = note
        self.maxPending = maxPending
        let thread = Thread { [self] in run() }
        thread.name = "views"
        thread.start()
    }

    /// Records that `id` was viewed at `at`; returns at once.
    public func record(_ id: String, at: Int64) {
        let overflow: Int = state.withLock { state in
            state.pending.append((id, at))
            let over = max(0, state.pending.count - maxPending)
            state.pending.removeFirst(over)
            return over
        }
        if overflow > 0 { dropped(overflow, reason: "the database stayed busy") }
        wake.signal()
    }

    /// Writes the views waiting now unless the database's write lock is taken; true when none
    /// is left waiting. Recents calls it first, so a view shows there as soon as the database
    /// lets it be written, without waiting for the lock.
    @discardableResult
    public func flushIfFree() -> Bool {
        writeBatch() == .written
    }

    /// Views not written yet.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Stops the thread after one last try at what waits (not waiting for the lock).
    public func close() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    private enum Outcome { case written, busy, failed }

    private func run() {
        var delay: Double?
        while true {
            if let delay {
                _ = wake.wait(timeout: .now() + delay)
            } else {
                wake.wait()
            }
            let stopping = state.withLock { $0.stopping }
            switch writeBatch() {
            case .written, .failed: delay = nil
            case .busy: delay = min(1, (delay ?? 0.025) * 2)
            }
            if stopping { break }
        }
        let left = state.withLock { state -> Int in
            defer { state.pending.removeAll() }
            return state.pending.count
        }
        if left > 0 { note("\(Grammar.count(left, "photo view")) not recorded for Recents: the database stayed busy") }
        finished.signal()
    }

    private func writeBatch() -> Outcome {
        writing.withLock { _ in
            let batch = state.withLock { $0.pending }
            guard !batch.isEmpty else { return .written }
            do {
                try connection.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try PhotoWriter.recordViews(batch, db)
                        return .commit
                    }
                }
                let lost = state.withLock { state -> Int in
                    state.pending.removeFirst(min(batch.count, state.pending.count))
                    defer { (state.dropped, state.droppingSaid) = (0, false) }
                    return state.dropped
                }
                if lost > 0 { note("photo views are recorded for Recents again (\(Grammar.count(lost, "view")) before could not be)") }
                return .written
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                return .busy
            } catch {
                // Not something waiting cures (a full disk, a read-only file): these views
                // are dropped; the pages are served as before.
                state.withLock { $0.pending.removeFirst(min(batch.count, $0.pending.count)) }
                dropped(batch.count, reason: Store.failure(ifDatabaseError: error)?.message ?? "\(error)")
                return .failed
            }
        }
    }

    /// Counts views dropped, and says so once until views are written again.
    private func dropped(_ count: Int, reason: String) {
        let first = state.withLock { state -> Bool in
            state.dropped += count
            defer { state.droppingSaid = true }
            return !state.droppingSaid
        }
        if first { note("photo views are not recorded for Recents for now (\(reason)); pages are served as before") }
    }
}
