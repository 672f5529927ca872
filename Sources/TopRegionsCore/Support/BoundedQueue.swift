import Foundation
import Synchronization

/// A blocking queue between one producer thread and one consumer, with a small capacity so
/// a fast producer waits for a slow consumer instead of filling memory. The producer ends
/// it with an outcome the consumer reads after the last element.
package final class BoundedQueue<Element: Sendable, Outcome: Sendable>: @unchecked Sendable {
    // All mutable state is guarded by `condition`.
    private let condition = NSCondition()
    /// At most `capacity` elements: removing from the front is cheap enough.
    private var items: [Element] = []
    private var finished = false
    private var cancelled = false
    /// The same as `cancelled`, readable without the lock (the producer checks it per item).
    private let cancelledFlag = Atomic<Bool>(false)
    private var result: Outcome?
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then queues `element`. Returns false, without queueing, once the
    /// consumer has cancelled: the producer should stop.
    @discardableResult
    package func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The consumer gives up: pending and future elements are dropped.
    package func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        cancelledFlag.store(true, ordering: .releasing)
        items.removeAll()
        condition.broadcast()
    }

    package var isCancelled: Bool {
        cancelledFlag.load(ordering: .acquiring)
    }

    /// Returns nil once the producer has finished and the queue is empty.
    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished { condition.wait() }
        guard !items.isEmpty else { return nil }
        // Removed, not just passed over: the queue must not keep consumed batches alive.
        let element = items.removeFirst()
        condition.broadcast()
        return element
    }

    package func finish(with outcome: Outcome) {
        condition.lock()
        defer { condition.unlock() }
        result = outcome
        finished = true
        condition.broadcast()
    }

    /// The producer's outcome; call after `pop()` returned nil.
    package var outcome: Outcome {
        condition.lock()
        defer { condition.unlock() }
        return result!
    }
}
