import HTTPTypes
import Hummingbird
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// The pages a person reads: top regions, a region's photos, All, Recents, search results
/// and one photo. Lists are paged at 30 (`Paging.size`); the counts and the map cover the
/// whole list.
extension ServedApp {
    func get(_ segments: [String], query: [(String, String)], fromThisSite: Bool, headers: HTTPFields, authority: String?) async throws -> Response {
        switch segments.count {
        case 3 where segments[0] == "feeds" && segments[1] == "regions":
            return try await regionFeed(segments[2], query: query, headers: headers, authority: authority)
        case 2 where segments == ["feeds", "rising"]:
            return try await risingFeed(query: query, headers: headers, authority: authority)
        case 0:
            return try await topRegions(window: try await window(query, recentByDefault: true))
        case 1 where segments[0] == "all":
            return try await list(PhotoList(.all, window: try await window(query)), query: query)
        case 1 where segments[0] == "recents":
            // The views waiting to be written, when the database lets them be at once.
            if let views = self.views { _ = try await blocking.run { views.flushIfFree() } }
            return try await list(.recents, query: query)
        case 1 where segments[0] == "search":
            return try await search(query, keep: fromThisSite)
        case 1 where segments[0] == "rising":
            return try await rising(window: try risingWindow(query))
        case 1 where segments[0] == "refresh":
            return try await refreshProgress()
        case 1 where segments[0] == "prune":
            try refuseUnlessChangeable("Pruning")
            return try await prunePreview(query)
        case 2 where segments[0] == "regions":
            return try await region(segments[1], query: query)
        case 2 where (segments[0] == "photos" || segments[0] == "thumbs") && segments[1].hasSuffix(".jpg")
            && headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site":
            // Another site's <img> would make this server download from Flickr (and the full
            // photo churn the person's cache), and tell that page which photos are here.
            throw HTTPAnswer(status: .forbidden, title: "Refused", html: "Another site's page cannot show this server's images.")
        case 2 where segments[0] == "photos" && segments[1].hasSuffix(".jpg"):
            return try await fullImage(try photoID(String(segments[1].dropLast(4))))
        case 2 where segments[0] == "photos":
            return try await photoPage(try photoID(segments[1]), recordsView: fromThisSite)
        case 2 where segments[0] == "thumbs" && segments[1].hasSuffix(".jpg"):
            return try await thumbnail(try photoID(String(segments[1].dropLast(4))))
        default:
            throw HTTPAnswer.notFound("Nothing is here. The <a href=\"/\">top regions</a> lead to every photo.")
        }
    }

    /// The span of upload time the address asks for (`window=24h`, `window=all`), ending at
    /// the present minute (the pages say the time to the minute, and keep what they computed
    /// for it). Without one, the top regions and a region's page (`recentByDefault`) show the
    /// last 24 hours when the newest stored upload is in them, so a person sees what a refresh
    /// just brought, and every stored photo otherwise; the other lists every stored photo. A
    /// window that cannot mean anything is answered 400 with what would work.
    func window(_ query: [(String, String)], recentByDefault: Bool = false) async throws -> TimeWindow? {
        if let asked = try askedWindow(query) { return asked }
        guard recentByDefault else { return nil }
        let queries = self.queries, end = Self.endOfMinute(now())
        return try await reads.run { try Self.recentWindow(newest: try queries.newestUpload(), end: end) }
    }

    /// The window the address asks for (`window=all`: nil, every stored photo), or nil when it
    /// asks for none.
    func askedWindow(_ query: [(String, String)]) throws -> TimeWindow?? {
        guard let text = FormText.value("window", in: query) else { return nil }
        do {
            let window = try TimeWindow(text, end: Self.endOfMinute(now()), endsNow: true)
            return .some(window.isEverything ? nil : window)
        } catch {
            throw HTTPAnswer.badRequest("window: " + HTMLPage.escape(error.description))
        }
    }

    /// The window a rising list (page or feed) is asked for: the last 24 hours unless the
    /// address says another span; every stored photo has no window before it to compare
    /// with, so `window=all` is answered 400, as regions-top refuses it.
    func risingWindow(_ query: [(String, String)]) throws -> TimeWindow {
        let asked = try askedWindow(query)
        if let text = FormText.value("window", in: query), asked == .some(nil) {
            throw HTTPAnswer.badRequest("Rising regions compare a span of time with the one before: give a window such as 1h, 24h or 7d, not <q>\(HTMLPage.escape(text))</q>.")
        }
        return try asked.flatMap { $0 } ?? TimeWindow("24h", end: Self.endOfMinute(now()), endsNow: true)
    }

    /// A page's window when its address asks for none: the last 24 hours to `end` when the
    /// newest stored upload is in them, else every stored photo (nil).
    static func recentWindow(newest: Int64?, end: Int64) throws -> TimeWindow? {
        guard let newest, newest > end - 86_400 else { return nil }
        return try TimeWindow("24h", end: end, endsNow: true)
    }

    /// `cache`'s value for `key` as of the store's last change, and `then`'s answer from it,
    /// read from the same trip. On the readers' threads when the value is kept (`kept`: no
    /// computing, no waiting); else on the threads that may wait, which compute it or wait for
    /// the request computing it, so that a slow page (a broad search's matches, the map of
    /// every photo of a big store, a month's rising list) never holds up the quick ones.
    /// `exact`: never a value from before a change, and the stamp counts views (Recents).
    func kept<Value: Sendable, Answer: Sendable>(
        in cache: ComputedOnce<Value>, key: String, keep: Bool = true, exact: Bool = false,
        _ compute: @escaping @Sendable () throws -> Value,
        then answer: @escaping @Sendable (Value) throws -> Answer
    ) async throws -> Answer {
        let store = self.store
        let quick: Answer? = try await reads.run {
            guard let value = cache.kept(for: key, stamp: try store.changeStamp(views: exact), keep: keep, exact: exact, compute) else { return nil }
            return try answer(value)
        }
        if let quick { return quick }
        return try await blocking.run {
            try answer(try cache.value(for: key, stamp: try store.changeStamp(views: exact), keep: keep, exact: exact, compute))
        }
    }

    /// `kept(in:key:…)` of the value itself.
    func kept<Value: Sendable>(in cache: ComputedOnce<Value>, key: String, _ compute: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await kept(in: cache, key: key, compute) { $0 }
    }

    /// The region `text` names (its id, or its name as `RegionMatcher` matches names), by the
    /// regions' names folded once until the database changes (`regionNames`).
    func regionMatch(_ text: String, suggesting: Bool) async throws -> RegionMatch {
        let queries = self.queries
        return try await kept(in: regionNames, key: "", {
            try queries.regionMatcher()
        }, then: { $0.match(text, suggesting: suggesting) })
    }

    /// The last second of the present minute: where a served window ends.
    static func endOfMinute(_ now: Double) -> Int64 {
        (Int64(now) / 60 + 1) * 60 - 1
    }

    /// A photo id from the address: Flickr's are digits; anything else never reaches a query.
    func photoID(_ text: String) throws -> String {
        guard PhotoRecord.isPhotoID(text) else {
            throw HTTPAnswer.notFound("<q>\(HTMLPage.escape(String(text.prefix(40))))</q> is not a photo id (photo ids are digits).")
        }
        return text
    }

    func topRegions(window: TimeWindow?) async throws -> Response {
        let queries = self.queries, site = self.site.windowed(window?.lengthText), times = self.times
        // An empty database is refreshed on the first visit, as the app refreshes on launch.
        if canChange, refresher.hasKey, refresher.current == .idle, try await reads.run({ try !queries.hasPhotos() }) {
            if case .started = refresher.start(photos: { (try? queries.count(of: .all)) ?? 0 }) {
                return Responses.seeOther("/refresh")
            }
        }
        let end = Self.endOfMinute(now())
        // The same page for everyone until the next commit: the top 50 and their markers' places.
        // Every stored photo's page says how long since the last refresh: kept a minute.
        let page = try await kept(in: topPage, key: "top " + (window?.key ?? "all@\(end)")) {
            try HTMLPage.regions(
                try queries.sampledCentres(try queries.topRegions(limit: 50, window: window)), window: window, end: end, queries: queries,
                site: site, times: times)
        }
        return Responses.page(page)
    }

    /// The regions rising in `window` against the window before it.
    func rising(window: TimeWindow) async throws -> Response {
        let queries = self.queries, site = self.site, times = self.times
        let page = try await kept(in: topPage, key: "rising " + window.key) {
            let answer = try RisingAnswer(window, queries, limit: 50, times: times)
            let placed = try queries.sampledCentres(answer.rows.map(\.region))
            return HTMLPage.rising(zip(answer.rows, placed).map { row, region in
                var row = row
                row.region = region
                return row
            }, window: window, site: site, times: times, coverage: answer.coverage, noBaseline: answer.noBaseline)
        }
        return Responses.page(page)
    }

    func region(_ regionID: String, query: [(String, String)]) async throws -> Response {
        let queries = self.queries, asked = try askedWindow(query), end = Self.endOfMinute(now())
        // The window and the region in one trip to the readers.
        let (window, found) = try await reads.run {
            let window = try asked ?? Self.recentWindow(newest: queries.newestUpload(), end: end)
            return (window, try queries.region(id: regionID, window: window))
        }
        guard let region = found else {
            let closest: [RegionRank] = switch try await regionMatch(regionID, suggesting: true) {
            case .found(let region): [region]
            case .ambiguous(let regions, _): regions
            case .unknown(let closest): closest
            }
            var html = "No region has the id <q>\(HTMLPage.escape(String(regionID.prefix(80))))</q>."
            if !closest.isEmpty {
                html += " Did you mean:</p>\n<ul>" + closest.map {
                    "<li><a href=\"\(HTMLPage.escape(site.region($0.regionID)))\" dir=\"auto\">\(HTMLPage.escape($0.name))</a></li>"
                }.joined() + "</ul>\n<p>"
            }
            throw HTTPAnswer.notFound(html)
        }
        return try await list(PhotoList(.region(region), window: window), query: query)
    }

    /// A search's results. `keep`: whether its matches may be kept for its next pages (not
    /// for another site's page, which could fill the cache with searches of its own).
    func search(_ query: [(String, String)], keep: Bool) async throws -> Response {
        let text = FormText.value("q", in: query)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !text.isEmpty else {
            return Responses.page(HTMLPage.message(
                title: "Search", text: "Type words to look for in the photos' titles, descriptions, photographers and regions.", site: site))
        }
        let searchQuery: SearchQuery
        do {
            searchQuery = try SearchQuery(text)
        } catch {
            throw HTTPAnswer.badRequest(HTMLPage.escape(error.message))
        }
        let queries = self.queries
        var region: RegionRank?
        if let regionID = FormText.value("region", in: query), !regionID.isEmpty {
            guard let found = try await reads.run({ try queries.region(id: regionID) }) else {
                throw HTTPAnswer.notFound("No region has the id <q>\(HTMLPage.escape(String(regionID.prefix(80))))</q>.")
            }
            region = found
        }
        // Words that name a region: the region itself is offered above the photos.
        var named: RegionRank?
        if region == nil, case .found(let found) = try await regionMatch(text, suggesting: false) {
            named = found
        }
        var notice = ""
        if let named {
            notice = "<p class=\"notice\">The region <a href=\"\(HTMLPage.escape(site.region(named.regionID)))\" dir=\"auto\">"
                + "\(HTMLPage.escape(named.name))</a> has \(named.photos) photo\(named.photos == 1 ? "" : "s").</p>\n"
        }
        return try await list(PhotoList(.search(searchQuery, region: region), window: try await window(query)), query: query, notice: notice, keep: keep)
    }

    /// One page of a list of photos: `page` and `sort` from the address.
    func list(_ list: PhotoList, query: [(String, String)], notice: String = "", keep: Bool = true) async throws -> Response {
        let number: Int
        if let text = FormText.value("page", in: query) {
            guard let parsed = Int(text), parsed >= 1 else { throw HTTPAnswer.badRequest("The page number must be 1 or more.") }
            number = parsed
        } else {
            number = 1
        }
        var list = list
        // A zoomed map's box: the list keeps to the photos inside it.
        if let text = FormText.value("bbox", in: query) {
            do {
                list.view = try GeoBox(parsing: text)
            } catch {
                throw HTTPAnswer.badRequest(HTMLPage.escape(error.message) + ".")
            }
        }
        switch FormText.value("sort", in: query) {
        case nil, "uploaded": break
        case "title": list.order = .title
        case let other?:
            throw HTTPAnswer.badRequest("Photos can be sorted by <q>title</q> or <q>uploaded</q>, not <q>\(HTMLPage.escape(String(other.prefix(40))))</q>.")
        }
        // Every stored photo, asked for (`window=all`), is carried by the page's links as any
        // window is: without it, a page of the list, another order or a part of its map would
        // fall back to the default window.
        let carried = list.window?.lengthText ?? (FormText.value("window", in: query) == "all" ? "all" : nil)
        let queries = self.queries, site = self.site.windowed(carried), times = self.times
        let ordered = list
        // The count and the map cover the whole list: computed once per list until the photos
        // change, so each page costs its 30 photos. A page whose summary is kept is read on
        // the readers' threads; one that computes it (the map of every photo of a
        // big store) or waits for another request computing it does so on the threads that may
        // wait, so that it never holds up the pages that are quick.
        let (summary, shown) = try await kept(in: maps, key: ordered.summaryKey, keep: keep, exact: ordered == .recents) {
            try ListSummary(ordered, queries)
        } then: { summary in
            (summary, try queries.page(number, of: ordered, summary: summary))
        }
        // A search that found nothing: the one it may have meant ("harbor" → "harbour").
        var mended: String?
        if summary.total == 0, case .search(let query, _) = list.kind {
            mended = try await reads.run { try queries.mendedSearch(query.text) }
        }
        guard let shown else {
            let paging = Paging(page: number, total: summary.total)
            let last = site.link(to: list, page: paging.pages)
            throw HTTPAnswer.notFound("This list has \(paging.pages) page\(paging.pages == 1 ? "" : "s"); the last is <a href=\"\(HTMLPage.escape(last))\">page \(paging.pages)</a>.")
        }
        var page = HTMLPage.photos(
            shown.photos, list: list, images: HTMLPage.Images(thumbnails: nil), site: site, paging: shown.paging, map: summary.map,
            formatTime: { times.string($0) }, times: times)
        var notice = notice
        if let mended, case .search(_, let region) = list.kind, let searchQuery = try? SearchQuery(mended) {
            let link = site.link(to: PhotoList(.search(searchQuery, region: region), window: list.window), page: 1)
            notice += "<p class=\"notice\">Did you mean <a href=\"\(HTMLPage.escape(link))\"><q dir=\"auto\">\(HTMLPage.escape(mended))</q></a>?</p>\n"
        }
        notice += summary.coverageNotice(list, times: times)
        if !notice.isEmpty { page = HTMLPage.inserting(notice, afterHeaderOf: page) }
        return Responses.page(page)
    }

    /// A photo's page. Viewing it is what Recents lists (unless another site's page led here):
    /// the view is handed to `views` and written beside the answer, which never waits for it.
    func photoPage(_ photoID: String, recordsView: Bool) async throws -> Response {
        let queries = self.queries, views = self.views, site = self.site, times = self.times, now = self.now
        let page: [UInt8]? = try await reads.run {
            guard var photo = try queries.photo(id: photoID) else { return nil }
            if recordsView {
                views?.record(photoID, at: Int64(now()))
                photo.viewedAt = Int64(now())
            }
            let places = try photo.record.regionID.map { try queries.places(inRegion: $0) } ?? []
            return HTMLPage.photo(
                photo, site: site, formatTime: { times.string($0) },
                places: places.map { HTMLPage.PlaceLabel(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) })
        }
        guard let page else { throw HTTPAnswer.notFound("No photo \(photoID) is stored (deleted, pruned, or never loaded).") }
        return Responses.page(page)
    }
}
