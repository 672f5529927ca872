import Synchronization
import TopRegionsSupport

/// The photos a run printed: a path a tool prints must still be there when it exits, so
/// they stay, past the cap if need be, until the run ends. They are pinned in the lock file
/// (every other process's eviction passes them over; the kernel lets go when the process
/// ends, killed or not) and listed here (the run's own evictions pass them over without
/// asking the kernel, and the run can say how much it kept).
final class RunPhotos: Sendable {
    private let pins: KeyPins
    private let kept = Mutex<[String: Int64]>([:])

    init(pins: KeyPins) {
        self.pins = pins
    }

    /// Keeps `entry` until the run ends. The caller holds the photo's lock, so no eviction
    /// can be deciding about it meanwhile.
    func keep(_ entry: PhotoCache.Entry) throws {
        try pins.pin(PhotoCache.photoKey(entry.name))
        kept.withLock { $0[entry.name] = entry.bytes }
    }

    func contains(_ name: String) -> Bool {
        kept.withLock { $0[name] != nil }
    }

    var total: (photos: Int, bytes: Int64) {
        kept.withLock { ($0.count, $0.values.reduce(0, +)) }
    }
}

extension PhotoCache {
    /// The photos this process printed and keeps until it ends, and their bytes.
    public var keptByThisRun: (photos: Int, bytes: Int64) { run.total }

    /// The key of the photo in entry `name`: its lock (one download at a time, evictions
    /// wait for none) and its pin (kept by a run).
    static func photoKey(_ name: String) -> String {
        "photo:" + name
    }
}
