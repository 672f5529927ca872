import ArgumentParser
import Synchronization
import TopRegionsFlickr
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

public struct PlaceResolve: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "place-resolve",
        abstract: "Add each photo's region, looking every place up once, ever.",
        discussion: """
            Reads photo records and prints them again, in the same order, with region_id and \
            region added from the photo's place. Places the database does not know yet are looked \
            up with flickr.places.getInfo, a few at a time (--parallel), and each answer is stored \
            the moment it arrives: no place is ever asked twice, across runs and across processes \
            running at once. Country-level places, and places Flickr does not know, have no \
            region; that answer is remembered too, and their records pass through unchanged.

            A place whose lookup fails transiently (after retries) stays unknown: its records \
            pass through without a region, the exit status is 75, and a later run (or \
            place-resolve --pending) asks again. A refused API key stops at once with status 78.

            --pending reads no records: it looks up the places of stored photos that have no \
            region yet (for example, photos loaded while Flickr was down) and gives those photos \
            their region.

            Examples:
              flickr-recent --since-last | place-resolve | regions-load
              place-resolve --pending
              place-resolve --parallel 8 saved.ndjson > resolved.ndjson
            """,
        version: toolkitVersion)

    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var flickr: FlickrOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Look up at most this many places at once (fewer, said on stderr, when ulimit -n leaves too few file descriptors).", valueName: "n"))
    public var parallel = 4

    @Flag(name: .long, help: "Resolve the places of stored photos that have no region yet (reads no records).")
    public var pending = false

    @OptionGroup public var verbosity: VerbosityOptions

    @OptionGroup public var input: RecordInputOptions

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.flickrAPI
        + EnvironmentVariable.transfers + EnvironmentVariable.clock

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage), .init(.dataError), .init(.noInput, "An input file does not exist."),
        .init(.unavailable, "Flickr refused for good (an HTTP 4xx, an answer that is not Flickr's JSON)."),
        .init(.software), .init(.osResource, "Out of file descriptors (ulimit -n) for even one lookup (--parallel is lowered first when some fit), or of memory."),
        .init(.cantCreate), .init(.ioError),
        .init(.tempFail, "Temporary: lookups failed after retries, or --max-calls or FLICKR_HOURLY_LIMIT was reached. The records still pass through; their places are asked again by a later run or place-resolve --pending."),
        .init(.config, "No API key, or a key Flickr refuses; asked for only when a place has to be looked up."),
    ]

    public init() {}

    public func validate() throws {
        guard (1...32).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 32") }
        if pending && !input.files.isEmpty { throw ValidationError("--pending reads the database, not files") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        let store = try database.open(context)
        // The key is needed only when a place has to be looked up: records whose places
        // are all known pass through without one. So are the descriptors for the lookups: a
        // lookup holds a socket (and a resolver's pair while it resolves), the place's lock,
        // and a database connection to check what is known.
        let resolver = PlaceResolver(
            store: store, parallel: parallel, settings: flickr.settingsWhenNeeded(context, store: store),
            workers: { try ParallelLimit(perWorker: 8, work: "lookups").workers($0, context) })
        return pending ? try resolvePending(resolver, context) : try resolveStream(resolver, context)
    }

    private func resolvePending(_ resolver: PlaceResolver, _ context: ToolContext) throws -> SysExit {
        let places = try Queries(store: resolver.store).pendingPlaces()
        let progress = ProgressLine(context)
        let outcome = try resolver.resolve(places) { done, total in progress.update("\(done)/\(total) places") }
        progress.finish()
        if let failure = outcome.storeFailure { throw failure }
        context.note("\(Grammar.count(places.count, "pending place")): \(outcome.lookedUp) looked up, \(Grammar.count(outcome.photosAttached, "stored photo")) gained a region, \(outcome.failed.count) failed")
        return try finish(outcome.stoppedBy, failed: outcome.failed, context)
    }

    /// Records are handled in chunks (what one read delivered, at most 1,000), resolved, and
    /// printed in input order: downstream, a stream cut short is still a prefix of the input.
    private func resolveStream(_ resolver: PlaceResolver, _ context: ToolContext) throws -> SysExit {
        var pendingRecords: [PhotoRecord] = []
        var answers: [String: PlaceResolution] = [:]
        var failed: [String: FlickrError] = [:]
        var stoppedBy: FlickrError?
        var storeFailure: Failure?
        var counts = (records: 0, lookedUp: 0, bad: 0)
        let progress = ProgressLine(context)

        func flush() throws {
            guard !pendingRecords.isEmpty else { return }
            let needed = Set(pendingRecords.filter { $0.regionID == nil }.compactMap(\.placeID))
                .filter { answers[$0] == nil && failed[$0] == nil }
            if !needed.isEmpty {
                // After a limit stopped the lookups, places the store knows still count.
                let outcome = try resolver.resolve(needed.sorted(), lookUp: stoppedBy == nil) { done, total in
                    progress.update("\(done)/\(total) places")
                }
                progress.finish()
                answers.merge(outcome.resolved) { $1 }
                failed.merge(outcome.failed) { $1 }
                counts.lookedUp += outcome.lookedUp
                // Out of descriptors or disk: pass on these records as they are, then stop.
                if let failure = outcome.storeFailure { storeFailure = failure }
                if let stop = outcome.stoppedBy {
                    // A refused key ends the run here; limits let the records pass unresolved.
                    if stop.isConfigurationError { throw stop.toolError }
                    stoppedBy = stop
                }
            }
            var writer = JSONWriter(capacity: pendingRecords.count * 600)
            for var record in pendingRecords {
                if record.regionID == nil, let place = record.placeID, let region = answers[place]?.region {
                    record.regionID = region.placeID
                    record.region = region.name
                }
                record.write(to: &writer)
                writer.newline()
            }
            context.standardOutput.write(writer.bytes)
            context.standardOutput.flush()
            counts.records += pendingRecords.count
            pendingRecords.removeAll(keepingCapacity: true)
            if let storeFailure { throw storeFailure }
        }

        for source in input.sources(context) {
            let name = source.name
            try LineReader.forEachLine(in: source, afterEachRead: flush) { number, line in
                do throws(InputError) {
                    pendingRecords += try RecordDecoder.decode(line: line, number: number, source: name)
                } catch {
                    guard input.skipBadLines else {
                        try flush()  // what came before the bad line goes on
                        throw ToolError(.dataError, error.description)
                    }
                    context.diagnose("skipped \(error)")
                    counts.bad += 1
                }
                if pendingRecords.count >= 1000 { try flush() }
            }
        }
        try flush()
        var summary = "\(Grammar.count(counts.records, "record")), \(Grammar.count(answers.count, "place")) known, \(counts.lookedUp) looked up"
        if !failed.isEmpty { summary += ", \(failed.count) failed" }
        if input.skipBadLines { summary += ", \(Grammar.count(counts.bad, "bad line"))" }
        context.note(summary)
        let status = try finish(stoppedBy, failed: failed, context)
        return status == .ok && counts.bad > 0 ? .dataError : status
    }

    private func finish(_ stoppedBy: FlickrError?, failed: [String: FlickrError], _ context: ToolContext) throws -> SysExit {
        if let stoppedBy { throw stoppedBy.toolError }
        if let (place, error) = failed.min(by: { $0.key < $1.key }) {
            throw ToolError(.tempFail, "\(Grammar.count(failed.count, "place")) could not be looked up (e.g. \(place): \(error)); their photos have no region until a later run or place-resolve --pending")
        }
        return .ok
    }
}
