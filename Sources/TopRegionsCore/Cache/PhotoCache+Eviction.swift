import Foundation
import TopRegionsSupport

/// What the cache directory holds, and keeping it under its cap.
extension PhotoCache {
    /// What an eviction did.
    public struct Eviction: Sendable {
        public var removed: [Entry] = []
        /// Entries it would have removed that a photo-cache still running printed (other
        /// than this process: its own are never counted here).
        public var inUse: [Entry] = []
    }

    /// Brings the cache under its cap as far as what is in use allows, and clears leftovers
    /// (temporary files of downloads that died, old oversize photos).
    @discardableResult
    public func enforceCap(now: Double) throws -> Eviction {
        try locks.withLock("index") { try evict(now: now) }
    }

    public func info() throws -> Info {
        let scan = try self.scan()
        return Info(entries: scan.entries.sorted(by: Self.lruOrder), bytes: scan.entries.reduce(0) { $0 + $1.bytes }, ignored: scan.ignored)
    }

    struct Scan {
        var entries: [Entry] = []
        var temporaries: [String] = []
        var ignored = 0
    }

    static func lruOrder(_ a: Entry, _ b: Entry) -> Bool {
        (a.usedAt, a.name) < (b.usedAt, b.name)
    }

    /// Removes least recently used entries until the rest fit under the cap. Entries a
    /// run still keeps (this one's or another process's), and entries whose photo lock is
    /// held elsewhere (being served or replaced right now), are passed over.
    func evict(now: Double, scan: Scan? = nil) throws -> Eviction {
        let scan = try scan ?? self.scan()
        var total = scan.entries.reduce(0) { $0 + $1.bytes }
        var eviction = Eviction()
        for entry in scan.entries.sorted(by: Self.lruOrder) where total > capBytes && !run.contains(entry.name) {
            guard let held = try locks.tryLock(Self.photoKey(entry.name)) else { continue }
            defer { held.unlock() }
            if try locks.isPinned(Self.photoKey(entry.name)) {
                eviction.inUse.append(entry)
            } else if unlink(entry.path) == 0 {
                total -= entry.bytes
                eviction.removed.append(entry)
            }
        }
        // Leftovers of downloads that died: nobody holds their photo's lock.
        for temporary in scan.temporaries {
            guard let entryName = Self.entry(ofTemporary: temporary),
                  let held = try locks.tryLock(Self.photoKey(entryName)) else { continue }
            unlink(directory + "/" + temporary)
            held.unlock()
        }
        // Oversize photos are served once, then left for an hour.
        if let names = try? FileSystem.contentsOfDirectory(directory + "/.oversize") {
            for name in names {
                var info = stat()
                let path = directory + "/.oversize/" + name
                if stat(path, &info) == 0, now - Self.seconds(info.st_mtim) > Self.oversizeLifetime { unlink(path) }
            }
        }
        return eviction
    }

    func scan() throws -> Scan {
        var scan = Scan()
        for name in try Self.contents(of: directory) {
            if Self.entry(ofTemporary: name) != nil {
                scan.temporaries.append(name)
                continue
            }
            var info = stat()
            if Self.isEntryName(name), lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                scan.entries.append(Entry(name: name, path: directory + "/" + name, bytes: Int64(info.st_size), usedAt: Self.seconds(info.st_mtim)))
            } else if name != Self.tagName && !Self.isOwnName(name) {
                scan.ignored += 1
            }
        }
        return scan
    }
}
