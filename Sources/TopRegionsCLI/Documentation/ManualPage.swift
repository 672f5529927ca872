import Foundation

/// A man page (mdoc) made from a command's interface (ArgumentParser's description of its
/// options) and its declarations (environment, exit statuses): the same sources as
/// `--help`, so the two cannot disagree. Text is written as UTF-8 ("Île-de-France" stays
/// whole; man-db converts it for the terminal), escaped as mdoc wants.
public struct ManualPage {
    public var interface: CommandInterface
    public var environment: [EnvironmentVariable]
    public var exitStatuses: [(code: Int32, meaning: String)]
    public var seeAlso: [String]
    public var date: String
    public var version: String

    public init(
        interface: CommandInterface, environment: [EnvironmentVariable], exitStatuses: [(code: Int32, meaning: String)],
        seeAlso: [String], date: String, version: String
    ) {
        self.interface = interface
        self.environment = environment
        self.exitStatuses = exitStatuses
        self.seeAlso = seeAlso
        self.date = date
        self.version = version
    }

    /// The first line, which tells man-db the page's encoding, and the line that says how
    /// it was made.
    static let header = """
        .\\" -*- coding: UTF-8 -*-
        .\\" Made by bin/gen-man (topregions-docs) from the command's argument parser and
        .\\" declarations in Sources/TopRegionsCLI; edit those, not this file.

        """

    public var text: String {
        let name = interface.name
        var page = Self.header
        page += ".Dd \(date)\n.Dt \(name.uppercased()) 1\n.Os topregions \(version)\n"
        page += ".Sh NAME\n.Nm \(name)\n.Nd \(Self.argument(interface.abstract))\n"

        page += ".Sh SYNOPSIS\n.Nm\n"
        for option in interface.options where !option.isBuiltIn {
            page += ".Op " + Self.synopsis(option, allNames: false) + "\n"
        }
        for positional in interface.positionals {
            let value = "Ar " + Self.argument(positional.valueName) + (positional.isRepeating ? " ..." : "")
            page += (positional.isOptional ? ".Op " : ".") + value + "\n"
        }

        let (description, examples) = Self.split(interface.discussion)
        page += ".Sh DESCRIPTION\n"
        page += Self.paragraphs(description)

        page += ".Sh OPTIONS\n.Bl -tag -width Ds\n"
        for argument in interface.positionals + interface.options {
            page += ".It " + Self.synopsis(argument) + "\n"
            var help = argument.abstract
            if let value = argument.defaultValue, argument.kind == .option { help += " (default: \(value))" }
            page += Self.textLine(help)
            if !argument.discussion.isEmpty { page += ".Pp\n" + Self.textLine(argument.discussion) }
        }
        page += ".El\n"

        if !environment.isEmpty {
            page += ".Sh ENVIRONMENT\n.Bl -tag -width Ds\n"
            for variable in environment {
                let names = variable.name.split(separator: ",").map { "Ev " + $0.trimmingCharacters(in: .whitespaces) }
                page += ".It " + names.joined(separator: " , ") + "\n" + Self.textLine(variable.meaning)
            }
            page += ".El\n"
        }
        page += ".Sh EXIT STATUS\n.Bl -tag -width Ds\n"
        for exit in exitStatuses { page += ".It \(exit.code)\n" + Self.textLine(exit.meaning) }
        page += ".El\n"

        if !examples.isEmpty {
            page += ".Sh EXAMPLES\n.Bd -literal -offset indent\n"
            for line in examples { page += Self.literal(line) }
            page += ".Ed\n"
        }
        page += ".Sh COPYRIGHT\n\(toolkitCopyright)\n"
        if !seeAlso.isEmpty {
            page += ".Sh SEE ALSO\n"
            for (index, reference) in seeAlso.enumerated() {
                let parts = reference.split(separator: "(")
                let section = parts.count > 1 ? String(parts[1].dropLast()) : "1"
                page += ".Xr \(parts[0]) \(section)" + (index < seeAlso.count - 1 ? " ,\n" : "\n")
            }
        }
        return page
    }

    /// `Fl -db Ar path`, `Fl q , Fl -quiet` (or only `Fl q`), `Ar file ...`.
    static func synopsis(_ argument: CommandInterface.Argument, allNames: Bool = true) -> String {
        if argument.kind == .positional {
            return "Ar " + Self.argument(argument.valueName) + (argument.isRepeating ? " ..." : "")
        }
        // Short names first, as --help lists them.
        let names = argument.names.sorted { !$0.hasPrefix("--") && $1.hasPrefix("--") }
        var text = (allNames ? names : Array(names.prefix(1))).map { "Fl " + $0.dropFirst() }.joined(separator: " , ")
        if argument.kind == .option {
            text += " Ar " + Self.argument(argument.valueName)
            if argument.isRepeating { text += " ..." }
        }
        return text
    }

    /// The discussion's paragraphs without its "Examples:" paragraph, and that paragraph's
    /// lines (without their indentation).
    static func split(_ discussion: String) -> (description: String, examples: [String]) {
        var kept: [String] = []
        var examples: [String] = []
        for paragraph in discussion.components(separatedBy: "\n\n") {
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.first?.trimmingCharacters(in: .whitespaces) == "Examples:" {
                examples += lines.dropFirst().map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
            } else {
                kept.append(paragraph)
            }
        }
        return (kept.joined(separator: "\n\n"), examples)
    }

    /// Paragraphs as mdoc: `.Pp` between them; indented lines as a literal display.
    static func paragraphs(_ text: String) -> String {
        var out = ""
        for (index, paragraph) in text.components(separatedBy: "\n\n").enumerated() where !paragraph.isEmpty {
            if index > 0 { out += ".Pp\n" }
            var inDisplay = false
            for line in paragraph.split(separator: "\n").map(String.init) {
                let indented = line.hasPrefix(" ")
                if indented && !inDisplay { out += ".Bd -literal -offset indent\n"; inDisplay = true }
                if !indented && inDisplay { out += ".Ed\n"; inDisplay = false }
                out += indented ? literal(String(line.drop { $0 == " " })) : textLine(line)
            }
            if inDisplay { out += ".Ed\n" }
        }
        return out
    }

    /// A line of running text: backslashes escaped, and a line that would start with a
    /// control character ('.' or ') or a space guarded with \&.
    static func textLine(_ text: String) -> String {
        var line = unhyphenated(escaped(text.trimmingCharacters(in: .whitespaces)))
        if line.hasPrefix(".") || line.hasPrefix("'") { line = "\\&" + line }
        return line + "\n"
    }

    /// Words that are code (options, paths, variables: holding '-', '/', '$' or '_') get
    /// \% in front, so the formatter never hyphenates them ("--re‐cents").
    static func unhyphenated(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains(where: { "-/$_".contains($0) }) ? "\\%" + word : String(word)
        }.joined(separator: " ")
    }

    /// A line inside a literal display, kept as it is (but escaped).
    static func literal(_ text: String) -> String {
        var line = escaped(text)
        if line.hasPrefix(".") || line.hasPrefix("'") { line = "\\&" + line }
        return line + "\n"
    }

    /// A macro argument: escaped, and quoted when it holds a space.
    static func argument(_ text: String) -> String {
        let value = escaped(text)
        return value.contains(" ") ? "\"" + value.replacingOccurrences(of: "\"", with: "\\(dq") + "\"" : value
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e")
    }
}
