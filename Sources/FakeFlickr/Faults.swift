import Synchronization

/// The two kinds of request the fake answers (control requests under /_fake aside).
enum RequestKind: String, Sendable {
    case rest, image
}

/// A fault chosen for one response.
enum InjectedFault: Sendable, Equatable {
    case http429, http500, stat105, truncate
    case body(BodyFault)
    case status(Int)
    case redirect(String)
}

/// What the fault machinery decided for one request.
struct FaultDecision: Sendable {
    /// 1 for the first time this request key is asked, 2 for the next, …
    let attempt: Int
    let fault: InjectedFault?
    let latencyMilliseconds: Int
    let dripMilliseconds: Int
    let retryAfterSeconds: Int
    /// Error answers quote the request's API key (`FaultOptions.echoKey`).
    var echoKey = false
}

/// Decides faults from a hash of (seed, request key, attempt number): the same sequence of
/// requests against the same seed and settings is faulted the same way on every run.
final class FaultInjector: Sendable {
    private struct State {
        var options: FaultOptions
        var attemptsByKey: [String: Int] = [:]
    }

    private let seed: UInt64
    private let state: Mutex<State>

    init(seed: UInt64, options: FaultOptions) {
        self.seed = seed
        state = Mutex(State(options: options))
    }

    var options: FaultOptions {
        state.withLock { $0.options }
    }

    /// Replaces the whole configuration and forgets past attempts, so a test that sets new
    /// faults sees its requests counted from attempt 1.
    func replace(with options: FaultOptions) {
        state.withLock { $0 = State(options: options) }
    }

    /// Counts one more attempt of `key` and decides what happens to it. Checks run in the
    /// contract's order: 429, 500, 105 (REST only), truncation.
    func decide(kind: RequestKind, key: String) -> FaultDecision {
        let (options, attempt) = state.withLock { state in
            state.attemptsByKey[key, default: 0] += 1
            return (state.options, state.attemptsByKey[key]!)
        }
        let inScope = switch options.faultsOn {
        case .all: true
        case .rest: kind == .rest
        case .images: kind == .image
        }
        guard inScope else {
            return FaultDecision(
                attempt: attempt, fault: nil, latencyMilliseconds: 0, dripMilliseconds: 0,
                retryAfterSeconds: options.retryAfterSeconds)
        }
        let keyHash = Mixing.hash(key)
        func strikes(_ probability: Double, _ name: String) -> Bool {
            Mixing.unit(Mixing.combine(seed, keyHash, UInt64(attempt), Mixing.hash(name))) < probability
        }
        var fault: InjectedFault?
        if options.faultRepeat == 0 || attempt <= options.faultRepeat {
            if strikes(options.fail429, "429") {
                fault = .http429
            } else if strikes(options.fail500, "500") {
                fault = .http500
            } else if kind == .rest && strikes(options.fail105, "105") {
                fault = .stat105
            } else if strikes(options.truncate, "truncate") {
                fault = .truncate
            }
        }
        if fault == nil {
            if let body = options.bodyFault {
                fault = .body(body)
            } else if let status = options.status {
                fault = .status(status)
            } else if let redirect = options.redirect {
                fault = .redirect(redirect)
            }
        }
        return FaultDecision(
            attempt: attempt, fault: fault, latencyMilliseconds: options.latencyMilliseconds,
            dripMilliseconds: options.dripMilliseconds, retryAfterSeconds: options.retryAfterSeconds, echoKey: options.echoKey)
    }
}

extension FaultOptions {
    static let controlParameterNames: Set<String> = [
        "latency_ms", "fail_500", "fail_105", "fail_429", "retry_after", "truncate", "drip_ms", "fault_repeat", "faults_on",
        "body_fault", "status", "redirect", "echo_key",
    ]

    /// Reads `POST /_fake/faults?…`: a parameter left out takes its default (0, or 1 for
    /// retry_after and fault_repeat, all for faults_on).
    init(controlQuery query: QueryParameters) throws(FakeFlickrError) {
        self.init()
        for (name, _) in query.pairs where !Self.controlParameterNames.contains(name) {
            throw FakeFlickrError("unknown fault setting \"\(name)\"")
        }
        func integer(_ name: String, default fallback: Int) throws(FakeFlickrError) -> Int {
            guard let text = query[name] else { return fallback }
            guard let value = Int(text) else { throw FakeFlickrError("\(name) must be a whole number") }
            return value
        }
        func fraction(_ name: String) throws(FakeFlickrError) -> Double {
            guard let text = query[name] else { return 0 }
            guard let value = Double(text) else { throw FakeFlickrError("\(name) must be a number") }
            return value
        }
        latencyMilliseconds = try integer("latency_ms", default: 0)
        fail500 = try fraction("fail_500")
        fail105 = try fraction("fail_105")
        fail429 = try fraction("fail_429")
        retryAfterSeconds = try integer("retry_after", default: 1)
        truncate = try fraction("truncate")
        dripMilliseconds = try integer("drip_ms", default: 0)
        faultRepeat = try integer("fault_repeat", default: 1)
        if let scope = query["faults_on"] {
            guard let parsed = FaultScope(rawValue: scope) else { throw FakeFlickrError("faults_on must be rest, images or all") }
            faultsOn = parsed
        }
        if let body = query["body_fault"] {
            guard let parsed = BodyFault(rawValue: body) else {
                throw FakeFlickrError("body_fault must be one of \(BodyFault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            bodyFault = parsed
        }
        if query["status"] != nil { status = try integer("status", default: 0) }
        redirect = query["redirect"]
        switch query["echo_key"] {
        case nil, "0": echoKey = false
        case "1": echoKey = true
        default: throw FakeFlickrError("echo_key must be 0 or 1")
        }
        try validate()
    }

    /// The settings as `GET /_fake/faults` shows them, named like the control parameters.
    var json: String {
        var object = JSONObject()
        object.add("latency_ms", number: latencyMilliseconds)
        object.add("fail_500", numeral: String(fail500), quoted: false)
        object.add("fail_105", numeral: String(fail105), quoted: false)
        object.add("fail_429", numeral: String(fail429), quoted: false)
        object.add("retry_after", number: retryAfterSeconds)
        object.add("truncate", numeral: String(truncate), quoted: false)
        object.add("drip_ms", number: dripMilliseconds)
        object.add("fault_repeat", number: faultRepeat)
        object.add("faults_on", string: faultsOn.rawValue)
        if let bodyFault { object.add("body_fault", string: bodyFault.rawValue) }
        if let status { object.add("status", number: status) }
        if let redirect { object.add("redirect", string: redirect) }
        object.add("echo_key", number: echoKey ? 1 : 0)
        return object.serialized
    }
}
