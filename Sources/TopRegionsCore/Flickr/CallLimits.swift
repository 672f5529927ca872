import Foundation
import Synchronization
import TopRegionsStore
import TopRegionsSupport

/// A run's own cap on Flickr calls (`--max-calls`). Every attempt counts, retries included:
/// each one is a call Flickr sees.
public final class RunBudget: Sendable {
    public let limit: Int
    private let used = Mutex(0)

    public init(limit: Int) {
        self.limit = limit
    }

    public func take() throws(FlickrError) {
        let granted = used.withLock { used -> Bool in
            guard used < limit else { return false }
            used += 1
            return true
        }
        guard granted else { throw .runBudgetSpent(limit: limit) }
    }

    public var callsMade: Int { used.withLock { $0 } }
}

/// The calls made in the last hour, kept in the database so that every tool and process
/// using it stays, together, under Flickr's 3,600 calls per hour per key.
///
/// Each call is admitted only if fewer than `limit` calls were made in the 3,600 seconds
/// before it (a sliding window, so runs may burst as long as the hour stays under the limit).
/// The default limit, 3,500, leaves headroom below Flickr's published 3,600;
/// `FLICKR_HOURLY_LIMIT` changes it.
///
/// Until the database exists (a first run, which creates it only when it has something to
/// write: a run refused by Flickr leaves no file behind), the calls are counted here, in
/// memory, and written into it once it does (`recordCallsMadeBefore`).
public struct CallLedger: Sendable {
    public let database: StoreOnFirstWrite
    public let limit: Int
    private let unrecorded = Box()

    /// The calls made while the database did not exist, shared by the ledger's copies.
    private final class Box: Sendable {
        let calls = Mutex<[Double]>([])
    }

    public static let defaultLimit = 3500

    public init(store: Store, limit: Int) {
        self.init(database: StoreOnFirstWrite(store), limit: limit)
    }

    public init(database: StoreOnFirstWrite, limit: Int) {
        self.database = database
        self.limit = limit
    }

    public static func limit(environment: [String: String]) throws -> Int {
        guard let text = environment["FLICKR_HOURLY_LIMIT"], !text.isEmpty else { return defaultLimit }
        guard let value = Int(text), value > 0 else {
            throw Failure(.misconfigured, "FLICKR_HOURLY_LIMIT must be a positive number of calls, not '\(text)'")
        }
        return value
    }

    /// Records one call at `now`, or throws if the window is full.
    public func admit(now: Double) throws(FlickrError) {
        let admission: CallLog.Admission
        do {
            if let store = database.existing {
                try recordCallsMadeBefore()
                admission = try CallLog(store: store).admit(at: now, limit: limit, window: 3600)
            } else {
                admission = unrecorded.calls.withLock { calls in
                    calls.removeAll { $0 <= now - 3600 }
                    if calls.count >= limit { return .full(nextCallIn: max(1, Int((calls[0] + 3600 - now).rounded(.up)))) }
                    calls.append(now)
                    return .admitted
                }
            }
        } catch {
            // A database that cannot record the call must not let calls through uncounted.
            throw .badResponse(method: "call ledger", reason: "cannot record the call: \(error)")
        }
        if case .full(let nextCallIn) = admission {
            throw .hourlyLimitReached(limit: limit, nextCallIn: nextCallIn)
        }
    }

    /// Writes the calls counted while the database did not exist, once it does.
    public func recordCallsMadeBefore() throws {
        guard let store = database.existing else { return }
        let calls = unrecorded.calls.withLock { calls in
            defer { calls = [] }
            return calls
        }
        try CallLog(store: store).record(calls)
    }
}
