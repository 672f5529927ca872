import Dispatch
import Synchronization
import Testing
@testable import TopRegionsServer

/// The server gives the heap's free pages back only when no request is under way, never on
/// a request's path, one trim at a time.
@Suite struct IdleTrimTests {
    @Test func aTrimRunsWhenTheLastRequestUnderWayEndsAndTrimsAskedMeanwhileAreOne() {
        let queue = DispatchQueue(label: "trim test")
        let trims = Atomic<Int>(0)
        let trim = IdleTrim(queue: queue) { trims.add(1, ordering: .relaxed) }
        func ran() -> Int {
            queue.sync {}  // what was queued has run
            return trims.load(ordering: .relaxed)
        }
        // Two requests under way: the first to end leaves one under way, no trim.
        trim.started()
        trim.started()
        trim.finished()
        #expect(ran() == 0)
        trim.finished()
        #expect(ran() == 1)
        // While a trim waits to run, the server falling idle again asks for no second one.
        queue.suspend()
        for _ in 0..<5 {
            trim.started()
            trim.finished()
        }
        queue.resume()
        #expect(ran() == 2)
        // Once it has run, the next idle moment trims again.
        trim.started()
        trim.finished()
        #expect(ran() == 3)
    }
}
