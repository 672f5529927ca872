import ArgumentParser
import TopRegionsCore

public struct RegionsLoad: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "regions-load",
        abstract: "Store photo records in the database, in batches, idempotently.",
        discussion: """
            Reads photo records (NDJSON, one per line; see topregions-record(7)) from the files \
            given, or from standard input, and stores photos, photographers, places and regions. \
            Loading the same input twice changes nothing. A photo whose region is not known yet is \
            stored too, and counts for its region once place-resolve learns the place.

            Each batch is one transaction. A bad line stops the load with an error naming its line \
            and column; the batches before it are stored, nothing of its own batch is. With \
            --skip-bad-lines every bad line is reported and skipped, and the exit status is 65.

            Prints a summary on stderr: records read, new, updated, and skipped (already stored \
            as they are, repeated in the input, or deleted earlier).

            Examples:
              flickr-recent | place-resolve | regions-load
              regions-load --db photos.db saved-page.json more.ndjson
              regions-load --prune-older-than 7d < /dev/null
              regions-load --delete 53120987654
            """,
        version: toolkitVersion)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Records per transaction.", valueName: "n"))
    public var batchSize = 20_000

    @Option(name: .long, help: ArgumentHelp(
        "After loading, remove photos stored longer ago than this (e.g. 12h, 7d, 2w). Counts stay exact.",
        valueName: "age"))
    public var pruneOlderThan: String?

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp(
        "Delete the photo with this id, and never load it again (repeatable).", valueName: "id"))
    public var delete: [String] = []

    @Flag(name: .shortAndLong, help: "Do not print the summary.")
    public var quiet = false

    @OptionGroup public var input: RecordInputOptions

    public init() {}

    public func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
        if let age = pruneOlderThan, Units.parseDuration(age) == nil {
            throw ValidationError("--prune-older-than: cannot read '\(age)' as an age (e.g. 90m, 12h, 7d, 2w)")
        }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        let store = try database.open(context)
        let writer = PhotoWriter(store: store)
        let now = context.nowSeconds
        var summary: [String] = []

        // Deletions first, so this same run cannot load the photo back.
        if !delete.isEmpty {
            let removed = try writer.delete(ids: delete, now: now)
            summary.append("deleted \(removed.count)")
            for id in delete where !removed.contains(id) {
                context.diagnose("photo \(id) was not stored; it will not be loaded in the future")
            }
        }

        // With only maintenance to do, do not wait for someone to type records.
        let maintenanceOnly = (!delete.isEmpty || pruneOlderThan != nil) && input.files.isEmpty && context.stdinIsTerminal
        var status = SysExit.ok
        if !maintenanceOnly {
            var options = LoadOptions()
            options.batchSize = batchSize
            options.skipBadLines = input.skipBadLines
            options.staticBase = FlickrEndpoints.from(environment: context.environment).staticBase
            let loader = Loader(writer: writer, options: options)
            let inputs = input.sources(context)
            let report = try loader.load(inputs, now: now) { error in
                context.diagnose("skipped \(error)")
            }
            var line = "read \(report.read), new \(report.batch.new), updated \(report.batch.updated), skipped \(report.skipped)"
            if input.skipBadLines { line += ", bad lines \(report.bad)" }
            summary.insert(line, at: 0)
            if report.bad > 0 { status = .dataError }
        }

        if let age = pruneOlderThan.flatMap(Units.parseDuration) {
            let pruned = try writer.prune(storedBefore: now - Int64(age.rounded()))
            summary.append("pruned \(pruned)")
        }
        if !quiet { context.diagnose(summary.joined(separator: ", ")) }
        return status
    }
}
