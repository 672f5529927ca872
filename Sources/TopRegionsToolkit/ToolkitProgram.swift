import ArgumentParser
import Foundation
import TopRegionsCLI

/// `topregions`: the one program that is all seven tools, as BusyBox is its applets. An
/// installation holds it once, with each tool's name a symbolic link to it beside it, so the
/// Swift runtime and Foundation's ICU tables (most of a binary's weight) are installed once,
/// not seven times. Run through a link, it is the tool the link is named after; run as
/// `topregions TOOL ARGUMENTS...`, it is that tool.
public struct ToolkitProgram: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "topregions",
        abstract: "The seven tools of topregions in one program; each tool's name is a link to it.",
        discussion: """
            bin/install and the Debian package put this one program beside the tools' names, each \
            a symbolic link to it, as BusyBox does: run by a tool's name, it is that tool, with \
            that tool's options, messages, exit statuses and man page. Run as topregions TOOL, it \
            is the tool named first, with the arguments that follow.

            The tools: \(Toolkit.names.joined(separator: ", ")). The exit status is the tool's; 64 \
            when no tool is named, or none by that name.

            Examples:
              topregions regions-top --limit 5      # the same as: regions-top --limit 5
              topregions regions-serve --port 0
            """,
        version: toolkitVersionText)

    /// Messages start with the program's name, as the tools' do.
    public static var _errorPrefix: String { "topregions: " }

    @Argument(help: ArgumentHelp("The tool to run.", valueName: "tool"))
    var tool: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The tool's arguments (its --help lists them).", valueName: "argument"))
    var arguments: [String] = []

    public init() {}

    public func validate() throws {
        guard Toolkit.command(named: tool) != nil else {
            throw ValidationError("no tool named '\(tool)'; the tools are \(Toolkit.names.joined(separator: ", "))")
        }
    }

    public func run() throws {
        Toolkit.command(named: tool)!.main(arguments: arguments)
    }

    /// The `topregions` executable's entry point: the tool named by the name it was run by (a
    /// link's), else by its first argument; else `topregions`'s own help, version or usage
    /// error.
    public static func runAsInvoked(_ commandLine: [String] = CommandLine.arguments) -> Never {
        let invokedAs = (commandLine.first ?? "").split(separator: "/").last.map(String.init) ?? ""
        if let command = Toolkit.command(named: invokedAs) {
            command.main(arguments: Array(commandLine.dropFirst()))
        }
        if commandLine.count > 1, let command = Toolkit.command(named: commandLine[1]) {
            command.main(arguments: Array(commandLine.dropFirst(2)))
        }
        var arguments = Array(commandLine.dropFirst())
        // As for the tools, a lone "help" asks for help.
        if arguments == ["help"] { arguments = ["--help"] }
        main(arguments)
        Glibc.exit(0)
    }
}
