import Foundation
import TopRegionsStore
import TopRegionsSupport

/// The refresh a user would type, `flickr-recent | place-resolve | regions-load`, as the
/// stages regions-top and regions-serve run it: the three tools installed beside the running
/// program, on one database.
public enum RefreshStages {
    /// Why the refresh cannot run from here, in words that follow "cannot refresh ...: ".
    public struct Unavailable: Error, Sendable {
        public let reason: String
    }

    /// The three stages on the database at `path`: each told `verbosity` (as --quiet or
    /// --verbose), the two that ask Flickr given the key file. `program` is the running
    /// tool's name, for the reason a stage cannot be found.
    public static func installed(
        beside program: String, path: String, verbosity: Verbosity, apiKeyFile: String?,
        recent: [String] = [], load: [String] = []
    ) throws(Unavailable) -> [ProcessPipeline.Stage] {
        guard let directory = ProcessPipeline.executableDirectory() else {
            throw Unavailable(reason: "cannot tell where \(program) is installed")
        }
        var shared = ["--db", path]
        switch verbosity {
        case .quiet: shared.append("--quiet")
        case .verbose: shared.append("--verbose")
        case .normal: break
        }
        let key = apiKeyFile.map { ["--api-key-file", $0] } ?? []
        let stages = [
            ProcessPipeline.Stage(directory + "/flickr-recent", shared + key + recent),
            ProcessPipeline.Stage(directory + "/place-resolve", shared + key),
            ProcessPipeline.Stage(directory + "/regions-load", shared + load),
        ]
        for stage in stages where !FileManager.default.isExecutableFile(atPath: stage.executable) {
            throw Unavailable(reason: "\(stage.name) is not installed beside \(program) (in \(directory))")
        }
        return stages
    }

    /// The key lock a refresh holds while it runs, so that one runs at a time on a database
    /// (regions-load --refresh's, regions-top's when empty, regions-serve's).
    public static let lockKey = "refresh when empty"

    /// A stage that failed: how the refresh ended, as a shell reports it.
    public struct Failed: Error, Sendable {
        public let stage: String
        /// Its exit status, or 128 + the signal that ended it.
        public let status: Int32
        public let signal: Int32?

        /// "flickr-recent exited with status 78", "... was ended by signal 9 (Killed)".
        public var how: String {
            signal.map { "\(stage) was ended by signal \($0) (\(String(cString: strsignal($0))))" } ?? "\(stage) exited with status \(status)"
        }
    }

    /// Runs `stages` joined by pipes, on the database at `path`, holding its refresh lock
    /// (waiting for a refresh already running); their progress and messages go to stderr as
    /// they come, the last stage's output to `lastOutput`. `beforeRunning` is called once the
    /// lock is held and returns whether to run (false: another refresh did the work). The
    /// first stage that fails is thrown (`Failed`), for the caller to end with its status, as
    /// `set -o pipefail` would. The stages die with the caller, and hold the lock with it
    /// until the last of them is gone. A refresh that wrote nothing leaves no database, nor
    /// the lock file made for it.
    public static func run(
        _ stages: [ProcessPipeline.Stage], path: String, lastOutput: Int32, environment: [String: String],
        trace: ((String) -> Void)? = nil, beforeRunning: () throws -> Bool = { true }
    ) throws {
        let lockFile = try Store.keyLocks(for: path)
        let lock = try lockFile.lock(lockKey)
        defer {
            lock.unlock()
            if lockFile.createdFile && !FileManager.default.fileExists(atPath: path) { lockFile.removeIfUnused() }
        }
        guard try beforeRunning() else { return }
        trace?("running " + stages.map { ([$0.executable] + $0.arguments).joined(separator: " ") }.joined(separator: " | "))
        try runAll(stages, path: path, environment: environment, lastOutput: lastOutput, sharing: lock, ownSessions: false)
    }

    /// The stages joined by pipes, then, when each succeeded and a stored photo's place
    /// waits to be looked up, `place-resolve --pending` (`pendingPlaces`); the first that
    /// failed is thrown (`Failed`).
    public static func runAll(
        _ stages: [ProcessPipeline.Stage], path: String, environment: [String: String], lastOutput: Int32, sharing lock: KeyLock, ownSessions: Bool
    ) throws {
        let outcomes = try ProcessPipeline.run(stages, environment: environment, lastOutput: lastOutput, sharing: lock, ownSessions: ownSessions)
        if let failed = outcomes.first(where: { $0.status != 0 }) {
            throw Failed(stage: failed.stage, status: failed.status, signal: failed.signal)
        }
        guard let pending = pendingPlaces(after: stages), FileManager.default.fileExists(atPath: path), try Queries(store: Store.openForReading(path: path)).hasPendingPlaces() else { return }
        let resolved = try ProcessPipeline.run([pending], environment: environment, lastOutput: STDERR_FILENO, sharing: lock, ownSessions: ownSessions)
        if let failed = resolved.first(where: { $0.status != 0 }) {
            throw Failed(stage: "place-resolve --pending", status: failed.status, signal: failed.signal)
        }
    }

    /// What a refresh runs after its pipeline: `place-resolve --pending`, for the photos an
    /// earlier refresh stored without a region because their places could not be looked up
    /// then (Flickr down, the hour's calls spent). The pipeline asks only about the places
    /// of the photos it fetches, and a `--since-last` refresh never fetches those photos
    /// again: they stayed out of every count until someone ran `place-resolve --pending` by
    /// hand. With nothing pending it asks Flickr nothing.
    static func pendingPlaces(after stages: [ProcessPipeline.Stage]) -> ProcessPipeline.Stage? {
        stages.first { $0.name == "place-resolve" }.map { ProcessPipeline.Stage($0.executable, $0.arguments + ["--pending"]) }
    }
}
