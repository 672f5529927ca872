import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import TopRegionsSupport

/// Hummingbird's HTTP/1 channel, guarded against clients that would hold it up:
///
/// - At most `limit` connections at once, below the process's file descriptor limit with room
///   for the database, the cache and the downloads (`ConnectionLimit.forThisProcess`); one
///   more is answered 503 at once, with Retry-After, and closed, never left waiting. 1,260
///   connections sending a header line every 25 s held every descriptor and others timed out.
/// - A request's head must arrive within `headerTimeout` of the connection, or of the answer
///   before it on a kept-alive one; so must the next request (Hummingbird's idle timeout).
///   Its body must be whole within `headerTimeout` of its head (`RequestDeadline`): 40
///   POSTs sending a byte every 5 s held every connection the server may have, and others
///   were answered 503 for as long as they went on; one such kept a stop waiting 15 s.
/// - A request with two Host headers, or whose absolute-form target names another host than
///   its Host, is answered 400 and its connection closed (`OneHost`): the Host check read
///   the first, and a server must refuse such a request (RFC 9112 §3.2).
/// - An HTTP/1.0 request without `Connection: keep-alive` (or any request saying `Connection:
///   close`) is answered with `Connection: close`, and the connection closed after its answer,
///   not held open as HTTP/1.1's would be.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let connections: ConnectionLimit
    let requestTimeout: TimeAmount

    init(responder: @escaping HTTPChannelHandler.Responder, connections: ConnectionLimit, headerTimeout: TimeAmount) {
        inner = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: headerTimeout))
        self.connections = connections
        requestTimeout = headerTimeout
    }

    var responder: HTTPChannelHandler.Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionLimitHandler(connections), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(CloseWhenAsked(), position: .after(decoder))
            try channel.pipeline.syncOperations.addHandler(RequestDeadline(requestTimeout), position: .after(decoder))
            try channel.pipeline.syncOperations.addHandler(OneHost(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    /// The server builder for `Application(server:)`.
    static func builder(connections: ConnectionLimit, headerTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, connections: connections, headerTimeout: headerTimeout)
        }
    }
}

/// The connections open now, against the most there may be.
final class ConnectionLimit: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a connection in; false when it is one too many (it is not counted).
    func admit() -> Bool {
        let count = open.wrappingAdd(1, ordering: .relaxed).newValue
        if count > limit {
            open.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func release() {
        open.wrappingSubtract(1, ordering: .relaxed)
    }

    var current: Int { open.load(ordering: .relaxed) }

    /// Descriptors kept for everything but connections: the database (a writer, readers, the
    /// view recorder's), the photo cache and its lock, the downloads' sockets, the listening
    /// socket, the refresh's pipes, the standard streams.
    static let reserved = 96

    /// What this process can hold: its soft descriptor limit less `reserved`, at least 16,
    /// at most 4,096.
    static func forThisProcess() -> ConnectionLimit {
        ConnectionLimit(limit: min(4096, max(16, (Descriptors.limit ?? 4096 + reserved) - reserved)))
    }
}

/// First in a connection's pipeline: counts it in, or answers 503 and closes it.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connections: ConnectionLimit
    private var counted = false

    init(_ connections: ConnectionLimit) {
        self.connections = connections
    }

    static let busy = Array("""
        HTTP/1.1 503 Service Unavailable\r
        Content-Type: text/plain; charset=utf-8\r
        Retry-After: 5\r
        Connection: close\r
        Content-Length: 72\r
        \r
        This server has as many connections open as it can; try again shortly.\n
        """.utf8)

    func channelActive(context: ChannelHandlerContext) {
        if connections.admit() {
            counted = true
            context.fireChannelActive()
        } else {
            // The answer, then the end of what this side sends, and the connection closed once
            // the client closes it (or 5 s later): closed at once with its request unread, the
            // kernel would reset it, and the client might never read the answer.
            let answer = context.channel.allocator.buffer(bytes: Self.busy)
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in
                context.close(mode: .output, promise: nil)
                context.eventLoop.scheduleTask(in: .seconds(5)) { context.close(promise: nil) }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A connection turned away reads nothing.
        if counted { context.fireChannelRead(data) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            connections.release()
        }
        context.fireChannelInactive()
    }
}

/// Right after HTTP/1's decoder: a request that does not keep the connection alive (HTTP/1.0
/// without keep-alive, `Connection: close`) gets `Connection: close` on its answer, and the
/// connection is closed once the answer is written.
final class CloseWhenAsked: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request read and not yet answered keeps the connection alive, in order.
    private var keepAlive: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { keepAlive.append(head.isKeepAlive) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let closing = keepAlive.first == false
        switch unwrapOutboundIn(data) {
        case .head(var head) where closing:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !keepAlive.isEmpty:
            keepAlive.removeFirst()
            guard closing else { return context.write(data, promise: promise) }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.whenComplete { _ in context.close(promise: nil) }
        default:
            context.write(data, promise: promise)
        }
    }
}

/// Right after HTTP/1's decoder: a request's body must be whole within `timeout` of its head,
/// or the connection is closed. (The idle timeout waits for a silence, which a byte every
/// few seconds never leaves.)
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(_ timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

/// Right after HTTP/1's decoder: a request must name one host. Two Host headers, or an
/// absolute-form target (`GET http://host/path`) whose authority is not its Host, are
/// answered 400 and the connection closed, before anything reads the request.
final class OneHost: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var refusing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        if case .head(let head) = unwrapInboundIn(data), !Self.namesOneHost(head) {
            refusing = true
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: "0")
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.fireChannelRead(data)
    }

    static func namesOneHost(_ head: HTTPRequestHead) -> Bool {
        let hosts = head.headers["Host"]
        guard hosts.count <= 1 else { return false }
        // Absolute form: "http://authority/...". Its authority, not the Host, names the
        // host (RFC 9112 §3.2.2); the Host check reads the Host, so they must agree.
        guard let schemeEnd = head.uri.range(of: "://"), !head.uri.hasPrefix("/") else { return true }
        let authority = head.uri[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return hosts.first.map { $0.lowercased() == authority.lowercased() } ?? false
    }
}
