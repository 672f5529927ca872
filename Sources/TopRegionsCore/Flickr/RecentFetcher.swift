import TopRegionsRecords
/// What flickr-recent fetches.
public struct RecentOptions: Sendable {
    public var license: String? = "1,2,4,7"
    public var perPage = 500
    public var maxPages = 20
    /// Only photos uploaded at or after this time (Unix seconds); nil = Flickr's default
    /// window for geo searches (the last 12 hours).
    public var since: Int64?

    /// How far back Flickr answers a geo search without a date (the last 12 hours).
    public static let flickrDefaultWindow: Int64 = 12 * 3600

    public init() {}

    /// The first upload second the query asks for, asked at `now`.
    public func firstUpload(now: Int64) -> Int64 {
        since ?? now - Self.flickrDefaultWindow + 1
    }
}

/// What a fetch did.
public struct RecentReport: Sendable, Equatable {
    public var pages = 0
    public var photos = 0
    /// Photos seen twice in the run (Flickr repeats photos across pages).
    public var repeats = 0
    public var unreadable = 0
    /// What Flickr said the first query matched (its `total`).
    public var flickrTotal: Int?
    /// The newest upload time among the photos printed.
    public var newestUpload: Int64?
    /// Whether the walk reached its query's last page (not stopped by --pages or a failure).
    public var complete = false

    public init() {}

    /// The span of upload time the run fetched whole, from `from` (its query's start) to
    /// `now` (when it asked) if complete, else to the second before the newest upload it
    /// printed: photos come oldest first, and the next page may have held more of that second.
    public func coveredSpan(from: Int64, now: Int64) -> ClosedRange<Int64>? {
        let to = complete ? max(now, newestUpload ?? now) : (newestUpload ?? from) - 1
        return from <= to ? from...to : nil
    }
}

/// Walks `flickr.photos.search` oldest first from `since`, page by page, handing each new
/// photo to `emit` as its page arrives.
///
/// The search answers at most 4,000 results per query; when the pages would pass that
/// point, the walk starts a new query from the newest upload time seen so far (that second
/// included: repeats are dropped), never by page number. Oldest-first keeps pages stable
/// while new photos arrive, and makes a run cut short a prefix in time.
public struct RecentFetcher {
    public static let resultCap = 4000

    public let client: FlickrClient

    public init(client: FlickrClient) {
        self.client = client
    }

    public func fetch(
        _ options: RecentOptions, report: inout RecentReport,
        progress: (RecentReport, SearchPage) -> Void = { _, _ in },
        warn: (String) -> Void = { _ in },
        emit: ([PhotoRecord]) -> Void
    ) throws(FlickrError) {
        var seen = Set<String>()
        var query = SearchQuery()
        query.license = options.license
        query.perPage = options.perPage
        query.minUploadDate = options.since
        query.page = 1
        while report.pages < options.maxPages {
            let page = try client.search(query)
            report.pages += 1
            if report.flickrTotal == nil { report.flickrTotal = page.total }
            report.unreadable += page.unreadable.count
            for problem in page.unreadable { warn("skipped an unreadable photo: \(problem)") }
            var fresh: [PhotoRecord] = []
            for photo in page.photos {
                if seen.insert(photo.id).inserted { fresh.append(photo) } else { report.repeats += 1 }
            }
            report.photos += fresh.count
            if let newest = fresh.compactMap(\.uploaded).max() { report.newestUpload = max(report.newestUpload ?? newest, newest) }
            emit(fresh)
            progress(report, page)

            // An empty page ends the walk; one whose photos were all unreadable does not.
            if page.photos.isEmpty && page.unreadable.isEmpty || query.page >= page.pages {
                report.complete = true
                return
            }
            let perPage = max(1, page.perPage)
            if query.page * perPage >= Self.resultCap {
                // Past this page the query returns nothing more: ask again from the newest
                // upload seen. If a whole window shares one upload second, step past it.
                let newest = page.photos.compactMap(\.uploaded).max() ?? query.minUploadDate ?? 0
                if let current = query.minUploadDate, newest <= current {
                    warn("more than \(Self.resultCap) photos were uploaded at \(current); some of them are skipped")
                    query.minUploadDate = current + 1
                } else {
                    query.minUploadDate = newest
                }
                query.page = 1
            } else {
                query.page += 1
            }
        }
    }
}
