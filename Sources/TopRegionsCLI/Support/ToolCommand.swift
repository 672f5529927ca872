import ArgumentParser
import Foundation
import GRDB
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// A command of the toolkit: parsed by ArgumentParser, run against an injected
/// `ToolContext`. Errors become one "tool: message" line on stderr and a sysexits status.
public protocol ToolCommand: ParsableCommand {
    /// Does the work; returns the exit status for a run that completed (e.g. `.dataError`
    /// when bad lines were skipped). Throw `ToolError` to stop with a message.
    func execute(_ context: ToolContext) throws -> SysExit
}

extension ToolCommand {
    public static var toolName: String { configuration.commandName ?? "\(Self.self)" }

    public mutating func run() throws {
        let context = ToolContext.process(toolName: Self.toolName)
        let status = runReportingErrors(context)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the command and turns every failure into a diagnostic and a status.
    public func runReportingErrors(_ context: ToolContext) -> Int32 {
        defer { context.standardOutput.flush() }
        do {
            return try execute(context).rawValue
        } catch let error as ToolError {
            context.diagnose(error.message)
            return error.status.rawValue
        } catch let error as DatabaseError {
            context.diagnose("database error: \(error.message ?? error.description)")
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED: return SysExit.tempFail.rawValue
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return SysExit.dataError.rawValue
            case .SQLITE_FULL, .SQLITE_IOERR: return SysExit.ioError.rawValue
            default: return SysExit.software.rawValue
            }
        } catch {
            context.diagnose("\(error)")
            return SysExit.software.rawValue
        }
    }

    /// Parses `arguments` and runs the command in `context`: the in-process equivalent of
    /// running the executable, for tests.
    public static func main(_ arguments: [String], context: ToolContext) -> Int32 {
        do {
            let parsed = try parseAsRoot(arguments)
            guard let command = parsed as? any ToolCommand else { return SysExit.software.rawValue }
            return command.runReportingErrors(context)
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                context.standardOutput.line(message)
                context.standardOutput.flush()
            } else {
                context.standardError.line(message)
            }
            return status.rawValue
        }
    }
}

/// `--db`, shared by every tool that opens the store.
public struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp(
            "The SQLite database file.",
            discussion: "Default: $TOPREGIONS_DB, else $XDG_DATA_HOME/topregions/topregions.db (~/.local/share/...).",
            valueName: "path"))
    public var db: String?

    public init() {}

    /// The store; `create: false` for tools that only read what others stored.
    public func open(_ context: ToolContext, create: Bool = true) throws -> Store {
        try Store.open(path: Store.resolvePath(option: db, environment: context.environment), create: create)
    }
}

/// Where records come from, for the stages that read them: files, or standard input.
public struct RecordInputOptions: ParsableArguments {
    @Flag(name: .long, help: "Report bad lines on stderr and skip them (exit status 65 at the end) instead of stopping at the first.")
    public var skipBadLines = false

    @Argument(help: ArgumentHelp("NDJSON files to read ('-' for standard input; default: standard input).", valueName: "file"))
    public var files: [String] = []

    public init() {}

    public func sources(_ context: ToolContext) -> [InputSource] {
        InputSource.from(arguments: files, standardInput: context.standardInput)
    }
}
