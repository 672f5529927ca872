import Foundation
import Testing
import TopRegionsTestSupport

/// Shell completion of `regions-top --region`: the region names `regions-top --regions`
/// lists, quoted for the shell, in real bash, fish and zsh.
@Suite struct RegionCompletionEndToEndTests {
    struct Place {
        let scratch = TemporaryDirectory()

        init() throws {
            let load = try Tools.run(
                "regions-load", ["-q", Tools.fixtures.appendingPathComponent("photos.ndjson").path], environment: environment)
            precondition(load.status == 0, load.stderr)
            for shell in ["bash", "zsh", "fish"] {
                let script = try Tools.run("regions-top", ["--generate-completion-script", shell], environment: environment)
                precondition(script.status == 0, script.stderr)
                try script.stdout.write(toFile: scratch.file("regions-top.\(shell)"), atomically: true, encoding: .utf8)
            }
        }

        /// regions-top on the PATH, its database through TOPREGIONS_DB, and no Flickr key.
        var environment: [String: String] {
            Tools.environment(home: scratch.path, [
                "PATH": Tools.binDirectory.path + ":/usr/local/bin:/usr/bin:/bin", "TOPREGIONS_DB": scratch.file("photos.db"),
                "XDG_CONFIG_HOME": scratch.file("config"), "TERM": "dumb",
            ])
        }
    }

    @Test func bashOffersRegionNamesQuoted() throws {
        let place = try Place()
        func offered(_ typed: String) throws -> [String] {
            let script = """
                source "\(place.scratch.file("regions-top.bash"))"
                COMP_WORDS=(regions-top --region \(typed)); COMP_CWORD=2
                _topregions_regions_top
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try Tools.run("/bin/bash", ["-c", script], environment: place.environment)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try offered("Nov") == [#"Nova\ Scotia\,\ Canada"#])
        #expect(try offered("New") == [#"New\ South\ Wales\,\ Australia"#, #"New\ York\,\ United\ States"#])
        #expect(try offered(#"New\ Y"#) == [#"New\ York\,\ United\ States"#])
        #expect(try offered("Île") == [#"Île-de-France\,\ France"#])
        // In any case, as --region takes a name. Regression: "nov" offered nothing.
        #expect(try offered("nov") == [#"Nova\ Scotia\,\ Canada"#])
        #expect(try offered(#"NEW\ y"#) == [#"New\ York\,\ United\ States"#])
        #expect(try offered("Atl") == [])
        #expect(try offered("''").count == 64)
    }

    @Test func fishOffersRegionNames() throws {
        let place = try Place()
        func offered(_ line: String) throws -> [String] {
            let script = "source '\(place.scratch.file("regions-top.fish"))'; complete -C '\(line)'"
            let run = try Tools.run("/usr/bin/fish", ["--no-config", "-c", script], environment: place.environment)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try offered("regions-top --region Nov") == ["Nova Scotia, Canada"])
        #expect(try offered("regions-top --region New") == ["New South Wales, Australia", "New York, United States"])
    }

    @Test func zshCompletesARegionName() throws {
        let place = try Place()
        let session = try TerminalSession("/usr/bin/zsh", ["-f", "-i"], environment: place.environment, columns: 200)
        // regions-top runs for real when completion asks it for --regions; otherwise it
        // prints the line it was given.
        session.type("""
            PS1='> '; autoload -U compinit; compinit -u -d '\(place.scratch.file("zcompdump"))'
            source '\(place.scratch.file("regions-top.zsh"))'
            regions-top() { if [[ $1 == --regions ]]; then command regions-top "$@"; else print -r -- "RAN regions-top $*."; fi }
            print READY

            """)
        #expect(session.read(until: "READY\r\n"), "\(session.text)")
        session.type("regions-top --region Nov\t")
        _ = session.read(until: "\u{07}", timeout: 0.5)
        session.type("\n")
        #expect(session.read(until: "RAN regions-top --region Nova Scotia, Canada."), "\(session.text.suffix(300))")
        session.type("exit\n")
        #expect(session.finish(timeout: 10) == 0)
    }
}
