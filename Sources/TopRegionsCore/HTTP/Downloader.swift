import Foundation

/// Why an image could not be downloaded (after retries, when the failure was transient).
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case http(status: Int)
    case transport(HTTPError)
    /// Not an image: an HTML error page, an empty body.
    case notAnImage(String)
    /// Writing it failed (disk full, ...).
    case storage(String)

    public var isTransient: Bool {
        switch self {
        case .http(let status): status == 429 || status >= 500
        case .transport(let error): error.isTransient
        case .notAnImage, .storage: false
        }
    }

    public var description: String {
        switch self {
        case .http(let status): "HTTP \(status)"
        case .transport(let error): error.description
        case .notAnImage(let why): why
        case .storage(let why): why
        }
    }
}

/// Downloads images (static files: they do not count against the API key's hourly limit)
/// over one connection, streaming the body to a sink, retrying transient failures with
/// backoff and honouring Retry-After.
public final class Downloader {
    public let retry: RetryPolicy
    public let sleep: @Sendable (Double) -> Void
    public let now: @Sendable () -> Double
    /// Told of each request and retry (--verbose); image URLs carry no key.
    public let trace: (@Sendable (String) -> Void)?
    /// Told of the size of each chunk of body received (progress on a terminal).
    public let received: (@Sendable (Int) -> Void)?
    private let session = CurlSession()

    public init(
        retry: RetryPolicy, now: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
        trace: (@Sendable (String) -> Void)? = nil, received: (@Sendable (Int) -> Void)? = nil
    ) {
        self.retry = retry
        self.now = now
        self.sleep = sleep
        self.trace = trace
        self.received = received
    }

    /// Downloads `url`. `begin` is called before each attempt (to start the sink afresh),
    /// `write` with each chunk of the body of a 200 response. Returns the body size.
    public func download(
        _ url: String, begin: () throws -> Void, write: (UnsafeRawBufferPointer) throws -> Void
    ) throws(DownloadError) -> Int64 {
        try retry.run(sleep: sleep, rateLimited: { failure, _ in failure }, beforeRetry: { failure, next, wait in
            self.trace?("GET \(url): \(failure); attempt \(next) of \(self.retry.maxAttempts) in \(String(format: "%.2f", wait)) s")
        }) { (_: Int) throws(DownloadError) -> RetryPolicy.Attempt<Int64, DownloadError> in
            var failure: DownloadError
            var retryAfter: Double?
            do {
                do {
                    try begin()
                } catch {
                    throw DownloadError.storage("\(error)")
                }
                var isImageBody = true
                var first = true
                let started = now()
                let head = try session.get(url, timeouts: .download) { chunk in
                    received?(chunk.count)
                    // Only an image body reaches the sink; HTML error pages are dropped.
                    if first {
                        first = false
                        isImageBody = Self.looksLikeImage(chunk)
                    }
                    if isImageBody { try write(chunk) }
                }
                trace?("GET \(url) → \(head.status), \(head.bodyBytes) bytes, \(String(format: "%.2f", now() - started)) s")
                if head.status == 200 {
                    guard head.bodyBytes > 0 else { throw DownloadError.notAnImage("empty body") }
                    guard isImageBody else {
                        throw DownloadError.notAnImage("not a JPEG (\(head.headers["content-type"] ?? "no content type"))")
                    }
                    return .done(head.bodyBytes)
                }
                failure = .http(status: head.status)
                if head.status == 429 { retryAfter = RetryPolicy.retryAfter(head.headers["retry-after"], now: now()) }
            } catch let error as DownloadError {
                failure = error
            } catch let error as HTTPError {
                // A sink that could not write (disk full) is not the network's fault.
                if case .aborted(let why) = error { throw .storage(why) }
                failure = .transport(error)
            } catch {
                failure = .storage("\(error)")
            }
            guard failure.isTransient else { throw failure }
            return .transient(failure, retryAfter: retryAfter)
        }
    }

    /// A JPEG's first bytes. Flickr serves every size the tools ask for (`_s`, `_b`) as
    /// JPEG; anything else (an HTML error page, the PNG "photo unavailable" placeholder a
    /// redirect leads to) is not the photo and must not be stored as if it were.
    static func looksLikeImage(_ bytes: UnsafeRawBufferPointer) -> Bool {
        Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF]
    }

    /// Downloads a small image into memory.
    public func fetch(_ url: String, limit: Int = 4 << 20) throws(DownloadError) -> [UInt8] {
        var data: [UInt8] = []
        _ = try download(url, begin: { data.removeAll(keepingCapacity: true) }) { chunk in
            guard data.count + chunk.count <= limit else { throw HTTPError.tooLarge(limit: limit) }
            data.append(contentsOf: chunk)
        }
        return data
    }
}
