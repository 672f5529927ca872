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
/// Bounded in bytes (`capacityBytes`, by each value's `cost`), not in entries: a broad
/// search's matches take megabytes, and 64 of them made the server ten times its size.
final class ComputedOnce<Value: Sendable>: @unchecked Sendable {
    private struct Kept {
        var stamp: ChangeStamp
        var value: Value
        var bytes: Int
        var used: UInt64
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

    init(capacityBytes: Int, cost: @escaping (Value) -> Int) {
        self.capacityBytes = capacityBytes
        self.cost = cost
    }

    /// The value kept for `key` if the database has not changed since, else `compute()`'s
    /// (or, while another request computes it, the one kept from before the change).
    /// `keep`: false for a value that must not take a place in the cache (what another
    /// site's page asked for: it could fill the cache with its own keys).
    func value(for key: String, stamp: ChangeStamp, keep: Bool = true, _ compute: () throws -> Value) rethrows -> Value {
        condition.lock()
        while true {
            if var entry = entries[key] {
                if entry.stamp == stamp || computing.contains(key) {
                    clock += 1
                    entry.used = clock
                    entries[key] = entry
                    condition.unlock()
                    return entry.value
                }
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
        defer {
            condition.lock()
            computing.remove(key)
            condition.broadcast()
            condition.unlock()
        }
        let value = try compute()
        let size = cost(value)
        condition.lock()
        clock += 1
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        if size <= capacityBytes {
            entries[key] = Kept(stamp: stamp, value: value, bytes: size, used: clock)
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
