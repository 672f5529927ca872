import Foundation
import TopRegionsRefresh
import TopRegionsStore
import TopRegionsSupport

/// Refresh when empty: on a missing database, or one with no photos, regions-top first runs
/// the refresh a user would type, `flickr-recent | place-resolve | regions-load`, as the
/// app refreshes on its first launch; then it answers.
extension RegionsTop {
    /// The refresh, run as a shell runs it.
    static let refreshPipeline = "flickr-recent | place-resolve | regions-load"

    /// The key lock a refresh holds while it runs (`RefreshStages.lockKey`).
    public static let refreshLockKey = RefreshStages.lockKey

    /// Refreshes the database at `path`, found missing or without photos, when a Flickr key
    /// is configured; without a key (or with --no-refresh), says once how photos get there:
    /// a missing database is still an error (66), an empty one answers empty. Returns
    /// whether the database may have changed (a refresh ran, or another process's did).
    func refreshIfEmpty(path: String, _ context: ToolContext) throws -> Bool {
        let keyGiven = apiKeyFile != nil || !(context.environment["FLICKR_API_KEY"] ?? "").isEmpty
        guard keyGiven && !noRefresh else {
            var how = "fill it with \(Self.refreshPipeline)"
            if !noRefresh { how += ", or set FLICKR_API_KEY (or give --api-key-file) and regions-top does that itself" }
            if !FileManager.default.fileExists(atPath: path) {
                throw ToolError(.noInput, "no database at \(path); \(how)")
            }
            context.note("the database has no photos yet; \(how)")
            return false
        }
        let stages = try refreshStages(path: path, context)
        // Two regions-top started at once on an empty database refresh it once: the second
        // waits for the first's lock, then finds the photos the first stored. regions-top's
        // standard output carries its answer only: the last stage's goes to standard error,
        // where a person still sees it.
        try RefreshStages.run(stages, path: path, lastOutput: STDERR_FILENO, context) {
            guard try !Self.hasPhotos(path, context) else { return false }
            context.note("the database has no photos yet; refreshing it from Flickr: \(Self.refreshPipeline)")
            return true
        }
        return true
    }

    /// Whether the database at `path` exists and holds a photo. Only reads.
    static func hasPhotos(_ path: String, _ context: ToolContext) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        return try Queries(store: context.store.openForReading(path)).hasPhotos()
    }

    /// The three stages installed beside this executable, on the database at `path`.
    func refreshStages(path: String, _ context: ToolContext) throws -> [ProcessPipeline.Stage] {
        do {
            return try RefreshStages.installed(beside: "regions-top", path: path, verbosity: context.verbosity, apiKeyFile: apiKeyFile)
        } catch {
            throw ToolError(.unavailable, "cannot refresh the empty database: \(error.reason)")
        }
    }
}
