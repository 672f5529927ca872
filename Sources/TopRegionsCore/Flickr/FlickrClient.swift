import Foundation
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsSupport

/// What every Flickr client of a run shares: where Flickr is, the key, the limits, how to
/// retry, and where to report requests (`--verbose`).
public struct FlickrSettings: Sendable {
    /// Where the client's connection comes from.
    public var network: Network
    public var endpoints: FlickrEndpoints
    public var key: FlickrAPIKey
    public var budget: RunBudget
    public var ledger: CallLedger?
    public var retry: RetryPolicy
    public var now: @Sendable () -> Double
    /// Waits between attempts (a real sleep; tests may record instead).
    public var sleep: @Sendable (Double) -> Void
    /// Receives one line per attempt, URL redacted; nil when not verbose.
    public var trace: (@Sendable (String) -> Void)?

    public init(
        network: Network, endpoints: FlickrEndpoints, key: FlickrAPIKey, budget: RunBudget, ledger: CallLedger?, retry: RetryPolicy,
        now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
        trace: (@Sendable (String) -> Void)? = nil
    ) {
        self.network = network
        self.endpoints = endpoints
        self.key = key
        self.budget = budget
        self.ledger = ledger
        self.retry = retry
        self.now = now
        self.sleep = sleep
        self.trace = trace
    }
}

/// One page of `flickr.photos.search`.
public struct SearchPage: Sendable {
    public var page: Int
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [PhotoRecord]
    /// Photo objects that could not be read, with why.
    public var unreadable: [String]
}

/// The search parameters flickr-recent uses.
public struct SearchQuery: Sendable {
    /// Licence ids, comma-separated (the course's default: 1,2,4,7).
    public var license: String?
    public var minUploadDate: Int64?
    public var maxUploadDate: Int64?
    public var perPage = 500
    public var page = 1
    /// Oldest first: pages do not shift as new photos arrive, and a stream cut short is a
    /// prefix in time, so the next run can start from the newest photo stored.
    public var sort = "date-posted-asc"

    public static let extras = "original_format,description,geo,date_upload,owner_name,license,url_sq,url_l"

    public init() {}

    var parameters: [(String, String)] {
        var parameters: [(String, String)] = [("has_geo", "1")]
        if let license { parameters.append(("license", license)) }
        if let minUploadDate { parameters.append(("min_upload_date", String(minUploadDate))) }
        if let maxUploadDate { parameters.append(("max_upload_date", String(maxUploadDate))) }
        parameters += [("extras", Self.extras), ("sort", sort), ("per_page", String(perPage)), ("page", String(page))]
        return parameters
    }
}

/// Calls Flickr's REST API over one connection, with the retries, limits and checks Flickr
/// needs: it fails in-band with HTTP 200, sends 429s with HTML bodies, and mixes strings and
/// numbers. Not for sharing between threads: each worker makes its own.
public final class FlickrClient {
    public let settings: FlickrSettings
    private let session: any HTTPConnection

    /// The descriptors a client may hold at once: its connection, the socket pair libcurl's
    /// internal multi handle wakes up with, and two more while a resolver thread looks the
    /// host name up.
    public static let descriptors = 5

    /// Throws when no HTTP handle can be made (out of memory or descriptors, 71).
    public init(settings: FlickrSettings) throws {
        self.settings = settings
        session = try settings.network.connect()
    }

    // MARK: Methods

    public func search(_ query: SearchQuery) throws(FlickrError) -> SearchPage {
        let method = "flickr.photos.search"
        let response = try call(method, query.parameters, maxBytes: Self.searchAnswerLimit)
        guard let photos = response["photos"]?.objectValue, let list = photos["photo"]?.arrayValue else {
            throw .badResponse(method: method, reason: "no photos.photo list")
        }
        var records: [PhotoRecord] = []
        var unreadable: [String] = []
        for (index, element) in list.enumerated() {
            guard case .object(let object) = element else {
                unreadable.append("photo \(index): not an object")
                continue
            }
            do {
                var record = try PhotoRecord(json: object)
                record.fillImageURLs(staticBase: settings.endpoints.staticBase)
                // Flickr's own fields (secret, farm, geo_is_family, ...) are not part of the
                // record: flickr-recent emits normalized records.
                record.extra = JSONObject()
                records.append(record)
            } catch {
                unreadable.append(settings.key.redact("photo \(object["id"].flatMap(\.scalarText) ?? "#\(index)"): \(error.message)"))
            }
        }
        return SearchPage(
            page: photos["page"]?.integerValue ?? query.page, pages: photos["pages"]?.integerValue ?? 0,
            perPage: photos["perpage"]?.integerValue ?? query.perPage, total: photos["total"]?.integerValue ?? 0,
            photos: records, unreadable: unreadable)
    }

    /// The region a place lies in. Country-level places and places Flickr does not know
    /// (codes 2 and 3) have none; that answer is final and worth remembering.
    public func placeInfo(_ placeID: String) throws(FlickrError) -> PlaceResolution {
        let method = "flickr.places.getInfo"
        let response: JSONObject
        do {
            response = try call(method, [("place_id", placeID)], maxBytes: Self.placeAnswerLimit)
        } catch .api(_, let code, _) where code == 2 || code == 3 {
            return PlaceResolution(placeID: placeID, region: nil)
        }
        guard let place = response["place"]?.objectValue else {
            throw .badResponse(method: method, reason: "no place object")
        }
        guard let region = place["region"]?.objectValue else {
            return PlaceResolution(placeID: placeID, region: nil)
        }
        guard let regionID = region["place_id"].flatMap(\.scalarText), !regionID.isEmpty else {
            throw .badResponse(method: method, reason: "place.region has no place_id")
        }
        let name = region["_content"].flatMap(\.scalarText) ?? regionID
        return PlaceResolution(
            placeID: placeID,
            region: RegionInfo(
                placeID: regionID, name: name.isEmpty ? regionID : name,
                latitude: region["latitude"]?.doubleValue, longitude: region["longitude"]?.doubleValue),
            label: Self.label(of: place))
    }

    /// The place's short name (`woe_name`, else its full name up to the first comma) and
    /// centre; nil when either is missing or the centre is not on the globe.
    static func label(of place: JSONObject) -> PlaceLabelInfo? {
        let full = place["woe_name"].flatMap(\.scalarText) ?? place["name"].flatMap(\.scalarText) ?? ""
        let name = full.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !name.isEmpty, name.count <= 200, let latitude = place["latitude"]?.doubleValue, let longitude = place["longitude"]?.doubleValue,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return PlaceLabelInfo(name: name, latitude: latitude, longitude: longitude)
    }

    // MARK: The call

    /// The most a search page may be: 500 photos with their descriptions are well under 2 MB.
    public static let searchAnswerLimit = 16 << 20
    /// The most a place's answer may be (they are about 2 KB). Lookups run in parallel, each
    /// holding its answer in memory: with the search's limit, 32 of them under an endless
    /// body held more than 500 MB.
    public static let placeAnswerLimit = 1 << 20

    /// One API call: budget and hourly ledger first, then the request, retried with backoff
    /// while the failure is transient. Returns the response object once `stat` is "ok". An
    /// answer over `maxBytes` is refused for good (`HTTPError.tooLarge`).
    public func call(_ method: String, _ parameters: [(String, String)], maxBytes: Int = searchAnswerLimit) throws(FlickrError) -> JSONObject {
        let query = ([("method", method)] + parameters + [("format", "json"), ("nojsoncallback", "1")])
            .map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        let base = settings.endpoints.apiBase
        let separator = base.contains("?") ? "&" : "?"
        let url = base + separator + query + "&api_key=" + Self.encode(settings.key.value)
        let shown = base + separator + query + "&api_key=[API%20key]"

        let settings = self.settings
        return try settings.retry.run(
            sleep: settings.sleep,
            rateLimited: { _, seconds in .rateLimited(method: method, retryAfter: seconds) },
            beforeRetry: { failure, next, wait in
                // The failure's words begin with the call's method.
                trace("\(failure.description); attempt \(next) of \(settings.retry.maxAttempts) in \(String(format: "%.2f", wait)) s")
            }
        ) { (_: Int) throws(FlickrError) -> RetryPolicy.Attempt<JSONObject, FlickrError> in
            try settings.budget.take()
            try settings.ledger?.admit(now: settings.now())
            let started = settings.now()
            var failure: FlickrError
            var retryAfter: Double?
            do throws(HTTPError) {
                let (head, body) = try session.fetch(url, timeouts: .api, limit: maxBytes)
                trace("GET \(shown) → \(head.status), \(body.count) bytes, \(String(format: "%.2f", settings.now() - started)) s")
                switch head.status {
                case 200:
                    switch Self.interpret(body, method: method) {
                    case .success(let object): return .done(object)
                    case .failure(let error): failure = error
                    }
                case 429:
                    failure = .http(method: method, status: 429)
                    retryAfter = RetryPolicy.retryAfter(head.headers["retry-after"], now: settings.now())
                default:
                    failure = .http(method: method, status: head.status)
                }
            } catch {
                trace("GET \(shown) → \(error)")
                failure = .transport(method: method, error)
            }
            // Whatever came from outside (Flickr's message, libcurl's words about a redirect's
            // host) may quote the key: nothing printed, traced or passed on may hold it.
            failure = failure.redacted(settings.key)
            guard failure.isTemporary else { throw failure }
            return .transient(failure, retryAfter: retryAfter)
        }
    }

    /// Reads a 200 body: JSON (JSONP-wrapped or not) whose `stat` says ok or fail.
    static func interpret(_ body: [UInt8], method: String) -> Result<JSONObject, FlickrError> {
        var bytes = body[...]
        let prefix = Array("jsonFlickrApi(".utf8)
        if bytes.starts(with: prefix), let close = bytes.lastIndex(of: UInt8(ascii: ")")) {
            bytes = bytes[(bytes.startIndex + prefix.count)..<close]
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(bytes))
        } catch {
            // Flickr's 429s and proxies' error pages are HTML; a cut connection is half JSON.
            return .failure(.badResponse(method: method, reason: "not JSON (\(error.message) at byte \(error.offset))"))
        }
        guard case .object(let object) = value else {
            return .failure(.badResponse(method: method, reason: "not a JSON object"))
        }
        switch object["stat"]?.stringValue {
        case "ok":
            return .success(object)
        case "fail":
            let code = object["code"]?.integerValue ?? -1
            return .failure(.api(method: method, code: code, message: object["message"]?.stringValue ?? "no message"))
        default:
            return .failure(.badResponse(method: method, reason: "no stat"))
        }
    }

    /// Percent-encodes a query value, leaving commas literal as Flickr's own clients do.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private func trace(_ line: String) {
        settings.trace?(settings.key.redact(line))
    }
}

extension JSONValue {
    /// A number or a numeric string, as a whole number (Flickr sends either).
    public var integerValue: Int? {
        switch self {
        case .number(let text): Int(text) ?? Double(text).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil }
        case .string(let text): Int(text.trimmingSpaces()) ?? Double(text.trimmingSpaces()).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil }
        default: nil
        }
    }

    /// A number or a numeric string, as a Double.
    public var doubleValue: Double? {
        switch self {
        case .number(let text): Double(text)
        case .string(let text): Double(text.trimmingSpaces())
        default: nil
        }
    }

    /// A string, or a number's text.
    public var scalarText: String? {
        switch self {
        case .string(let text): text
        case .number(let text): text
        default: nil
        }
    }
}
