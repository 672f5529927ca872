import TopRegionsRefresh
import TopRegionsSupport

/// Exit statuses from sysexits(3), which the tools use so scripts and cron can tell a bad
/// input file from a network outage from a configuration mistake. Only the command-line
/// layer names them: the libraries report `Failure`s, and `ExitStatuses` maps those here.
public enum SysExit: Int32, Sendable {
    case ok = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    /// An operating-system resource ran out: file descriptors, memory, processes, a curl
    /// handle.
    case osResource = 71
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case config = 78
}

/// An error a command stops with: a message (without the tool name) and the exit status it
/// decided on. The libraries never throw it; a command throws it for what only it knows (an
/// option that contradicts another, a region that matches nothing).
public struct ToolError: Error, Sendable, CustomStringConvertible {
    public var status: SysExit
    public var message: String

    public init(_ status: SysExit, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

/// Ends a tool with a status it passes on rather than chooses: a child process's, such as
/// a refresh stage's (whose own message is already on stderr), unchanged even when it is
/// not one of `SysExit`'s (128 + a signal).
public struct PassedOnStatus: Error, Sendable, CustomStringConvertible {
    public var status: Int32
    public var message: String

    public init(_ status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

extension PassedOnStatus {
    /// A refresh stage that failed: its status, and what happened in words.
    public init(_ failed: RefreshStages.Failed) {
        self.init(failed.status, "the refresh failed: \(failed.how)")
    }
}

extension RefreshStages {
    /// `run` for a tool: its environment, its -v trace, and a failed stage's status as the
    /// tool's own.
    public static func run(
        _ stages: [ProcessPipeline.Stage], path: String, lastOutput: Int32, _ context: ToolContext, beforeRunning: () throws -> Bool = { true }
    ) throws {
        do {
            try run(stages, path: path, lastOutput: lastOutput, environment: context.environment, trace: { context.trace($0) }, beforeRunning: beforeRunning)
        } catch let failed as Failed {
            throw PassedOnStatus(failed)
        }
    }
}
