import Foundation
import TopRegionsStore

/// What a page computes from a whole list (the map of all 15,000 photos of a region, a
/// search's ranked matches), kept by the list's key until the database changes
/// (`ChangeStamp`): every page of the list after the first then costs only its 30 photos.
/// While one request computes a key, the others asking for it wait for its answer instead
/// of computing it beside it (16 connections opening a big list at once computed it 16
/// times, each slower for the others).
final class ComputedOnce<Value: Sendable>: @unchecked Sendable {
    private struct Kept {
        var stamp: ChangeStamp
        var value: Value
        var used: UInt64
    }
    // Guarded by `condition`.
    private var entries: [String: Kept] = [:]
    private var computing: Set<String> = []
    private var clock: UInt64 = 0
    private let condition = NSCondition()
    /// Lists kept at most; the least recently used goes first.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key` if the database has not changed since, else `compute()`'s.
    func value(for key: String, stamp: ChangeStamp, _ compute: () throws -> Value) rethrows -> Value {
        condition.lock()
        while true {
            if var entry = entries[key], entry.stamp == stamp {
                clock += 1
                entry.used = clock
                entries[key] = entry
                condition.unlock()
                return entry.value
            }
            guard computing.contains(key) else { break }
            condition.wait()
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
        condition.lock()
        clock += 1
        entries[key] = Kept(stamp: stamp, value: value, used: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
            entries[oldest] = nil
        }
        condition.unlock()
        return value
    }
}
