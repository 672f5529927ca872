import Foundation
import Testing
import TopRegionsTestSupport

/// The completion scripts the tools print, loaded into real bash, zsh and fish: options,
/// files where a file is meant (--db, file arguments), directories for --out and
/// --cache-dir, the formats for --format, and never a `help` subcommand.
@Suite struct CompletionEndToEndTests {
    /// A directory holding one file and one directory, to complete in.
    struct Place {
        let scratch = TemporaryDirectory()
        var directory: String { scratch.file("work") }

        init() throws {
            try FileManager.default.createDirectory(atPath: scratch.file("work/thumbs"), withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: scratch.file("work/photos.db"), contents: Data())
            for tool in InterfaceEndToEndTests.tools {
                for shell in ["bash", "zsh", "fish"] {
                    let script = try Tools.run(tool, ["--generate-completion-script", shell], environment: environment)
                    precondition(script.status == 0, script.stderr)
                    try script.stdout.write(toFile: scratch.file("\(tool).\(shell)"), atomically: true, encoding: .utf8)
                }
            }
        }

        var environment: [String: String] {
            Tools.environment(home: scratch.path, ["XDG_CONFIG_HOME": scratch.file("config"), "TERM": "dumb"])
        }
    }

    @Test func bashOffersFilesDirectoriesAndFormatsButNoHelp() throws {
        let place = try Place()
        /// What bash's completion function offers for the words typed (the last one being
        /// completed), one per line, sorted.
        func offered(_ words: [String]) throws -> [String] {
            let tool = words[0]
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script = """
                cd "\(place.directory)"
                source "\(place.scratch.file("\(tool).bash"))"
                COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _topregions_\(tool.replacingOccurrences(of: "-", with: "_")) 2>/dev/null
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try Tools.run("/bin/bash", ["-c", script], environment: place.environment)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try offered(["regions-load", ""]) == ["photos.db", "thumbs"])
        #expect(try offered(["regions-load", "he"]) == [])
        #expect(try offered(["regions-load", "--d"]) == ["--db", "--delete", "--dry-run"])
        #expect(try offered(["regions-load", "--db", "ph"]) == ["photos.db"])
        #expect(try offered(["thumb-get", "--out", ""]) == ["thumbs"])
        #expect(try offered(["photo-cache", "--cache-dir", "t"]) == ["thumbs"])
        #expect(try offered(["place-resolve", "--api-key-file", "p"]) == ["photos.db"])
        #expect(try offered(["regions-top", "--format", ""]) == ["atom", "csv", "geojson", "html", "ndjson", "table"])
        #expect(try offered(["regions-top", "--limit", ""]) == [])
        #expect(try offered(["thumb-get", "1", ""]) == [], "photo ids: nothing to offer")
        for tool in InterfaceEndToEndTests.tools {
            #expect(try !offered([tool, ""]).contains("help"), "\(tool)")
            #expect(try offered([tool, "-"]).contains("--verbose"), "\(tool)")
        }
    }

    @Test func fishOffersFilesDirectoriesAndFormatsButNoHelp() throws {
        let place = try Place()
        func offered(_ tool: String, _ line: String) throws -> [String] {
            let script = "cd '\(place.directory)'; source '\(place.scratch.file("\(tool).fish"))'; complete -C '\(line)'"
            let run = try Tools.run("/usr/bin/fish", ["--no-config", "-c", script], environment: place.environment)
            #expect(run.status == 0, "\(run.stderr)")
            // Each candidate, without its description.
            return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try offered("regions-load", "regions-load --d") == ["--db", "--delete", "--dry-run"])
        #expect(try offered("regions-load", "regions-load --db ph") == ["photos.db"])
        #expect(try offered("regions-load", "regions-load ") == ["photos.db", "thumbs/"])
        #expect(try offered("thumb-get", "thumb-get --out ") == ["thumbs/"])
        #expect(try offered("regions-top", "regions-top --format ") == ["atom", "csv", "geojson", "html", "ndjson", "table"])
        #expect(try offered("thumb-get", "thumb-get ").isEmpty, "photo ids: no file names")
        for tool in InterfaceEndToEndTests.tools {
            let options = try offered(tool, "\(tool) -")
            #expect(options.contains("--quiet") && options.contains("-v"), "\(tool): \(options)")
            #expect(try !offered(tool, "\(tool) ").contains("help"), "\(tool)")
        }
    }

    /// zsh completes through its line editor: type a line and Tab in an interactive zsh on
    /// a pseudo-terminal, then Enter, and see what the line had become (each tool is a
    /// function there that prints its arguments).
    @Test func zshCompletesFilesDirectoriesAndFormatsButNoHelp() throws {
        let place = try Place()
        let session = try TerminalSession("/usr/bin/zsh", ["-f", "-i"], environment: place.environment, columns: 200)
        // no_auto_remove_slash: keep the "/" completion put after a directory when Enter runs
        // the line, so the test sees the completion as it was.
        var setup = "PS1='> '; setopt no_auto_remove_slash; autoload -U compinit; compinit -u -d '\(place.scratch.file("zcompdump"))'; cd '\(place.directory)'\n"
        for tool in InterfaceEndToEndTests.tools {
            setup += "source '\(place.scratch.file("\(tool).zsh"))'; \(tool)() { print -r -- \"RAN \(tool) $*.\" }\n"
        }
        setup += "print READY\n"
        session.type(setup)
        #expect(session.read(until: "READY\r\n"), "\(session.text)")
        func completed(_ typed: String, expect line: String) {
            session.type(typed + "\t")
            // Let the Tab finish (a beep, or a moment) before Enter runs the line.
            _ = session.read(until: "\u{07}", timeout: 0.3)
            session.type("\n")
            #expect(session.read(until: "RAN \(line)."), "\(typed) → \(session.text.suffix(300))")
        }
        completed("regions-load --db ph", expect: "regions-load --db photos.db")
        completed("thumb-get --out ", expect: "thumb-get --out thumbs/")
        completed("photo-cache --cache-dir t", expect: "photo-cache --cache-dir thumbs/")
        completed("regions-top --format geo", expect: "regions-top --format geojson")
        completed("regions-load ph", expect: "regions-load photos.db")
        completed("regions-top --ut", expect: "regions-top --utc")
        completed("regions-load he", expect: "regions-load he")
        session.type("exit\n")
        #expect(session.finish(timeout: 10) == 0)
    }
}
