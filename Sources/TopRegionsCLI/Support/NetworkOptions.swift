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
        "Read the Flickr API key from the first line of this file (default: $FLICKR_API_KEY).", valueName: "path"))
    public var apiKeyFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "At most this many Flickr calls in this run, retries included.", valueName: "n"))
    public var maxCalls: Int = 1000

    @Option(name: .long, help: ArgumentHelp(
        "Retries of a call that failed transiently (HTTP 5xx or 429, Flickr errors 105 and search 10, timeouts, cut responses).",
        valueName: "n"))
    public var retries: Int = 4

    @Flag(name: .shortAndLong, help: "Print every request (API key hidden) and retry on stderr.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard maxCalls >= 0 else { throw ValidationError("--max-calls cannot be negative") }
        guard (0...10).contains(retries) else { throw ValidationError("--retries must be between 0 and 10") }
    }

    /// Everything a Flickr client of this run needs. The key is checked first: without one
    /// there is nothing to do (exit 78).
    public func settings(_ context: ToolContext, store: Store) throws -> FlickrSettings {
        try CurlSession.requireLibrary()
        let key = try FlickrAPIKey.load(file: apiKeyFile, environment: context.environment)
        let endpoints = FlickrEndpoints.from(environment: context.environment)
        guard CurlSession.isFetchable(endpoints.apiBase) else {
            throw ToolError(.config, "FLICKR_API_BASE must be an http or https URL")
        }
        let ledger = CallLedger(store: store, limit: try CallLedger.limit(environment: context.environment))
        var trace: (@Sendable (String) -> Void)?
        if verbose {
            trace = { line in context.diagnose(line) }
        }
        return FlickrSettings(
            endpoints: endpoints, key: key, budget: RunBudget(limit: maxCalls), ledger: ledger,
            retry: RetryPolicy.from(environment: context.environment, maxAttempts: retries + 1), now: context.now,
            trace: trace)
    }
}

extension FlickrError {
    /// How a tool ends when Flickr stops it: 78 to fix the setup, 75 to try again later,
    /// 69 when Flickr is otherwise unusable.
    var toolError: ToolError {
        if isConfigurationError {
            var message = description
            if case .api(_, 100, _) = self { message += "; check FLICKR_API_KEY or --api-key-file" }
            return ToolError(.config, message)
        }
        return ToolError(isTemporary ? .tempFail : .unavailable, description)
    }
}

/// A one-line progress report on stderr, rewritten in place, only on a terminal.
final class ProgressLine: Sendable {
    private let context: ToolContext
    private let shown = Mutex(false)

    init(_ context: ToolContext) {
        self.context = context
    }

    func update(_ text: String) {
        guard context.showsProgress else { return }
        shown.withLock { $0 = true }
        context.standardError.write("\r\u{1B}[K\(context.toolName): \(text)")
    }

    /// Ends the line so the next diagnostic starts clean.
    func finish() {
        guard context.showsProgress, shown.withLock({ $0 }) else { return }
        context.standardError.write("\r\u{1B}[K")
    }
}
