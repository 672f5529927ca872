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

/// Square thumbnails: from the database when there, otherwise downloaded once and stored.
/// A per-photo lock shared by every process using the database makes a second asker wait
/// for the first one's download instead of downloading again.
public struct Thumbnails: Sendable {
    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func stored(_ photoID: String) throws -> [UInt8]? {
        try ThumbnailStore(store: store).bytes(of: photoID)
    }

    /// Thumbnails for `photos` (id → the stored photo, nil when not stored), downloading
    /// the missing ones `parallel` at a time, each within `limits`, through downloaders made
    /// by `makeDownloader` (before any starts: when not even one can be made, that error is
    /// thrown); `progress` hears (done, to download) after each download.
    public func thumbnails(
        for photoIDs: [String], photos: [String: StoredPhoto], parallel: Int, limits: DownloadLimits = .thumbnail,
        now: @escaping @Sendable () -> Double, makeDownloader: () throws -> Downloader,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> [String: ThumbnailResult] {
        var results: [String: ThumbnailResult] = [:]
        var missing: [(id: String, url: String)] = []
        for id in Set(photoIDs) {
            guard let photo = photos[id] else { results[id] = .unknownPhoto; continue }
            if let bytes = try stored(id) {
                results[id] = .found(bytes, downloaded: false)
            } else if let url = photo.record.thumbURL {
                missing.append((id, url))
            } else {
                results[id] = .noURL
            }
        }
        let shared = Mutex(results)
        let store = self.store
        let thumbnails = self
        let done = Atomic<Int>(0)
        let toDownload = missing.count
        let keyLocks = try store.keyLocks
        try WorkerPool.run(missing.sorted { $0.id < $1.id }, workers: parallel, makeWorker: makeDownloader) { downloader, item in
            defer { progress(done.wrappingAdd(1, ordering: .relaxed).newValue, toDownload) }
            let result: ThumbnailResult
            do {
                result = try keyLocks.withLock("thumb:" + item.id) { () throws -> ThumbnailResult in
                    if let bytes = try thumbnails.stored(item.id) { return .found(bytes, downloaded: false) }
                    let bytes = try downloader.fetch(item.url, limits: limits)
                    try ThumbnailStore(store: store).keep(bytes, of: item.id, fetchedAt: Int64(now()))
                    return .found(bytes, downloaded: true)
                }
            } catch let error as DownloadError {
                result = .failed(error)
            } catch {
                result = .failed(Downloader.storageError(store.failure(describing: error)))
            }
            shared.withLock { $0[item.id] = result }
            // Out of disk or descriptors: every other thumbnail would fail the same way.
            if case .failed(let error) = result, error.isResourceFailure { return .stopAll }
            return .next
        }
        return shared.withLock { $0 }
    }
}
