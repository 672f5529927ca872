import Foundation
import Synchronization
import TopRegionsHTTP
import TopRegionsSupport

/// Full-size photos in a directory capped at about `capBytes` (10 MB by default), least
/// recently used out first. The directory is the whole truth, so the cache survives
/// restarts and needs no database:
///
/// - the directory is the cache's by its CACHEDIR.TAG (see PhotoCache+Directory.swift);
/// - an entry is `<id>.topregions.jpg`, a name nothing else gives a file; its modification
///   time is its last use, set by the cache to a strictly increasing value (file systems'
///   own clocks are too coarse to order two quick uses);
/// - a download streams into `.tmp-<entry>-<pid>-<n>` and is renamed into place only once
///   complete, so a reader never sees part of a photo;
/// - `.lock` holds per-photo locks (one download of a photo at a time, across processes)
///   and an index lock (installs, touches and evictions are serialized), and pins: a run
///   keeps every photo it printed until it ends, past the cap if need be (`RunPhotos`);
/// - a photo larger than the whole cap is an entry like any other, counted and pruned, kept
///   only while a run needs it: the first to go, and no reason to evict the others;
/// - anything else in the directory is someone else's and ignored: not counted, not touched
///   (and a directory holding such files is not made a cache unless asked).
public struct PhotoCache: Sendable {
    public let directory: String
    public let capBytes: Int64
    let locks: KeyLockFile
    let run: RunPhotos
    /// What opening the cache did to a cache of the previous version (nothing otherwise).
    public private(set) var adoption = Adoption()

    public static let defaultCap: Int64 = 10 << 20

    public struct Entry: Sendable, Equatable {
        public var name: String
        public var path: String
        public var bytes: Int64
        /// Last use, Unix seconds.
        public var usedAt: Double

        /// The photo's id, as the entry's name says it.
        public var photoID: String { String(name.dropLast(PhotoCache.entrySuffix.count)) }
    }

    public enum Outcome: Sendable, Equatable {
        case hit(Entry)
        case downloaded(Entry)

        public var entry: Entry {
            switch self {
            case .hit(let entry), .downloaded(let entry): entry
            }
        }
    }

    public struct Info: Sendable {
        public var entries: [Entry]
        public var bytes: Int64
        /// Files in the directory that are not entries (and not the cache's own).
        public var ignored: Int

        public init(entries: [Entry], bytes: Int64, ignored: Int) {
            self.entries = entries
            self.bytes = bytes
            self.ignored = ignored
        }
    }

    /// `TOPREGIONS_CACHE`, else `$XDG_CACHE_HOME/topregions/photos` (~/.cache when unset).
    public static func defaultDirectory(environment: [String: String]) throws -> String {
        if let explicit = environment["TOPREGIONS_CACHE"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/topregions/photos" }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw Failure(.misconfigured, "no cache directory: use --cache-dir or set TOPREGIONS_CACHE (HOME is not set)")
        }
        return home + "/.cache/topregions/photos"
    }

    /// Opens the cache in `directory` for use, creating it when missing. A directory that
    /// holds files the cache did not write and no tag of its own is refused unless `claim`
    /// (the cache then keeps its photos beside them, never touching them); a cache of the
    /// previous version is taken over (`adoption` says how).
    public init(directory: String, capBytes: Int64, claim: Bool = false) throws {
        guard !directory.isEmpty else { throw Failure(.invalidArgument, "--cache-dir: the path is empty") }
        self.directory = directory
        self.capBytes = capBytes
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw SystemFailure.error(error.code, "cannot create the cache directory \(directory)", otherwise: .cannotCreate)
        }
        let ownership = try Self.ownership(of: directory)
        switch ownership {
        case .owned(let layout) where layout > Self.layout:
            throw Failure(.cannotCreate, "\(directory) holds a photo cache of a later topregions (layout \(layout)); use that version, or another --cache-dir")
        case .owned: break
        case .missing, .unclaimed: try Self.writeTag(in: directory)
        case .foreign(let others):
            guard claim else { throw Self.refusal(directory, others: others) }
            try Self.writeTag(in: directory)
        }
        locks = try KeyLockFile(path: directory + "/.lock")
        run = RunPhotos(pins: try locks.pins())
        if case .owned(layout: 1) = ownership { adoption = try adoptPreviousLayout() }
    }

    // MARK: Using the cache

    /// Makes sure the photo is cached and returns where it is: a hit touches the entry, a
    /// miss (or a damaged entry) downloads it through `downloader`, within `limits`, and
    /// evicts what no longer fits. Either way the entry is kept until this process ends
    /// (`RunPhotos`). A download that fails leaves nothing in the cache.
    public func ensure(photoID: String, url: String, downloader: Downloader, limits: DownloadLimits, now: Double) throws -> Outcome {
        try ensure(photoID: photoID, url: url, downloader: downloader, limits: limits, now: now, keepUntilExit: true) { $0 }
    }

    /// `ensure`, then `use` of the outcome while the photo's lock is still held, so nothing
    /// can evict the entry meanwhile (`use` opens the file, say). With `keepUntilExit` false
    /// the entry is not kept until the process ends: a server that runs for days and sends
    /// each photo through a descriptor it opened in `use` would otherwise keep every photo
    /// it ever served.
    public func ensure<T>(
        photoID: String, url: String, downloader: Downloader, limits: DownloadLimits, now: Double, keepUntilExit: Bool,
        _ use: (Outcome) throws -> T
    ) throws -> T {
        let name = Self.entryName(for: photoID)
        let path = directory + "/" + name
        let photoLock = try locks.lock(Self.photoKey(name))
        defer { photoLock.unlock() }

        if try Self.isIntact(path) {
            let entry = try locks.withLock("index") { try touch(name, now: now) }
            if keepUntilExit { try run.keep(entry) }
            return try use(.hit(entry))
        }

        let temporary = directory + "/" + Self.temporaryName(for: name, sequence: Self.sequence.wrappingAdd(1, ordering: .relaxed).newValue)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw SystemFailure.error(errno, "cannot write in the cache \(directory)", otherwise: .cannotCreate) }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(fd) }
            if !renamed { unlink(temporary) }
        }
        // Bytes in the temporary file: a retry starts it afresh. Only then is it truncated:
        // ext4 writes out at close a file that was truncated (its guard for files replaced
        // by truncation), which took a third of photo-cache's time per photo.
        var inFile = 0
        do {
            _ = try downloader.download(url, limits: limits, begin: {
                guard inFile > 0 else { return }
                guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw cacheWriteError(errno) }
                inFile = 0
            }, write: { chunk in
                inFile += chunk.count
                var offset = 0
                while offset < chunk.count {
                    let written = Glibc.write(fd, chunk.baseAddress! + offset, chunk.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw cacheWriteError(errno)
                    }
                    offset += written
                }
            })
        }
        close(fd)
        closed = true

        let outcome: Outcome = try locks.withLock("index") {
            guard rename(temporary, path) == 0 else { throw cacheWriteError(errno) }
            renamed = true
            // One look at the directory serves both: the newest use to stamp after, and
            // what to evict (the new entry, kept or locked, is in it with its size).
            let scan = try self.scan()
            let entry = try touch(name, now: now, scan: scan)
            if keepUntilExit { try run.keep(entry) }
            _ = try evict(scan: scan)
            return .downloaded(entry)
        }
        return try use(outcome)
    }

    // MARK: Internals

    private static let sequence = Atomic<Int>(0)

    /// A failed write in the cache, in words, with its kind (input/output for a full disk).
    func cacheWriteError(_ code: Int32) -> Failure {
        SystemFailure.error(code, "cannot write in the cache \(directory)", otherwise: .cannotCreate)
    }

    /// An entry worth serving: a regular file that starts like a JPEG, as every download
    /// the cache keeps does (so a file overwritten outside the cache is downloaded again
    /// rather than served). Completeness needs no check: entries appear only by rename,
    /// after the whole announced length arrived.
    /// Never through a symbolic link (O_NOFOLLOW): a link in an entry's place, to a file
    /// anywhere, was served and printed as the photo; it is downloaded again instead, and
    /// the download's rename replaces the link, not what it points to.
    static func isIntact(_ path: String) throws -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            // Out of descriptors is not "not cached": downloading again would ask twice.
            if SystemFailure.isResourceProblem(errno) { throw SystemFailure.error(errno, "cannot open \(path)", otherwise: .inputOutput) }
            return false
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 3 else { return false }
        var head = [UInt8](repeating: 0, count: 3)
        return pread(fd, &head, 3, 0) == 3 && head == [0xFF, 0xD8, 0xFF]
    }

    /// Marks `name` as used now: a time later than every other entry's, so the order of
    /// uses is exact even within one clock tick.
    func touch(_ name: String, now: Double, scan: Scan? = nil) throws -> Entry {
        let newest = try (scan ?? self.scan()).entries.filter { $0.name != name }.map(\.usedAt).max() ?? 0
        let stamp = max(now, newest + 0.000_001)
        let path = directory + "/" + name
        var times = [Self.timespec(stamp), Self.timespec(stamp)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw cacheWriteError(errno) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw cacheWriteError(errno) }
        return Entry(name: name, path: path, bytes: Int64(info.st_size), usedAt: Self.seconds(info.st_mtim))
    }

    static func timespec(_ seconds: Double) -> Glibc.timespec {
        let whole = seconds.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: Int(((seconds - whole) * 1e9).rounded()))
    }

    static func seconds(_ time: Glibc.timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
