import ArgumentParser
import Foundation
import TopRegionsCLI
import TopRegionsCache
import TopRegionsServer
import TopRegionsStore
import TopRegionsSupport

/// `regions-serve`: the app the toolkit re-creates, in a browser, over the same database the
/// filters fill.
public struct RegionsServe: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "regions-serve",
        abstract: "Browse the database in a web browser: top regions, their photos, Recents, search.",
        discussion: """
            Serves the app the toolkit re-creates on this machine: the top regions on a world map \
            and as a ranked list, a region's photos (newest first, or by title under alphabetical \
            headings) beside a map fitted to them, one photo full size with its map pin, \
            Recents (the photos viewed here or through photo-cache), All photos, and search \
            (the words and operators of regions-top --search). Every list shows 30 photos to a \
            page, as Flickr's terms ask, with links to the pages before and after; its count and \
            map cover the whole list.

            A thumbnail is fetched from Flickr only when the browser asks for it, which is when it \
            comes on screen, then kept in the database as thumb-get keeps it: never asked for \
            twice, also across processes. A full photo goes through photo-cache's file cache \
            (--cache-dir, --max-bytes), and viewing it puts it at the top of Recents. A photo can \
            be deleted from its page (no refresh brings it back), and the deletion undone.

            The Refresh button runs flickr-recent | place-resolve | regions-load, the tools \
            installed beside it, as regions-top does, and shows its progress; one refresh runs at a \
            time, also across processes. It needs a Flickr key (FLICKR_API_KEY or \
            --api-key-file); with one, a database that does not exist yet is made, and an empty \
            one is refreshed on the first visit, as the app refreshes on its first launch.

            The first line on standard output is the server's address (bound to every address, \
            0.0.0.0 or ::, the loopback one, which a browser here opens); it serves until SIGINT \
            (Ctrl-C) or SIGTERM, then takes no new connection, lets the requests under way finish \
            for up to 10 seconds, ends the downloads still running after that (no partial file \
            stays in the cache), and exits. It serves at most as many connections at once as its \
            file descriptor limit allows, less 96 for the database, the cache and the downloads \
            (at most 4,096); one more is answered 503 at once. A request's head must arrive within \
            10 seconds of its connection or of the answer before it, and its body (a form, at \
            most 4 KB) within 10 seconds of its head, or the connection is closed; a request that does not keep \
            its connection alive (HTTP/1.0 without keep-alive) has it closed after its answer. It listens on \
            127.0.0.1 only, unless --bind names another address (or a name of this machine's), \
            which it then says on stderr. Whatever the address, it answers only requests that \
            name it as their Host: the address it listens on, localhost on loopback, and, when it \
            listens beyond this machine, the machine's own addresses and host name, and the names \
            given with --allow-host; so a foreign page cannot reach it through a name of its own \
            (DNS rebinding). It acts only on forms from its own pages.

            The filters keep working beside it: cron can load new photos while it serves, and a \
            page shows them when loaded again.

            --export writes the same pages as files instead, linked to each other by name in one \
            directory (top-regions.html, region-ID.html and region-ID+2.html for its second page, \
            all.html, recents.html), with the thumbnails the database holds embedded, and prints \
            the path of the top page. It only reads the database. It writes only into a new or \
            empty directory, or one an earlier export wrote (its list of pages, \
            .topregions-export, says which are its own: those it no longer writes are removed); a \
            directory holding any other file is refused with nothing written (73). Beside each \
            region's pages it writes its Atom feed (region-ID.atom, its newest 30 photos), and \
            rising.atom, the regions rising in the 24 hours to the export.

            Feeds: /feeds/regions/ID (a region's newest 30 photos, in the window its address asks \
            for) and /feeds/rising (the rising regions, ?window=24h by default), Atom 1.0, each with \
            an ETag and a Last-Modified: a reader that has the feed already is answered 304. The \
            pages link them (<link rel="alternate">).

            Examples:
              regions-serve                         # then open the address it prints
              regions-serve --port 0                # any free port
              regions-serve --db demo-out/topregions.db --cache-dir demo-out/cache
              regions-serve --bind 192.168.1.20 --port 8080   # for the other machines of a home network
              regions-serve --bind 0.0.0.0 --allow-host photos.home.arpa   # every address, and a name in the local DNS
              regions-serve --export site/          # the same pages as files; open site/top-regions.html
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("The photo cache directory (photo-cache's).", valueName: "dir"), completion: .directory)
    public var cacheDir: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Cap on the photo cache's size, e.g. 10M, 512K, 1G. (default: 10M)", valueName: "size"),
            transform: { try ByteSize($0) })
    public var maxBytes = ByteSize.literal("10M")

    @Option(name: .long, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    public var port = 8080

    @Option(name: .long, help: ArgumentHelp(
        "The address to listen on (default: 127.0.0.1, this machine only). Another address lets other machines browse, and delete photos.",
        valueName: "address"))
    public var bind = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp(
        "Also answer requests that name this host (a name in your network's DNS, a reverse proxy's), with any port; repeat for several. Other names are refused, as a page of another site whose name was pointed here would send its own.",
        valueName: "name"))
    public var allowHost: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Download at most this many thumbnails at once.", valueName: "n"))
    public var parallel = 4

    @Option(name: .long, help: ArgumentHelp(
        "Write the site as files into this directory instead of serving it: the top regions, every page of their photos, All and Recents, with the stored thumbnails embedded. Prints the top page's path.",
        valueName: "dir"), completion: .directory)
    public var export: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read the Flickr API key for the refresh from the first line of this file (default: $FLICKR_API_KEY).", valueName: "path"),
        completion: .file())
    public var apiKeyFile: String?

    @Flag(name: .long, help: "Show times in UTC instead of local time.")
    public var utc = false

    @OptionGroup public var verbosity: VerbosityOptions

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.flickrAPI + EnvironmentVariable.cache + EnvironmentVariable.transfers
        + EnvironmentVariable.clock + EnvironmentVariable.timeZoneOrUTC

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage),
        .init(.noInput, "No database at --db and no Flickr key to fill one with (flickr-recent | place-resolve | regions-load does)."),
        .init(.unavailable, "The address cannot be listened on: the port is taken, or the address is not this machine's."),
        .init(.software), .init(.osResource),
        .init(.cantCreate, "The photo cache directory cannot be created."), .init(.ioError),
        .init(.tempFail, "The database stayed busy."),
        .init(.config, "No cache directory: neither --cache-dir, TOPREGIONS_CACHE, XDG_CACHE_HOME nor HOME."),
    ]

    public init() {}

    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...16).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 16") }
        guard ListenAddress.resolve(bind) != nil else {
            throw ValidationError("--bind: '\(bind)' is neither an IP address nor a name that resolves to one (e.g. 127.0.0.1, ::1, 0.0.0.0, localhost)")
        }
        for name in allowHost where !ListenAddress.isHostName(name) && ListenAddress.parse(name) == nil {
            throw ValidationError("--allow-host: '\(name)' is not a host name or an IP address (give it without a scheme or port, e.g. photos.home.arpa)")
        }
        if export == "" { throw ValidationError("--export: the path is empty") }
        if apiKeyFile == "" { throw ValidationError("--api-key-file: the path is empty") }
        if cacheDir == "" { throw ValidationError("--cache-dir: the path is empty (leave --cache-dir out for the default cache)") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        if let directory = export {
            let store = try database.openForReading(context)
            let written = try Serving.export(store: store, to: directory, utc: utc, now: context.nowSeconds)
            context.standardOutput.line(written.top)
            context.note("wrote \(Grammar.count(written.pages, "page")) and \(Grammar.count(written.feeds, "feed")) into \(directory)")
            return .ok
        }
        let address = ListenAddress.resolve(bind)!
        // Checked before anything is said or opened: a warning about what an address exposes
        // is no use when the server cannot listen there.
        guard address.isThisMachines else {
            throw ToolError(.unavailable, "cannot listen on \(address.url(port: port)): \(address.text) is not an address of this machine")
        }
        context.network.loadInBackground()
        defer { context.network.awaitLoading() }
        let path = try Store.resolvePath(option: database.db, environment: context.environment)
        // A database this user cannot write (a read-only filesystem, a file of another user's)
        // is served as it is; otherwise, with a Flickr key, a new database is made and filled
        // on the first visit.
        let store: Store
        var readOnly = false
        if FileManager.default.fileExists(atPath: path), try !Store.isWritable(path: path) {
            readOnly = true
            store = try database.openForReading(context)
            context.note("""
                the database \(path) cannot be written here (a read-only filesystem, or another user's file): serving it as it is; \
                Refresh, Delete and Prune are not offered, views are not kept for Recently viewed, and thumbnails not stored yet show as missing
                """)
        } else {
            store = try database.open(context, create: Serving.hasKey(environment: context.environment, apiKeyFile: apiKeyFile))
        }
        context.trace("database \(store.path)")
        let directory = try cacheDir ?? PhotoCache.defaultDirectory(environment: context.environment)
        let cache: PhotoCache?
        do {
            cache = try PhotoCache(directory: directory, capBytes: maxBytes.bytes)
            context.trace("photo cache \(directory), at most \(maxBytes)")
        } catch let failure as Failure where readOnly && failure.kind == .cannotCreate {
            // Served as it is, like the database: pages and stored thumbnails, no full photo
            // (it refused to start, though regions-top and --export read the same files).
            cache = nil
            context.note("\(failure.message): full photos are not shown")
        }
        let settings = Serving.Settings(
            address: address, port: port, allowedHosts: allowHost, downloads: parallel, utc: utc, databasePath: path,
            environment: context.environment, apiKeyFile: apiKeyFile, quiet: context.verbosity == .quiet, network: context.network,
            now: context.now, note: { context.note($0) }, trace: context.tracer,
            announce: { url in
                context.standardOutput.line(url)
                context.standardOutput.flush()
            })
        try Serving.serve(store: store, cache: cache, settings)
        return .ok
    }
}
