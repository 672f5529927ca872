import Foundation
import GRDB
import TopRegionsSupport

/// Copies committed pages from the write-ahead log into the database file on a thread and
/// connection of its own, while the loader prepares its next batch.
///
/// SQLite normally checkpoints inside the commit that crosses 1,000 pages of WAL, on the
/// writer's thread, so a bulk load stalls for it after every batch; overlapped, a 200,000
/// record load is about 12% faster on two cores. The writer's automatic checkpoints are off
/// only while the loader runs.
///
/// Overlapped, a checkpoint never catches up with the writer: by the time it has copied one
/// batch, the next is in the WAL, and SQLite starts the WAL over only when a write begins
/// with every frame copied. Left alone, the WAL grew by every page the load wrote (1.27 GB
/// beside a 591 MB database after 1M records), so a load needed twice its disk space and
/// every write extended a file. `bound()` lets the WAL grow to about `maxWALBytes` (64 MB:
/// a few batches, so most checkpoints still overlap), then waits for the checkpoint to
/// finish, so that the next batch starts the WAL over.
///
/// Other connections' readers stand in the way: SQLite starts the WAL over only when no
/// reader is reading it as a write begins, and readers one after another (the pages of
/// `regions-serve`, Datasette) nearly always leave one, so the WAL grew by the whole load
/// beside them (326–341 MB beside an 82 MB database). So past the bound, the checkpoint
/// also waits for them (SQLite's RESTART: readers that start meanwhile read the database
/// file, so short readers all move off the WAL), for up to `readerWait`; one that holds
/// its snapshot longer lets the WAL grow until it lets go.
final class WALCheckpointer: Sendable {
    private struct State: Sendable {
        var pending = false
        var running = false
        var stopping = false
        /// Frames in the WAL when the last checkpoint ran (0 after `bound()` waited).
        var walFrames = 0
    }

    private let state = Guarded(State())
    private let store: Store
    private let connection: DatabaseQueue
    private let maxWALFrames: Int
    /// How long the writer waits, past the bound, for readers to move off the WAL.
    static let readerWait: TimeInterval = 10

    init(store: Store, maxWALBytes: Int) throws {
        self.store = store
        var configuration = Configuration()
        configuration.busyMode = .timeout(Store.busyTimeout)
        configuration.label = "topregions.checkpoint"
        configuration.prepareDatabase { try Store.keepWALFiles($0) }
        let connection = try DatabaseQueue(path: store.realPath, configuration: configuration)
        // A frame is a page and its 24-byte header.
        let pageSize = try connection.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 4096
        maxWALFrames = max(1, maxWALBytes / (pageSize + 24))
        self.connection = connection
        try store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let state = self.state
        Thread { Self.loop(state, connection) }.start()
    }

    /// A batch was committed: checkpoint when the thread is free.
    func committed() {
        state.withLock { $0.pending = true }
    }

    /// Waits for the checkpoint under way, and the one asked for, when the WAL has grown past
    /// `maxWALBytes`: the writer's next transaction then starts it over.
    func bound() {
        let maxWALFrames = maxWALFrames
        guard state.withLock({ $0.walFrames > maxWALFrames }) else { return }
        state.wait(until: { !($0.pending || $0.running) || $0.stopping }) { _ in }
        // Busy (a reader past `readerWait`) only leaves the WAL to grow a while: not worth
        // stopping a load for.
        _ = try? connection.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.readerWait * 1000))")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Store.busyTimeout * 1000))") }
            return try db.checkpoint(.restart)
        }
        state.withLock { $0.walFrames = 0 }
    }

    /// Stops the thread after a last checkpoint and gives the writer its automatic
    /// checkpoints back.
    func finish() {
        state.withLock { $0.stopping = true }
        state.wait(until: { !$0.stopping }) { _ in }
        try? store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
    }

    private static func loop(_ state: Guarded<State>, _ connection: DatabaseQueue) {
        while true {
            let last = state.wait(until: { $0.pending || $0.stopping }) { state -> Bool in
                state.pending = false
                state.running = true
                return state.stopping
            }
            // PASSIVE never blocks the writer; a failure only leaves pages in the WAL for the
            // next checkpoint, so it is not worth stopping a load for.
            let frames = (try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) })?.walFrameCount ?? 0
            state.withLock { state in
                state.running = false
                state.walFrames = frames
            }
            if last {
                state.withLock { $0.stopping = false }
                return
            }
        }
    }
}
