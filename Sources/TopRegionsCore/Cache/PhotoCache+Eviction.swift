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
        /// Files of downloads that died and of an earlier version's oversize photos, that
        /// a dry run would remove (a real one removes them without counting).
        public var leftovers = 0

        public init() {}
    }

    /// Brings the cache under its cap as far as what is in use allows, and clears leftovers
    /// (temporary files of downloads that died, an earlier version's oversize photos).
    /// `dryRun`: only says what it would remove (`removed`, `leftovers`), removing nothing.
    @discardableResult
    public func enforceCap(dryRun: Bool = false) throws -> Eviction {
        try locks.withLock("index") { try evict(dryRun: dryRun) }
    }

    /// What the cache holds: its entries, and every byte of its files (downloads under way
    /// or dead, and an earlier version's oversize photos, included).
    public func info() throws -> Info {
        let scan = try self.scan()
        let bytes = (scan.entries.map(\.bytes) + scan.temporaries.map(\.bytes) + scan.leftovers.map(\.bytes)).reduce(0, +)
        return Info(entries: scan.entries.sorted(by: Self.lruOrder), bytes: bytes, ignored: scan.ignored)
    }

    struct Scan {
        var entries: [Entry] = []
        var temporaries: [(name: String, bytes: Int64)] = []
        /// Photos in `.oversize/`, where earlier versions served photos larger than the cap:
        /// regular files named as those versions named them, nothing else.
        var leftovers: [(name: String, bytes: Int64)] = []
        var ignored = 0
    }

    static func lruOrder(_ a: Entry, _ b: Entry) -> Bool {
        (a.usedAt, a.name) < (b.usedAt, b.name)
    }

    /// Removes entries until the rest fit under the cap: first those larger than the whole
    /// cap, which can never fit, then the least recently used. An entry larger than the cap
    /// that a run still keeps does not count: the others are not evicted for room it could
    /// never have. Entries a run still keeps (this one's or another process's), and entries
    /// whose photo lock is held elsewhere (being served or replaced right now), are passed
    /// over.
    func evict(scan: Scan? = nil, dryRun: Bool = false) throws -> Eviction {
        let scan = try scan ?? self.scan()
        let oversize = scan.entries.filter { $0.bytes > capBytes }.sorted(by: Self.lruOrder)
        let fitting = scan.entries.filter { $0.bytes <= capBytes }.sorted(by: Self.lruOrder)
        var total = fitting.reduce(0) { $0 + $1.bytes }
        var eviction = Eviction()
        for entry in oversize + fitting where (entry.bytes > capBytes || total > capBytes) && !run.contains(entry.name) {
            guard let held = try locks.tryLock(Self.photoKey(entry.name)) else { continue }
            defer { held.unlock() }
            if try locks.isPinned(Self.photoKey(entry.name)) {
                eviction.inUse.append(entry)
            } else if dryRun || unlink(entry.path) == 0 {
                if entry.bytes <= capBytes { total -= entry.bytes }
                eviction.removed.append(entry)
            }
        }
        // Leftovers of downloads that died: nobody holds their photo's lock.
        for temporary in scan.temporaries {
            guard let entryName = Self.entry(ofTemporary: temporary.name),
                  let held = try locks.tryLock(Self.photoKey(entryName)) else { continue }
            if dryRun {
                eviction.leftovers += 1
                held.unlock()
                continue
            }
            unlink(directory + "/" + temporary.name)
            held.unlock()
        }
        // Through the folder as it is now, never through a link: a name the scan saw may have
        // been replaced since, and a `.oversize` made a link since points elsewhere.
        if dryRun {
            eviction.leftovers += scan.leftovers.filter { Self.isOversizeName($0.name) }.count
            return eviction
        }
        if !scan.leftovers.isEmpty, let folder = Self.oversizeFolder(in: directory) {
            for leftover in scan.leftovers where Self.isOversizeName(leftover.name) { folder.removeRegularFile(leftover.name) }
        }
        // Only once empty (rmdir removes nothing else), and never a link (ENOTDIR).
        rmdir(directory + "/" + Self.oversizeFolder)
        return eviction
    }

    func scan() throws -> Scan {
        var scan = Scan()
        for name in try Self.contents(of: directory) {
            var info = stat()
            let isFile = lstat(directory + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
            if Self.entry(ofTemporary: name) != nil {
                scan.temporaries.append((name, isFile ? Int64(info.st_size) : 0))
            } else if Self.isEntryName(name), isFile {
                scan.entries.append(Entry(name: name, path: directory + "/" + name, bytes: Int64(info.st_size), usedAt: Self.seconds(info.st_mtim)))
            } else if name == Self.oversizeFolder {
                // A link or a file by that name is someone else's; a folder's files are
                // looked at below.
                if (info.st_mode & S_IFMT) != S_IFDIR { scan.ignored += 1 }
            } else if name != Self.tagName && !Self.isOwnName(name) {
                scan.ignored += 1
            }
        }
        if let folder = Self.oversizeFolder(in: directory) {
            for name in (try? folder.names()) ?? [] {
                if Self.isOversizeName(name), let bytes = folder.regularFileSize(name) {
                    scan.leftovers.append((name, bytes))
                } else {
                    scan.ignored += 1
                }
            }
        }
        return scan
    }

    /// `.oversize/` when it is a directory, opened without following a link: a link there is
    /// not the cache's, and what it points to is never looked at.
    static func oversizeFolder(in directory: String) -> FileSystem.OpenDirectory? {
        FileSystem.OpenDirectory(directory + "/" + oversizeFolder)
    }

    /// The names earlier versions gave the photos they put in `.oversize/`: `<id>.jpg` (layout
    /// 1) and `<id>.topregions.jpg` (layout 2). Anything else there is someone else's.
    /// A photo an earlier version served from `.oversize`: `<id>.jpg` or
    /// `<id>.topregions.jpg`, the id's digits alone.
    static func isOversizeName(_ name: String) -> Bool {
        isPreviousEntryName(name)
            || (name.hasSuffix(entrySuffix) && isPreviousEntryName(String(name.dropLast(entrySuffix.count)) + ".jpg"))
    }
}
