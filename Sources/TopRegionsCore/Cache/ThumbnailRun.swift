import TopRegionsStore

/// thumb-get's work, batch after batch: the photos asked for, looked up in the database, and
/// their thumbnails, found there or downloaded once and stored. For one thread at a time:
/// it keeps its downloaders (their connections) and database connections between batches.
public final class ThumbnailRun {
    private let queries: Queries
    private let thumbnails: Thumbnails
    private let downloads: RunDownloads

    public init(store: Store, downloads: RunDownloads) {
        queries = Queries(store: store)
        thumbnails = Thumbnails(store: store)
        self.downloads = downloads
    }

    /// The thumbnails of `photoIDs`; `progress` hears (done, to download) after each download.
    public func batch(_ photoIDs: [String], progress: @escaping @Sendable (Int, Int) -> Void) throws -> PhotoBatch<ThumbnailResult> {
        let photos = try queries.photos(ids: photoIDs)
        let results = try thumbnails.thumbnails(
            for: photoIDs, photos: photos, parallel: downloads.parallel, limits: downloads.limits, now: downloads.now,
            makeDownloader: downloads.downloaders.forBatch(), progress: progress)
        return PhotoBatch(photos: photos, results: results)
    }
}
