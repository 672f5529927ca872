import ArgumentParser
import Foundation
import TopRegionsCache
import TopRegionsHTTP
import TopRegionsStore
import TopRegionsSupport

public struct ThumbGet: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "thumb-get",
        abstract: "Square thumbnails for photos, downloaded once and kept in the database.",
        discussion: """
            For each photo given (ids as arguments, else photo records or ids on standard input), \
            finds its square thumbnail in the database, or downloads it once and keeps it there \
            (Flickr's 150 px square, for a thumb_url naming its 75 px one; any other thumb_url as \
            it is; 75 px thumbnails stored before are kept): asking again never downloads again, and \
            no thumbnail is downloaded for a photo nobody asked for. Prints each photo's record \
            with thumb_bytes, and thumb_path when --out writes the file DIR/<id>.jpg.

            A photo the database does not have, or a download that fails (after retries), is \
            reported on stderr and the others carry on; the exit status then says what went \
            wrong (66 unknown photos, 69 or 75 failed downloads).

            On a terminal, stderr shows how many thumbnails are downloaded so far; with no \
            ids and standard input a terminal, thumb-get says it waits for ids (Ctrl-D ends).

            A thumbnail is a few KB: an answer over 512K, one that is not a JPEG, or a download \
            that takes longer than --download-timeout is stopped at once, not retried, and \
            nothing is stored.

            Examples:
              regions-top --region "Nova Scotia, Canada" | thumb-get --out thumbs/
              thumb-get 53120987654 53120987655
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Also write each thumbnail to DIR/<id>.jpg (DIR is created).", valueName: "dir"),
            completion: .directory)
    public var out: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Download at most this many thumbnails at once (fewer, said on stderr, when ulimit -n leaves too few file descriptors).", valueName: "n"))
    public var parallel = 4

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Give up a download that takes longer than this, e.g. 30s, 2m. (default: 60s)", valueName: "age"),
            transform: { try Age($0, positive: true, unit: "s") })
    public var downloadTimeout = Age.literal("60s")

    @OptionGroup public var verbosity: VerbosityOptions

    @Argument(help: ArgumentHelp("Photo ids ('-' or none: records or ids on standard input).", valueName: "id"))
    public var ids: [String] = []

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.transfers + EnvironmentVariable.clock

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage), .init(.dataError, "A line on standard input is neither a photo id nor a photo record. " + ExitStatusDoc.foreignDatabase),
        .init(.noInput, "A photo the database does not have (or has without a thumbnail URL), or no database."),
        .init(.unavailable, "A download failed for good (HTTP 4xx, not a JPEG, over 512K, over --download-timeout)."), .init(.software),
        .init(.osResource, "Out of file descriptors (ulimit -n) for even one download (--parallel is lowered first when some fit), or of memory."),
        .init(.cantCreate, "The --out directory or a file in it cannot be created."), .init(.ioError),
        .init(.tempFail, "A download failed after retries (refused connection, timeout, HTTP 5xx or 429): try again later."),
        .init(.config, ExitStatusDoc.newerDatabase),
    ]

    public init() {}

    public func validate() throws {
        if ids.contains("help") { throw ValidationError("'help' is not a photo id; for help, give --help (a lone 'help' works too)") }
        guard (1...32).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 32") }
        if out == "" { throw ValidationError("--out: the path is empty (leave --out out to write no files)") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        // libcurl is needed from the first download on, after the database's answers: it
        // loads meanwhile. Returning waits for the load, so the process never exits during it.
        context.network.loadInBackground()
        defer { context.network.awaitLoading() }
        let store = try database.open(context, create: false)
        context.trace("database \(store.path)")
        if let out {
            do {
                try FileSystem.createDirectories(out)
            } catch {
                throw ToolError(.cantCreate, "cannot create the --out directory \(out): \(error.reason)")
            }
        }
        let retry = RetryPolicy.from(environment: context.environment, maxAttempts: 5)
        var limits = DownloadLimits.thumbnail
        limits.seconds = downloadTimeout.seconds
        // A download holds its connection, the photo's lock and a read-only database
        // connection to look for the thumbnail in (Thumbnails.descriptorsPerDownloader).
        let workers = try ParallelLimit(perWorker: Thumbnails.descriptorsPerDownloader, work: "downloads").workers(parallel, context)
        var report = ThumbGetReport(context, out: out)
        let trace = context.tracer
        defer { report.finish() }
        let run = ThumbnailRun(store: store, downloads: RunDownloads(parallel: workers, limits: limits, now: context.now) {
            try Downloader(network: context.network, retry: retry, now: context.now, trace: trace)
        })
        try PhotoInput.read(ids: ids, context: context) { items in
            let batch = try run.batch(items.map(\.id), progress: report.batchProgress)
            try report.report(items, batch)
        }
        return report.status
    }
}
