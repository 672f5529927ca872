#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How a logged response went, as the `fault` field shows it.
enum LoggedFault: String, Sendable {
    case none, http429, http500, stat105, truncated, drip, status, redirect
    case endless, endlessHTML = "endless-html", trickle, hugeLength = "huge-length"

    init(_ body: BodyFault) {
        self = switch body {
        case .endless: .endless
        case .endlessHTML: .endlessHTML
        case .trickle: .trickle
        case .hugeLength: .hugeLength
        }
    }
}

/// One line per answered request, written and flushed the moment the response is complete or
/// cut, so a test can read the file right after its client returns. The API key never
/// appears: it is left out of `params`.
final class RequestLog: Sendable {
    /// What a line says about the request and its answer, known before the body goes out.
    struct Request: Sendable {
        let kind: RequestKind
        let method: String?
        let path: String
        let parameters: [(name: String, value: String)]
        let status: Int
        let attempt: Int
    }

    private struct State {
        let file: UnsafeMutablePointer<FILE>
        var sequence = 0
    }

    private let state: Mutex<State>

    /// Creates (or empties) the file at `path`.
    init(path: String) throws(FakeFlickrError) {
        guard let file = fopen(path, "w") else {
            throw FakeFlickrError("cannot open the request log \(path): \(String(cString: strerror(errno)))")
        }
        state = Mutex(State(file: file))
    }

    deinit {
        state.withLock { _ = fclose($0.file) }
    }

    /// Writes one line: the request, the body bytes that went out, and how it went.
    func record(_ request: Request, bytes: Int, fault: LoggedFault) {
        state.withLock { state in
            state.sequence += 1
            var line = JSONObject()
            line.add("seq", number: state.sequence)
            line.add("kind", string: request.kind.rawValue)
            if let method = request.method { line.add("method", string: method) }
            line.add("path", string: request.path)
            var parameters = JSONObject()
            for (name, value) in request.parameters { parameters.add(name, string: value) }
            line.add("params", object: parameters)
            line.add("status", number: request.status)
            line.add("bytes", number: bytes)
            line.add("fault", string: fault.rawValue)
            line.add("attempt", number: request.attempt)
            fputs(line.serialized + "\n", state.file)
            fflush(state.file)
        }
    }
}
