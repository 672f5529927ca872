import CSupport
import Dispatch
import Synchronization

/// Gives the heap's free pages back to the kernel whenever the server falls idle. A page's
/// work frees what it allocated, but glibc keeps the freed pages, scattered among those still
/// in use, and the next pages' work does not fill the same holes, so the server grew with
/// the distinct lists it computed (trimming at most once a second gave back almost nothing:
/// the holes are made between trims; docs/PERFORMANCE.md, "The server's memory after broad
/// searches"). Only when no request is under way, so a trim (which holds each arena's lock
/// while it walks it) seldom meets one; off the request's path, one at a time (a trim asked
/// while one is waiting to run is that one).
final class IdleTrim: Sendable {
    private let underWay = Atomic<Int>(0)
    private let pending = Atomic<Bool>(false)
    private let queue: DispatchQueue
    private let giveBack: @Sendable () -> Void

    /// `giveBack` runs on `queue` (a test gives its own of both).
    init(
        queue: DispatchQueue = DispatchQueue(label: "regions-serve trim", qos: .utility),
        giveBack: @escaping @Sendable () -> Void = { _ = tr_malloc_trim() }
    ) {
        self.queue = queue
        self.giveBack = giveBack
    }

    func started() {
        underWay.add(1, ordering: .relaxed)
    }

    func finished() {
        guard underWay.subtract(1, ordering: .acquiringAndReleasing).newValue == 0,
              pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.async { self.trim() }
    }

    private func trim() {
        pending.store(false, ordering: .releasing)
        giveBack()
    }
}
