import Synchronization
import TopRegionsStore

/// What a page computes from a whole list (the positions of all 15,000 photos of a region
/// for its map), kept by the list's key until the database changes (`ChangeStamp`): every
/// page of the list after the first then costs only its 30 photos.
final class ComputedOnce<Value: Sendable>: Sendable {
    private struct Kept {
        var stamp: ChangeStamp
        var value: Value
        var used: UInt64
    }
    private let kept = Mutex<(entries: [String: Kept], clock: UInt64)>(([:], 0))
    /// Lists kept at most; the least recently used goes first.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key` if the database has not changed since, else `compute()`'s.
    func value(for key: String, stamp: ChangeStamp, _ compute: () throws -> Value) rethrows -> Value {
        let found: Value? = kept.withLock { state in
            guard var entry = state.entries[key], entry.stamp == stamp else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.value
        }
        if let found { return found }
        let value = try compute()
        kept.withLock { state in
            state.clock += 1
            state.entries[key] = Kept(stamp: stamp, value: value, used: state.clock)
            if state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key {
                state.entries[oldest] = nil
            }
        }
        return value
    }
}
