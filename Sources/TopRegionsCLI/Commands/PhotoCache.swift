import ArgumentParser
import Foundation
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

public struct PhotoCacheCommand: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photo-cache",
        abstract: "Full-size photos through a small LRU file cache; prints their paths.",
        discussion: """
            For each photo given (ids as arguments, else photo records or ids on standard input), \
            makes sure its large photo (1024 px) is in the cache and prints where it is: on a \
            terminal, or with --path, the cached file's path, one per line; otherwise (a pipe) \
            the photo's record with path (the cached file) and bytes. A cached photo is never downloaded again; a \
            hit marks it as just used. When the cache grows past --max-bytes (10M by default), \
            the least recently used photos go, but never one a run printed before that run ends: \
            a path photo-cache prints is there when it exits. A run whose photos are more than \
            the cap keeps them all, says on stderr by how much it went over, and the cache is \
            trimmed when photo-cache next runs. Full photos are never stored in the database; \
            each view is recorded there for regions-top --recents.

            Downloads stream into a temporary file and are renamed into place only when \
            complete, so a reader never sees part of a photo, and memory stays small whatever \
            the photo's size. Several photo-cache processes can share a cache: one photo is never \
            downloaded twice at the same time, none removes a photo another still running \
            printed, and the cache is under its cap when they finish, but for what the last of \
            them printed. A photo larger than the whole cap is kept only that long: it is the \
            first to go, and no other is evicted for it. --info counts every byte the cache \
            holds, and --prune --max-bytes 0 removes them all.

            The cache's photos are named <id>.topregions.jpg: no other file is ever counted, \
            evicted or pruned. A directory that holds files of others and no CACHEDIR.TAG of \
            topregions is not made a cache (status 73) unless --claim-dir says so. A cache of an \
            earlier version (<id>.jpg, known by its CACHEDIR.TAG) is taken over: its photos are \
            renamed when the directory holds nothing else, and left alone beside files of others.

            Every download is bounded: a photo over --max-photo-bytes (by its announced length \
            or as it streams), an answer that is not a JPEG, or a download that takes longer \
            than --download-timeout is stopped at once, not retried, and leaves nothing in the \
            cache.

            The cache lives in --cache-dir, else $TOPREGIONS_CACHE, else \
            $XDG_CACHE_HOME/topregions/photos (~/.cache/...), tagged with CACHEDIR.TAG.

            On a terminal, stderr shows the download's progress; with no ids and standard input \
            a terminal, photo-cache says it waits for ids (Ctrl-D ends). --info shows times in \
            local time (TZ honoured; --utc for UTC) with their zone.

            Examples:
              photo-cache 53120987654
              xdg-open "$(photo-cache --path 53120987654)"
              regions-top --region "Tōkyō, Japan" --limit 5 | photo-cache --max-bytes 20M
              photo-cache --info
              photo-cache --prune --max-bytes 0      # empty the cache
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("The cache directory.", valueName: "dir"), completion: .directory)
    public var cacheDir: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Cap on the cache's size, e.g. 10M, 512K, 1G. (default: 10M)", valueName: "size"),
            transform: { try ByteSize($0) })
    public var maxBytes = ByteSize.literal("10M")

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Download at most this many photos at once (fewer, said on stderr, when ulimit -n leaves too few file descriptors).", valueName: "n"))
    public var parallel = 2

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Refuse a photo larger than this, e.g. 32M (Flickr's large size is well under 2M). (default: 32M)", valueName: "size"),
            transform: { try ByteSize($0, minimum: 3) })
    public var maxPhotoBytes = ByteSize.literal("32M")

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Give up a download that takes longer than this, e.g. 90s, 5m. (default: 5m)", valueName: "age"),
            transform: { try Age($0, positive: true, unit: "s") })
    public var downloadTimeout = Age.literal("5m")

    @Flag(name: .long, help: "Print only each cached file's path, one per line (the default on a terminal).")
    public var path = false

    @Flag(name: .long, help: "Show the cache: entries, bytes (of all its files), cap, oldest and newest.")
    public var info = false

    @Flag(name: .long, help: "Evict down to --max-bytes and remove leftovers of interrupted downloads (photos a photo-cache still running printed stay).")
    public var prune = false

    @Flag(name: .long, help: "With --prune: print on standard output one NDJSON line per photo it would remove, and remove nothing.")
    public var dryRun = false

    @Flag(name: .long, help: "Keep the cache in --cache-dir though it holds files the cache did not write (they are never touched; its CACHEDIR.TAG makes backup tools skip the directory).")
    public var claimDir = false

    @Flag(name: .long, help: "Show --info's times in UTC instead of local time.")
    public var utc = false

    @OptionGroup public var verbosity: VerbosityOptions

    @Argument(help: ArgumentHelp("Photo ids ('-' or none: records or ids on standard input).", valueName: "id"))
    public var ids: [String] = []

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.cache + EnvironmentVariable.transfers
        + EnvironmentVariable.clock + EnvironmentVariable.timeZoneOrUTC

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage), .init(.dataError, "A line on standard input is neither a photo id nor a photo record. " + ExitStatusDoc.foreignDatabase),
        .init(.noInput, "A photo the database does not have (or has without a photo URL), or no database."),
        .init(.unavailable, "A download failed for good (HTTP 4xx, not a JPEG, over --max-photo-bytes or --download-timeout)."),
        .init(.software),
        .init(.osResource, "Out of file descriptors (ulimit -n) for even one download (--parallel is lowered first when some fit), or of memory."),
        .init(.cantCreate, "The cache directory or a file in it cannot be created, or the directory holds files the cache did not write and is not a cache (--claim-dir)."),
        .init(.ioError, "Writing the cache failed (a full disk), or standard output."),
        .init(.tempFail, "A download failed after retries (refused connection, timeout, HTTP 5xx or 429): try again later."),
        .init(.config, "No cache directory: neither --cache-dir, TOPREGIONS_CACHE, XDG_CACHE_HOME nor HOME. " + ExitStatusDoc.newerDatabase),
    ]

    public init() {}

    public func validate() throws {
        if ids.contains("help") { throw ValidationError("'help' is not a photo id; for help, give --help (a lone 'help' works too)") }
        guard (1...16).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 16") }
        if info && prune { throw ValidationError("--info and --prune do different things; give one") }
        if (info || prune) && path { throw ValidationError("--path prints the paths of photos asked for; --info and --prune ask for none") }
        if cacheDir == "" { throw ValidationError("--cache-dir: the path is empty (leave --cache-dir out for the default cache)") }
        if info && claimDir { throw ValidationError("--info only looks; --claim-dir is for fetching or pruning") }
        if dryRun && !prune { throw ValidationError("--dry-run previews --prune; give it with --prune") }
        if dryRun && claimDir { throw ValidationError("--dry-run changes nothing; --claim-dir would (it writes the directory's CACHEDIR.TAG)") }
        // "--info and --prune take no photo ids" waits for execute(): ArgumentParser checks
        // for unknown options after validate(), and in `--info --format table` the real
        // mistake is the unknown --format, not the "table" it left as an id.
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        if (info || prune) && !ids.isEmpty { throw ToolError(.usage, "--info and --prune take no photo ids") }
        let directory = try cacheDir ?? PhotoCache.defaultDirectory(environment: context.environment)
        if info { return try showInfo(directory, context) }
        if dryRun { return try previewPrune(directory, context) }
        let cache = try PhotoCache(directory: directory, capBytes: maxBytes.bytes, claim: claimDir)
        context.trace("cache \(directory), cap \(Units.formatSize(cache.capBytes))")
        Self.report(cache.adoption, in: directory, context)
        if prune { return try Self.prune(cache, context) }

        // libcurl is needed from the first batch with a stored photo on (every photo, cached
        // or not, goes through a downloader's worker), after the database's answers: it loads
        // meanwhile (returning waits for the load).
        context.network.loadInBackground()
        defer { context.network.awaitLoading() }
        let store = try database.open(context, create: false)
        context.trace("database \(store.path)")
        let retry = RetryPolicy.from(environment: context.environment, maxAttempts: 5)
        let limits = DownloadLimits(maxBytes: maxPhotoBytes.bytes, seconds: downloadTimeout.seconds)
        // A download holds a socket (and a resolver's pair while it resolves), the photo's
        // lock, the index lock, its temporary file and a directory listing.
        let workers = try ParallelLimit(perWorker: 8, work: "downloads").workers(parallel, context)
        var report = PhotoCacheReport(context, pathsOnly: path || context.stdoutIsTerminal, capBytes: cache.capBytes)
        let (progress, trace) = (report.progress, context.tracer)
        defer { report.finish(cache) }
        let run = PhotoCacheRun(cache: cache, store: store, downloads: RunDownloads(parallel: workers, limits: limits, now: context.now) {
            try Downloader(network: context.network, retry: retry, now: context.now, trace: trace, received: { progress.received($0) })
        })
        try PhotoInput.read(ids: ids, context: context, chunk: 50) { items in
            let lines = try run.batch(items.map(\.id), starting: { progress.begin($0) }, completed: { progress.completed() }) {
                report.lines(items, $0)
            }
            try report.write(lines)
        }
        return report.status
    }
}
