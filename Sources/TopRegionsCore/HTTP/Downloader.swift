import Foundation
import TopRegionsSupport

/// Why an image could not be downloaded (after retries, when the failure was transient).
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case http(status: Int)
    case transport(HTTPError)
    /// Not an image: an HTML error page, an empty body.
    case notAnImage(String)
    /// Keeping it failed (disk full, no descriptor left, ...): the words, and the kind of
    /// failure it was.
    case storage(String, kind: Failure.Kind)

    /// Worth another attempt in the same run. A body over the size limit, one that is not
    /// an image, or a download that outlasted its time limit would only do the same again.
    public var isTransient: Bool {
        switch self {
        case .http(let status): status == 429 || status >= 500
        case .transport(.timeLimit): false
        case .transport(let error): error.isTransient
        case .notAnImage, .storage: false
        }
    }

    /// A failure of this machine (disk, descriptors, memory, libcurl that cannot be loaded)
    /// rather than of the download: the next photo would fail the same way, so the run stops.
    public var isResourceFailure: Bool {
        resourceFailure != nil
    }

    /// The failure as the run's last word, when it is one of this machine.
    public var resourceFailure: Failure? {
        switch self {
        case .storage(let message, let kind) where kind == .inputOutput || kind == .resourceExhausted || kind == .unavailable:
            Failure(kind, message)
        case .transport(.osResource(let message)): Failure(.resourceExhausted, message)
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .http(let status): "HTTP \(status)"
        case .transport(let error): error.description
        case .notAnImage(let why): why
        case .storage(let why, _): why
        }
    }
}

/// How much one download may take: bytes, and seconds from start to end.
public struct DownloadLimits: Sendable {
    public var maxBytes: Int64
    public var seconds: Double

    public init(maxBytes: Int64, seconds: Double) {
        self.maxBytes = maxBytes
        self.seconds = seconds
    }

    /// A square thumbnail is a few KB; a few hundred KB is already not one.
    public static let thumbnail = DownloadLimits(maxBytes: 512 << 10, seconds: 60)
}

/// Downloaders kept from one batch of work to the next (their connections, and what libcurl
/// resolved).
public typealias Downloaders = KeptWorkers<Downloader>

/// Downloads images (static files: they do not count against the API key's hourly limit)
/// over one connection, streaming the body to a sink, retrying transient failures with
/// backoff and honouring Retry-After.
///
/// Every download is bounded: a Content-Length over the size limit is refused before the
/// body, a body is stopped the moment it passes the limit, a response that says it is not
/// an image (Content-Type) or does not start like one is stopped at once (never drained),
/// and the whole transfer has a time limit. None of these is retried.
public final class Downloader {
    public let retry: RetryPolicy
    public let sleep: @Sendable (Double) -> Void
    public let now: @Sendable () -> Double
    /// Told of each request and retry (--verbose); image URLs carry no key.
    public let trace: (@Sendable (String) -> Void)?
    /// Told of the size of each chunk of body received (progress on a terminal).
    public let received: (@Sendable (Int) -> Void)?
    private let session: any HTTPConnection

    /// Throws when no connection can be made on `network` (out of memory or descriptors, 71).
    public init(
        network: Network, retry: RetryPolicy, now: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
        trace: (@Sendable (String) -> Void)? = nil, received: (@Sendable (Int) -> Void)? = nil
    ) throws {
        self.retry = retry
        self.now = now
        self.sleep = sleep
        self.trace = trace
        self.received = received
        session = try network.connect()
    }

    /// Downloads `url`. `begin` is called before each attempt (to start the sink afresh),
    /// `write` with each chunk of the body of a 200 response. Returns the body size.
    public func download(
        _ url: String, limits: DownloadLimits, begin: () throws -> Void, write: (UnsafeRawBufferPointer) throws -> Void
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
                    throw Self.storageError(error)
                }
                var prefix: [UInt8] = []
                let started = now()
                // What our own callbacks threw (libcurl only passes on that they stopped it).
                var thrown: (any Error)?
                let head: HTTPResponseHead
                do {
                    head = try session.get(url, headers: [], timeouts: .download(total: limits.seconds), maxBytes: limits.maxBytes, head: { head in
                        // An error page's body is not worth reading (and may never end).
                        guard head.status == 200 else { return .stop }
                        if let type = head.headers["content-type"], !Self.mayBeImage(contentType: type) {
                            thrown = DownloadError.notAnImage("not an image (Content-Type \(Terminal.printable(type)))")
                            throw thrown!
                        }
                        return .read
                    }) { chunk in
                        received?(chunk.count)
                        do {
                            // Only an image body reaches the sink: judged by its first bytes,
                            // before anything is written.
                            if prefix.count < Self.jpegMagic.count {
                                prefix += chunk.prefix(Self.jpegMagic.count - prefix.count)
                                if prefix.count == Self.jpegMagic.count, prefix != Self.jpegMagic {
                                    let start = prefix.map { String(format: "%02X", $0) }.joined(separator: " ")
                                    throw DownloadError.notAnImage("not a JPEG (it starts with \(start))")
                                }
                            }
                            try write(chunk)
                        } catch {
                            thrown = error
                            throw error
                        }
                    }
                } catch {
                    if let thrown { throw thrown as? DownloadError ?? Self.storageError(thrown) }
                    throw error
                }
                trace?("GET \(url) → \(head.status), \(head.bodyBytes) bytes, \(String(format: "%.2f", now() - started)) s")
                if head.status == 200 {
                    guard head.bodyBytes > 0 else { throw DownloadError.notAnImage("empty body") }
                    guard prefix == Self.jpegMagic else { throw DownloadError.notAnImage("not a JPEG (\(head.bodyBytes) bytes)") }
                    return .done(head.bodyBytes)
                }
                failure = .http(status: head.status)
                if head.status == 429 { retryAfter = RetryPolicy.retryAfter(head.headers["retry-after"], now: now()) }
            } catch let error as DownloadError {
                failure = error
            } catch let error as HTTPError {
                failure = .transport(error)
            } catch {
                failure = Self.storageError(error)
            }
            guard failure.isTransient else { throw failure }
            return .transient(failure, retryAfter: retryAfter)
        }
    }

    /// A failure to keep a download, with the kind of failure it was.
    public static func storageError(_ error: any Error) -> DownloadError {
        if let error = error as? Failure { return .storage(error.message, kind: error.kind) }
        if let error = error as? DownloadError { return error }
        return .storage("\(error)", kind: .inputOutput)
    }

    /// A JPEG's first bytes. Flickr serves every size the tools ask for (`_s`, `_b`) as
    /// JPEG; anything else (an HTML error page, the PNG "photo unavailable" placeholder a
    /// redirect leads to) is not the photo and must not be stored as if it were.
    static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Image types, and the generic binary types some mirrors and proxies use (then the
    /// first bytes decide). Text, HTML, JSON, XML and the like are refused before the body.
    static func mayBeImage(contentType: String) -> Bool {
        // The media type: before any parameters, without the spaces and tabs around it (RFC
        // 9110's OWS), without case (the standard library's lowercasing: Foundation's
        // trimming and lowercasing were a tenth of a cold thumb-get's CPU time).
        let type = String(contentType.prefix { $0 != ";" }).trimmingSpaces().lowercased()
        return type.isEmpty || type.hasPrefix("image/") || type == "application/octet-stream" || type == "binary/octet-stream"
    }

    /// Downloads a small image into memory.
    public func fetch(_ url: String, limits: DownloadLimits = .thumbnail) throws(DownloadError) -> [UInt8] {
        var data: [UInt8] = []
        _ = try download(url, limits: limits, begin: { data.removeAll(keepingCapacity: true) }) { chunk in
            data.append(contentsOf: chunk)
        }
        return data
    }
}
