import Foundation
import Synchronization

/// A fixed number of threads working through a list. Each thread has its own worker (e.g.
/// an HTTP session, so connections are reused and never shared), takes the next item until
/// none are left or `body` asks everyone to stop, and finishes the item it holds: a
/// transfer in flight is never cancelled.
public enum WorkerPool {
    /// Workers are made before any thread starts: when not even one can be made (no
    /// descriptor or memory left for an HTTP handle), that error is thrown and nothing ran;
    /// when only some can, the work goes to fewer threads.
    public static func run<Item: Sendable, Worker>(
        _ items: [Item], workers: Int,
        makeWorker: () throws -> Worker,
        _ body: @escaping @Sendable (inout Worker, Item) -> Disposition
    ) throws {
        guard !items.isEmpty else { return }
        var made: [Worker] = []
        for _ in 0..<max(1, min(workers, items.count)) {
            do {
                made.append(try makeWorker())
            } catch {
                if made.isEmpty { throw error }
                break
            }
        }
        let next = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        let group = DispatchGroup()
        for worker in made {
            let handOver = HandOver(worker)
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var worker = handOver.worker
                while !stopped.load(ordering: .acquiring) {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < items.count else { return }
                    if body(&worker, items[index]) == .stopAll {
                        stopped.store(true, ordering: .releasing)
                    }
                }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
    }

    public enum Disposition: Sendable {
        case next
        /// No worker takes another item (the ones in hand finish).
        case stopAll
    }

    /// A worker made on the calling thread and used only by the one thread it is handed to.
    private final class HandOver<Worker>: @unchecked Sendable {
        let worker: Worker
        init(_ worker: Worker) { self.worker = worker }
    }
}

/// Workers kept from one batch of work to the next: a tool that works through its input in
/// batches (a worker pool per batch) keeps its workers' connections (HTTP, database)
/// instead of opening new ones for every batch. For one worker pool at a time.
public final class KeptWorkers<Worker> {
    private var kept: [Worker] = []
    private let make: () throws -> Worker

    public init(_ make: @escaping () throws -> Worker) {
        self.make = make
    }

    /// What makes the workers of one batch: the kept ones first, then new ones, kept too.
    public func forBatch() -> () throws -> Worker {
        var handedOut = 0
        return { [self] in
            if handedOut == kept.count { kept.append(try make()) }
            defer { handedOut += 1 }
            return kept[handedOut]
        }
    }
}
