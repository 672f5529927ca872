import Foundation

/// Exponential backoff with jitter between attempts of one call.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts = 5
    public var baseDelay: Double = 1
    public var maxDelay: Double = 60
    /// The longest Retry-After a run waits for; longer means "come back later".
    public var maxRetryAfter: Double = 120
    /// Multiplies the computed backoff (not Retry-After). Tests shrink it with
    /// `TOPREGIONS_BACKOFF_SCALE`; users have no reason to.
    public var scale: Double = 1

    public init() {}

    public static func from(environment: [String: String], maxAttempts: Int) -> RetryPolicy {
        var policy = RetryPolicy()
        policy.maxAttempts = maxAttempts
        if let scale = environment["TOPREGIONS_BACKOFF_SCALE"].flatMap(Double.init), scale >= 0 { policy.scale = scale }
        return policy
    }

    /// The wait before attempt `attempt + 1`: half of base·2^(attempt−1) (capped) plus a
    /// random share of the other half, so parallel workers do not retry in lockstep.
    public func backoff(after attempt: Int) -> Double {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return (ceiling / 2 + Double.random(in: 0...(ceiling / 2))) * scale
    }

    /// What one attempt came to.
    public enum Attempt<Value, Failure: Error> {
        case done(Value)
        /// Worth another attempt; `retryAfter` when the server said how long to wait.
        case transient(Failure, retryAfter: Double?)
    }

    /// Runs `attempt` (numbered from 1) until it is done, fails for good (by throwing), or the
    /// attempts are spent. Between attempts it waits the server's Retry-After when there is
    /// one, else a backoff with jitter. A Retry-After longer than `maxRetryAfter`, or one
    /// still pending when the attempts are spent, ends with `rateLimited(failure, seconds)`.
    public func run<Value, Failure: Error>(
        sleep: (Double) -> Void,
        rateLimited: (Failure, Double) -> Failure,
        beforeRetry: (Failure, _ nextAttempt: Int, _ wait: Double) -> Void = { _, _, _ in },
        _ attempt: (Int) throws(Failure) -> Attempt<Value, Failure>
    ) throws(Failure) -> Value {
        var number = 0
        while true {
            number += 1
            switch try attempt(number) {
            case .done(let value):
                return value
            case .transient(let failure, let retryAfter):
                if let retryAfter, retryAfter > maxRetryAfter || number >= maxAttempts {
                    throw rateLimited(failure, retryAfter)
                }
                guard number < maxAttempts else { throw failure }
                let wait = max(retryAfter ?? 0, backoff(after: number))
                beforeRetry(failure, number + 1, wait)
                sleep(wait)
            }
        }
    }

    /// Seconds from a Retry-After header (seconds, or an HTTP date).
    public static func retryAfter(_ header: String?, now: Double) -> Double? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        // Clamped: a server may send anything, and a day is already "come back later".
        if let seconds = Double(header), seconds.isFinite, seconds >= 0 { return min(seconds, 86_400) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        return min(max(0, date.timeIntervalSince1970 - now), 86_400)
    }
}
