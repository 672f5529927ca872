import ArgumentParser
import Foundation
import Synchronization
import TopRegionsFlickr
import TopRegionsHTTP
import TopRegionsStore
import TopRegionsSupport

/// The options every tool that calls Flickr's API shares.
public struct FlickrOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Read the Flickr API key from the first line of this file (default: $FLICKR_API_KEY).", valueName: "path"),
        completion: .file())
    public var apiKeyFile: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "At most this many Flickr calls in this run, retries included.", valueName: "n"))
    public var maxCalls: Int = 1000

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Retries of a call that failed transiently (HTTP 5xx or 429, Flickr errors 105 and search 10, timeouts, cut responses).",
        valueName: "n"))
    public var retries: Int = 4

    public init() {}

    public func validate() throws {
        guard maxCalls >= 0 else { throw ValidationError("--max-calls cannot be negative") }
        if apiKeyFile == "" { throw ValidationError("--api-key-file: the path is empty") }
        guard (0...10).contains(retries) else { throw ValidationError("--retries must be between 0 and 10") }
    }

    /// What a Flickr client of this run needs from its options and the environment, checked
    /// before any work (and before the database is created): libcurl, the key (without one
    /// there is nothing to do: exit 78), the endpoints and the hourly limit.
    public struct Configuration: Sendable {
        var endpoints: FlickrEndpoints
        var key: FlickrAPIKey
        var hourlyLimit: Int
        var maxCalls: Int
        var retries: Int
    }

    public func configuration(_ context: ToolContext) throws -> Configuration {
        try Self.configuration(apiKeyFile: apiKeyFile, maxCalls: maxCalls, retries: retries, context)
    }

    private static func configuration(apiKeyFile: String?, maxCalls: Int, retries: Int, _ context: ToolContext) throws -> Configuration {
        try context.network.requireAvailable()
        let key = try FlickrAPIKey.load(file: apiKeyFile, environment: context.environment)
        let endpoints = FlickrEndpoints.from(environment: context.environment)
        guard CurlSession.isFetchable(endpoints.apiBase) else {
            throw ToolError(.config, "FLICKR_API_BASE must be an http or https URL")
        }
        return Configuration(
            endpoints: endpoints, key: key, hourlyLimit: try CallLedger.limit(environment: context.environment),
            maxCalls: maxCalls, retries: retries)
    }

    /// Everything a Flickr client of this run needs, its calls counted in `store`.
    public static func settings(_ configuration: Configuration, store: Store, _ context: ToolContext) -> FlickrSettings {
        settings(configuration, database: StoreOnFirstWrite(store), context)
    }

    /// The settings of a run whose database may not exist yet: its calls are counted in
    /// memory until it does (`CallLedger`).
    public static func settings(_ configuration: Configuration, database: StoreOnFirstWrite, _ context: ToolContext) -> FlickrSettings {
        FlickrSettings(
            network: context.network, endpoints: configuration.endpoints, key: configuration.key, budget: RunBudget(limit: configuration.maxCalls),
            ledger: CallLedger(database: database, limit: configuration.hourlyLimit),
            retry: RetryPolicy.from(environment: context.environment, maxAttempts: configuration.retries + 1), now: context.now,
            trace: context.tracer)
    }

    /// The settings, made only when called: a tool that may need no lookup at all asks for
    /// the key only when it does, and for the store (which may create the database) after.
    public func settingsWhenNeeded(_ context: ToolContext, store: @escaping @Sendable () throws -> Store) -> @Sendable () throws -> FlickrSettings {
        let (apiKeyFile, maxCalls, retries) = (self.apiKeyFile, self.maxCalls, self.retries)
        return {
            let configuration = try Self.configuration(apiKeyFile: apiKeyFile, maxCalls: maxCalls, retries: retries, context)
            return Self.settings(configuration, store: try store(), context)
        }
    }
}

/// A one-line progress report on stderr, rewritten in place, only on a terminal (never in
/// pipes or cron, never with -q). Updates closer together than a tenth of a second are
/// dropped, so a fast download does not flood the terminal.
final class ProgressLine: Sendable {
    private let context: ToolContext
    private struct State {
        var shown = false
        var lastUpdate: Double = -1
    }
    private let state = Mutex(State())
    static let interval = 0.1

    init(_ context: ToolContext) {
        self.context = context
    }

    func update(_ text: String, force: Bool = false) {
        guard context.showsProgress else { return }
        let now = Self.monotonicSeconds()
        let due = state.withLock { state in
            guard force || now - state.lastUpdate >= Self.interval else { return false }
            state.shown = true
            state.lastUpdate = now
            return true
        }
        if due { context.standardError.write("\r\u{1B}[K\(context.toolName): \(text)") }
    }

    /// Clears the line so the next diagnostic (or output on the same terminal) starts clean.
    func finish() {
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        guard context.showsProgress, shown else { return }
        context.standardError.write("\r\u{1B}[K")
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
