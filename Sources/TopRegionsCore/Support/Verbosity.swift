/// How much a tool says on stderr besides its errors.
public enum Verbosity: Sendable, Equatable {
    /// Errors only: a successful run prints nothing on stderr (what cron wants).
    case quiet
    /// Errors, warnings, the summary, and progress on a terminal.
    case normal
    /// Also a trace of what the tool does: requests (API key hidden), retries, decisions.
    case verbose
}
