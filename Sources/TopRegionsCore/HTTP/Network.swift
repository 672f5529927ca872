/// What to do with a response once its status and headers are in, before its body.
public enum HeadDecision: Sendable {
    /// Read the body.
    case read
    /// Stop here, without reading the body (it may be endless): the response is the head
    /// alone, with `bodyBytes` 0.
    case stop
}

/// One HTTP connection, used by one thread at a time: the GETs the Flickr client and the
/// downloaders make. `CurlSession` is the real one.
public protocol HTTPConnection: AnyObject {
    /// GETs `url`, handing the body to `body` as it arrives (so a download never needs to
    /// fit in memory). Throws for transport failures; any HTTP status is a response. Only
    /// http and https URLs are fetched (`unsupportedURL` otherwise, nothing requested).
    ///
    /// A body over `maxBytes` is refused as early as possible: from its Content-Length
    /// before any byte is read, else the moment the bytes pass the limit (`tooLarge`).
    /// `head` sees the final response's status and headers (not those of redirects) and may
    /// stop the transfer, or throw to refuse it; either way the body is not drained. What
    /// `head` or `body` throws ends the transfer as that error when it is an `HTTPError`,
    /// else as `aborted`.
    func get(
        _ url: String, headers: [String], timeouts: HTTPTimeouts, maxBytes: Int64?,
        head: ((HTTPResponseHead) throws -> HeadDecision)?,
        body: (UnsafeRawBufferPointer) throws -> Void
    ) throws(HTTPError) -> HTTPResponseHead
}

extension HTTPConnection {
    /// GETs `url` into memory, refusing bodies larger than `limit`.
    public func fetch(_ url: String, headers: [String] = [], timeouts: HTTPTimeouts = .api, limit: Int = 16 << 20) throws(HTTPError) -> (HTTPResponseHead, [UInt8]) {
        var data: [UInt8] = []
        let head = try get(url, headers: headers, timeouts: timeouts, maxBytes: Int64(limit), head: nil) { chunk in
            data.append(contentsOf: chunk)
        }
        return (head, data)
    }
}

/// Where a tool's connections come from: libcurl (`Network.curl`) in the executables, the
/// one a test gives in its `ToolContext` (canned answers, a request log) in process.
public struct Network: Sendable {
    /// A new connection. Throws when none can be made: out of memory or descriptors (71),
    /// no HTTP library (69).
    public var connect: @Sendable () throws -> any HTTPConnection
    /// Throws (69) when no connection can be made in this process at all, so a tool stops
    /// before any work.
    public var requireAvailable: @Sendable () throws -> Void
    /// Gets ready for the first connection on another thread while the tool does other
    /// work; `awaitLoading` waits for that before the process may exit.
    public var loadInBackground: @Sendable () -> Void
    public var awaitLoading: @Sendable () -> Void

    public init(
        connect: @escaping @Sendable () throws -> any HTTPConnection, requireAvailable: @escaping @Sendable () throws -> Void = {},
        loadInBackground: @escaping @Sendable () -> Void = {}, awaitLoading: @escaping @Sendable () -> Void = {}
    ) {
        self.connect = connect
        self.requireAvailable = requireAvailable
        self.loadInBackground = loadInBackground
        self.awaitLoading = awaitLoading
    }

    /// libcurl, opened at run time.
    public static let curl = Network(
        connect: { try CurlSession() }, requireAvailable: { try CurlSession.requireLibrary() },
        loadInBackground: { CurlSession.loadInBackground() }, awaitLoading: { CurlSession.awaitLoading() })
}
