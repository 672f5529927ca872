import Foundation
import TopRegionsStore

/// What a page computes from a whole list (the map of all 15,000 photos of a region, a
/// search's ranked matches), kept by the list's key until the database changes
/// (`ChangeStamp`): every page of the list after the first then costs only its 30 photos.
///
/// While one request computes a key, the others asking for it do not compute it beside it
/// (16 connections opening a big list at once computed it 16 times, each slower for the
/// others): they get the value computed before the last change when there is one, else they
/// wait for this one. So a writer's commit (a cron load stores a batch every few seconds)
/// costs one request per list the time of computing it again, not every request that comes
/// meanwhile; the others see the list as it was one commit before, for that long.
///
/// And while writes follow one another (a load commits every second or so; the map of all
/// photos takes most of a second to compute at 600k), that one request does not wait
/// either, where `staleFor` allows it (the lists' summaries: 5 s; not the top page, cheap to
/// compute, nor Recents): when what is kept was known to be current less than `staleFor`
/// seconds ago (computed then, or asked for then with the database unchanged), it is served
/// as it is and computed again beside the answer, so a list is at most `staleFor` seconds
/// behind the database (p99 of a mix of pages beside a 200k load: 913 ms before, each commit
/// making someone wait for a whole list). Known current, not computed: a list computed once
/// and read since (people browsing before a cron load starts) is served beside the load's
/// first commit too. Past `staleFor` (a change after nobody looked for a while: a person
/// deleting a photo from the command line, then reading), the request computes it and
/// waits, as before; the server's own changes `forget` everything, so its next pages are exact.
///
/// And not after every commit: what was computed less than `recomputeAfter` seconds ago is
/// served as it is (while recent, as above) without being computed again, so a load
/// committing twice a second costs each list a computing every `recomputeAfter` seconds, not
/// one a commit, each outdated by the next commit before it is done (the CPU they took was the
/// pages' own on two cores). A list is then at most about `recomputeAfter` behind, within
/// `staleFor`.
///
/// Bounded in bytes (`capacityBytes`, by each value's `cost`), not in entries: a broad
/// search's matches take megabytes, and 64 of them made the server ten times its size.
final class ComputedOnce<Value: Sendable>: @unchecked Sendable {
    private struct Kept {
        var stamp: ChangeStamp
        var value: Value
        var bytes: Int
        var used: UInt64
        /// When it was last known to be the database's (`now`): computed, or asked for with
        /// the stamp it was computed at.
        var currentAt: Double
        /// When its computing began.
        var computedAt: Double
    }
    // Guarded by `condition`.
    private var entries: [String: Kept] = [:]
    private var computing: Set<String> = []
    private var clock: UInt64 = 0
    private var bytes = 0
    private let condition = NSCondition()
    /// The bytes kept at most; the least recently used go first. A value larger than this
    /// is computed and served, not kept.
    let capacityBytes: Int
    private let cost: (Value) -> Int
    /// How recent what is kept must be to be served while computed again beside the answer.
    let staleFor: Double
    /// How long after its computing began a value is served after a change without being
    /// computed again (0: computed again at the first request after every change).
    let recomputeAfter: Double
    /// Seconds, monotonic.
    private let now: @Sendable () -> Double

    init(
        capacityBytes: Int, staleFor: Double = 0, recomputeAfter: Double = 0,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }, cost: @escaping (Value) -> Int
    ) {
        self.capacityBytes = capacityBytes
        self.staleFor = staleFor
        self.recomputeAfter = recomputeAfter
        self.now = now
        self.cost = cost
    }

    /// Forgets every value: what the server itself changed shows on its next page.
    func forget() {
        condition.lock()
        entries = [:]
        bytes = 0
        condition.unlock()
    }

    /// The value kept for `key` if the database has not changed since, else `compute()`'s
    /// (or, while another request computes it, the one kept from before the change).
    /// `keep`: false for a value that must not take a place in the cache (what another
    /// site's page asked for: it could fill the cache with its own keys).
    /// `exact`: never the value from before a change (Recents, which the server's own views
    /// change).
    func value(
        for key: String, stamp: ChangeStamp, keep: Bool = true, exact: Bool = false, _ compute: @escaping @Sendable () throws -> Value
    ) throws -> Value {
        condition.lock()
        while true {
            if let value = servable(key, stamp: stamp, keep: keep, exact: exact, compute) {
                condition.unlock()
                return value
            }
            guard computing.contains(key) else { break }
            condition.wait()
        }
        guard keep else {
            condition.unlock()
            return try compute()
        }
        computing.insert(key)
        condition.unlock()
        return try computeAndKeep(key, stamp: stamp, compute)
    }

    /// What `value` answers at once, without computing or waiting: the value kept for `key`
    /// when it is current, being computed anew, or recent (then computed again beside the
    /// answer); nil when `value` would compute it or wait for it. For a caller that answers
    /// quick requests on threads of their own and sends the rest where waiting costs nothing.
    func kept(for key: String, stamp: ChangeStamp, keep: Bool = true, exact: Bool = false, _ compute: @escaping @Sendable () throws -> Value) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        return servable(key, stamp: stamp, keep: keep, exact: exact, compute)
    }

    /// `kept`'s answer, the lock held.
    private func servable(
        _ key: String, stamp: ChangeStamp, keep: Bool, exact: Bool, _ compute: @escaping @Sendable () throws -> Value
    ) -> Value? {
        guard var entry = entries[key] else { return nil }
        let time = now()
        let recent = !exact && time - entry.currentAt < staleFor
        guard entry.stamp == stamp || computing.contains(key) || (keep && recent) else { return nil }
        clock += 1
        entry.used = clock
        if entry.stamp == stamp { entry.currentAt = time }
        entries[key] = entry
        if entry.stamp != stamp && !computing.contains(key) && time - entry.computedAt >= recomputeAfter {
            // Recent: served as it is, computed again beside the answer.
            computing.insert(key)
            DispatchQueue.global(qos: .utility).async { [self] in
                _ = try? computeAndKeep(key, stamp: stamp, compute)
            }
        }
        return entry.value
    }

    /// Computes `key`'s value (marked as computing by the caller) and keeps it.
    private func computeAndKeep(_ key: String, stamp: ChangeStamp, _ compute: () throws -> Value) throws -> Value {
        defer {
            condition.lock()
            computing.remove(key)
            condition.broadcast()
            condition.unlock()
        }
        // Current as of now, its stamp read just before: not as of when the computing ends.
        let started = now()
        let value = try compute()
        let size = cost(value)
        condition.lock()
        clock += 1
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        if size <= capacityBytes {
            entries[key] = Kept(stamp: stamp, value: value, bytes: size, used: clock, currentAt: started, computedAt: started)
            bytes += size
            while bytes > capacityBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
                bytes -= entries.removeValue(forKey: oldest)!.bytes
            }
        }
        condition.unlock()
        return value
    }

    /// Bytes kept now.
    var keptBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }
}
