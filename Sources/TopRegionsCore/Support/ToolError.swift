/// Exit statuses from sysexits(3), which the tools use so scripts and cron can tell a bad
/// input file from a network outage from a configuration mistake.
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

/// An error the user should read: a message (without the tool name) and an exit status.
public struct ToolError: Error, Sendable, CustomStringConvertible {
    public var status: SysExit
    public var message: String

    public init(_ status: SysExit, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}
