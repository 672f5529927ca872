import CCurl
import CSupport
import Foundation
import Synchronization
import TopRegionsSupport

/// Why an HTTP transfer did not give a complete response.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Only http and https URLs are ever fetched.
    case unsupportedURL
    case timedOut
    /// The connection closed before the announced Content-Length arrived.
    case truncated(received: Int64, expected: Int64)
    /// Could not resolve, connect, send or receive.
    case connection(String)
    /// Certificate or TLS failure: retrying will not help.
    case tls(String)
    /// The body is (or announces, in Content-Length) more than `limit` bytes; the transfer
    /// was stopped without reading the rest.
    case tooLarge(limit: Int64, announced: Int64?)
    /// The whole transfer took longer than its total time limit (`HTTPTimeouts.total`),
    /// however steadily bytes came.
    case timeLimit(seconds: Double)
    /// The receiver of the body gave up (e.g. a full disk); its message.
    case aborted(String)
    /// The process stopped its downloads (`CurlSession.stopAll`).
    case stopped
    /// This process ran out of something a transfer needs (file descriptors, memory).
    case osResource(String)
    case other(String)

    /// Worth another attempt later in the same run.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .truncated, .connection, .timeLimit: true
        case .unsupportedURL, .tls, .tooLarge, .aborted, .stopped, .osResource, .other: false
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    public var description: String {
        switch self {
        case .unsupportedURL: "only http and https URLs are fetched"
        case .timedOut: "timed out"
        case .truncated(let received, let expected): "connection closed after \(received) of \(expected) bytes"
        case .connection(let message): message
        case .tls(let message): "TLS: \(message)"
        case .tooLarge(let limit, let announced?): "larger than the \(Units.formatSize(limit)) limit (Content-Length \(announced) bytes)"
        case .tooLarge(let limit, nil): "larger than the \(Units.formatSize(limit)) limit"
        case .timeLimit(let seconds): "took longer than the \(Self.format(seconds)) s time limit"
        case .aborted(let message): message
        case .stopped: "stopped: the program is stopping"
        case .osResource(let message): message
        case .other(let message): message
        }
    }
}

/// Status and headers of a response (header names lowercased).
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    /// Bytes of body received.
    public var bodyBytes: Int64

    public init(status: Int, headers: [String: String], bodyBytes: Int64) {
        self.status = status
        self.headers = headers
        self.bodyBytes = bodyBytes
    }
}

/// Timeouts for one kind of transfer.
public struct HTTPTimeouts: Sendable {
    /// Connecting (DNS, TCP, TLS).
    public var connect: TimeInterval
    /// The whole transfer, however steadily bytes come; nil for none (then only `stall`
    /// ends a slow transfer).
    public var total: TimeInterval?
    /// Give up when less than 1 KB/s arrives for this long.
    public var stall: TimeInterval

    public init(connect: TimeInterval, total: TimeInterval?, stall: TimeInterval) {
        self.connect = connect
        self.total = total
        self.stall = stall
    }

    /// API calls: small answers, expected fast.
    public static let api = HTTPTimeouts(connect: 10, total: 30, stall: 15)
    /// Image downloads of at most `total` seconds each.
    public static func download(total: TimeInterval) -> HTTPTimeouts {
        HTTPTimeouts(connect: 10, total: total, stall: 30)
    }
}

/// One libcurl easy handle: a connection that stays open between requests (keep-alive),
/// used by one thread at a time. Parallel stages give each worker a session of its own.
///
/// Every transfer has timeouts, follows at most 5 redirects, refuses any scheme but
/// http/https (redirects included), verifies TLS certificates, and takes proxies from the
/// environment as libcurl does (http_proxy, https_proxy/HTTPS_PROXY, ALL_PROXY, NO_PROXY).
public final class CurlSession: HTTPConnection {
    private let handle: UnsafeMutableRawPointer
    /// libcurl keeps this pointer and writes its error message there, so it must not move.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    public static let userAgent = "topregions/0.2.0 (libcurl)"

    /// Why libcurl cannot be used in this process, if it cannot (checked once).
    public static let unavailable: String? = tr_curl_load().map { String(cString: $0) }

    /// Stops a tool early, with a clear message, when libcurl cannot be loaded.
    public static func requireLibrary() throws {
        if let reason = unavailable { throw Failure(.unavailable, reason) }
    }

    /// Starts loading libcurl on a thread of its own and returns at once, for a tool that
    /// has database work to do before its first download: loading and relocating libcurl
    /// and its dependencies (and OpenSSL's set-up) takes several milliseconds, which then
    /// overlap that work. The first `CurlSession` made waits for the load, and says when
    /// it failed. Call `awaitLoading()` before the process exits: exiting while OpenSSL sets
    /// itself up on the other thread runs its clean-up in the middle of that (a crash).
    public static func loadInBackground() {
        loadStarted.store(true, ordering: .releasing)
        let thread = Thread { _ = unavailable }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Returns once a load `loadInBackground()` started has finished (at once when none was
    /// started: this never loads libcurl itself).
    public static func awaitLoading() {
        if loadStarted.load(ordering: .acquiring) { _ = unavailable }
    }

    private static let loadStarted = Atomic<Bool>(false)

    /// A handle on a connection. Throws (71) when libcurl cannot make one: it is out of
    /// memory, or libcurl could not be loaded at all (69).
    public init() throws {
        if let reason = Self.unavailable { throw Failure(.unavailable, reason) }
        guard let handle = tr_curl_easy_init() else {
            throw Failure(.resourceExhausted, "cannot make an HTTP connection handle (curl_easy_init failed: out of memory or descriptors)")
        }
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        tr_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// GETs `url` (see `HTTPConnection.get`).
    public func get(
        _ url: String, headers: [String] = [], timeouts: HTTPTimeouts = .api, maxBytes: Int64? = nil,
        head: ((HTTPResponseHead) throws -> HeadDecision)? = nil,
        body: (UnsafeRawBufferPointer) throws -> Void
    ) throws(HTTPError) -> HTTPResponseHead {
        guard Self.isFetchable(url) else { throw .unsupportedURL }
        tr_curl_easy_reset(handle)
        // The callbacks only run inside curl_easy_perform below, so the closures do not escape.
        let outcome: Result<HTTPResponseHead, HTTPError> = withoutActuallyEscaping(body) { body in
            let transfer = Transfer(body: body, maxBytes: maxBytes)
            return withExtendedLifetime(transfer) {
                if let head {
                    return withoutActuallyEscaping(head) { head in
                        transfer.onHead = head
                        defer { transfer.onHead = nil }
                        return perform(url, headers: headers, timeouts: timeouts, transfer: transfer)
                    }
                }
                return perform(url, headers: headers, timeouts: timeouts, transfer: transfer)
            }
        }
        return try outcome.get()
    }

    private func perform(_ url: String, headers: [String], timeouts: HTTPTimeouts, transfer: Transfer) -> Result<HTTPResponseHead, HTTPError> {
        do throws(HTTPError) {
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            var headerList: UnsafeMutablePointer<curl_slist>?
            defer { tr_curl_slist_free_all(headerList) }
            for header in headers { headerList = tr_curl_slist_append(headerList, header) }

            setString(CURLOPT_URL, url)
            setLong(CURLOPT_HTTPGET, 1)
            setLong(CURLOPT_NOSIGNAL, 1)  // threads: no SIGALRM-based DNS timeouts
            try restrictProtocols()
            setLong(CURLOPT_FOLLOWLOCATION, 1)
            setLong(CURLOPT_MAXREDIRS, 5)
            setLong(CURLOPT_SSL_VERIFYPEER, 1)
            setLong(CURLOPT_SSL_VERIFYHOST, 2)
            setString(CURLOPT_USERAGENT, Self.userAgent)
            setLong(CURLOPT_CONNECTTIMEOUT_MS, Int(timeouts.connect * 1000))
            if let total = timeouts.total { setLong(CURLOPT_TIMEOUT_MS, Int(total * 1000)) }
            // libcurl refuses a Content-Length over the limit before the body (and, in recent
            // versions, stops a body of unknown length at it); the write callback checks too.
            if let maxBytes = transfer.maxBytes { _ = tr_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes)) }
            setLong(CURLOPT_LOW_SPEED_LIMIT, 1024)
            setLong(CURLOPT_LOW_SPEED_TIME, max(1, Int(timeouts.stall)))
            _ = tr_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            _ = tr_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
            _ = tr_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, writeCallback)
            _ = tr_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            _ = tr_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, headerCallback)
            _ = tr_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            // Checked about once a second, bytes or not: a stop ends every transfer under way.
            setLong(CURLOPT_NOPROGRESS, 0)
            _ = tr_curl_setopt_xferinfo_function(handle, CURLOPT_XFERINFOFUNCTION, progressCallback)
            _ = tr_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, nil)
            errorBuffer[0] = 0

            let started = Self.monotonicSeconds()
            guard !Self.isStopping else { throw .stopped }
            let code = tr_curl_easy_perform(handle)
            if code == CURLE_ABORTED_BY_CALLBACK, Self.isStopping { throw .stopped }
            if let failure = transfer.bodyError {
                throw failure as? HTTPError ?? .aborted("\(failure)")
            }
            var status = 0
            _ = tr_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            if transfer.stoppedAtHead {
                return .success(HTTPResponseHead(status: status, headers: transfer.headers, bodyBytes: 0))
            }
            var announced: curl_off_t = -1
            _ = tr_curl_getinfo_off_t(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced)
            if code == CURLE_FILESIZE_EXCEEDED, let maxBytes = transfer.maxBytes {
                // libcurl may stop at the Content-Length before it reports it: read the header.
                let length = transfer.headers["content-length"].flatMap(Int64.init) ?? (announced >= 0 ? Int64(announced) : nil)
                throw .tooLarge(limit: maxBytes, announced: length)
            }
            if code == CURLE_OPERATION_TIMEDOUT, let total = timeouts.total, Self.monotonicSeconds() - started >= total * 0.95 {
                throw .timeLimit(seconds: total)
            }
            guard code == CURLE_OK else {
                if code == CURLE_PARTIAL_FILE {
                    throw .truncated(received: transfer.received, expected: Int64(announced))
                }
                throw classify(code)
            }
            if announced >= 0, transfer.received != announced {
                throw .truncated(received: transfer.received, expected: Int64(announced))
            }
            return .success(HTTPResponseHead(status: status, headers: transfer.headers, bodyBytes: transfer.received))
        } catch {
            return .failure(error)
        }
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Set once the process is stopping (a server given SIGTERM, past its grace): every
    /// transfer under way, and every one about to start, ends with `HTTPError.stopped`.
    private static let stopping = Atomic<Bool>(false)

    static var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Ends every transfer of the process, under way or to come, within about a second.
    public static func stopAll() {
        stopping.store(true, ordering: .relaxed)
    }

    /// http:// and https:// only (case-insensitive), with a host.
    public static func isFetchable(_ url: String) -> Bool {
        let lower = url.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            return lower.count > scheme.count && !lower.dropFirst(scheme.count).hasPrefix("/")
        }
        return false
    }

    /// Only http and https, for the request and any redirect. libcurl before 7.85 does not
    /// know the string options and takes the older bitmask ones; if neither takes, no
    /// request is made.
    private func restrictProtocols() throws(HTTPError) {
        let web = Int(CURLPROTO_HTTP | CURLPROTO_HTTPS)
        // 181 and 182: CURLOPT_PROTOCOLS and CURLOPT_REDIR_PROTOCOLS (deprecated, so not
        // imported by name).
        for (named, mask) in [(CURLOPT_PROTOCOLS_STR, CURLoption(181)), (CURLOPT_REDIR_PROTOCOLS_STR, CURLoption(182))] {
            let restricted = "http,https".withCString { tr_curl_setopt_string(handle, named, $0) } == CURLE_OK
                || tr_curl_setopt_long(handle, mask, web) == CURLE_OK
            guard restricted else { throw .other("this libcurl cannot be limited to http and https; nothing was fetched") }
        }
    }

    private func classify(_ code: CURLcode) -> HTTPError {
        let detail = String(validatingCString: errorBuffer[0] != 0 ? UnsafePointer(errorBuffer) : tr_curl_easy_strerror(code)) ?? "libcurl error \(code.rawValue)"
        // libcurl reports a socket() that failed for want of descriptors as "couldn't
        // connect": a retry, or a message about the server, would mislead.
        if [CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_FAILED_INIT, CURLE_OUT_OF_MEMORY].contains(code),
           let free = Descriptors.free(), free < 4 {
            return .osResource("cannot open a connection: \(Descriptors.exhausted)")
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SSL_CONNECT_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connection(detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return .tls(detail)
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedURL
        case CURLE_TOO_MANY_REDIRECTS: return .other("too many redirects")
        case CURLE_OUT_OF_MEMORY: return .other("libcurl is out of memory")
        default: return .other(detail)
        }
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
        _ = tr_curl_setopt_long(handle, option, value)
    }

    private func setString(_ option: CURLoption, _ value: String) {
        // libcurl copies string options (since 7.17), so a temporary C string is enough.
        _ = value.withCString { tr_curl_setopt_string(handle, option, $0) }
    }
}

/// State of one transfer, reached from libcurl's C callbacks through their user pointer.
private final class Transfer {
    let body: (UnsafeRawBufferPointer) throws -> Void
    let maxBytes: Int64?
    var onHead: ((HTTPResponseHead) throws -> HeadDecision)?
    var status = 0
    var headers: [String: String] = [:]
    var received: Int64 = 0
    /// The head callback asked to stop before the body.
    var stoppedAtHead = false
    /// What the body's receiver (or the head callback, or the size limit) threw, which
    /// stopped the transfer.
    var bodyError: (any Error)?

    init(body: @escaping (UnsafeRawBufferPointer) throws -> Void, maxBytes: Int64?) {
        self.body = body
        self.maxBytes = maxBytes
    }

    /// The headers of the final response are complete: check the announced length, and let
    /// the caller look. Returns false to stop the transfer.
    func headComplete() -> Bool {
        // Informational responses and redirects that libcurl follows are not the answer.
        if (100..<200).contains(status) || ((300..<400).contains(status) && headers["location"] != nil) { return true }
        do {
            if let maxBytes, (200..<300).contains(status), let length = headers["content-length"].flatMap(Int64.init), length > maxBytes {
                throw HTTPError.tooLarge(limit: maxBytes, announced: length)
            }
            if let onHead, try onHead(HTTPResponseHead(status: status, headers: headers, bodyBytes: 0)) == .stop {
                stoppedAtHead = true
                return false
            }
            return true
        } catch {
            bodyError = error
            return false
        }
    }
}

/// Aborts the transfer once the process stops its downloads (`CurlSession.stopAll`).
private func progressCallback(_ context: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    CurlSession.isStopping ? 1 : 0
}

private func writeCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    do {
        if let maxBytes = transfer.maxBytes, transfer.received + Int64(length) > maxBytes {
            throw HTTPError.tooLarge(limit: maxBytes, announced: nil)
        }
        try transfer.body(UnsafeRawBufferPointer(start: data, count: length))
        transfer.received += Int64(length)
        return length
    } catch {
        transfer.bodyError = error
        return 0  // anything but `length` makes libcurl stop with CURLE_WRITE_ERROR
    }
}

private func headerCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    guard let data else { return length }
    // Read as bytes: a header line is ASCII framing around its value, and its white space is
    // spaces and tabs (RFC 9110's OWS) and the CRLF that ends it. (Foundation's
    // trimmingCharacters took a tenth of a cold thumb-get's CPU time.)
    let line = trimmed(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)[...])
    if line.starts(with: "HTTP/".utf8) {
        transfer.headers = [:]  // a new response (after a redirect or a 100 Continue)
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 2)
        transfer.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    } else if line.isEmpty {
        // The blank line that ends a response's headers.
        if !transfer.headComplete() { return 0 }  // stops the transfer (CURLE_WRITE_ERROR)
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
        transfer.headers[name] = value
    }
    return length
}

/// `bytes` without the spaces, tabs, CRs and LFs at either end.
private func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var start = bytes.startIndex, end = bytes.endIndex
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return bytes[start..<end]
}
