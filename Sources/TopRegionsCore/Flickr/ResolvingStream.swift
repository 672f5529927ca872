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
    }

    /// How many records are held at most before they are resolved and passed on.
    public static let chunk = 1000

    public let resolver: PlaceResolver
    public private(set) var counts = Counts()
    /// Every place known in this run, from the store or looked up.
    public private(set) var answers: [String: PlaceResolution] = [:]
    /// Places Flickr failed on (transiently) in this run: not asked again in it.
    public private(set) var failed: [String: FlickrError] = [:]
    /// Why lookups stopped (a call or rate limit, a failure retrying cannot mend): later
    /// places pass on unresolved unless the store knows them.
    public private(set) var stoppedBy: FlickrError?
    private var pending: [PhotoRecord] = []
    private var storeFailure: Failure?
    private let progress: @Sendable (Int, Int) -> Void
    private let finishProgress: () -> Void

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
    /// order, to `write`. Throws a refused key at once (before writing: nothing resolved can
    /// be trusted to go on), and a failure of this machine or the database after writing
    /// what it has, so that what was resolved is not lost.
    public mutating func flush(_ write: ([UInt8]) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        let needed = Set(pending.filter { $0.regionID == nil }.compactMap(\.placeID))
            .filter { answers[$0] == nil && failed[$0] == nil }
        if !needed.isEmpty {
            // After a limit stopped the lookups, places the store knows still count.
            let outcome = try resolver.resolve(needed.sorted(), lookUp: stoppedBy == nil, progress: progress)
            finishProgress()
            answers.merge(outcome.resolved) { $1 }
            failed.merge(outcome.failed) { $1 }
            counts.lookedUp += outcome.lookedUp
            // Out of descriptors or disk: pass on these records as they are, then stop.
            if let failure = outcome.storeFailure { storeFailure = failure }
            if let stop = outcome.stoppedBy {
                // A refused key ends the run here; limits and other refusals let the records
                // pass unresolved.
                if stop.isConfigurationError { throw stop }
                stoppedBy = stop
            }
        }
        var writer = JSONWriter(capacity: pending.count * 600)
        for var record in pending {
            if record.regionID == nil, let place = record.placeID, let region = answers[place]?.region {
                record.regionID = region.placeID
                record.region = region.name
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
