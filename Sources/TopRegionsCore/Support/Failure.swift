/// A failure the library reports to whoever called it: what kind of thing went wrong, and a
/// message a person can read (without a tool's name). The library never decides how a
/// process ends; a command-line tool maps each kind to its exit status in one table
/// (TopRegionsCLI's `ExitStatuses`), and other callers may do what suits them.
public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the library's terms.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// A value the caller passed cannot be used (an empty path).
        case invalidArgument
        /// Input or stored data is malformed (a line that is not NDJSON, a file that is not
        /// an SQLite database).
        case invalidData
        /// Something asked for does not exist (an input file, the database).
        case notFound
        /// A service or a library the work needs cannot be used (libcurl missing).
        case unavailable
        /// The library found itself in a state it should never reach: a bug.
        case internalError
        /// The system ran out of something: file descriptors, memory, processes, locks.
        case resourceExhausted
        /// A file or directory cannot be created (permissions, a missing directory).
        case cannotCreate
        /// A read or write failed (a full disk, a quota, an I/O error).
        case inputOutput
        /// It may work later: the database is busy, a limit was reached.
        case temporary
        /// The setup is wrong: no API key, a bad setting in the environment.
        case misconfigured
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
