import Synchronization
import TopRegionsHTTP

/// The network of a command run in process: canned answers by URL, given in order, and a
/// log of every URL asked. It keeps `HTTPConnection`'s contract as libcurl's session does
/// (only http and https, the size limit from Content-Length and as the body comes, the head
/// seen before the body and able to stop it), so what a command makes of an answer is what
/// it makes of the same answer from a server.
public final class MemoryNetwork: Sendable {
    public enum Answer: Sendable {
        case response(status: Int, headers: [String: String], body: [UInt8])
        case failure(HTTPError)
    }

    private struct State {
        var answers: [String: [Answer]] = [:]
        var requests: [String] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Answers the next request for `url` with this response (Content-Length is its body's).
    public func answer(_ url: String, status: Int = 200, headers: [String: String] = [:], body: [UInt8]) {
        var headers = headers
        headers["content-length"] = String(body.count)
        state.withLock { $0.answers[url, default: []].append(.response(status: status, headers: headers, body: body)) }
    }

    public func answer(_ url: String, status: Int = 200, json: String) {
        answer(url, status: status, headers: ["content-type": "application/json"], body: Array(json.utf8))
    }

    /// Fails the next request for `url` as a transfer fails.
    public func fail(_ url: String, with error: HTTPError) {
        state.withLock { $0.answers[url, default: []].append(.failure(error)) }
    }

    /// Every URL asked, in the order asked.
    public var requests: [String] { state.withLock { $0.requests } }

    /// For `ToolContext.memory(network:)`.
    public var network: Network {
        Network(connect: { Connection(self) })
    }

    /// A request no answer was given for fails for good (no retry, no wait).
    fileprivate func next(_ url: String) -> Answer {
        state.withLock { state in
            state.requests.append(url)
            guard var queue = state.answers[url], !queue.isEmpty else {
                return .failure(.other("no answer for \(url) in this test"))
            }
            let answer = queue.removeFirst()
            state.answers[url] = queue
            return answer
        }
    }

    public final class Connection: HTTPConnection {
        private let network: MemoryNetwork

        fileprivate init(_ network: MemoryNetwork) {
            self.network = network
        }

        public func get(
            _ url: String, headers: [String], timeouts: HTTPTimeouts, maxBytes: Int64?,
            head: ((HTTPResponseHead) throws -> HeadDecision)?, body: (UnsafeRawBufferPointer) throws -> Void
        ) throws(HTTPError) -> HTTPResponseHead {
            guard CurlSession.isFetchable(url) else { throw .unsupportedURL }
            let (status, responseHeaders, bytes): (Int, [String: String], [UInt8])
            switch network.next(url) {
            case .failure(let error): throw error
            case .response(let s, let h, let b): (status, responseHeaders, bytes) = (s, h, b)
            }
            let response = HTTPResponseHead(status: status, headers: responseHeaders, bodyBytes: 0)
            if let maxBytes, (200..<300).contains(status), let length = responseHeaders["content-length"].flatMap(Int64.init), length > maxBytes {
                throw .tooLarge(limit: maxBytes, announced: length)
            }
            do {
                if let head, try head(response) == .stop { return response }
                if let maxBytes, Int64(bytes.count) > maxBytes { throw HTTPError.tooLarge(limit: maxBytes, announced: nil) }
                try bytes.withUnsafeBytes { try body($0) }
            } catch {
                throw error as? HTTPError ?? .aborted("\(error)")
            }
            return HTTPResponseHead(status: status, headers: responseHeaders, bodyBytes: Int64(bytes.count))
        }
    }
}
