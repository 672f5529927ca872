/// Shell completion scripts made from a command's interface: options and their values
/// (files for --db, directories for --out and --cache-dir, the formats for --format, the
/// lines a command prints for --region: the region names),
/// files for file arguments, nothing for photo ids, and no `help` subcommand (these tools
/// have none; ArgumentParser's own scripts offer one).
public enum CompletionScripts {
    public static let shells = ["bash", "zsh", "fish"]

    public static func script(for shell: String, _ interface: CommandInterface, version: String) -> String? {
        switch shell {
        case "bash": bash(interface, version: version)
        case "zsh": zsh(interface, version: version)
        case "fish": fish(interface, version: version)
        default: nil
        }
    }

    /// The positional arguments' completion: files when any argument is a file.
    static func positionalCompletion(_ interface: CommandInterface) -> CommandInterface.Completion {
        interface.positionals.first?.completion ?? .none
    }

    static func functionName(_ interface: CommandInterface) -> String {
        "_topregions_" + interface.name.replacingOccurrences(of: "-", with: "_")
    }

    // MARK: bash

    static func bash(_ interface: CommandInterface, version: String) -> String {
        let function = functionName(interface)
        var cases = ""
        var valueless: [String] = []
        for option in interface.options where option.kind == .option {
            let pattern = option.names.joined(separator: "|")
            switch option.completion {
            case .files:
                cases += "        \(pattern)) compopt -o filenames; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return ;;\n"
            case .directories:
                cases += "        \(pattern)) compopt -o filenames; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return ;;\n"
            case .values(let values):
                cases += "        \(pattern)) mapfile -t COMPREPLY < <(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\"); return ;;\n"
            case .command(let command):
                // Each line that starts with what was typed (its quotes and backslashes
                // aside, in any case, as --region reads a name), quoted for the shell. Not
                // compgen -W, which would expand $(...) in the lines.
                cases += "        \(pattern)) local line typed=\"${cur//\\\\/}\"; typed=\"${typed#[\\\"\\']}\"\n"
                cases += "            while IFS= read -r line; do [[ \"${line,,}\" == \"${typed,,}\"* ]] && COMPREPLY+=(\"$(printf '%q' \"$line\")\"); done < <(\(command))\n"
                cases += "            return ;;\n"
            case .none:
                valueless.append(contentsOf: option.names)
            }
        }
        if !valueless.isEmpty {
            cases += "        \(valueless.joined(separator: "|"))) return ;;  # a value: nothing to offer\n"
        }
        let words = interface.options.flatMap(\.names).joined(separator: " ")
        let positional: String = switch positionalCompletion(interface) {
        case .files: "compopt -o filenames; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"
        case .directories: "compopt -o filenames; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")"
        case .values(let values): "mapfile -t COMPREPLY < <(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")"
        case .command, .none: ":  # photo ids: nothing to offer"
        }
        return """
            # bash completion for \(interface.name) (topregions \(version)).
            # Source it, or save it as ~/.local/share/bash-completion/completions/\(interface.name).
            \(function)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev=""
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                COMPREPLY=()
                case "$prev" in
            \(cases)    esac
                if [[ "$cur" == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "\(words)" -- "$cur")
                    return
                fi
                \(positional)
            }
            complete -F \(function) \(interface.name)

            """
    }

    // MARK: zsh

    static func zsh(_ interface: CommandInterface, version: String) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        func explanation(_ text: String) -> String {
            var out = ""
            for character in text {
                if "[]:\\".contains(character) { out.append("\\") }
                out.append(character)
            }
            return "[" + out + "]"
        }
        func action(_ completion: CommandInterface.Completion) -> String {
            switch completion {
            case .files: "_files"
            case .directories: "_files -/"
            case .values(let values): "(" + values.joined(separator: " ") + ")"
            case .command(let command): "{local -a lines; lines=(${(f)\"$(\(command))\"}); compadd -a lines}"
            case .none: " "
            }
        }
        var specs: [String] = []
        for option in interface.options {
            var value = ""
            if option.kind == .option {
                value = ":" + option.valueName.replacingOccurrences(of: ":", with: "\\:") + ":" + action(option.completion)
            }
            let repeating = option.isRepeating ? "*" : ""
            let help = explanation(option.abstract)
            if option.names.count == 1 {
                specs.append(quoted(repeating + option.names[0] + help + value))
            } else {
                let exclusion = option.isRepeating ? "" : quoted("(" + option.names.joined(separator: " ") + ")")
                let names: String = "{" + option.names.joined(separator: ",") + "}"
                specs.append(exclusion + repeating + names + quoted(help + value))
            }
        }
        for positional in interface.positionals {
            let value = positional.valueName.replacingOccurrences(of: ":", with: "\\:")
            specs.append(quoted((positional.isRepeating ? "*" : "") + ":" + value + ":" + action(positional.completion)))
        }
        let function = functionName(interface)
        return """
            #compdef \(interface.name)
            # zsh completion for \(interface.name) (topregions \(version)).
            # Save it as _\(interface.name) in a directory of $fpath, or source it after compinit.
            \(function)() {
                _arguments -s -S \\
                    \(specs.joined(separator: " \\\n        "))
            }
            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                \(function) "$@"
            else
                compdef \(function) \(interface.name)
            fi

            """
    }

    // MARK: fish

    static func fish(_ interface: CommandInterface, version: String) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var lines = [
            "# fish completion for \(interface.name) (topregions \(version)).",
            "# Save it as ~/.config/fish/completions/\(interface.name).fish.",
        ]
        // Files are offered only where a file is meant.
        if positionalCompletion(interface) != .files { lines.append("complete -c \(interface.name) -f") }
        for option in interface.options {
            var line = "complete -c \(interface.name)"
            for name in option.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            if option.kind == .option {
                switch option.completion {
                case .files: line += " -r -F"
                case .directories: line += " -x -a '(__fish_complete_directories)'"
                case .values(let values): line += " -x -a " + quoted(values.joined(separator: " "))
                case .command(let command): line += " -x -a " + quoted("(" + command + ")")
                case .none: line += " -x"
                }
            }
            line += " -d " + quoted(option.abstract)
            lines.append(line)
        }
        if positionalCompletion(interface) == .directories {
            lines.append("complete -c \(interface.name) -x -a '(__fish_complete_directories)'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
