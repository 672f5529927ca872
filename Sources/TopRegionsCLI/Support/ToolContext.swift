import Foundation
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsSupport

/// Everything a tool touches outside its arguments, injected so that commands run
/// in-process in tests: streams, environment, clock, terminal facts, the network and the
/// database.
public struct ToolContext: Sendable {
    /// The tool's name, which prefixes its diagnostics.
    public var toolName: String
    public var environment: [String: String]
    public var standardInput: InputSource
    public var standardOutput: Output
    public var standardError: Output
    public var stdinIsTerminal: Bool
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    /// Now, in Unix seconds. `TOPREGIONS_NOW` fixes it (tests, reproducible runs).
    public var now: @Sendable () -> Double
    /// The terminal's width in columns, when stdout is a terminal.
    public var terminalColumns: Int?
    /// -q, -v or neither; set from the command's options before it runs.
    public var verbosity = Verbosity.normal
    /// Where HTTP connections come from (Flickr's API, image downloads): libcurl unless a
    /// test gives canned answers.
    public var network = Network.curl
    /// How the database is opened: its file unless a test says otherwise.
    public var store = StoreOpener.files
    /// Whether the tool may lower its process's session's CPU weight (`SessionWeight`): the
    /// real process's own; not a test's, which runs commands in its own process.
    public var mayLowerSessionWeight = false

    public init(
        toolName: String, environment: [String: String], standardInput: InputSource, standardOutput: Output,
        standardError: Output, stdinIsTerminal: Bool, stdoutIsTerminal: Bool, stderrIsTerminal: Bool,
        now: @escaping @Sendable () -> Double
    ) {
        self.toolName = toolName
        self.environment = environment
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.now = now
    }

    /// The real process: its streams, environment and clock.
    public static func process(toolName: String) -> ToolContext {
        let environment = ProcessInfo.processInfo.environment
        // A closed pipe must surface as EPIPE (handled by Output), not kill the process in
        // the middle of a database write.
        signal(SIGPIPE, SIG_IGN)
        Output.toolName.withLock { $0 = toolName }
        var context = ToolContext(
            toolName: toolName, environment: environment, standardInput: .standardInput,
            standardOutput: .standardOutput, standardError: .standardError,
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1, now: clock(environment: environment))
        context.mayLowerSessionWeight = true
        var size = winsize()
        if context.stdoutIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            context.terminalColumns = Int(size.ws_col)
        }
        return context
    }

    /// An in-memory context for tests: the streams in memory, the clock fixed, and the
    /// network the test gives (libcurl when it gives none).
    public static func memory(
        toolName: String, environment: [String: String] = [:], input: [UInt8] = [], now: Double = 1_700_000_000,
        network: Network = .curl
    ) -> ToolContext {
        var context = ToolContext(
            toolName: toolName, environment: environment, standardInput: .bytes("stdin", input),
            standardOutput: .memory(), standardError: .memory(), stdinIsTerminal: false,
            stdoutIsTerminal: false, stderrIsTerminal: false, now: { now })
        context.network = network
        return context
    }

    static func clock(environment: [String: String]) -> @Sendable () -> Double {
        if let fixed = fixedNow(environment) {
            return { fixed }
        }
        return { Date().timeIntervalSince1970 }
    }

    /// `TOPREGIONS_NOW` when set to a time (empty: not set): whole Unix seconds, digits
    /// only, up to the end of year 9999 (as far as a date is written here). Read as any
    /// number before, 1e30 crashed the tools converting it to whole seconds, and "1e9" or
    /// "+17638e5" passed for times.
    static func fixedNow(_ environment: [String: String]) -> Double? {
        guard let text = environment["TOPREGIONS_NOW"], (1...12).contains(text.utf8.count),
              text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let seconds = Int64(text), seconds <= latestFixedNow
        else { return nil }
        return Double(seconds)
    }

    /// The last second of year 9999.
    static let latestFixedNow: Int64 = 253_402_300_799

    /// A `TOPREGIONS_NOW` that is not a time is a configuration error (78), not the real clock
    /// in silence: a test or a reproducible run would answer for another time.
    static func checkClock(environment: [String: String]) throws {
        guard let text = environment["TOPREGIONS_NOW"], !text.isEmpty, fixedNow(environment) == nil else { return }
        throw ToolError(.config, "TOPREGIONS_NOW: cannot read '\(text)' as a time: give Unix seconds (such as 1764338400), or leave it unset for the clock")
    }

    public var nowSeconds: Int64 { Int64(now().rounded(.down)) }

    /// Writes "tool: message" on stderr, whatever the verbosity: for errors, and for
    /// warnings that come with a failing exit status. Messages quote input (ids, field
    /// values), so control characters other than line breaks are shown as U+FFFD rather
    /// than sent to a terminal.
    public func diagnose(_ message: String) {
        standardError.line("\(toolName): \(Terminal.printable(message, keepingLineBreaks: true))")
    }

    /// A summary or a notice of a run that succeeds: not with -q.
    public func note(_ message: String) {
        if verbosity != .quiet { diagnose(message) }
    }

    /// What the tool is doing, step by step: only with -v.
    public func trace(_ message: String) {
        if verbosity == .verbose { diagnose(message) }
    }

    public var isVerbose: Bool { verbosity == .verbose }

    /// `trace` as a function to hand to the core, nil when not verbose (so the core does
    /// not even build the lines).
    public var tracer: (@Sendable (String) -> Void)? {
        guard isVerbose else { return nil }
        let context = self
        return { @Sendable line in context.diagnose(line) }
    }

    /// Before reading standard input: when it is a terminal, a person may not know the tool
    /// waits for them; say what it reads and how to end.
    public func announceReading(_ what: String, from sources: [InputSource]) {
        guard stdinIsTerminal, sources.contains(where: { if case .standardInput = $0 { true } else { false } }) else { return }
        note("reading \(what) from the terminal; end with Ctrl-D (Ctrl-C to give up)")
    }

    /// The width tables are fitted to: `COLUMNS` when set, else the terminal's, else none.
    public var tableWidth: Int? {
        if let text = environment["COLUMNS"], let columns = Int(text.trimmingCharacters(in: .whitespaces)), columns > 0 {
            return columns
        }
        return terminalColumns
    }

    /// Colour and emphasis only on a terminal, and never with NO_COLOR set (no-color.org).
    public var useColor: Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Progress goes to stderr, and only when a person is watching it (and did not ask
    /// for quiet).
    public var showsProgress: Bool {
        stderrIsTerminal && verbosity != .quiet
    }
}
