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

    /// Everything a Flickr client of this run needs. The key is checked first: without one
    /// there is nothing to do (exit 78).
    public func settings(_ context: ToolContext, store: Store) throws -> FlickrSettings {
        try settingsWhenNeeded(context, store: store)()
    }

    /// `settings`, made only when called: a tool that may need no lookup at all asks for
    /// the key only when it does.
    public func settingsWhenNeeded(_ context: ToolContext, store: Store) -> @Sendable () throws -> FlickrSettings {
        let (apiKeyFile, maxCalls, retries) = (self.apiKeyFile, self.maxCalls, self.retries)
        return {
            try CurlSession.requireLibrary()
            let key = try FlickrAPIKey.load(file: apiKeyFile, environment: context.environment)
            let endpoints = FlickrEndpoints.from(environment: context.environment)
            guard CurlSession.isFetchable(endpoints.apiBase) else {
                throw ToolError(.config, "FLICKR_API_BASE must be an http or https URL")
            }
            let ledger = CallLedger(store: store, limit: try CallLedger.limit(environment: context.environment))
            return FlickrSettings(
                endpoints: endpoints, key: key, budget: RunBudget(limit: maxCalls), ledger: ledger,
                retry: RetryPolicy.from(environment: context.environment, maxAttempts: retries + 1), now: context.now,
                trace: context.tracer)
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
