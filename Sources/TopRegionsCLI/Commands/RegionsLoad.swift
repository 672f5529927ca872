import ArgumentParser
import Foundation
import Synchronization
import TopRegionsFlickr
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsRefresh
import TopRegionsStore
import TopRegionsSupport

public struct RegionsLoad: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "regions-load",
        abstract: "Store photo records in the database, in batches, idempotently.",
        discussion: """
            Reads photo records (NDJSON, one per line; see topregions-record(7)) from the files \
            given, or from standard input, and stores photos, photographers, places and regions. \
            Loading the same input twice changes nothing. A photo whose region is not known yet is \
            stored too, and counts for its region once place-resolve learns the place.

            Records are read in pieces of about 2 MB (or --batch-size records, if fewer), which \
            bounds memory, and stored in transactions of at most --batch-size records; a \
            transaction takes the pieces that are ready, so a slow upstream never holds the \
            database's write lock. A bad line stops the load with an error naming its line and \
            column, and the last line stored: the pieces before the one holding it are stored, \
            nothing of it or after. With --skip-bad-lines every bad line is reported and skipped, \
            and the exit status is 65.

            Records are read on a thread of the least priority (nice 19) and stored on one of \
            the priority the load was started with: with a core to spare the reading is as fast, \
            and where a server answers pages beside a cron load, the pages get that core first. \
            Run without a terminal (from cron, or with setsid), a load also lowers its session's \
            share of the CPU to that of nice 19 while it runs, and puts it back as it ends: Linux \
            shares the CPU between sessions first (autogroup scheduling, /proc/self/autogroup), so \
            nice alone would not make a cron load yield to a server in a session of its own. Where \
            nothing else wants the CPU, the load is as fast.

            Prints a summary on stderr: records read, new, updated, already stored (as they are, \
            or earlier in the same input), and kept out as deleted (when there are any).

            --refresh fetches and stores what is new on Flickr in one command, the one for cron: \
            it runs flickr-recent --since-last | place-resolve | regions-load, the tools installed \
            beside it, on its database, with its environment (FLICKR_API_KEY reaches every \
            stage), its -q or -v, --api-key-file, --batch-size and --prune-older-than; one refresh \
            runs at a time on a database (a second waits for the first). It ends with the status \
            of the first stage that failed, as set -o pipefail would, where a shell's pipeline \
            ends with its last stage's: the photos fetched before a failure are stored all the \
            same (place-resolve passes on what it cannot resolve). After a pipeline that \
            succeeded it runs place-resolve --pending when stored photos wait for their places \
            (what an earlier refresh could not look up), so those join the counts without a \
            second cron line.

            Examples:
              FLICKR_API_KEY=... regions-load -q --refresh --prune-older-than 7d   # from cron
              flickr-recent | place-resolve | regions-load
              regions-load --db photos.db saved-page.json more.ndjson
              regions-load --prune-older-than 7d --dry-run    # what would go; changes nothing
              regions-load --prune-older-than 7d < /dev/null
              regions-load --delete 53120987654
              regions-load --undelete 53120987654             # back in every list, as it was

            A deleted photo is kept out of every list, not erased: --undelete brings it back as it \
            was (its thumbnail, its views, when it was first stored, every count), until \
            --prune-older-than removes photos first stored that long ago, when what was kept of \
            it goes too (its id stays deleted; --undelete then only lets a later refresh store it \
            again).

            Pruning and deleting never guess: an age needs its unit (s, m, h, d, w; "7" alone is \
            refused), and an id that was never stored is refused (a typo), with nothing changed. \
            --dry-run prints on standard output one NDJSON line per photo that would be pruned, \
            deleted or undeleted ({"action":"prune","id":"..."}), reads no records, and changes \
            nothing.
            """,
        version: toolkitVersionText)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Records per transaction, at most (50,000 at the most; fewer, larger transactions load faster).", valueName: "n"))
    public var batchSize = 40_000

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "After loading, remove photos stored longer ago than this (e.g. 12h, 7d, 2w). Counts stay exact.",
        valueName: "age"), transform: { try Age($0) })
    public var pruneOlderThan: Age?

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp(
        "Delete the stored photo with this id: out of every list, and never loaded again, until --undelete (repeatable).", valueName: "id"))
    public var delete: [String] = []

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp(
        "Undo --delete for this id: the photo is back in every list as it was, with its thumbnail and views (repeatable).", valueName: "id"))
    public var undelete: [String] = []

    @Flag(name: .long, help: "Show what --prune-older-than, --delete and --undelete would change, and change nothing.")
    public var dryRun = false

    @Flag(name: .long, help: "Fetch what is new on Flickr and store it: flickr-recent --since-last | place-resolve | regions-load in one command, ending with the first failing stage's status (for cron).")
    public var refresh = false

    @Option(name: .long, help: ArgumentHelp(
        "With --refresh: read the Flickr API key from the first line of this file (default: $FLICKR_API_KEY).", valueName: "path"),
        completion: .file())
    public var apiKeyFile: String?

    @OptionGroup public var verbosity: VerbosityOptions

    @OptionGroup public var input: RecordInputOptions

    public static let environment = EnvironmentVariable.database + EnvironmentVariable.imageURLs
        + [.init("FLICKR_API_BASE", "When FLICKR_STATIC_BASE is not set, image URLs built for a saved Flickr search page point to its origin.")]
        + EnvironmentVariable.clock

    public static let exitStatuses: [ExitStatusDoc] = [
        .init(.ok), .init(.usage, "Usage error: a bad option, an age without its unit, an id never stored given to --delete."),
        .init(.dataError), .init(.noInput, "An input file does not exist."), .init(.software), .init(.osResource), .init(.cantCreate), .init(.ioError),
        .init(.tempFail, "The database stayed busy (another writer held it for over a minute): try again later."),
        .init(.config, ExitStatusDoc.newerDatabase + " With --refresh: no API key, or one Flickr refuses."),
        .init(.unavailable, "With --refresh: flickr-recent or place-resolve is not installed beside regions-load. Any status a refresh stage ends with, regions-load --refresh ends with too."),
    ]

    public init() {}

    public func validate() throws {
        guard (1...LoadOptions.maxTransactionRecords).contains(batchSize) else {
            throw ValidationError("--batch-size must be between 1 and \(Grammar.grouped(LoadOptions.maxTransactionRecords))")
        }
        if refresh {
            guard input.files.isEmpty else { throw ValidationError("--refresh reads its records from Flickr; leave out the files") }
            guard delete.isEmpty && undelete.isEmpty && !dryRun && !input.skipBadLines else {
                throw ValidationError("--refresh runs alone (with --prune-older-than and --batch-size); run --delete, --undelete or --dry-run by themselves")
            }
        } else if apiKeyFile != nil {
            throw ValidationError("--api-key-file is for --refresh (regions-load itself asks Flickr nothing)")
        }
        if apiKeyFile == "" { throw ValidationError("--api-key-file: the path is empty") }
        if let both = delete.first(where: undelete.contains) {
            throw ValidationError("photo \(both) is given to both --delete and --undelete")
        }
        if dryRun {
            guard pruneOlderThan != nil || !delete.isEmpty || !undelete.isEmpty else {
                throw ValidationError("--dry-run previews --prune-older-than, --delete and --undelete; give one of them")
            }
            guard input.files.isEmpty else { throw ValidationError("--dry-run reads no records; leave out the files") }
        }
    }

    /// Refuses ids that were never stored before anything changes: a typo must not delete
    /// (or block) some other photo.
    /// A database not created yet (`writer` nil) has stored and deleted nothing.
    private func checkIDs(_ writer: PhotoWriter?) throws -> (stored: Set<String>, deleted: Set<String>) {
        let status = try writer?.deletionStatus(of: delete + undelete) ?? (stored: [], deleted: [])
        let unknown = Set(delete).subtracting(status.stored).subtracting(status.deleted).sorted()
        if !unknown.isEmpty {
            throw ToolError(.usage, "--delete: no photo \(unknown.joined(separator: ", ")) is stored (a typo?); nothing changed")
        }
        let notDeleted = Set(undelete).subtracting(status.deleted).sorted()
        if !notDeleted.isEmpty {
            throw ToolError(.usage, "--undelete: photo \(notDeleted.joined(separator: ", ")) was not deleted; nothing changed")
        }
        return status
    }

    /// --dry-run: what would change, one NDJSON line per photo on stdout, and a summary.
    private func preview(_ writer: PhotoWriter, _ status: (stored: Set<String>, deleted: Set<String>), _ context: ToolContext) throws -> SysExit {
        var lines = JSONWriter()
        func line(_ action: String, _ id: String) {
            lines.object { o in
                o.string("action", action)
                o.string("id", id)
            }
            lines.newline()
        }
        let deleting = Set(delete).intersection(status.stored).sorted()
        for id in deleting { line("delete", id) }
        let undeleting = Set(undelete).sorted()
        for id in undeleting { line("undelete", id) }
        var summary = ["would delete \(deleting.count)", "undelete \(undeleting.count)"]
        if let age = pruneOlderThan?.seconds {
            let cutoff = context.nowSeconds - Int64(age.rounded())
            let pruning = try writer.photosStored(before: cutoff).filter { !deleting.contains($0) }
            for id in pruning { line("prune", id) }
            summary.append("prune \(pruning.count) (stored before \(Reports.formatTime(cutoff)) UTC)")
        }
        context.standardOutput.write(lines.bytes)
        context.note("dry run: " + summary.joined(separator: ", ") + "; nothing changed")
        return .ok
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        // For the whole run: a refresh's stages are of the same session, and the nested
        // regions-load finds the weight already lowered and leaves it to this one.
        let weight = dryRun || !context.mayLowerSessionWeight ? nil : SessionWeight.lowerWithoutTerminal(to: ThisThread.leastPriority)
        defer { weight?.restore() }
        if let weight {
            context.trace("no terminal: the session's CPU weight lowered from nice \(weight.before) to \(weight.lowered) while loading")
        }
        if refresh { return try runRefresh(context) }
        if dryRun {
            // A dry run only reads: no lock, no write access needed.
            let store = try database.openForReading(context)
            context.trace("database \(store.path)")
            let writer = PhotoWriter(store: store)
            return try preview(writer, try checkIDs(writer), context)
        }
        // A new database is created by the first batch of records: a run with nothing to
        // store (no record, or a bad first line) leaves none behind.
        let target = try database.openOnFirstWrite(context)
        context.trace("database \(target.path)")
        let now = context.nowSeconds
        var summary: [String] = []
        _ = try checkIDs(target.existing.map { PhotoWriter(store: $0) })

        // Deletions first, so this same run cannot load the photo back. (Ids that passed the
        // check are stored or deleted: the database exists.)
        if !delete.isEmpty {
            let removed = try PhotoWriter(store: target.store()).delete(ids: delete, now: now)
            summary.append("deleted \(removed.count)")
            for id in Set(delete).subtracting(removed).sorted() {
                context.note("photo \(id) was already deleted")
            }
        }
        if !undelete.isEmpty {
            let outcomes = try PhotoWriter(store: target.store()).undelete(ids: undelete, now: now)
            summary.append("undeleted \(outcomes.count)")
            for (id, outcome) in outcomes.sorted(by: { $0.key < $1.key }) where outcome == .forgotten {
                context.note("photo \(id) was pruned while deleted: it is no longer kept out, and a later refresh stores it again if Flickr still lists it")
            }
        }

        // With only maintenance to do, do not wait for someone to type records.
        let maintenanceOnly = (!delete.isEmpty || !undelete.isEmpty || pruneOlderThan != nil) && input.files.isEmpty && context.stdinIsTerminal
        var status = SysExit.ok
        if !maintenanceOnly {
            var options = LoadOptions()
            options.batchSize = batchSize
            options.skipBadLines = input.skipBadLines
            options.staticBase = FlickrEndpoints.from(environment: context.environment).staticBase
            if context.isVerbose {
                options.onBatch = { read, result, end in
                    let place = end.map { " (up to \($0.source) line \($0.line))" } ?? ""
                    context.trace("committed \(Grammar.count(read, "record"))\(place): new \(result.new), updated \(result.updated), \(Self.unchangedWords(result))")
                }
            }
            let loader = Loader(database: target, options: options)
            let inputs = input.sources(context)
            let warned = Mutex(0)
            let report = try target.naming { try loader.load(inputs, now: now, onBadLine: { error in
                context.diagnose("skipped \(error)")
            }, onFuture: { source, line, record in
                // The first few by name; the rest are counted in the summary.
                guard warned.withLock({ $0 += 1; return $0 <= 10 }) else { return }
                context.diagnose("\(source): line \(line): photo \(record.id) says it was uploaded \(Reports.formatTime(record.uploaded!)) UTC, more than a day from now; stored, but flickr-recent --since-last does not start from it")
            }) }
            var line = "read \(report.read), new \(report.batch.new), updated \(report.batch.updated), \(Self.unchangedWords(report.batch))"
            if input.skipBadLines { line += ", \(Grammar.count(report.bad, "bad line"))" }
            if report.future > 0 { line += ", uploaded in the future \(report.future)" }
            summary.insert(line, at: 0)
            if report.bad > 0 { status = .dataError }
        }

        if let age = pruneOlderThan?.seconds {
            let cutoff = now - Int64(age.rounded())
            context.trace("pruning the photos stored before \(Reports.formatTime(cutoff)) UTC (\(cutoff))")
            let pruned = try target.existing.map { try PhotoWriter(store: $0).prune(storedBefore: cutoff) } ?? 0
            summary.append("pruned \(pruned)")
        }
        context.note(summary.joined(separator: ", "))
        return status
    }

    /// What a load left as it was, in words a person reading cron's mail understands: the
    /// photos stored before (or earlier in the same input), and those kept out because they
    /// were deleted ("skipped 44" said neither).
    static func unchangedWords(_ result: BatchResult) -> String {
        var words = "already stored \(result.unchanged + result.duplicates)"
        if result.deletedEarlier > 0 { words += ", kept out as deleted \(result.deletedEarlier)" }
        return words
    }

    /// --refresh: the three stages, this tool's options passed on to the one each concerns.
    private func runRefresh(_ context: ToolContext) throws -> SysExit {
        let path = try Store.resolvePath(option: database.db, environment: context.environment)
        let load = ["--batch-size", "\(batchSize)"] + (pruneOlderThan.map { ["--prune-older-than", $0.description] } ?? [])
        let stages: [ProcessPipeline.Stage]
        do {
            stages = try RefreshStages.installed(
                beside: "regions-load", path: path, verbosity: context.verbosity, apiKeyFile: apiKeyFile, recent: ["--since-last"], load: load)
        } catch {
            throw ToolError(.unavailable, "cannot refresh: \(error.reason)")
        }
        try RefreshStages.run(stages, path: path, lastOutput: STDOUT_FILENO, context)
        return .ok
    }
}
