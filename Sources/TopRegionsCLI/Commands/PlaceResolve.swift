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
            place-resolve --pending) asks again. A failure that retrying cannot mend (an HTTP 4xx, \
            a redirect to another scheme, an answer over 1 MB) stops the lookups: the records \
            still pass through, and the exit status is 69, as flickr-recent's would be. Without an \
            API key, or with one Flickr refuses, no place is looked up: the records still pass \
            through, with the regions the database knows, and the exit status is 78. Nothing read \
            is ever dropped: regions-load stores what place-resolve could not resolve, and \
            place-resolve --pending resolves it later.

            --pending reads no records: it looks up the places of stored photos that have no \
            region yet (for example, photos loaded while Flickr was down) and gives those photos \
            their region.

            Examples:
              flickr-recent --since-last | place-resolve | regions-load
              place-resolve --pending
              place-resolve --parallel 8 saved.ndjson > resolved.ndjson
            """,
        version: toolkitVersionText)

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
        .init(.ok), .init(.usage), .init(.dataError), .init(.noInput, "An input file does not exist, or (--pending) the database."),
        .init(.unavailable, ExitStatuses.flickrRefused + " The lookups stop there; the records still pass through."),
        .init(.software), .init(.osResource, "Out of file descriptors (ulimit -n) for even one lookup (--parallel is lowered first when some fit), or of memory."),
        .init(.cantCreate), .init(.ioError),
        .init(.tempFail, "Temporary: lookups failed after retries, or --max-calls or FLICKR_HOURLY_LIMIT was reached. The records still pass through; their places are asked again by a later run or place-resolve --pending."),
        .init(.config, "No API key, or a key Flickr refuses; asked for only when a place has to be looked up. " + ExitStatusDoc.newerDatabase),
    ]

    public init() {}

    public func validate() throws {
        guard (1...32).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 32") }
        if pending && !input.files.isEmpty { throw ValidationError("--pending reads the database, not files") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        // --pending works on the photos stored: there must be a database. Records may need
        // none: their places may all be known, or the input empty.
        let target = pending ? StoreOnFirstWrite(try database.open(context, create: false)) : try database.openOnFirstWrite(context)
        // The key is needed only when a place has to be looked up: records whose places
        // are all known pass through without one. So are the descriptors for the lookups: a
        // lookup holds a socket (and a resolver's pair while it resolves), the place's lock,
        // and a database connection to check what is known.
        let resolver = PlaceResolver(
            database: target, parallel: parallel, settings: flickr.settingsWhenNeeded(context, store: target.store),
            workers: { try ParallelLimit(perWorker: 8, work: "lookups").workers($0, context) })
        return pending ? try resolvePending(resolver, context) : try resolveStream(resolver, context)
    }

    private func resolvePending(_ resolver: PlaceResolver, _ context: ToolContext) throws -> SysExit {
        let places = try Queries(store: resolver.database.store()).pendingPlaces()
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
        let progress = ProgressLine(context)
        var stream = ResolvingStream(
            resolver: resolver, progress: { done, total in progress.update("\(done)/\(total) places") }, finishProgress: { progress.finish() })
        var bad = 0
        func flush() throws {
            try stream.flush { lines in
                context.standardOutput.write(lines)
                context.standardOutput.flush()
            }
        }

        for source in input.sources(context) {
            let name = source.name
            try LineReader.forEachLine(in: source, afterEachRead: flush) { number, line in
                do throws(InputError) {
                    stream.add(try RecordDecoder.decode(line: line, number: number, source: name))
                } catch {
                    guard input.skipBadLines else {
                        try flush()  // what came before the bad line goes on
                        throw ToolError(.dataError, error.description)
                    }
                    context.diagnose("skipped \(error)")
                    bad += 1
                }
                if stream.isFull { try flush() }
            }
        }
        try flush()
        var summary = "\(Grammar.count(stream.counts.records, "record")), \(Grammar.count(stream.answers.count, "place")) known, \(stream.counts.lookedUp) looked up"
        if !stream.failed.isEmpty { summary += ", \(stream.failed.count) failed" }
        if input.skipBadLines { summary += ", \(Grammar.count(bad, "bad line"))" }
        context.note(summary)
        if let halted = stream.haltedBy {
            let (status, message) = ExitStatuses.classify(halted)
            throw Self.passedOn(ToolError(status, message), unresolved: stream.counts.unresolved)
        }
        if let stoppedBy = stream.stoppedBy { throw Self.passedOn(stoppedBy.toolError, unresolved: stream.counts.unresolved) }
        let status = try finish(nil, failed: stream.failed, context)
        return status == .ok && bad > 0 ? .dataError : status
    }

    /// What stopped the lookups, and that the records went on all the same.
    static func passedOn(_ error: ToolError, unresolved: Int) -> ToolError {
        guard unresolved > 0 else { return error }
        return ToolError(error.status, "\(error.message); \(Grammar.count(unresolved, "record")) passed on without a region (place-resolve --pending gives them one once it can look their places up)")
    }

    private func finish(_ stoppedBy: FlickrError?, failed: [String: FlickrError], _ context: ToolContext) throws -> SysExit {
        if let stoppedBy { throw stoppedBy.toolError }
        if let (place, error) = failed.min(by: { $0.key < $1.key }) {
            throw ToolError(.tempFail, "\(Grammar.count(failed.count, "place")) could not be looked up (e.g. \(place): \(error)); their photos have no region until a later run or place-resolve --pending")
        }
        return .ok
    }
}
