import Foundation
import TopRegionsCLI
import TopRegionsSupport

/// The seven tools, the six filters in pipeline order and then the server: what the
/// documentation generator (bin/gen-man) walks to write the man pages and the README's tables.
public enum Toolkit {
    public static let commands: [any ToolCommand.Type] = [
        FlickrRecent.self, PlaceResolve.self, RegionsLoad.self, RegionsTop.self, ThumbGet.self, PhotoCacheCommand.self,
        RegionsServe.self,
    ]

    public static var names: [String] { commands.map { $0.toolName } }

    /// The tool called `name`, if one is.
    public static func command(named name: String) -> (any ToolCommand.Type)? {
        commands.first { $0.toolName == name }
    }

    /// The man page of `command`, from its parser and its declarations.
    public static func manualPage(_ command: any ToolCommand.Type, date: String) throws -> ManualPage {
        let others = names.filter { $0 != command.toolName }.map { "\($0)(1)" }
        return ManualPage(
            interface: try CommandInterface(dumpHelp: command._dumpHelp()), environment: command.environment,
            exitStatuses: command.exitStatuses.map { (code: $0.status.rawValue, meaning: $0.meaning) },
            seeAlso: others + ["topregions-record(7)"], date: date, version: toolkitVersion)
    }

    /// The man page of `topregions`, the program the tools are links to.
    public static func programPage(date: String) throws -> ManualPage {
        ManualPage(
            interface: try CommandInterface(dumpHelp: ToolkitProgram._dumpHelp()), environment: [],
            exitStatuses: [
                (0, "Printed its help or version (run as a tool, the status is the tool's)."),
                (64, "No tool named, or none by that name."),
            ],
            seeAlso: names.map { "\($0)(1)" } + ["topregions-record(7)"], date: date, version: toolkitVersion)
    }

    // MARK: The README's tables

    /// Every variable some tool reads, with the tools that read it (the first meaning
    /// given, which is the general one), as a Markdown table.
    public static func environmentTable() -> String {
        var order: [String] = []
        var meanings: [String: String] = [:]
        var readers: [String: [String]] = [:]
        for command in commands {
            for variable in command.environment {
                if meanings[variable.name] == nil {
                    order.append(variable.name)
                    meanings[variable.name] = variable.meaning
                }
                readers[variable.name, default: []].append(command.toolName)
            }
        }
        var table = "| variable | read by | meaning |\n|---|---|---|\n"
        for name in order {
            let names = name.split(separator: ",").map { "`\($0.trimmingCharacters(in: .whitespaces))`" }.joined(separator: ", ")
            table += "| \(names) | \(toolList(readers[name]!)) | \(markdown(meanings[name]!)) |\n"
        }
        return table
    }

    /// Every exit status some tool declares, its general meaning, and the tools that can
    /// end with it, as a Markdown table.
    public static func exitStatusTable() -> String {
        var users: [SysExit: [String]] = [:]
        for command in commands {
            for exit in command.exitStatuses { users[exit.status, default: []].append(command.toolName) }
        }
        var table = "| status | meaning | tools |\n|---|---|---|\n"
        for status in users.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            table += "| \(status.rawValue) | \(markdown(ExitStatuses.meaning(status))) | \(toolList(users[status]!)) |\n"
        }
        return table
    }

    static func toolList(_ tools: [String]) -> String {
        tools.count == commands.count ? "every tool" : tools.map { "`\($0)`" }.joined(separator: ", ")
    }

    /// Text in a Markdown table cell: pipes escaped; options, paths, URLs and variable
    /// names as code.
    static func markdown(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            var core = word.trimmingCharacters(in: CharacterSet(charactersIn: ",;:()"))
            while core.hasSuffix(".") { core.removeLast() }
            let isVariable = core.contains("_") && core.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" || $0 == "*" }
            let isCode = core.hasPrefix("--") || core.hasPrefix("$") || core.hasPrefix("~/") || core.hasPrefix("https://") || isVariable
            guard isCode, !core.isEmpty else { return String(word) }
            return word.replacingOccurrences(of: core, with: "`\(core)`")
        }.joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
    }

    /// `readme` with the text between each pair of markers replaced by the generated
    /// table; nil when a marker is missing.
    public static func updatingReadme(_ readme: String) -> String? {
        var text = readme
        for (name, table) in [("environment", environmentTable()), ("exit statuses", exitStatusTable())] {
            let begin = "<!-- BEGIN \(name): made by bin/gen-man from the commands' declarations; do not edit -->\n"
            let end = "<!-- END \(name) -->"
            guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
                return nil
            }
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: table)
        }
        return text
    }
}
