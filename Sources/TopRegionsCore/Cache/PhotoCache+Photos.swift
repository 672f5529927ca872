import Synchronization
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsSupport

/// What asking the cache for one photo came to.
public enum CachedPhotoResult: Sendable, Equatable {
    /// In the cache now (found there, or downloaded).
    case cached(PhotoCache.Outcome)
    /// The photo is not in the database.
    case unknownPhoto
    /// The database has no URL for its full image.
    case noURL
    case failed(DownloadError)
}

extension PhotoCache {
    /// The full images of `photoIDs` (`photos`: id → the stored photo, nil when not
    /// stored), each fetched into the cache at most once, `parallel` at a time through
    /// downloaders made by `makeDownloader` (before any starts: when not even one can be
    /// made, that error is thrown), each within `limits`. Photos are taken in the order
    /// given, each once: with one worker the cache's uses happen in that order, which is
    /// what least-recently-used eviction then follows. A failure of this machine (disk,
    /// descriptors) stops the rest, which then have no result; `completed` hears of each
    /// photo done.
    public func photos(
        _ photoIDs: [String], stored photos: [String: StoredPhoto], parallel: Int, limits: DownloadLimits,
        now: @escaping @Sendable () -> Double, makeDownloader: () throws -> Downloader,
        starting: (Int) -> Void = { _ in }, completed: @escaping @Sendable () -> Void = {}
    ) throws -> [String: CachedPhotoResult] {
        var results: [String: CachedPhotoResult] = [:]
        var wanted: [(id: String, url: String)] = []
        var seen = Set<String>()
        for id in photoIDs where seen.insert(id).inserted {
            guard let photo = photos[id] else { results[id] = .unknownPhoto; continue }
            guard let url = photo.record.photoURL else { results[id] = .noURL; continue }
            wanted.append((id, url))
        }
        let shared = Mutex(results)
        let cache = self
        starting(wanted.count)
        try WorkerPool.run(wanted, workers: parallel, makeWorker: makeDownloader) { downloader, item in
            defer { completed() }
            let result: CachedPhotoResult
            do {
                result = .cached(try cache.ensure(photoID: item.id, url: item.url, downloader: downloader, limits: limits, now: now()))
            } catch let error as DownloadError {
                result = .failed(error)
            } catch {
                result = .failed(Downloader.storageError(error))
            }
            shared.withLock { $0[item.id] = result }
            // Out of disk or descriptors: every other photo would fail the same way.
            if case .failed(let error) = result, error.isResourceFailure { return .stopAll }
            return .next
        }
        return shared.withLock { $0 }
    }
}
