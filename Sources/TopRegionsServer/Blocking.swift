import NIOPosix
import Synchronization

/// Threads for the work a request waits on that blocks: SQLite's reads and writes, and
/// downloads through libcurl. An event loop never blocks; a request awaits its turn here.
final class BlockingWork: Sendable {
    private let pool: NIOThreadPool

    init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    /// Waits for the work running to finish, then stops the threads.
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}

/// A fixed set of workers (downloaders with their connections), each lent to one request at a
/// time: at most that many downloads at once, and no worker made anew per request.
final class WorkerSlots<Worker: AnyObject & Sendable>: Sendable {
    private struct State {
        var idle: [Worker]
        var waiting: [CheckedContinuation<Worker, Never>] = []
    }
    private let state: Mutex<State>

    init(_ workers: [Worker]) {
        state = Mutex(State(idle: workers))
    }

    /// Runs `body` with a worker, waiting for one to be free.
    func with<T: Sendable>(_ body: (Worker) async throws -> T) async throws -> T {
        let worker = await take()
        defer { give(worker) }
        return try await body(worker)
    }

    private func take() async -> Worker {
        if let worker = state.withLock({ $0.idle.popLast() }) { return worker }
        return await withCheckedContinuation { continuation in
            let ready: Worker? = state.withLock { state in
                if let worker = state.idle.popLast() { return worker }
                state.waiting.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func give(_ worker: Worker) {
        let next = state.withLock { state -> CheckedContinuation<Worker, Never>? in
            if state.waiting.isEmpty {
                state.idle.append(worker)
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: worker)
    }
}
