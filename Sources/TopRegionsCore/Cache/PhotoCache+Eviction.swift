import Foundation
import TopRegionsSupport

/// What the cache directory holds, and keeping it under its cap.
extension PhotoCache {
    /// Brings the cache under its cap and clears leftovers (temporary files of downloads
    /// that died, old oversize photos). Returns the entries removed.
    @discardableResult
    public func enforceCap(now: Double) throws -> [Entry] {
        try locks.withLock("index") { try evict(keeping: nil, now: now) }
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

    /// Removes least recently used entries until the rest fit under the cap. Entries whose
    /// photo lock is held elsewhere (being served or replaced right now) are passed over.
    func evict(keeping kept: String?, now: Double, scan: Scan? = nil) throws -> [Entry] {
        let scan = try scan ?? self.scan()
        var total = scan.entries.reduce(0) { $0 + $1.bytes }
        var removed: [Entry] = []
        for entry in scan.entries.sorted(by: Self.lruOrder) where total > capBytes && entry.name != kept {
            guard let held = try locks.tryLock("photo:" + entry.name) else { continue }
            defer { held.unlock() }
            if unlink(entry.path) == 0 {
                total -= entry.bytes
                removed.append(entry)
            }
        }
        // Leftovers of downloads that died: nobody holds their photo's lock.
        for temporary in scan.temporaries {
            // .tmp-<entry name>-<pid>-<n>; the entry name may itself contain '-'.
            let parts = temporary.dropFirst(".tmp-".count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 3 else { continue }
            let entryName = parts.dropLast(2).joined(separator: "-")
            guard let held = try locks.tryLock("photo:" + entryName) else { continue }
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
        return removed
    }

    func scan() throws -> Scan {
        let names: [String]
        do {
            names = try FileSystem.contentsOfDirectory(directory)
        } catch {
            throw SystemFailure.error(error.code, "cannot read the cache directory \(directory)", otherwise: .inputOutput)
        }
        var scan = Scan()
        for name in names {
            if name.hasPrefix(".tmp-") {
                scan.temporaries.append(name)
                continue
            }
            if name == ".lock" || name == ".oversize" || name == "CACHEDIR.TAG" { continue }
            var info = stat()
            guard Self.isEntryName(name), lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                scan.ignored += 1
                continue
            }
            scan.entries.append(Entry(name: name, path: directory + "/" + name, bytes: Int64(info.st_size), usedAt: Self.seconds(info.st_mtim)))
        }
        return scan
    }

    /// Names the cache itself gives: `SafeName` characters, then `.jpg`.
    static func isEntryName(_ name: String) -> Bool {
        guard name.hasSuffix(".jpg"), name.count > 4 else { return false }
        return name.dropLast(4).unicodeScalars.allSatisfy(SafeName.isSafe)
    }
}
