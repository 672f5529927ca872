import TopRegionsHTTP
import TopRegionsStore

/// thumb-get's work, batch after batch: the photos asked for, looked up in the database, and
/// their thumbnails, found there or downloaded once and stored. For one thread at a time:
/// it keeps its downloaders (their connections) and database connections between batches.
public final class ThumbnailRun {
    private let queries: Queries
    private let thumbnails: Thumbnails
    private let parallel: Int
    private let limits: DownloadLimits
    private let now: @Sendable () -> Double
    private let downloaders: Downloaders

    /// Downloads go `parallel` at a time, each within `limits`, through downloaders made by
    /// `makeDownloader` (kept for the next batch).
    public init(
        store: Store, parallel: Int, limits: DownloadLimits, now: @escaping @Sendable () -> Double,
        makeDownloader: @escaping () throws -> Downloader
    ) {
        queries = Queries(store: store)
        thumbnails = Thumbnails(store: store)
        self.parallel = parallel
        self.limits = limits
        self.now = now
        downloaders = Downloaders(makeDownloader)
    }

    /// The thumbnails of `photoIDs`; `progress` hears (done, to download) after each download.
    public func batch(_ photoIDs: [String], progress: @escaping @Sendable (Int, Int) -> Void) throws -> PhotoBatch<ThumbnailResult> {
        let photos = try queries.photos(ids: photoIDs)
        let results = try thumbnails.thumbnails(
            for: photoIDs, photos: photos, parallel: parallel, limits: limits, now: now,
            makeDownloader: downloaders.forBatch(), progress: progress)
        return PhotoBatch(photos: photos, results: results)
    }
}
