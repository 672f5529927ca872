import TopRegionsRecords
import TopRegionsSupport

/// place-resolve's streaming half: records come in, and go out in the same order with the
/// region of every place that could be resolved. Records are held until `flush()` (after
/// each read, or every 1,000), when their places that are not yet known are resolved
/// together, each at most once per run; so downstream, a stream cut short is still a prefix
/// of the input.
public struct ResolvingStream {
    /// What the run came to so far.
    public struct Counts: Sendable, Equatable {
        /// Records passed on.
        public var records = 0
        /// Places asked of Flickr.
        public var lookedUp = 0
        /// Records passed on without a region because their place could not be looked up
        /// (lookups stopped, or failed): place-resolve --pending gives them one later.
        public var unresolved = 0
    }

    /// How many records are held at most before they are resolved and passed on.
    public static let chunk = 1000

    public let resolver: PlaceResolver
    public private(set) var counts = Counts()
    /// Every place known in this run, from the store or looked up.
    public private(set) var answers: [String: PlaceResolution] = [:]
    /// Places Flickr failed on (transiently) in this run: not asked again in it.
    public private(set) var failed: [String: FlickrError] = [:]
    /// Why lookups stopped (a call or rate limit, a refused key, a failure retrying cannot
    /// mend): later places pass on unresolved unless the store knows them.
    public private(set) var stoppedBy: FlickrError?
    /// Why lookups could not start (no API key, a bad setting, the database that could not
    /// be opened or created): every record passes on, with the regions the store knows.
    public private(set) var haltedBy: (any Error)?
    private var pending: [PhotoRecord] = []
    private var storeFailure: Failure?
    private let progress: @Sendable (Int, Int) -> Void
    private let finishProgress: () -> Void
    /// Places handed to the resolver by earlier flushes: progress counts from the run's
    /// start, not each flush's ("1/79 places" ended a run that looked up 235).
    private var placesBefore = 0

    /// `progress` hears (done, to look up) during lookups, `finishProgress` when they end.
    public init(resolver: PlaceResolver, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }, finishProgress: @escaping () -> Void = {}) {
        self.resolver = resolver
        self.progress = progress
        self.finishProgress = finishProgress
    }

    /// Whether enough records are held that they should be flushed.
    public var isFull: Bool { pending.count >= Self.chunk }

    public mutating func add(_ records: [PhotoRecord]) {
        pending += records
    }

    /// Resolves the places of the records held and hands them, as NDJSON lines in input
    /// order, to `write`. No record is held back for a place that cannot be looked up: a
    /// stage that cannot finish a record passes it on, so that regions-load stores it (and
    /// place-resolve --pending resolves it later). What stopped the lookups is for the caller
    /// to end the run with (`stoppedBy`, `haltedBy`); a failure of this machine or the
    /// database is thrown after writing what it has, so that what was resolved is not lost.
    public mutating func flush(_ write: ([UInt8]) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        let needed = Set(pending.filter { $0.regionID == nil }.compactMap(\.placeID))
            .filter { answers[$0] == nil && failed[$0] == nil }
        if !needed.isEmpty {
            // After the lookups stopped, places the store knows still count.
            let outcome: ResolveOutcome
            do {
                let (before, progress) = (placesBefore, self.progress)
                outcome = try resolver.resolve(needed.sorted(), lookUp: stoppedBy == nil && haltedBy == nil) { done, total in
                    progress(before + done, before + total)
                }
            } catch {
                haltedBy = error
                outcome = (try? resolver.resolve(needed.sorted(), lookUp: false)) ?? ResolveOutcome()
            }
            finishProgress()
            placesBefore += needed.count
            answers.merge(outcome.resolved) { $1 }
            failed.merge(outcome.failed) { $1 }
            counts.lookedUp += outcome.lookedUp
            // Out of descriptors or disk: pass on these records as they are, then stop.
            if let failure = outcome.storeFailure { storeFailure = failure }
            if let stop = outcome.stoppedBy { stoppedBy = stop }
        }
        var writer = JSONWriter(capacity: pending.count * 600)
        for var record in pending {
            if record.regionID == nil, let place = record.placeID {
                if let region = answers[place]?.region {
                    record.regionID = region.placeID
                    record.region = region.name
                } else if answers[place] == nil {
                    counts.unresolved += 1
                }
            }
            record.write(to: &writer)
            writer.newline()
        }
        try write(writer.bytes)
        counts.records += pending.count
        pending.removeAll(keepingCapacity: true)
        if let storeFailure { throw storeFailure }
    }
}
