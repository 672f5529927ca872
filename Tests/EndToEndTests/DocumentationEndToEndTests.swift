import Foundation
import Testing
import TopRegionsTestSupport

/// The documentation is said once, in the commands: --help, the man pages and the README's
/// tables come from the same declarations, and stay in step with the code.
@Suite struct DocumentationEndToEndTests {
    static let tools = InterfaceEndToEndTests.tools

    /// man/*.1 and the README's tables are what bin/gen-man makes from the code now.
    @Test func manPagesAndReadmeTablesAreUpToDate() throws {
        let scratch = TemporaryDirectory()
        let check = try Tools.run("topregions-docs", ["--root", Tools.packageRoot.path, "--check"], environment: Tools.environment(home: scratch.path))
        #expect(check.status == 0, "run bin/gen-man: \(check.stderr)")
        #expect(check.stderr == "")
    }

    /// The world outline (a generated Swift file) is what bin/lib/make-world-outline.py makes
    /// from the geography built into the program now: a new geography.c.bin with an old
    /// outline would draw the world maps from other data than the region maps.
    @Test func theWorldOutlineIsWhatItsScriptMakesFromTheBuiltInGeography() throws {
        let scratch = TemporaryDirectory()
        let made = scratch.file("WorldOutline.swift")
        let script = Tools.packageRoot.appendingPathComponent("bin/lib/make-world-outline.py").path
        let run = try Tools.run("/usr/bin/env", ["python3", script, "--output", made], environment: Tools.environment(home: scratch.path))
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try Data(contentsOf: Tools.packageRoot.appendingPathComponent("Sources/TopRegionsCore/Formatting/WorldOutline.swift"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: made)) == committed, "run bin/lib/make-world-outline.py")
    }

    /// The check fails when a page or the README differs from the code.
    @Test func theCheckNoticesAStalePage() throws {
        let scratch = TemporaryDirectory()
        let root = scratch.file("root")
        try FileManager.default.createDirectory(atPath: root + "/man", withIntermediateDirectories: true)
        for name in Self.tools + ["topregions", "flickr-fake"] {
            try FileManager.default.copyItem(atPath: Tools.packageRoot.path + "/man/\(name).1", toPath: root + "/man/\(name).1")
        }
        let readme = try String(contentsOfFile: Tools.packageRoot.path + "/README.md", encoding: .utf8)
        try readme.replacingOccurrences(of: "| `TOPREGIONS_DB` | every tool |", with: "| `TOPREGIONS_DB` | some tools |")
            .write(toFile: root + "/README.md", atomically: true, encoding: .utf8)
        var page = try String(contentsOfFile: root + "/man/thumb-get.1", encoding: .utf8)
        page = page.replacingOccurrences(of: ".It Ev TOPREGIONS_DB\n", with: ".It Ev FLICKR_API_KEY\n")
        try page.write(toFile: root + "/man/thumb-get.1", atomically: true, encoding: .utf8)

        let environment = Tools.environment(home: scratch.path)
        let check = try Tools.run("topregions-docs", ["--root", root, "--check"], environment: environment)
        #expect(check.status == 1)
        #expect(check.stderr == """
            topregions-docs: man/thumb-get.1 is out of date (bin/gen-man rewrites it)
            topregions-docs: README.md is out of date (bin/gen-man rewrites it)

            """)
        // The committed page's date, so the rewritten page can equal it byte for byte.
        let committed = try String(contentsOfFile: Tools.packageRoot.path + "/man/thumb-get.1", encoding: .utf8)
        let date = try #require(committed.split(separator: "\n").first { $0.hasPrefix(".Dd ") }).dropFirst(4)
        let write = try Tools.run("topregions-docs", ["--root", root, "--date", String(date)], environment: environment)
        #expect(write.status == 0)
        #expect(try String(contentsOfFile: root + "/man/thumb-get.1", encoding: .utf8) == String(contentsOfFile: Tools.packageRoot.path + "/man/thumb-get.1", encoding: .utf8))
        #expect(try String(contentsOfFile: root + "/README.md", encoding: .utf8) == readme)
        #expect(try Tools.run("topregions-docs", ["--root", root, "--check"], environment: environment).status == 0)
    }

    /// Names keep their letters in the rendered man pages ("Île-de-France", "Tōkyō").
    @Test func manPagesKeepNonASCIILetters() throws {
        let scratch = TemporaryDirectory()
        var environment = Tools.environment(home: scratch.path)
        environment["MANWIDTH"] = "100"
        for (tool, name) in [("regions-top", "Île-de-France, France"), ("photo-cache", "Tōkyō, Japan")] {
            let man = try Tools.run("/usr/bin/man", ["-l", Tools.packageRoot.path + "/man/\(tool).1"], environment: environment)
            #expect(man.status == 0, "\(man.stderr)")
            #expect(man.stdout.contains(name), "\(tool): \(man.stdout)")
            #expect(man.stderr == "", "\(tool): \(man.stderr)")
        }
    }

    /// Each tool lists the variables it reads, and only those: the tools that never call
    /// Flickr's API do not list its key; the same in --help and in the man page.
    @Test func eachToolListsTheVariablesItReads() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        // regions-top reads it to know whether it may refresh an empty database.
        let readsKey: Set = ["flickr-recent", "place-resolve", "regions-top", "regions-serve"]
        for tool in Self.tools {
            let help = try Tools.run(tool, ["--help"], environment: environment).stdout
            let environmentSection = try #require(help.components(separatedBy: "\nENVIRONMENT:\n").last?.components(separatedBy: "\nEXIT STATUS:\n").first)
            let exitSection = try #require(help.components(separatedBy: "\nEXIT STATUS:\n").last)
            #expect(environmentSection.contains("  TOPREGIONS_DB "), "\(tool)")
            #expect(environmentSection.contains("FLICKR_API_KEY") == readsKey.contains(tool), "\(tool)")
            #expect(exitSection.hasPrefix("  0     Success.\n  64    "), "\(tool)")

            let page = try String(contentsOfFile: Tools.packageRoot.path + "/man/\(tool).1", encoding: .utf8)
            let manEnvironment = try #require(page.components(separatedBy: ".Sh ENVIRONMENT\n").last?.components(separatedBy: ".Sh EXIT STATUS\n").first)
            #expect(manEnvironment.contains(".It Ev FLICKR_API_KEY\n") == readsKey.contains(tool), "\(tool)")
            #expect(page.contains(".Sh EXIT STATUS\n.Bl -tag -width Ds\n.It 0\n"), "\(tool)")
        }
        let top = try Tools.run("regions-top", ["--help"], environment: environment).stdout
        #expect(top.contains("  COLUMNS  ") || top.contains("  COLUMNS                 The width tables are fitted to"))
        let cache = try Tools.run("photo-cache", ["--help"], environment: environment).stdout
        #expect(cache.contains("  TOPREGIONS_CACHE        The photo cache directory, when --cache-dir is not"))
        #expect(cache.contains("  75    A download failed after retries (refused connection, timeout, HTTP 5xx\n"))
    }

    /// A tool's variables and exit statuses speak only of options it has: the words shared
    /// by every tool named --delete, --undelete, --parallel, --out and --utc in the pages of
    /// tools without them (flickr-recent's 64 spoke of ids given to --delete).
    @Test func theVariablesAndStatusesNameOnlyTheToolsOwnOptions() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let option = try Regex("--[a-z][a-z-]*[a-z]")
        for tool in Self.tools {
            let help = try Tools.run(tool, ["--help"], environment: environment).stdout
            let options = try #require(help.components(separatedBy: "\nOPTIONS:\n").last?.components(separatedBy: "\nENVIRONMENT:\n").first)
            let told = try #require(help.components(separatedBy: "\nENVIRONMENT:\n").last)
            // A tool's own option, or another tool's named with the tool ("place-resolve --pending").
            let others = Set(told.matches(of: try Regex("[a-z]+-[a-z]+ (--[a-z][a-z-]*[a-z])")).compactMap { $0.output[1].substring.map(String.init) })
            for match in told.matches(of: option) {
                let name = String(told[match.range])
                #expect(options.contains("  \(name)") || options.contains(", \(name)") || others.contains(name), "\(tool) names \(name), which it does not have")
            }
        }
    }
}
