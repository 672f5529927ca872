import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hummingbird's basic request context plus the connection's channel, which the fake needs to
/// cut a connection in the middle of a body.
struct ConnectionContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// What every connection shares: the world, the virtual clock, the fault settings, the log.
final class ServerState: Sendable {
    let world: World
    let faults: FaultInjector
    let log: RequestLog?
    private let clock: Mutex<Int64>
    private let receivedCount = Mutex(0)

    init(world: World, faults: FaultOptions, log: RequestLog?) {
        self.world = world
        self.faults = FaultInjector(seed: world.options.seed, options: faults)
        self.log = log
        clock = Mutex(world.options.now)
    }

    /// The virtual now, in Unix seconds. Photos uploaded after it do not exist yet.
    var now: Int64 {
        get { clock.withLock { $0 } }
        set { clock.withLock { $0 = newValue } }
    }

    /// Requests received so far, control requests aside (`/_fake/received`): a test can tell
    /// that a client has asked before the answer, held back by latency, goes out.
    var received: Int {
        receivedCount.withLock { $0 }
    }

    func countReceived() {
        receivedCount.withLock { $0 += 1 }
    }

    /// Moves the clock and returns the new time, unless that would leave
    /// `WorldOptions.validTimes` (then nothing changes and the answer is nil).
    func advanceClock(by seconds: Int64) -> Int64? {
        clock.withLock { now in
            let (moved, overflow) = now.addingReportingOverflow(seconds)
            guard !overflow, WorldOptions.validTimes.contains(moved) else { return nil }
            now = moved
            return moved
        }
    }
}

/// A response body, produced range by range so that a 40 MB image is streamed, never held.
enum Body: Sendable {
    case buffer(ByteBuffer)
    case jpeg(JPEGFiller)

    init(_ text: String) {
        self = .buffer(ByteBuffer(string: text))
    }

    var length: Int {
        switch self {
        case .buffer(let buffer): buffer.readableBytes
        case .jpeg(let filler): filler.length
        }
    }

    func bytes(in range: Range<Int>) -> ByteBuffer {
        switch self {
        case .buffer(let buffer): buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!
        case .jpeg(let filler): filler.bytes(in: range)
        }
    }
}

/// The answer to one REST or image request, before faults that shape its delivery.
struct PlannedResponse: Sendable {
    var status: HTTPResponse.Status
    var contentType: String
    var body: Body
    var retryAfterSeconds: Int?
    /// Where a redirect points.
    var location: String?

    /// An error page; `key`, when the fault that quotes the key is on, is quoted in it.
    static func html(_ status: HTTPResponse.Status, _ title: String, _ text: String, key: String? = nil) -> PlannedResponse {
        let quoted = key.map { "<p>Your request (api_key=\($0)) was refused; key \($0).</p>" } ?? ""
        let page = """
            <!DOCTYPE html>
            <html><head><title>\(status.code) \(title)</title></head>
            <body><h1>\(title)</h1><p>\(text)</p>\(quoted)</body></html>

            """
        return PlannedResponse(status: status, contentType: "text/html; charset=utf-8", body: Body(page))
    }
}

struct FakeFlickrResponder: HTTPResponder {
    typealias Context = ConnectionContext

    let state: ServerState

    func respond(to request: Request, context: ConnectionContext) async throws -> Response {
        let path = request.uri.path
        let query = QueryParameters(rawQuery: request.uri.query)
        if path == "/_fake" || path.hasPrefix("/_fake/") {
            return ControlAPI(state: state).respond(method: request.method, path: path, query: query)
        }
        state.countReceived()
        // Everything that is not the REST endpoint is the image host, as on Flickr.
        let kind: RequestKind = (path == "/services/rest/" || path == "/services/rest") ? .rest : .image
        let decision = state.faults.decide(kind: kind, key: kind == .rest ? query.requestKey : path)
        // The key to quote in error answers, when asked to (an image request carries none).
        let quotedKey = decision.echoKey ? query["api_key"] ?? "" : nil
        let planned: PlannedResponse
        switch decision.fault {
        case .http429:
            var tooMany = PlannedResponse.html(.tooManyRequests, "Too Many Requests", "Please slow down and try again later.", key: quotedKey)
            tooMany.retryAfterSeconds = decision.retryAfterSeconds
            planned = tooMany
        case .http500:
            planned = .html(.internalServerError, "Internal Server Error", "Something went wrong.", key: quotedKey)
        case .status(let code):
            planned = .html(HTTPResponse.Status(code: code), "Error \(code)", "This request was refused.", key: quotedKey)
        case .redirect(let target):
            var redirect = PlannedResponse.html(.found, "Found", "Moved.")
            redirect.location = target.replacingOccurrences(of: "{key}", with: query["api_key"] ?? "")
            planned = redirect
        case .stat105:
            let reply = RestAPI(world: state.world, quotedKey: quotedKey).reply(.serviceUnavailable, query)
            planned = PlannedResponse(status: .ok, contentType: reply.contentType, body: Body(reply.body))
        case .body(let body):
            if decision.latencyMilliseconds > 0 {
                try await Self.pause(.milliseconds(decision.latencyMilliseconds))
            }
            let logRequest = RequestLog.Request(
                kind: kind, method: kind == .rest ? query["method"] : nil, path: path, parameters: query.loggable,
                status: 200, attempt: decision.attempt)
            return misbehave(body, logRequest: logRequest)
        case .truncate, nil:
            planned = answer(kind: kind, path: path, query: query, authority: request.head.authority, quotedKey: quotedKey)
        }
        if decision.latencyMilliseconds > 0 {
            try await Self.pause(.milliseconds(decision.latencyMilliseconds))
        }
        let logRequest = RequestLog.Request(
            kind: kind, method: kind == .rest ? query["method"] : nil, path: path, parameters: query.loggable,
            status: Int(planned.status.code), attempt: decision.attempt)
        return deliver(planned, decision: decision, channel: context.channel, logRequest: logRequest)
    }

    private func answer(kind: RequestKind, path: String, query: QueryParameters, authority: String?, quotedKey: String?) -> PlannedResponse {
        let world = state.world
        switch kind {
        case .rest:
            // Image URLs point back at the fake, through the host name the client used.
            let reply = RestAPI(world: world, quotedKey: quotedKey).respond(
                to: query, now: state.now, imageBaseURL: "http://\(authority ?? "127.0.0.1")")
            return PlannedResponse(status: .ok, contentType: reply.contentType, body: Body(reply.body))
        case .image:
            guard let (photo, size) = world.image(atPath: path, now: state.now) else {
                return .html(.notFound, "Not Found", "No such photo.")
            }
            let (width, height) = size.dimensions(of: photo)
            let filler = JPEGFiller(
                length: world.imageLength(of: photo, size: size), seed: world.imageSeed(of: photo, size: size),
                width: width, height: height)
            return PlannedResponse(status: .ok, contentType: "image/jpeg", body: .jpeg(filler))
        }
    }

    /// Sends the body in chunks (about 1 KB apart by the drip delay when dripping), cuts it
    /// at half when truncating, and logs the bytes that really went out.
    private func deliver(
        _ planned: PlannedResponse, decision: FaultDecision, channel: any Channel, logRequest: RequestLog.Request
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = planned.contentType
        if let retryAfter = planned.retryAfterSeconds {
            headers[.retryAfter] = String(retryAfter)
        }
        if let location = planned.location {
            headers[.location] = location
        }
        let body = planned.body
        let length = body.length
        let truncating = decision.fault == .truncate
        let bytesToSend = truncating ? length / 2 : length
        let drip = decision.dripMilliseconds
        let chunkSize = drip > 0 ? 1024 : 64 * 1024
        let loggedFault: LoggedFault = switch decision.fault {
        case .http429: .http429
        case .http500: .http500
        case .stat105: .stat105
        case .truncate: .truncated
        case .body(let body): LoggedFault(body)
        case .status: .status
        case .redirect: .redirect
        case nil: drip > 0 ? .drip : .none
        }
        let log = state.log
        let responseBody = ResponseBody(contentLength: length) { writer in
            var sent = 0
            var logged = false
            func record(bytes: Int) {
                guard !logged else { return }
                logged = true
                log?.record(logRequest, bytes: bytes, fault: loggedFault)
            }
            do {
                while sent < bytesToSend {
                    if drip > 0 && sent > 0 {
                        try await Self.pause(.milliseconds(drip))
                    }
                    let end = min(sent + chunkSize, bytesToSend)
                    // The line is logged just before the bytes that complete the response go
                    // out, so a client holding the whole body always finds its line.
                    if end == length { record(bytes: length) }
                    try await writer.write(body.bytes(in: sent..<end))
                    sent = end
                }
                if truncating {
                    record(bytes: sent)
                    // Closing the output side first lets what was written reach the client;
                    // the client then sees the connection end short of Content-Length.
                    try await channel.close(mode: .output).get()
                    throw DeliberateTruncation()
                }
                try await writer.finish(nil)
            } catch {
                // Cut short by the client: log what did go out (unless already logged).
                record(bytes: sent)
                throw error
            }
        }
        return Response(status: planned.status, headers: headers, body: responseBody)
    }
}

extension FakeFlickrResponder {
    /// A body that never ends (or announces far more than it will ever send): it goes out
    /// until the client hangs up, or until `endlessBytes`, far past every limit the toolkit
    /// sets (1 MB for an API answer, 32 MB for a photo): a client that hung up without the
    /// server noticing (a busy machine) must not have it write, and buffer, for ever. Having
    /// no end, it is logged before it starts (bytes 0), so a client that gave up finds its
    /// line at once.
    func misbehave(_ fault: BodyFault, logRequest: RequestLog.Request) -> Response {
        state.log?.record(logRequest, bytes: 0, fault: LoggedFault(fault))
        var headers = HTTPFields()
        headers[.contentType] = fault == .endlessHTML ? "text/html; charset=utf-8" : "image/jpeg"
        let start: [UInt8] = fault == .endlessHTML ? Array("<!DOCTYPE html>\n<html><head><title>Hello</title></head><body>\n".utf8) : JPEGFiller.header
        let html = ByteBuffer(string: String(repeating: "<p>This page goes on and on.</p>\n", count: 2000))
        let (chunk, pause): (Int, Duration?) = switch fault {
        case .trickle: (1536, .seconds(1))
        case .endless, .endlessHTML, .hugeLength: (64 * 1024, nil)
        }
        let write: @Sendable (inout any ResponseBodyWriter) async throws -> Void = { writer in
            var sent = 0
            try await writer.write(ByteBuffer(bytes: start))
            sent += start.count
            while sent < Self.endlessBytes {
                try Task.checkCancellation()
                if let pause { try await Self.pause(pause) }
                let buffer = fault == .endlessHTML ? html.getSlice(at: 0, length: min(chunk, html.readableBytes))! : Self.noise(sent..<(sent + chunk))
                try await writer.write(buffer)
                sent += buffer.readableBytes
            }
        }
        let body = fault == .hugeLength ? ResponseBody(contentLength: 10 << 30, write) : ResponseBody(write)
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension FakeFlickrResponder {
    /// Where a body that "never ends" stops all the same (see `misbehave`).
    static let endlessBytes = 64 << 20

    /// Bytes that go on for ever after a JPEG header: byte i depends only on i.
    static func noise(_ range: Range<Int>) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { destination in
            for (offset, position) in range.enumerated() {
                destination[offset] = UInt8(truncatingIfNeeded: Mixing.finalize(0x5EED ^ UInt64(position / 8)) >> (UInt64(position % 8) * 8))
            }
            return range.count
        }
        return buffer
    }
}

extension FakeFlickrResponder {
    /// Waits, as a latency, a drip or a trickle asks, unless the server is stopping: then it
    /// throws, and the answer ends there. A stop waited out every pause under way (up to its
    /// 5 s limit), which every test stopping the fake mid-answer paid.
    static func pause(_ duration: Duration) async throws {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }
}

/// Thrown to make Hummingbird drop the connection after a deliberately short body.
struct DeliberateTruncation: Error {}
