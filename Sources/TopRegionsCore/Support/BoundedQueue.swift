import Foundation
import Synchronization

/// A blocking queue between one producer thread and one consumer, with a small capacity so
/// a fast producer waits for a slow consumer instead of filling memory. The producer ends
/// it with an outcome the consumer reads after the last element.
package final class BoundedQueue<Element: Sendable, Outcome: Sendable>: Sendable {
    private struct State: Sendable {
        /// At most `capacity` elements: removing from the front is cheap enough.
        var items: [Element] = []
        var finished = false
        var cancelled = false
        var result: Outcome?
    }

    private let state = Guarded(State())
    /// The same as `cancelled`, readable without the lock (the producer checks it per item).
    private let cancelledFlag = Atomic<Bool>(false)
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then queues `element`. Returns false, without queueing, once the
    /// consumer has cancelled: the producer should stop.
    @discardableResult
    package func push(_ element: Element) -> Bool {
        state.wait(until: { $0.items.count < capacity || $0.cancelled }) { state in
            if state.cancelled { return false }
            state.items.append(element)
            return true
        }
    }

    /// Waits until the consumer has taken every queued element, or cancelled: a producer
    /// that would otherwise start on its next element while one waits here keeps one fewer
    /// in memory.
    package func waitUntilTaken() {
        state.wait(until: { $0.items.isEmpty || $0.cancelled }) { _ in }
    }

    /// The consumer gives up: pending and future elements are dropped.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            cancelledFlag.store(true, ordering: .releasing)
            state.items.removeAll()
        }
    }

    package var isCancelled: Bool {
        cancelledFlag.load(ordering: .acquiring)
    }

    /// Returns nil once the producer has finished and the queue is empty.
    package func pop() -> Element? {
        state.wait(until: { !$0.items.isEmpty || $0.finished }) { state in
            guard !state.items.isEmpty else { return nil }
            // Removed, not just passed over: the queue must not keep consumed batches alive.
            return state.items.removeFirst()
        }
    }

    /// The first queued element if there is one now, without waiting: nil when the
    /// producer has not queued the next yet (or has finished).
    package func popIfReady() -> Element? {
        popIfReady { _ in true }
    }

    /// The first queued element if there is one now and `accept` takes it, without waiting;
    /// else nil, and the element stays queued (the producer still waits for it to be taken).
    package func popIfReady(where accept: (Element) -> Bool) -> Element? {
        state.withLock { state in
            guard let first = state.items.first, accept(first) else { return nil }
            return state.items.removeFirst()
        }
    }

    package func finish(with outcome: Outcome) {
        state.withLock { state in
            state.result = outcome
            state.finished = true
        }
    }

    /// The producer's outcome; call after `pop()` returned nil.
    package var outcome: Outcome {
        state.withLock { $0.result! }
    }
}
