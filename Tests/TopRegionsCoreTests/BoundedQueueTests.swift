import Testing
@testable import TopRegionsSupport

@Suite struct BoundedQueueTests {
    final class Batch: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// The loader's decoder stays one batch ahead of the writer; a consumed batch must not
    /// stay referenced by the queue (it did once, and memory grew with the input).
    @Test func consumedElementsAreReleasedWhileTheProducerStaysAhead() {
        let queue = BoundedQueue<Batch, Int>(capacity: 2)
        weak var first: Batch?
        do {
            let batch = Batch(1)
            first = batch
            queue.push(batch)
        }
        queue.push(Batch(2))
        #expect(queue.pop()?.number == 1)
        queue.push(Batch(3))
        #expect(queue.pop()?.number == 2)
        #expect(first == nil, "the queue still holds a consumed element")
        queue.finish(with: 7)
        #expect(queue.pop()?.number == 3)
        #expect(queue.pop() == nil)
        #expect(queue.outcome == 7)
    }

    /// The loader takes a ready batch into its transaction only if it fits: one that does not
    /// stays queued (the producer waits on) and is the next one popped.
    @Test func anElementRefusedByPopIfReadyStaysQueued() {
        let queue = BoundedQueue<Batch, Int>(capacity: 1)
        #expect(queue.popIfReady() == nil)
        queue.push(Batch(1))
        #expect(queue.popIfReady(where: { $0.number > 1 }) == nil)
        #expect(queue.popIfReady(where: { $0.number == 1 })?.number == 1)
        queue.push(Batch(2))
        #expect(queue.popIfReady(where: { _ in false }) == nil)
        #expect(queue.pop()?.number == 2)
        queue.finish(with: 0)
        #expect(queue.pop() == nil)
    }

    @Test func aCancelledQueueRefusesMoreAndDropsWhatItHeld() {
        let queue = BoundedQueue<Batch, Int>(capacity: 2)
        #expect(queue.push(Batch(1)))
        queue.cancel()
        #expect(!queue.push(Batch(2)))
        queue.finish(with: 0)
        #expect(queue.pop() == nil)
    }
}
