import TopRegionsRecords

/// A command's options and arguments as ArgumentParser describes them (its
/// `--experimental-dump-help` JSON): what the completion scripts and the man pages are
/// made from, so they can never disagree with the parser.
public struct CommandInterface: Sendable {
    public enum Kind: Sendable, Equatable {
        case flag, option, positional
    }

    /// What a shell may offer for a value.
    public enum Completion: Sendable, Equatable {
        /// Nothing to offer (a number, an id, a name).
        case none
        case files
        case directories
        case values([String])
        /// The lines a shell command prints (region names for --region).
        case command(String)
    }

    public struct Argument: Sendable {
        public var kind: Kind
        /// "--db", "-q", ... (long names first as ArgumentParser lists them).
        public var names: [String]
        public var valueName: String
        public var abstract: String
        public var discussion: String
        public var defaultValue: String?
        public var isRepeating: Bool
        public var isOptional: Bool
        public var completion: Completion
        public var shown: Bool

        /// The flags that only ArgumentParser adds (`--help`, `--version`).
        public var isBuiltIn: Bool { names.contains("--help") || names.contains("--version") }
    }

    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [Argument]

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads ArgumentParser's JSON description of a command (serialization version 0).
    public init(dumpHelp json: String) throws {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(json)
        } catch {
            throw Malformed(description: "the command description is not JSON: \(error.message)")
        }
        guard let command = root.objectValue?["command"]?.objectValue, let name = command["commandName"]?.stringValue else {
            throw Malformed(description: "the command description has no command")
        }
        self.name = name
        abstract = command["abstract"]?.stringValue ?? ""
        discussion = command["discussion"]?.stringValue ?? ""
        arguments = (command["arguments"]?.arrayValue ?? []).compactMap { $0.objectValue }.map(Self.argument)
    }

    private static func argument(_ object: JSONObject) -> Argument {
        let kind: Kind = switch object["kind"]?.stringValue {
        case "flag": .flag
        case "option": .option
        default: .positional
        }
        let names = (object["names"]?.arrayValue ?? []).compactMap { value -> String? in
            guard let name = value.objectValue, let text = name["name"]?.stringValue else { return nil }
            switch name["kind"]?.stringValue {
            case "short": return "-" + text
            case "longWithSingleDash": return "-" + text
            default: return "--" + text
            }
        }
        var completion = Completion.none
        if let kindObject = object["completionKind"]?.objectValue {
            if let list = kindObject["list"]?.objectValue?["values"]?.arrayValue {
                completion = .values(list.compactMap(\.stringValue))
            } else if kindObject["file"] != nil {
                completion = .files
            } else if kindObject["directory"] != nil {
                completion = .directories
            } else if let command = kindObject["shellCommand"]?.objectValue?["command"]?.stringValue {
                completion = .command(command)
            }
        }
        func flag(_ key: String) -> Bool {
            if case .bool(let value) = object[key] { return value }
            return false
        }
        return Argument(
            kind: kind, names: names, valueName: object["valueName"]?.stringValue ?? "",
            abstract: object["abstract"]?.stringValue ?? "", discussion: object["discussion"]?.stringValue ?? "",
            defaultValue: object["defaultValue"]?.stringValue, isRepeating: flag("isRepeating"), isOptional: flag("isOptional"),
            completion: completion, shown: object["shouldDisplay"] == nil || flag("shouldDisplay"))
    }

    /// Flags and options, in the order `--help` lists them.
    public var options: [Argument] { arguments.filter { $0.kind != .positional && $0.shown } }
    public var positionals: [Argument] { arguments.filter { $0.kind == .positional && $0.shown } }
}
