import TopRegionsHTTP
import TopRegionsRecords

/// What one batch of photos asked for came to: the stored photos (ids the database does not
/// have are left out), and each photo's result (none for a photo not tried: the run stopped
/// for a failure of this machine).
public struct PhotoBatch<Result: Sendable>: Sendable {
    public var photos: [String: StoredPhoto]
    public var results: [String: Result]
}

/// How a run's downloads go, batch after batch: `parallel` at a time, each within `limits`,
/// through downloaders made by `makeDownloader` and kept for the next batch (their
/// connections, and what they resolved).
public struct RunDownloads {
    let parallel: Int
    let limits: DownloadLimits
    let now: @Sendable () -> Double
    let downloaders: Downloaders

    public init(parallel: Int, limits: DownloadLimits, now: @escaping @Sendable () -> Double, makeDownloader: @escaping () throws -> Downloader) {
        self.parallel = parallel
        self.limits = limits
        self.now = now
        downloaders = Downloaders(makeDownloader)
    }
}
