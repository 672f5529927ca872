import ArgumentParser
import TopRegionsFlickr
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

public struct FlickrRecent: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flickr-recent",
        abstract: "Fetch recent geotagged photos from Flickr as photo records.",
        discussion: """
            Calls flickr.photos.search for recent georeferenced photos (has_geo=1, licences \
            1,2,4,7 by default, with description, geo, upload date, owner name, original format \
            and the square and large image URLs) and prints one photo record per photo \
            (topregions-record(7)), page by page, each photo once per run.

            Photos come oldest first. Without --since, Flickr's own window applies (the last 12 \
            hours). --since-last starts from the newest upload stored in the database, minus \
            --overlap, so a refresh from cron picks up where the last one stopped; a run cut \
            short leaves no gap, because what it stored is everything up to some upload time. \
            Flickr answers at most 4,000 photos per query: longer walks restart the query from \
            the newest upload seen, never by page number.

            Calls are limited per run (--max-calls) and per hour across every tool using the \
            database (FLICKR_HOURLY_LIMIT, default 3500, under Flickr's 3,600 per key). Transient \
            failures are retried with backoff and jitter, honouring Retry-After. A refused key \
            stops at once with status 78; the key is never printed.

            Examples:
              flickr-recent --since-last | place-resolve | regions-load
              flickr-recent --since 2h --pages 4 > recent.ndjson
              FLICKR_API_BASE=http://127.0.0.1:8080/services/rest/ flickr-recent
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var flickr: FlickrOptions

    @Option(name: .long, help: ArgumentHelp(
        "Only photos uploaded at or after this time: Unix seconds, an ISO 8601 date or date-time (local time unless it ends with a zone such as Z or +01:00), or an age such as 2h.",
        valueName: "time"))
    public var since: String?

    @Flag(name: .long, help: "Start from the newest upload stored in the database (minus --overlap).")
    public var sinceLast = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How far before the stored newest upload --since-last starts. (default: 15m)", valueName: "age"),
            transform: { try Age($0, unit: "m") })
    public var overlap = Age.literal("15m")

    @Option(name: .long, help: ArgumentHelp("Licence ids to ask for, comma-separated; 'cc' for the Creative Commons ones; 'any' for all.", valueName: "ids"))
    public var license = "1,2,4,7"

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Photos per page (at most 500).", valueName: "n"))
    public var perPage = 500

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("At most this many pages in this run.", valueName: "n"))
    public var pages = 20

    @OptionGroup public var verbosity: VerbosityOptions

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.flickrAPI
        + EnvironmentVariable.imageURLs + EnvironmentVariable.transfers + EnvironmentVariable.clock + EnvironmentVariable.timeZone

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage), .init(.dataError, "The database file is damaged, or another program's."),
        .init(.unavailable, ExitStatuses.flickrRefused),
        .init(.software), .init(.osResource), .init(.cantCreate), .init(.ioError),
        .init(.tempFail, "Temporary: the network failed after retries, --max-calls or FLICKR_HOURLY_LIMIT was reached, or the database stayed busy. The photos printed so far are complete; the next run goes on from there."),
        .init(.config),
    ]

    public init() {}

    /// How far ahead of this machine's clock Flickr's may be.
    static let clockSkew: Int64 = 300

    public func validate() throws {
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500") }
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1") }
        if since != nil && sinceLast { throw ValidationError("--since and --since-last both say where to start; give one") }
        guard license == "any" || license == "cc" || license.split(separator: ",").allSatisfy({ Int($0) != nil }) else {
            throw ValidationError("--license takes licence ids such as 1,2,4,7, 'cc' or 'any'")
        }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        var options = RecentOptions()
        options.license = switch license {
        case "any": nil
        case "cc": PhotoLicense.creativeCommonsIDs.joined(separator: ",")
        default: license
        }
        options.perPage = perPage
        options.maxPages = pages
        if let since {
            let timeZone = Units.localTimeZone(environment: context.environment)
            guard let time = Units.parseTime(since, now: context.now(), timeZone: timeZone) else {
                throw ToolError(.usage, "--since: cannot read '\(since)' as a time; give \(Units.timeForms)")
            }
            options.since = time
        }
        // The key and settings first: a run that cannot call Flickr creates no database, and
        // one that prints nothing (a refused key, no connection) neither: the database is
        // created only to record what a run fetched.
        let configuration = try flickr.configuration(context)
        let database = try database.openOnFirstWrite(context)
        let settings = FlickrOptions.settings(configuration, database: database, context)
        if sinceLast {
            if let store = database.existing, let stored = try Queries(store: store).newestUpload() {
                // A watermark in the future (a bad record stored by an older version, a clock
                // gone wrong) would make every run ask for photos not uploaded yet: never later
                // than now, give or take a few minutes of clock difference.
                let latest = context.nowSeconds + Self.clockSkew
                if stored > latest {
                    context.note("the newest upload stored (\(Reports.formatTime(stored)) UTC) is in the future; starting from now instead")
                }
                let newest = min(stored, latest)
                options.since = newest - Int64(overlap.seconds.rounded())
                context.trace("--since-last: the newest stored upload is \(newest); asking from \(options.since!) (--overlap \(overlap) earlier)")
            } else {
                context.trace("--since-last: the database has no photos yet; asking for Flickr's default window")
            }
        }

        try ParallelLimit(perWorker: FlickrClient.descriptors, work: "calls").requireOne()
        let startedAt = context.nowSeconds
        let fetcher = RecentFetcher(client: try FlickrClient(settings: settings))
        let progress = ProgressLine(context)
        var report = RecentReport()
        var failure: FlickrError?
        do throws(FlickrError) {
            try fetcher.fetch(options, report: &report, progress: { report, page in
                // Flickr says 0 pages for a query that found nothing, and it is still asked once.
                let whereInQuery = page.pages == 0 ? "the query found no photos" : "\(page.page) of \(page.pages) in this query"
                progress.update("page \(report.pages) (\(whereInQuery)), \(Grammar.count(report.photos, "photo"))")
            }, warn: { context.note($0) }) { photos in
                if !photos.isEmpty && database.existing == nil {
                    // Photos to pass on: the database is made now, before the stages
                    // downstream read them, with the calls made so far, so that theirs count
                    // after these against the hourly limit. (Failing here leaves it to the end
                    // of the run, which says why.)
                    _ = try? database.store()
                    try? settings.ledger?.recordCallsMadeBefore()
                }
                var writer = JSONWriter(capacity: photos.count * 600)
                for photo in photos {
                    photo.write(to: &writer)
                    writer.newline()
                }
                context.standardOutput.write(writer.bytes)
                context.standardOutput.flush()  // downstream stages start on this page now
            }
        } catch {
            failure = error
        }
        progress.finish()
        do {
            try recordCoverage(report, options: options, startedAt: startedAt, database: database, context)
            try settings.ledger?.recordCallsMadeBefore()
        } catch where failure != nil {
            // The run's own failure is the one to report.
        }
        if report.pages > 0 || failure == nil {
            var summary = "\(Grammar.count(report.pages, "page")), \(Grammar.count(report.photos, "photo"))"
            if report.repeats > 0 { summary += " (\(Grammar.count(report.repeats, "repeat")) dropped)" }
            if report.pages == pages && failure == nil { summary += "; stopped at --pages \(pages)" }
            // With a failure, the summary says how far the run got: shown even with -q.
            if failure == nil { context.note(summary) } else { context.diagnose(summary) }
        }
        if let failure { throw failure.toolError }
        return .ok
    }

    /// Records the span of upload time the run fetched whole, so that windows can tell a gap
    /// (no run fetched it) from a quiet span. Recorded when the photos are printed, not when
    /// they are stored: a loader that fails downstream says so itself.
    func recordCoverage(_ report: RecentReport, options: RecentOptions, startedAt: Int64, database: StoreOnFirstWrite, _ context: ToolContext) throws {
        guard report.pages > 0, let span = report.coveredSpan(from: options.firstUpload(now: startedAt), now: startedAt) else { return }
        try RefreshRuns(store: try database.store()).record(RefreshRun(
            startedAt: startedAt, from: span.lowerBound, to: span.upperBound, flickrTotal: report.flickrTotal,
            photos: report.photos, complete: report.complete))
        let times = TimeFormat.local
        context.trace("fetched every upload from \(times.string(span.lowerBound)) to \(times.string(span.upperBound))"
            + (report.flickrTotal.map { "; Flickr matched \(Grammar.count($0, "photo"))" } ?? ""))
    }
}
