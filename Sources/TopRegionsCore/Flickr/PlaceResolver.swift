import Foundation
import Synchronization
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// What resolving a set of places came to.
public struct ResolveOutcome: Sendable {
    /// Every place asked about whose answer is known now: from the store, or looked up.
    public var resolved: [String: PlaceResolution] = [:]
    /// Places looked up in this call (each asked of Flickr exactly once).
    public var lookedUp = 0
    /// Stored photos that gained a region from these answers.
    public var photosAttached = 0
    /// Places still unknown because Flickr failed transiently; asked again next run.
    public var failed: [String: FlickrError] = [:]
    /// Why the lookups stopped early (configuration error, budget, hourly limit), if they did.
    public var stoppedBy: FlickrError?
    /// Why the lookups stopped because of this machine or the database (no descriptor left,
    /// disk full): the run ends with this error once what was resolved is passed on.
    public var storeFailure: Failure?
}

/// Looks places up with `flickr.places.getInfo`, a bounded number at a time, each at most
/// once ever: a place's answer is stored the moment it arrives, and a per-place lock shared
/// by every process using the database makes a second resolver wait for the first one's
/// answer instead of asking Flickr again.
public struct PlaceResolver: Sendable {
    /// Created (when new) by the first lookup, once the key is known to be there: a run
    /// whose places are all known, or that has no key, writes nothing and creates nothing.
    public let database: StoreOnFirstWrite
    public let parallel: Int
    /// Made on the first lookup, so a run whose places are all known needs no API key.
    private let settings: OnFirstUse<FlickrSettings>
    /// How many lookups at once, at most `parallel`: decided on the first lookup too (the
    /// descriptors free then may allow fewer).
    private let workers: OnFirstUse<Int>

    public init(store: Store, settings: FlickrSettings, parallel: Int) {
        self.init(database: StoreOnFirstWrite(store), parallel: parallel, settings: { settings })
    }

    /// `settings` is called once, when the first place has to be looked up; what it throws
    /// (no API key: a configuration error) comes out of `resolve`. So is `workers`, given
    /// `parallel`: how many lookups can really run at once (what it throws, e.g. no
    /// descriptor left for even one, comes out of `resolve` too).
    public init(
        database: StoreOnFirstWrite, parallel: Int, settings: @escaping @Sendable () throws -> FlickrSettings,
        workers: @escaping @Sendable (Int) throws -> Int = { $0 }
    ) {
        self.database = database
        self.parallel = parallel
        self.settings = OnFirstUse(settings)
        self.workers = OnFirstUse { try workers(parallel) }
    }

    /// Answers for `placeIDs`: what the store knows, and, when `lookUp`, Flickr's answer for
    /// the rest (without it, after a limit stopped the run, the store's answers still count).
    public func resolve(
        _ placeIDs: [String], lookUp: Bool = true, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> ResolveOutcome {
        var outcome = ResolveOutcome()
        // A database not created yet knows no place.
        outcome.resolved = try database.existing.map { try Queries(store: $0).knownPlaces(among: placeIDs) } ?? [:]
        let unknown = placeIDs.filter { outcome.resolved[$0] == nil }
        guard lookUp, !unknown.isEmpty else { return outcome }

        let settings = try self.settings.value()
        let workers = try self.workers.value()
        let store = try database.store()
        let queries = Queries(store: store)
        let shared = Mutex(outcome)
        let done = Atomic<Int>(0)
        let writer = PhotoWriter(store: store)
        let keyLocks = try store.keyLocks
        try WorkerPool.run(unknown, workers: workers, makeWorker: { try FlickrClient(settings: settings) }) { client, placeID in
            defer { progress(done.wrappingAdd(1, ordering: .relaxed).newValue, unknown.count) }
            let lock: KeyLock
            do {
                lock = try keyLocks.lock("place:" + placeID)
            } catch {
                // No descriptor left to take the lock with: stop asking, say why.
                shared.withLock { if $0.storeFailure == nil { $0.storeFailure = error as? Failure ?? Failure(.resourceExhausted, "\(error)") } }
                return .stopAll
            }
            defer { lock.unlock() }
            do {
                // Another process may have answered while we waited for the lock.
                if let known = try queries.knownPlaces(among: [placeID])[placeID] {
                    shared.withLock { $0.resolved[placeID] = known }
                    return .next
                }
                let answer = try client.placeInfo(placeID)
                let attached = try writer.record([answer], now: Int64(settings.now()))
                shared.withLock {
                    $0.resolved[placeID] = answer
                    $0.lookedUp += 1
                    $0.photosAttached += attached
                }
                return .next
            } catch let error as FlickrError {
                if error.isConfigurationError || Self.endsTheRun(error) {
                    shared.withLock { if $0.stoppedBy == nil { $0.stoppedBy = error } }
                    return .stopAll
                }
                shared.withLock { $0.failed[placeID] = error }
                return .next
            } catch {
                // The store failed: nothing more can be remembered, so stop asking.
                shared.withLock { if $0.storeFailure == nil { $0.storeFailure = store.failure(describing: error) } }
                return .stopAll
            }
        }
        return shared.withLock { $0 }
    }

    /// Limits, long waits, a machine out of descriptors, and a failure retrying cannot mend
    /// (an HTTP 4xx, a redirect to another scheme, an answer over its limit: flickr-recent
    /// stops there too) stop every worker: the next one would hit them too.
    static func endsTheRun(_ error: FlickrError) -> Bool {
        switch error {
        case .runBudgetSpent, .hourlyLimitReached, .rateLimited, .transport(_, .osResource): true
        default: !error.isTemporary
        }
    }
}

/// A value made by `make` on first use, then kept (or its error, rethrown each time).
final class OnFirstUse<Value: Sendable>: Sendable {
    private let make: @Sendable () throws -> Value
    private let made = Mutex<Result<Value, any Error>?>(nil)

    init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
    }

    func value() throws -> Value {
        try made.withLock { made in
            if made == nil { made = Result { try make() } }
            return try made!.get()
        }
    }
}
