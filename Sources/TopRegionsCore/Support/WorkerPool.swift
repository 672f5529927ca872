import Foundation
import Synchronization

/// A fixed number of threads working through a list. Each thread makes its own worker
/// (e.g. an HTTP session, so connections are reused and never shared), takes the next item
/// until none are left or `body` asks everyone to stop, and finishes the item it holds:
/// a transfer in flight is never cancelled.
public enum WorkerPool {
    public static func run<Item: Sendable, Worker>(
        _ items: [Item], workers: Int,
        makeWorker: @escaping @Sendable () -> Worker,
        _ body: @escaping @Sendable (inout Worker, Item) -> Disposition
    ) {
        guard !items.isEmpty else { return }
        let next = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(workers, items.count)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var worker = makeWorker()
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
}
