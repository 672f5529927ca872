import ArgumentParser
import Foundation
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

extension ReportFormat: ExpressibleByArgument {}
extension PhotoOrder: ExpressibleByArgument {}

public struct RegionsTop: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "regions-top",
        abstract: "Ask the database: top regions, photos in a region, recently viewed photos.",
        discussion: """
            By default prints the regions with the most distinct photographers (Flickr owners) \
            among the stored photos, most first; ties go by name (case-insensitive), then region id. \
            The counts are maintained as photos arrive, so this reads an index, not the photos.

            --region prints every stored photo in a region, newest first, as photo records that \
            thumb-get and photo-cache read. It takes the region's id, its name in any case (and any \
            Unicode normalization: a decomposed "Île" typed on macOS is "Île"), the start of its \
            name, or words of it, ignoring case, accents and punctuation ("nova scotia", "ile de \
            france", "york"); a name in another script also answers to its Latin spelling \
            ("sankt-peterburg"). When several regions fit, or none, it says which names come \
            closest and their ids. --regions lists every region's name, one per line, in name order (with \
            --format, their ids and counts too); shell completion offers them for --region. \
            --recents prints the photos most recently viewed through photo-cache.

            On a database that does not exist yet or has no photos, regions-top first refreshes \
            it as the app does on its first launch: it runs flickr-recent | place-resolve | \
            regions-load, the three tools installed beside it, joined by pipes, with their progress \
            and messages on stderr, then answers. That needs a Flickr key (FLICKR_API_KEY or \
            --api-key-file); without one, or with --no-refresh, it says how to fill the database \
            and answers from what is there (a database that does not exist is still an error). \
            When a stage fails, regions-top ends with the exit status of the first stage that \
            failed, in pipeline order (the cause: a later stage's failure is usually its \
            consequence), and answers nothing. "No photos" means none stored: \
            photos a failed refresh stored before it stopped stay, so the next regions-top \
            answers from them and refreshes nothing (the next flickr-recent | place-resolve | \
            regions-load, and place-resolve --pending, bring the rest); a refresh that stored \
            none is tried again by the next regions-top.

            --photos prints every stored photo, newest upload first. --sort orders any photo \
            listing (--region, --recents, --photos, --search): uploaded (newest first), title (A to \
            Z, capitals and accents aside; untitled last), or viewed (latest view first, then \
            photos never viewed); equal ones go by photo id.

            --search prints the photos whose title, description, photographer's name or region's \
            name hold the words given, all of them, best match first (a word in the title counts \
            most); with --region, only that region's. Words match whole, without regard to \
            capitals or accents ("ile" finds "Île-de-France"), and punctuation inside a word is \
            part of it. On purpose: "a phrase" in quotes, harb* for words starting so, OR, AND \
            and NOT in capitals with ( ) to group, -word to leave a word out, and title:, \
            description:, photographer: or region: to look in one field. A query that cannot \
            mean anything (an unclosed quote, a dangling OR) is a usage error (64). The index is \
            SQLite's FTS5 table photo_fts, which sqlite3 and Datasette use too.

            --rising lists the regions rising right now: those whose distinct photographers in \
            the --window (24h unless given) are at least 1.5 times as many as in the window of the \
            same length just before, fewer than 10 before counting as 10 (so 1 -> 3 photographers \
            does not rise, and 40 -> 90 does; it takes at least 15 to rise at all), ranked by that \
            growth, then by photographers now, then by name. Each row gives both counts.

            --window keeps the answer to the photos uploaded in the last 1h, 6h, 24h, 7d, 30d (any \
            number and unit: 90m, 2w) or all of them, the default: where the world is \
            photographing right now. It takes the top list, --region, --photos and --search; \
            every count is then counted from the photos in the window, and equals a recount. \
            --until ends the window at a time in the past (Unix seconds, an ISO 8601 date or \
            date-time in local time, or an age such as 2d) instead of now. Upload time is \
            Flickr's dateupload; photos stored without one are in no window but all. The window \
            is said on stderr ("in the 24 hours to 2026-11-28 14:00 +00:00"), and in a page's heading, \
            with what the refreshes missed of it: each flickr-recent run records the span of upload \
            time it fetched, and a span of the window no run fetched is said ("no refresh covered \
            02:00-05:20: counts in that span are missing"; the first three, every one with -v), \
            as is a window after the newest stored photo ("the newest stored photo is 5 hours old").

            Output is a table on a terminal and NDJSON otherwise; --format chooses. GeoJSON gives \
            a FeatureCollection of points (regions or photos) with a bbox that fits them all. An \
            empty answer is said on stderr as its page says it ("no photo matches ...", "no photo \
            has been viewed yet ..."; not with -q), and standard output keeps its shape: a \
            table's or a CSV's header line, no NDJSON line, an empty FeatureCollection.

            --format html writes one self-contained page to open in a browser: for the top regions, \
            a world map (a marker per region, its area by photographers; name and counts on hover) \
            above the ranked list; for --region and --recents, a map of the photos fitted to the \
            GeoJSON bbox and a grid of their thumbnails with title, photographer and upload time. \
            Thumbnails are the ones thumb-get stored (photos without one show a placeholder); each \
            photo links to its file in the photo cache (--cache-dir) when there, else to its page on \
            Flickr, and to its page on Flickr. A list of photos is shown 30 to a page, as Flickr's \
            terms ask, with the count and the map of the whole list: --page N writes its Nth page, \
            which links to the pages before and after (region-ID+2.html for a region's second; \
            regions-serve --export writes them all). The page loads nothing and runs no script \
            (its Content-Security-Policy says so). \
            As gzip does with compressed data, regions-top does not write a page to a terminal \
            (status 64): send it to a file, or give --force. \
            A region in the top list links to its page in the same directory, named by one rule \
            (which regions-serve --export follows too): region-ID.html when the id is at most 100 \
            letters, digits, '.', '-' and '_', as Flickr's ids are; for any other id, region-, the \
            id with '_' for each other character (cut to 100), '-', a hash of the id, and .html. \
            --page-name prints that name, so a page written by hand is the one the link finds: \
            regions-top --region ID --format html > "$(regions-top --region ID --page-name)".

            Tables fit the terminal: the widest text columns are cut with "…" to its width \
            (COLUMNS when set). Times in tables and pages are local time (TZ honoured; --utc \
            for UTC) and say their zone: "UPLOADED (+01:00)". In CSV, a text cell that \
            starts with =, +, -, @, a tab or a carriage return gets a leading apostrophe and \
            quotes, so a spreadsheet never runs it as a formula; numbers are left as they are.

            It only reads: the database is opened read-only, without a lock, so a user who may \
            read it but not write it (or its directory) can ask it too.

            Examples:
              regions-top
              regions-top --limit 10 --format csv > top10.csv
              regions-top --region "Île-de-France, France" | thumb-get --out thumbs/
              regions-top --region "nova scotia"          # the start of a name is enough
              regions-top --regions | grep -i france
              FLICKR_API_KEY=... regions-top              # a new database: refreshed first
              regions-top --recents --format geojson > recents.geojson
              regions-top --window 24h                    # right now: the last 24 hours
              regions-top --rising --window 6h            # the regions surging now
              regions-top --region ID --window 24h --format atom > region.atom   # a feed to follow
              regions-top --window 7d --until 2026-11-01  # the week before 1 November
              regions-top --search harbour
              regions-top --search '"old town" OR harb* -night' --limit 20
              regions-top --search 'photographer:ann fog' --region "Nova Scotia, Canada"
              regions-top --photos --sort title --limit 50 --format csv
              regions-top --format html > top-regions.html
              regions-top --region R061.TguWePmt | thumb-get > /dev/null
              page=$(regions-top --region ID --page-name)  # the name its links use
              regions-top --region ID --format html > "$page"
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions

    @Option(
        name: .long, help: ArgumentHelp("List the photos in this region (its id, or its name: the start or words of it will do, tried in that order).", valueName: "name"),
        completion: .shellCommand(RegionsTop.regionNamesCommand))
    public var region: String?

    @Flag(name: .long, help: "List every region's name, one per line (with --format, their ids and counts).")
    public var regions = false

    @Flag(name: .long, help: "List recently viewed photos, latest view first.")
    public var recents = false

    @Flag(name: .long, help: "List every stored photo, newest upload first.")
    public var photos = false

    @Option(name: .long, help: ArgumentHelp(
        "List the photos whose title, description, photographer or region has these words, best match first (with --region: in that region).",
        valueName: "words"))
    public var search: String?

    @Option(name: .long, help: ArgumentHelp(
        "Order the photos listed: uploaded (newest first), title (A to Z), or viewed (latest view first).", valueName: "order"))
    public var sort: PhotoOrder?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Keep to the photos uploaded in this last span of time: 1h, 6h, 24h, 7d, 30d (any number and unit), or all (the default).",
        valueName: "span"))
    public var window: String?

    @Flag(name: .long, help: "List the regions whose photographers grew most in the --window (default 24h) against the window of the same length before it.")
    public var rising = false

    @Option(name: .long, help: ArgumentHelp(
        "End the --window at this time instead of now: Unix seconds, an ISO 8601 date or date-time (local time), or an age (2d). A time to come, or before the first stored photo, is a usage error.",
        valueName: "time"))
    public var until: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "How many rows (default: 50 regions, 50 recents, every photo of a region, of --photos and of --search).", valueName: "n"))
    public var limit: Int?

    @Option(name: .long, help: ArgumentHelp(
        "table, ndjson, csv, geojson, html, or atom for a feed (default: table on a terminal, ndjson otherwise).", valueName: "format"))
    public var format: ReportFormat?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --format html, a list of photos is shown 30 to a page: write this page of it (default: the first).", valueName: "n"))
    public var page: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The photo cache, for --format html's links to cached photos (default: as photo-cache).", valueName: "dir"),
        completion: .directory)
    public var cacheDir: String?

    @Flag(name: .long, help: "Write a --format html page even when standard output is a terminal.")
    public var force = false

    @Flag(name: .long, help: ArgumentHelp(
        "Print the name of the file the pages link to for this page, not the page: for --region, region-ID.html (see above for other ids); else top-regions.html, recents.html or all.html."))
    public var pageName = false

    @Flag(name: .long, help: "Show times (tables, pages) in UTC instead of local time.")
    public var utc = false

    @Flag(name: .long, help: "Do not refresh a missing or empty database from Flickr first.")
    public var noRefresh = false

    @Option(name: .long, help: ArgumentHelp(
        "For refreshing a missing or empty database: read the Flickr API key from the first line of this file (default: $FLICKR_API_KEY).",
        valueName: "path"),
        completion: .file())
    public var apiKeyFile: String?

    @OptionGroup public var verbosity: VerbosityOptions

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.timeZoneOrUTC + EnvironmentVariable.terminal
        + EnvironmentVariable.cache + EnvironmentVariable.clock
        + [.init("FLICKR_API_KEY", "When set (or --api-key-file is given), a missing or empty database is refreshed from Flickr first; the refresh's tools read it, and FLICKR_API_BASE and the other FLICKR_* variables, themselves.")]

    /// What shell completion runs to offer region names for --region: never a refresh,
    /// nothing on stderr.
    static let regionNamesCommand = "regions-top --regions --no-refresh --quiet 2>/dev/null"

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage, "Usage error: a bad option, a region name that fits several regions (give more of it, or the id), or --format html to a terminal without --force."),
        .init(.dataError, "The database file is damaged, not a database, or another program's."),
        .init(.noInput, "No database at the path given (and no Flickr key to fill it), or no region of that name."),
        .init(.unavailable, "A missing or empty database could not be refreshed: flickr-recent, place-resolve or regions-load is not installed beside regions-top."),
        .init(.software), .init(.osResource),
        .init(.cantCreate, "The database cannot be read without writing: its -shm file is missing and its directory is not writable here, or its schema is older and this user may not upgrade it. Running any writing tool once as a user who may write it fixes both."),
        .init(.ioError),
        .init(.tempFail, "The database stayed busy: try again later."),
        .init(.config, ExitStatusDoc.newerDatabase + " Or, refreshing a missing or empty database, flickr-recent ended with this status (a refused key). Any status a refresh stage ends with, regions-top ends with too."),
    ]

    public init() {}

    public func validate() throws {
        if region != nil && recents { throw ValidationError("--region and --recents ask different questions; give one") }
        if regions && (region != nil || recents || photos || search != nil) {
            let other = region != nil ? "region" : recents ? "recents" : photos ? "photos" : "search"
            throw ValidationError("--regions lists the regions; --\(other) asks another question; give one")
        }
        if regions && format == .html {
            throw ValidationError("--regions has no page; the page of regions is regions-top --format html")
        }
        if photos && (region != nil || recents) {
            throw ValidationError("--photos and \(recents ? "--recents" : "--region") ask different questions; give one")
        }
        if search != nil && (photos || recents) {
            throw ValidationError("--search looks through every stored photo (or a --region's); leave out \(photos ? "--photos" : "--recents")")
        }
        if sort != nil && region == nil && !recents && !photos && search == nil {
            throw ValidationError("--sort orders photos: give it with --region, --photos, --recents or --search")
        }
        if pageName {
            if search != nil { throw ValidationError("--page-name: no page links to a search's page; name its file yourself") }
            if rising { throw ValidationError("--page-name: no page links to the rising regions' page; name its file yourself") }
            if regions { throw ValidationError("--page-name: --regions has no page; the top regions' page is top-regions.html") }
            if let format, format != .html { throw ValidationError("--page-name names the --format html page; leave out --format \(format)") }
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if format == .atom && !rising && region == nil && !photos && !recents && search == nil {
            throw ValidationError("--format atom is a feed of photos or of rising regions: give it with --region, --photos, --recents, --search or --rising")
        }
        if rising {
            if let other = [(region != nil, "region"), (photos, "photos"), (recents, "recents"), (regions, "regions"), (search != nil, "search")].first(where: \.0) {
                throw ValidationError("--rising lists regions; --\(other.1) asks another question; give one")
            }
            if window == "all" { throw ValidationError("--rising compares a window with the one before: give --window a span (1h, 24h, 7d), not all") }
        }
        if window != nil || until != nil {
            if recents || regions {
                throw ValidationError("--window keeps to upload time: give it with the top list, --region, --photos or --search, not --\(recents ? "recents" : "regions")")
            }
            if let window {
                do { _ = try TimeWindow(window, end: 0, endsNow: true) } catch { throw ValidationError("--window: \(error)") }
            }
        }
        if let page {
            guard page >= 1 else { throw ValidationError("--page must be at least 1") }
            guard format == .html || pageName, region != nil || recents || photos || search != nil else {
                throw ValidationError("--page chooses a page of a list of photos with --format html (--region, --recents, --photos or --search)")
            }
        }
        if cacheDir == "" { throw ValidationError("--cache-dir: the path is empty (leave --cache-dir out for the default cache)") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        if pageName { return try printPageName(context) }
        try refuseAPageOnATerminal(context)
        let path = try Store.resolvePath(option: database.db, environment: context.environment)
        // One read-only open when the database has photos, the common case; a refresh first
        // when it is missing or empty.
        var opened = FileManager.default.fileExists(atPath: path) ? try database.openForReading(context) : nil
        // Whether an empty database was said to be empty: its empty answer says no more.
        var saidEmpty = false
        if try opened.map({ try !Queries(store: $0).hasPhotos() }) ?? true {
            if try refreshIfEmpty(path: path, context) { opened = nil } else { saidEmpty = true }
        }
        let store = try opened ?? database.openForReading(context)
        context.trace("database \(store.path)")
        let queries = Queries(store: store)
        let format = format ?? (context.stdoutIsTerminal ? .table : .ndjson)
        let emphasis = format == .table && context.useColor
        let times = utc ? TimeFormat.utc : TimeFormat.local
        let width = format == .table ? context.tableWidth : nil
        if let width { context.trace("fitting the table to \(width) columns") }

        let window = try timeWindow(queries, context, defaultSpan: rising ? "24h" : nil)
        if self.window != nil || until != nil || rising {
            try sayCoverage(of: window ?? .all(now: context.nowSeconds), queries, times: times, context)
        }
        var regionMatch: RegionRank?
        if let region {
            regionMatch = try Self.region(named: region, in: queries)
            if let window, let match = regionMatch { regionMatch = try queries.region(id: match.regionID, window: window) ?? match }
        }
        /// The photos of `list`: a page of 30 in HTML, else every one (up to --limit;
        /// Recents, the 50 latest views unless --limit says otherwise).
        func write(_ list: PhotoList) throws -> SysExit {
            if format == .html {
                return try writePage(list, queries: queries, store: store, times: times, saidEmpty: saidEmpty, context)
            }
            // A feed holds the newest 30 (Flickr's terms, as a page).
            let photos = try queries.photos(in: list, limit: format == .atom ? min(limit ?? Paging.size, Paging.size) : limit ?? (list == .recents ? 50 : nil))
            if photos.isEmpty && !saidEmpty { context.note(try Self.noPhotos(list, times: times, queries: queries)) }
            context.standardOutput.write(Reports.photos(photos, format: format, list: list, emphasis: emphasis, times: times, width: width))
            return .ok
        }

        if rising, let window {
            try writeRising(window, queries: queries, format: format, emphasis: emphasis, width: width, times: times, saidEmpty: saidEmpty, context)
        } else if regions {
            try listRegions(queries, context, saidEmpty: saidEmpty)
        } else if let search {
            do {
                let query = try SearchQuery(search)
                context.trace("--search: the index is asked for \(query.match)")
                return try write(PhotoList(.search(query, region: regionMatch), order: sort, window: window))
            } catch let problem as SearchQuery.Problem {
                throw ToolError(.usage, "--search: \(problem.message)")
            }
        } else if let match = regionMatch {
            return try write(PhotoList(.region(match), order: sort, window: window))
        } else if recents {
            return try write(PhotoList(.recents, order: sort))
        } else if photos {
            return try write(PhotoList(.all, order: sort, window: window))
        } else {
            try Self.timeAnswers(context) { _ = try queries.topRegions(limit: limit ?? 50, window: window) }
            var rows = try queries.topRegions(limit: limit ?? 50, window: window)
            if format == .geojson {
                rows = try queries.fillingCentres(rows)
            } else if format == .html {
                rows = try queries.sampledCentres(rows)
            }
            if rows.isEmpty && !saidEmpty { context.note(try Self.noRegions(queries, window: window, times: times)) }
            if format == .html {
                // The page says its window, and what the refreshes missed of it, as the served one does.
                context.standardOutput.write(try HTMLPage.regions(
                    rows, window: window, end: context.nowSeconds, queries: queries, times: times, sentences: context.isVerbose ? .max : 3))
            } else {
                context.standardOutput.write(Reports.regions(rows, format: format, emphasis: emphasis, width: width))
            }
        }
        return .ok
    }
}
