import TopRegionsStore

/// photo-cache's work, batch after batch: the photos asked for, looked up in the database,
/// each made sure of in the cache (found there or downloaded), and each view recorded in
/// the database. For one thread at a time: it keeps its downloaders (their connections)
/// between batches.
public final class PhotoCacheRun {
    public let cache: PhotoCache
    private let queries: Queries
    private let writer: PhotoWriter
    private let downloads: RunDownloads

    public init(cache: PhotoCache, store: Store, downloads: RunDownloads) {
        self.cache = cache
        queries = Queries(store: store)
        writer = PhotoWriter(store: store)
        self.downloads = downloads
    }

    /// The photos of `photoIDs` in the cache; `starting` hears how many are to be made sure
    /// of, `completed` of each one done. `report` sees the batch (and returns what the caller
    /// makes of it) before the views of the photos in the cache are recorded, in the order
    /// asked, so a database that cannot record them has what went wrong in the batch said
    /// first.
    public func batch<Report>(
        _ photoIDs: [String], starting: (Int) -> Void, completed: @escaping @Sendable () -> Void,
        report: (PhotoBatch<CachedPhotoResult>) throws -> Report
    ) throws -> Report {
        let photos = try queries.photos(ids: photoIDs)
        let results = try cache.photos(
            photoIDs, stored: photos, parallel: downloads.parallel, limits: downloads.limits, now: downloads.now,
            makeDownloader: downloads.downloaders.forBatch(), starting: starting, completed: completed)
        let reported = try report(PhotoBatch(photos: photos, results: results))
        let viewed = photoIDs.filter { if case .cached = results[$0] { true } else { false } }
        try writer.recordViews(viewed, now: Int64(downloads.now().rounded(.down)))
        return reported
    }
}
