import ArgumentParser
import Foundation
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// A command of the toolkit: parsed by ArgumentParser, run against an injected
/// `ToolContext`. Errors become one "tool: message" line on stderr and a sysexits status,
/// through the one table in `ExitStatuses`.
public protocol ToolCommand: ParsableCommand {
    /// Does the work; returns the exit status for a run that completed (e.g. `.dataError`
    /// when bad lines were skipped). Throw `ToolError` to stop with a message.
    func execute(_ context: ToolContext) throws -> SysExit

    /// `-q` and `-v`.
    var verbosity: VerbosityOptions { get }

    /// The environment variables the command reads: its ENVIRONMENT in --help, the man
    /// page and the README.
    static var environment: [EnvironmentVariable] { get }

    /// The statuses the command can end with: its EXIT STATUS in --help, the man page and
    /// the README.
    static var exitStatuses: [ExitStatusDoc] { get }
}

extension ToolCommand {
    public static var toolName: String { configuration.commandName ?? "\(Self.self)" }

    /// ArgumentParser's own messages start with the tool's name too, not "Error:".
    public static var _errorPrefix: String { "\(toolName): " }

    /// The executable's entry point: runs the command in this process's context and exits
    /// with its status.
    public static func main() {
        main(arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// The entry point with the arguments that follow the tool's name (for the program the
    /// tools are links to, which may be run as `topregions TOOL ARGUMENTS`).
    public static func main(arguments: [String]) -> Never {
        let context = ToolContext.process(toolName: toolName)
        if let failure = Descriptors.prepareDispatch() {
            context.diagnose(failure.message)
            Glibc.exit(ExitStatuses.status(of: failure.kind).rawValue)
        }
        let status = main(arguments, context: context)
        context.standardOutput.flush()
        Glibc.exit(status)
    }

    public mutating func run() throws {
        let context = ToolContext.process(toolName: Self.toolName)
        if let failure = Descriptors.prepareDispatch() {
            context.diagnose(failure.message)
            throw ExitCode(ExitStatuses.status(of: failure.kind).rawValue)
        }
        let status = runReportingErrors(context)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the command and turns every failure into a diagnostic and a status.
    public func runReportingErrors(_ context: ToolContext) -> Int32 {
        var context = context
        context.verbosity = verbosity.level
        defer { context.standardOutput.flush() }
        do {
            try ToolContext.checkClock(environment: context.environment)
            return try execute(context).rawValue
        } catch let error as PassedOnStatus {
            context.diagnose(error.message)
            return error.status
        } catch {
            let (status, message) = ExitStatuses.classify(error)
            context.diagnose(message)
            return status.rawValue
        }
    }

    /// Parses `arguments` and runs the command in `context`: the in-process equivalent of
    /// running the executable, for tests.
    public static func main(_ arguments: [String], context: ToolContext) -> Int32 {
        let columns = context.tableWidth ?? 80
        var arguments = arguments
        // A lone "help" asks for help (these tools have no subcommands, and no file or photo
        // is called that); "./help" names a file.
        if arguments == ["help"] { arguments = ["--help"] }
        if let shell = completionShell(arguments) {
            return printCompletionScript(shell, context: context)
        }
        do {
            var parsed = try parseAsRoot(arguments)
            guard let command = parsed as? any ToolCommand else {
                // ArgumentParser's own: --help comes back as its help command, whose run()
                // throws the request for the help text, handled below.
                try parsed.run()
                return 0
            }
            return command.runReportingErrors(context)
        } catch {
            let status = exitCode(for: error)
            var message = CloseSuggestion.filter(fullMessage(for: error, columns: columns))
            if status == .success {
                if message == helpMessage(includeHidden: false, columns: columns) {
                    message = message.trimmingCharacters(in: .newlines) + "\n" + helpSections(columns: columns)
                }
                context.standardOutput.line(message.trimmingCharacters(in: .newlines))
                context.standardOutput.flush()
            } else {
                context.standardError.line(message.trimmingCharacters(in: .newlines))
            }
            return status == .validationFailure ? SysExit.usage.rawValue : status.rawValue
        }
    }

    /// The shell asked for by `--generate-completion-script SHELL`, if it was.
    private static func completionShell(_ arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--generate-completion-script" {
                return index + 1 < arguments.count ? arguments[index + 1] : ""
            }
            if argument.hasPrefix("--generate-completion-script=") {
                return String(argument.dropFirst("--generate-completion-script=".count))
            }
        }
        return nil
    }

    private static func printCompletionScript(_ shell: String, context: ToolContext) -> Int32 {
        let script: String?
        do {
            script = CompletionScripts.script(for: shell, try CommandInterface(dumpHelp: _dumpHelp()), version: toolkitVersion)
        } catch {
            context.diagnose("internal error: \(error)")
            return SysExit.software.rawValue
        }
        guard let script else {
            context.diagnose("--generate-completion-script: no completions for '\(shell)'; give one of \(CompletionScripts.shells.joined(separator: ", "))")
            return SysExit.usage.rawValue
        }
        context.standardOutput.write(script)
        context.standardOutput.flush()
        return 0
    }
}

/// `--db`, shared by every tool that opens the store.
public struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp(
            "The SQLite database file.",
            discussion: "Default: $TOPREGIONS_DB, else $XDG_DATA_HOME/topregions/topregions.db (~/.local/share/...).",
            valueName: "path"),
        completion: .file())
    public var db: String?

    public init() {}

    public func validate() throws {
        if db == "" { throw ValidationError("--db: the path is empty (leave --db out for the default database)") }
    }

    /// The store; `create: false` for tools that must not start a new database.
    public func open(_ context: ToolContext, create: Bool = true) throws -> Store {
        try context.store.open(Store.resolvePath(option: db, environment: context.environment), create)
    }

    /// The store, opened now when the database exists, created only when something is about
    /// to be written to it (see `StoreOnFirstWrite`).
    public func openOnFirstWrite(_ context: ToolContext) throws -> StoreOnFirstWrite {
        try context.store.openOnFirstWrite(Store.resolvePath(option: db, environment: context.environment))
    }

    /// The store, read-only: for tools that only ask questions (no lock, no write, so a
    /// user without write access to the database can query it).
    public func openForReading(_ context: ToolContext) throws -> Store {
        try context.store.openForReading(Store.resolvePath(option: db, environment: context.environment))
    }
}

/// Where records come from, for the stages that read them: files, or standard input.
public struct RecordInputOptions: ParsableArguments {
    @Flag(name: .long, help: "Report bad lines on stderr and skip them (exit status 65 at the end) instead of stopping at the first.")
    public var skipBadLines = false

    @Argument(
        help: ArgumentHelp("NDJSON files to read ('-' for standard input; default: standard input).", valueName: "file"),
        completion: .file())
    public var files: [String] = []

    public init() {}

    public func validate() throws {
        // `regions-load --db x help` meant help, not a file that is not there.
        if files.contains("help") && !FileManager.default.fileExists(atPath: "help") {
            throw ValidationError("no file named 'help' here; for help, give --help (a lone 'help' works too)")
        }
        if files.contains("") { throw ValidationError("a file name is empty (use '-' for standard input)") }
    }

    /// The files to read, in order; says so first when one is a terminal.
    public func sources(_ context: ToolContext) -> [InputSource] {
        let sources = InputSource.from(arguments: files, standardInput: context.standardInput)
        context.announceReading("records", from: sources)
        return sources
    }
}
