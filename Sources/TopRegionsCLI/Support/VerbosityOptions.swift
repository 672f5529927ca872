import ArgumentParser
import TopRegionsSupport

/// `-q` and `-v`, the same on every tool.
public struct VerbosityOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors: no summary, no progress.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Trace on stderr what the tool does: requests (API key hidden), retries, decisions.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        if quiet && verbose { throw ValidationError("-q (--quiet) and -v (--verbose) contradict each other; give one") }
    }

    public var level: Verbosity {
        quiet ? .quiet : verbose ? .verbose : .normal
    }
}
