import Foundation
import Synchronization
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// What asking for one photo's thumbnail came to.
public enum ThumbnailResult: Sendable, Equatable {
    /// The bytes, and whether they were downloaded just now.
    case found([UInt8], downloaded: Bool)
    case unknownPhoto
    case noURL
    case failed(DownloadError)
}

extension Thumbnails {
    /// The URL a thumbnail is downloaded from: for Flickr's 75 px square (`…/{id}_{secret}_s.jpg`,
    /// what records carry as `thumb_url`) its 150 px square (`_q`, same server and secret),
    /// sharp where pages show thumbnails at 134–162 px (the 75 px ones were stretched and
    /// blurred). Any other URL as it is. Stored thumbnails of 75 px keep being used.
    public static func sharper(_ url: String) -> String {
        guard url.hasSuffix("_s.jpg"), let slash = url.lastIndex(of: "/") else { return url }
        let name = url[url.index(after: slash)...]
        guard name.split(separator: "_", omittingEmptySubsequences: false).count == 3 else { return url }
        return String(url.dropLast("_s.jpg".count)) + "_q.jpg"
    }
}

/// Square thumbnails: from the database when there, otherwise downloaded once and stored.
/// A per-photo lock shared by every process using the database makes a second asker wait
/// for the first one's download instead of downloading again. For one thread at a time: it
/// keeps its downloaders' database connections from one call to the next.
public final class Thumbnails {
    public let store: Store
    /// Each downloader's own connection to look for the thumbnail in, inside its lock.
    private let lookups: KeptWorkers<ThumbnailStore.Lookup>
    /// How many thumbnails may wait for their commit at once (each holds its lock's
    /// descriptor), counted once, before the first downloader or connection is made.
    private var maxHeld: Int?

    /// Descriptors one downloader holds at once: libcurl's connection and the socket pair
    /// its internal multi handle wakes up with (3), a second socket while connecting
    /// (happy eyeballs) and a resolver's pair (3), the photo's lock (1), and its database
    /// connection (the file and its -wal; the -shm is shared in the process: 2), and one to
    /// spare.
    public static let descriptorsPerDownloader = 10

    public init(store: Store) {
        self.store = store
        lookups = KeptWorkers { try ThumbnailStore(store: store).lookup() }
    }

    /// Thumbnails for `photos` (id → the stored photo, nil when not stored), downloading
    /// the missing ones `parallel` at a time, each within `limits`, through downloaders made
    /// by `makeDownloader` (before any starts: when not even one can be made, every missing
    /// thumbnail fails with that error); `progress` hears (done, to download) after each.
    public func thumbnails(
        for photoIDs: [String], photos: [String: StoredPhoto], parallel: Int, limits: DownloadLimits = .thumbnail,
        now: @escaping @Sendable () -> Double, makeDownloader: () throws -> Downloader,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> [String: ThumbnailResult] {
        var results: [String: ThumbnailResult] = [:]
        var missing: [(id: String, url: String)] = []
        let unique = Array(Set(photoIDs))
        // What is stored already, in one query per 500 photos.
        let stored = try ThumbnailStore(store: store).bytes(of: unique.filter { photos[$0] != nil }) ?? [:]
        for id in unique {
            guard let photo = photos[id] else { results[id] = .unknownPhoto; continue }
            if let bytes = stored[id] {
                results[id] = .found(bytes, downloaded: false)
            } else if let url = photo.record.thumbURL {
                missing.append((id, Self.sharper(url)))
            } else {
                results[id] = .noURL
            }
        }
        let shared = Mutex(results)
        let store = self.store
        let done = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        let toDownload = missing.count
        let keyLocks = try store.keyLocks
        guard toDownload > 0 else { return results }
        // Every thumbnail waiting for its commit holds its lock's descriptor: as many as
        // are free beyond what the downloaders may take and a few to spare, counted before
        // the first batch's downloaders exist (later, what they hold is no longer free).
        let maxHeld = self.maxHeld ?? {
            let spare = Descriptors.free().map { $0 - Self.descriptorsPerDownloader * parallel - 4 } ?? Int.max
            return min(200, max(1, spare))
        }()
        self.maxHeld = maxHeld
        let writer = ThumbnailWriter(store: store, maxHeld: maxHeld)
        defer { writer.finish() }
        @Sendable func finished(_ id: String, _ result: ThumbnailResult) {
            shared.withLock { $0[id] = result }
            progress(done.wrappingAdd(1, ordering: .relaxed).newValue, toDownload)
            // Out of disk or descriptors: every other thumbnail would fail the same way.
            if case .failed(let error) = result, error.isResourceFailure { stopping.store(true, ordering: .releasing) }
        }
        // Each worker: a downloader, and a database connection of its own.
        let makeLookup = lookups.forBatch()
        do {
            try WorkerPool.run(missing.sorted { $0.id < $1.id }, workers: parallel, makeWorker: {
                (try makeDownloader(), try makeLookup())
            }) { worker, item in
                let (downloader, lookup) = worker
                if stopping.load(ordering: .acquiring) { return .stopAll }
                do {
                    // Held until the writer has committed the thumbnail (or nothing is stored).
                    let lock = try keyLocks.lock("thumb:" + item.id)
                    do {
                        if let bytes = try lookup.bytes(of: item.id) {
                            lock.unlock()
                            finished(item.id, .found(bytes, downloaded: false))
                        } else {
                            let bytes = try downloader.fetch(item.url, limits: limits)
                            writer.add(.init(photoID: item.id, bytes: bytes, fetchedAt: Int64(now()), lock: lock) { failure in
                                finished(item.id, failure.map { .failed(Downloader.storageError(store.failure(describing: $0))) }
                                    ?? .found(bytes, downloaded: true))
                            })
                        }
                    } catch {
                        lock.unlock()
                        throw error
                    }
                } catch let error as DownloadError {
                    finished(item.id, .failed(error))
                } catch {
                    finished(item.id, .failed(Downloader.storageError(store.failure(describing: error))))
                }
                return stopping.load(ordering: .acquiring) ? .stopAll : .next
            }
        } catch {
            // Not even one downloader could be made (libcurl cannot be loaded, no descriptor
            // left): each thumbnail to download fails so, and as a failure of this machine
            // that stops the run once the caller has passed on the thumbnails found.
            let failure = Downloader.storageError(store.failure(describing: error))
            for item in missing { finished(item.id, .failed(failure)) }
        }
        writer.finish()
        return shared.withLock { $0 }
    }
}
