import Foundation
import Testing
@testable import TopRegionsCLI
import TopRegionsHTTP
import TopRegionsTestSupport

/// The commands run in this process, through the context the executables get (streams,
/// environment, clock), without spawning anything: usage errors, output formats and exit
/// statuses. Pipes, signals, kill -9 and contention stay in the end-to-end tests.
@Suite struct CommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run<Command: ToolCommand>(
        _: Command.Type, _ arguments: [String], input: String = "", now: Double = 1_700_000_000, environment: [String: String] = [:],
        network: Network = .curl
    ) -> Run {
        let context = ToolContext.memory(toolName: Command.toolName, environment: environment, input: Array(input.utf8), now: now, network: network)
        let status = Command.main(arguments, context: context)
        return Run(status: status, stdout: context.standardOutput.text, stderr: context.standardError.text)
    }

    /// An unknown option is answered with the nearest one only when it is a typo away:
    /// `--sinc` → `--since`, `--limt` → `--limit`; `--top` gets no `--db`.
    @Test func didYouMeanOnlySuggestsWhatIsClose() {
        let far = Self.run(RegionsTop.self, ["--top", "3"])
        #expect(far.status == 64)
        #expect(far.stderr.hasPrefix("regions-top: Unknown option '--top'.\n"), "\(far.stderr)")
        let close = Self.run(RegionsTop.self, ["--limt", "3"])
        #expect(close.status == 64)
        #expect(close.stderr.hasPrefix("regions-top: Unknown option '--limt'. Did you mean '--limit'?\n"), "\(close.stderr)")
        #expect(CloseSuggestion.filter("Unknown option '--since'. Did you mean '--force'?") == "Unknown option '--since'.")
        #expect(CloseSuggestion.filter("Unknown option '--regoin'. Did you mean '--region'?") == "Unknown option '--regoin'. Did you mean '--region'?")
        #expect(CloseSuggestion.distance(Array("regoin"), Array("region")) == 1)
    }

    static let records = [
        #"{"id":"1","owner":"a@N01","place_id":"P1","region_id":"R1","region":"Alpha, X","uploaded":1699990000}"#,
        #"{"id":"2","owner":"b@N01","place_id":"P1","region_id":"R1","region":"Alpha, X","uploaded":1699990100}"#,
        #"{"id":"3","owner":"a@N01","place_id":"P2","region_id":"R2","region":"Beta, Y","uploaded":1699990200}"#,
    ].joined(separator: "\n") + "\n"

    /// Ages and sizes are typed: read once, where the option is parsed, and refused there
    /// with the reason in words when they cannot be (status 64, nothing touched).
    @Test func agesAndSizesAreReadWhereTheOptionIsParsed() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.db")
        let bare = Self.run(RegionsLoad.self, ["--db", db, "--prune-older-than", "7"])
        #expect(bare.status == 64)
        #expect(bare.stderr.hasPrefix(
            "regions-load: The value '7' is invalid for '--prune-older-than <age>': '7' has no unit: write it with one of s, m, h, d, w (e.g. 7d for days)\n"), "\(bare.stderr)")
        #expect(bare.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: db))

        let size = Self.run(PhotoCacheCommand.self, ["--cache-dir", directory.file("cache"), "--max-bytes", "10", "--info"])
        #expect(size.status == 64)
        #expect(size.stderr.hasPrefix(
            "photo-cache: The value '10' is invalid for '--max-bytes <size>': '10' has no unit: write it with one of B, K, M, G (e.g. 10M for megabytes)\n"), "\(size.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("cache")))

        let tiny = Self.run(PhotoCacheCommand.self, ["--cache-dir", directory.file("cache"), "--max-photo-bytes", "2B", "--info"])
        #expect(tiny.status == 64)
        #expect(tiny.stderr.contains("cannot read '2B' as a size of at least 3 bytes"), "\(tiny.stderr)")

        let never = Self.run(ThumbGet.self, ["--db", db, "--download-timeout", "0s"])
        #expect(never.status == 64)
        #expect(never.stderr.contains("'0s' is no time at all: give more than 0"), "\(never.stderr)")

        // Zero is zero in every unit; an explicit B means bytes.
        let empty = Self.run(PhotoCacheCommand.self, ["--cache-dir", directory.file("cache"), "--max-bytes", "0", "--info"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == #"{"directory":"\#(directory.file("cache"))","entries":0,"bytes":0,"cap":0,"ignored":0}"# + "\n")
        let bytes = Self.run(PhotoCacheCommand.self, ["--cache-dir", directory.file("cache"), "--max-bytes", "512B", "--info"])
        #expect(bytes.stdout.contains(#""cap":512,"#), "\(bytes.stdout)")

        // A negative age or size is read as one and refused for what it is, not taken for an
        // unknown option that left its option without a value ("Missing value").
        for (command, option) in [(RegionsLoad.self as any ToolCommand.Type, "--prune-older-than"), (FlickrRecent.self, "--overlap"),
                                  (ThumbGet.self, "--download-timeout"), (PhotoCacheCommand.self, "--download-timeout")] {
            let negative = Self.run(command, ["--db", db, option, "-1d"])
            #expect(negative.status == 64 && negative.stderr.contains("'-1d' is negative"), "\(option): \(negative.stderr)")
        }
        let negativeSize = Self.run(PhotoCacheCommand.self, ["--cache-dir", directory.file("cache"), "--max-bytes", "-1M", "--info"])
        #expect(negativeSize.status == 64 && negativeSize.stderr.contains("cannot read '-1M' as a size"), "\(negativeSize.stderr)")
        // A number without its unit is shown with the option's usual one: a download timeout
        // of 10 is 10s, an overlap of 15 is 15m (both were shown as days).
        let timeout = Self.run(ThumbGet.self, ["--db", db, "--download-timeout", "10"])
        #expect(timeout.status == 64 && timeout.stderr.contains("'10' has no unit: write it with one of s, m, h, d, w (e.g. 10s for seconds)"), "\(timeout.stderr)")
        let overlap = Self.run(FlickrRecent.self, ["--db", db, "--overlap", "15"])
        #expect(overlap.status == 64 && overlap.stderr.contains("'15' has no unit: write it with one of s, m, h, d, w (e.g. 15m for minutes)"), "\(overlap.stderr)")
        // --batch-size says its bound instead of taking more and loading 50,000 at a time.
        let batch = Self.run(RegionsLoad.self, ["--db", db, "--batch-size", "60000"])
        #expect(batch.status == 64 && batch.stderr.contains("--batch-size must be between 1 and 50,000"), "\(batch.stderr)")
    }

    /// Load, ask, prune (dry run) in process: the same bytes and statuses as the executables.
    @Test func loadAskAndPruneInProcess() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.db")
        let load = Self.run(RegionsLoad.self, ["--db", db], input: Self.records)
        #expect(load.status == 0, "\(load.stderr)")
        #expect(load.stdout == "")
        #expect(load.stderr == "regions-load: read 3, new 3, updated 0, already stored 0\n")

        let csv = Self.run(RegionsTop.self, ["--db", db, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        // RFC 4180: CRLF line ends.
        #expect(csv.stdout == "rank,region_id,name,photographers,photos,latitude,longitude\r\n1,R1,\"Alpha, X\",2,2,,\r\n2,R2,\"Beta, Y\",1,1,,\r\n")

        // Stored at the context's clock; two hours later, a dry run would prune all three.
        let dryRun = Self.run(RegionsLoad.self, ["--db", db, "--prune-older-than", "1h", "--dry-run"], now: 1_700_000_000 + 7200)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout == (1...3).map { #"{"action":"prune","id":"\#($0)"}"# + "\n" }.joined())
        #expect(dryRun.stderr.hasSuffix("prune 3 (stored before 2023-11-14 23:13 UTC); nothing changed\n"), "\(dryRun.stderr)")
        #expect(Self.run(RegionsTop.self, ["--db", db, "--format", "csv"]).stdout == csv.stdout, "a dry run changes nothing")

        let missing = Self.run(RegionsTop.self, ["--db", directory.file("none.db")])
        #expect(missing.status == 66)
        #expect(missing.stderr == "regions-top: no database at \(directory.file("none.db")); fill it with flickr-recent | place-resolve | regions-load, or set FLICKR_API_KEY (or give --api-key-file) and regions-top does that itself\n")
        #expect(missing.stdout == "")
    }
}
