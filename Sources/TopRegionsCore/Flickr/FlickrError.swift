import TopRegionsHTTP
/// Why a Flickr call failed, sorted by what the caller should do about it.
public enum FlickrError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Flickr answered `stat: fail`.
    case api(method: String, code: Int, message: String)
    /// A non-200 HTTP status (after retries, when it was transient).
    case http(method: String, status: Int)
    /// No complete response (after retries, when it was transient).
    case transport(method: String, HTTPError)
    /// A 200 whose body is not the JSON Flickr sends.
    case badResponse(method: String, reason: String)
    /// Flickr asked us to wait longer than a run should (429 with a long Retry-After).
    case rateLimited(method: String, retryAfter: Double)
    /// This run's `--max-calls` is spent.
    case runBudgetSpent(limit: Int)
    /// The calls made with this key in the last hour (all tools, all processes sharing the
    /// database) reached the hourly limit.
    case hourlyLimitReached(limit: Int, nextCallIn: Int)
    /// No key, or a key that cannot be one.
    case missingKey(String)

    /// Flickr's codes that mean the key or the request setup is wrong: retrying cannot
    /// help, and hammering Flickr with a bad key gets keys disabled.
    static let configurationCodes: Set<Int> = [95, 96, 97, 98, 99, 100, 111, 112, 114, 115, 116]

    /// Stop everything now: the setup must change first.
    public var isConfigurationError: Bool {
        switch self {
        case .api(_, let code, _): Self.configurationCodes.contains(code)
        case .missingKey: true
        case .http(_, let status): status == 401 || status == 403
        default: false
        }
    }

    /// Stop the run; a later run may succeed.
    public var isTemporary: Bool {
        switch self {
        case .rateLimited, .runBudgetSpent, .hourlyLimitReached: true
        case .transport(_, let error): error.isTransient
        case .http(_, let status): status == 429 || status >= 500
        case .api(let method, let code, _): code == 105 || (method == "flickr.photos.search" && code == 10)
        case .badResponse: true
        case .missingKey: false
        }
    }

    public var description: String {
        switch self {
        case .api(let method, let code, let message): "\(method): Flickr error \(code): \(message)"
        case .http(let method, let status): "\(method): HTTP \(status)"
        case .transport(let method, let error): "\(method): \(error)"
        case .badResponse(let method, let reason): "\(method): unexpected response: \(reason)"
        case .rateLimited(let method, let seconds): "\(method): Flickr asks to wait \(Int(seconds.rounded())) s before the next call (HTTP 429); try again later"
        case .runBudgetSpent(let limit): "this run's budget of \(limit) Flickr calls is spent (--max-calls); the rest waits for the next run"
        case .hourlyLimitReached(let limit, let seconds): "\(limit) Flickr calls were made with this database in the last hour, the hourly limit (FLICKR_HOURLY_LIMIT); the next call is possible in \(seconds) s"
        case .missingKey(let why): why
        }
    }
}
