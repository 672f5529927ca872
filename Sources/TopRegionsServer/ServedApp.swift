import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// What every request of one `regions-serve` shares: the database, the photo cache, the
/// workers that download, the pages' link scheme with its form token, and the names this
/// server answers to.
final class ServedApp: Sendable {
    let store: Store
    let queries: Queries
    let writer: PhotoWriter
    let site: Site
    /// nil when it cannot be written here and the database is served read-only: pages and
    /// thumbnails are served, full photos are not.
    let cache: PhotoCache?
    /// Writes, downloads and files: each holds a thread while it waits.
    let blocking: BlockingWork
    /// The reads a page is made from, when they need no waiting: one thread per core. A read
    /// only computes (in WAL it never waits on a writer), so more threads would only share the
    /// cores, and every page under way would end later; a page that computes a whole list's
    /// summary, or waits for another request computing it, goes to `blocking` instead
    /// (docs/PERFORMANCE.md, "A served page's text and threads").
    let reads: BlockingWork
    let thumbnails: ThumbnailService
    let photos: PhotoService?
    let refresher: Refresher
    /// Views for Recents, written beside the pages, never in their way; none on a database
    /// this server cannot write.
    let views: ViewRecorder?
    /// Whether the database can be changed here: false on a read-only filesystem or a file
    /// this user may not write, where it is served as it is.
    var canChange: Bool { !store.isReadOnly }
    /// Each list's count, drawn map (tens to hundreds of KB for a big region) and a search's
    /// matches (8 bytes a match), until the database changes; the last used, up to 2 MB
    /// as counted (a search of up to about 250,000 matches is kept; a broader one is
    /// computed for each of its pages). Sized by the server's memory budget, most of which
    /// its code and libraries take: the process grows by more than what is counted (its
    /// peak after 450 broad searches 66.0–67.1 MB with 4 MB, 62.9–64.4 with 3, 61.0–61.3
    /// with 2; docs/PERFORMANCE.md, "The server's memory after broad searches", and "A
    /// load's reading at a lower priority").
    /// During a load, each computed again at most every 2 s (`recomputeAfter`).
    let maps = ComputedOnce<ListSummary>(capacityBytes: 2 << 20, staleFor: 5, recomputeAfter: 2) { $0.bytes }
    /// The regions' names folded for matching a search's words (`RegionMatcher`), until the
    /// database changes (a few seconds behind during a load, as the lists are).
    let regionNames = ComputedOnce<RegionMatcher>(capacityBytes: 4 << 20, staleFor: 5, recomputeAfter: 2) { $0.bytes }
    /// The top regions' page, until the database changes.
    let topPage = ComputedOnce<[UInt8]>(capacityBytes: 2 << 20) { $0.count }
    /// When each feed (and rising entry) last changed, for Last-Modified and `<updated>`.
    let feedChanges = FeedChanges()

    /// After the server's own changes (delete, undelete, prune, a refresh): the next pages
    /// compute what they show, rather than serve what was kept a moment ago (`ComputedOnce`).
    func forgetComputed() {
        maps.forget()
        regionNames.forget()
        topPage.forget()
    }
    /// The heap's free pages given back when no request is under way.
    let trim = IdleTrim()
    let times: TimeFormat
    let now: @Sendable () -> Double
    let trace: (@Sendable (String) -> Void)?
    /// The Host header values a request may carry (DNS rebinding: a page of another site
    /// whose name now points here sends its own name).
    let hosts: HostCheck

    init(
        store: Store, cache: PhotoCache?, refresher: Refresher, formToken: String, hosts: HostCheck, downloads: Int,
        photoLimits: DownloadLimits, thumbnailLimits: DownloadLimits, network: Network, retry: RetryPolicy, times: TimeFormat,
        now: @escaping @Sendable () -> Double, note: @escaping @Sendable (String) -> Void, trace: (@Sendable (String) -> Void)?
    ) throws {
        self.store = store
        queries = Queries(store: store)
        writer = PhotoWriter(store: store)
        site = Site.served(formToken: formToken).changing(!store.isReadOnly)
        self.cache = cache
        self.refresher = refresher
        views = store.isReadOnly ? nil : try ViewRecorder(store: store, note: note)
        // Writes and downloads each hold a thread while they wait.
        blocking = BlockingWork(threads: 4 + 2 * downloads)
        reads = BlockingWork(threads: max(2, System.coreCount))
        thumbnails = try ThumbnailService(store: store, workers: downloads, limits: thumbnailLimits, network: network, retry: retry, now: now, trace: trace)
        photos = try cache.map { try PhotoService(cache: $0, workers: max(1, downloads / 2), limits: photoLimits, network: network, retry: retry, now: now, trace: trace) }
        self.times = times
        self.now = now
        self.trace = trace
        self.hosts = hosts
    }

    // MARK: Answering

    func respond(to request: Request) async -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        trim.started()
        let response = await answer(request)
        trim.finished()
        if let trace {
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            trace("\(request.method) \(request.uri.path) → \(response.status.code) in \(String(format: "%.1f", milliseconds)) ms")
        }
        return response
    }

    private func answer(_ request: Request) async -> Response {
        // Another site's page whose name was pointed at this machine (DNS rebinding) sends
        // its own name as the Host: refused before anything else is read.
        guard hosts.allows(request.head.authority) else {
            return Responses.text(.forbidden, "This server answers only to \(hosts.described) (regions-serve --allow-host adds a name).\n")
        }
        guard request.uri.path.utf8.count <= 2_048, (request.uri.query?.utf8.count ?? 0) <= 2_048 else {
            return Responses.text(.uriTooLong, "The address is too long.\n")
        }
        guard let segments = Self.segments(request.uri.path) else {
            return Responses.page(HTMLPage.message(title: "Bad address", text: "The address is not valid.", site: site), status: .badRequest)
        }
        let query: [(String, String)]
        do {
            query = try FormText.pairs(Substring(request.uri.query ?? ""))
        } catch {
            return Responses.page(HTMLPage.message(title: "Bad address", text: FormText.malformedText(error), site: site), status: .badRequest)
        }
        do {
            switch request.method {
            case .get, .head:
                return try await get(segments, query: query, fromThisSite: Self.isFromThisSite(request), headers: request.headers, authority: request.head.authority)
            case .post:
                return try await post(segments, request: request)
            default:
                var response = Responses.text(.methodNotAllowed, "Only GET, HEAD and POST.\n")
                response.headers[.allow] = "GET, HEAD, POST"
                return response
            }
        } catch let problem as SearchQuery.Problem {
            return Responses.page(HTMLPage.message(title: "Search", text: HTMLPage.escape(problem.message), site: site), status: .badRequest)
        } catch let answer as HTTPAnswer {
            return Responses.page(HTMLPage.message(title: answer.title, text: answer.html, site: site), status: answer.status)
        } catch {
            trace?("error: \(error)")
            let failure = store.failure(describing: error)
            return Responses.page(
                HTMLPage.message(title: "Something failed", text: HTMLPage.escape(failure.message), site: site), status: .internalServerError)
        }
    }

    /// Whether the request came from this server's own pages, a bookmark or a typed address,
    /// as far as the browser says (`Sec-Fetch-Site`; a client that does not say is believed):
    /// not from another site's page (a link, an `<img>`).
    static func isFromThisSite(_ request: Request) -> Bool {
        guard let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!] else { return true }
        return site == "same-origin" || site == "none"
    }

    /// The path's segments, each percent-decoded; nil when one does not decode (or names a
    /// directory above: no segment is "." or "..").
    static func segments(_ path: String) -> [String]? {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = FormText.decode(Substring(raw.replacingOccurrences(of: "+", with: "%2B"))),
                  segment != ".", segment != "..", !segment.contains("/"), !segment.utf8.contains(0) else { return nil }
            segments.append(segment)
        }
        return segments
    }
}

/// An answer that is not the page asked for (a 404, a bad parameter), with its words.
struct HTTPAnswer: Error {
    var status: HTTPResponse.Status
    var title: String
    /// Already HTML.
    var html: String

    static func notFound(_ html: String) -> HTTPAnswer { HTTPAnswer(status: .notFound, title: "Not found", html: html) }
    static func badRequest(_ html: String) -> HTTPAnswer { HTTPAnswer(status: .badRequest, title: "Bad request", html: html) }
}

/// Responses with the headers every answer of this server carries.
enum Responses {
    static func page(
        _ bytes: [UInt8], status: HTTPResponse.Status = .ok, policy: String = Site.served(formToken: "").contentSecurityPolicy + "; frame-ancestors 'none'"
    ) -> Response {
        var headers = common(contentType: "text/html; charset=utf-8")
        // A page changes as data arrives: never shown from a cache.
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = policy
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = common(contentType: "text/plain; charset=utf-8")
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// After a POST: the page to show next (303, so a reload does not post again).
    static func seeOther(_ location: String) -> Response {
        var headers = common(contentType: "text/plain; charset=utf-8")
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "See \(location)\n")))
    }

    static func common(contentType: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xFrameOptions] = "DENY"
        return headers
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
