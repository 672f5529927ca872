import Foundation
import Testing
import TopRegionsTestSupport

/// `topregions`, the one program an installation holds, with each tool's name a link to it:
/// run by a link it is that tool, byte for byte the tool's own executable; as `topregions
/// TOOL` it is the tool named; laid out as bin/install lays it out, the refresh regions-top
/// and regions-serve run finds its stages through the links beside it.
@Suite struct MultiCallEndToEndTests {
    static let tools = InterfaceEndToEndTests.tools

    /// A directory laid out as an installation's bin: the program (a hard link to the built
    /// one, or a copy), and each tool's name a symbolic link to it.
    static func installedLayout(_ scratch: TemporaryDirectory) throws -> String {
        let bin = scratch.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let program = bin + "/topregions"
        do {
            try FileManager.default.linkItem(atPath: Tools.path("topregions"), toPath: program)
        } catch {
            try FileManager.default.copyItem(atPath: Tools.path("topregions"), toPath: program)
        }
        for tool in tools {
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: "topregions")
        }
        return bin
    }

    @Test func eachLinkIsItsToolAsItsOwnExecutableIs() throws {
        let scratch = TemporaryDirectory()
        let bin = try Self.installedLayout(scratch)
        let environment = Tools.environment(home: scratch.path)
        for tool in Self.tools {
            for arguments in [["--help"], ["--version"], ["-q", "-v"], ["--bogus"]] {
                let own = try Tools.run(tool, arguments, environment: environment)
                let linked = try Tools.run(bin + "/" + tool, arguments, environment: environment)
                let named = try Tools.run(bin + "/topregions", [tool] + arguments, environment: environment)
                for run in [linked, named] {
                    #expect(run.status == own.status, "\(tool) \(arguments)")
                    #expect(run.stdout == own.stdout, "\(tool) \(arguments)")
                    #expect(run.stderr == own.stderr, "\(tool) \(arguments)")
                }
            }
        }
        // The statuses compared are the real ones: help, version, two usage errors.
        let help = try Tools.run(bin + "/regions-top", ["--help"], environment: environment)
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "))
        let usage = try Tools.run(bin + "/photo-cache", ["--bogus"], environment: environment)
        #expect(usage.status == 64 && usage.stderr.hasPrefix("photo-cache: Unknown option '--bogus'"), "\(usage.stderr)")
    }

    @Test func topregionsWithoutAToolIsAUsageError() throws {
        let scratch = TemporaryDirectory()
        let environment = Tools.environment(home: scratch.path)
        let none = try Tools.run("topregions", [], environment: environment)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("topregions: Missing expected argument '<tool>'\n"), "\(none.stderr)")
        let unknown = try Tools.run("topregions", ["regions-bottom", "--limit", "3"], environment: environment)
        #expect(unknown.status == 64)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr.hasPrefix("""
            topregions: no tool named 'regions-bottom'; the tools are flickr-recent, place-resolve, regions-load, \
            regions-top, thumb-get, photo-cache, regions-serve\n
            """), "\(unknown.stderr)")
        let help = try Tools.run("topregions", ["--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: topregions <tool> [<argument> ...]\n"), "\(help.stdout)")
        #expect(try Tools.run("topregions", ["help"], environment: environment).stdout == help.stdout)
        let version = try Tools.run("topregions", ["--version"], environment: environment)
        let toolsVersion = try Tools.run("regions-top", ["--version"], environment: environment)
        #expect(version.status == 0 && version.stdout == toolsVersion.stdout)
    }

    /// With only the program and its links in bin, regions-top's refresh runs flickr-recent |
    /// place-resolve | regions-load through the links beside it (exactly the ground truth
    /// comes of it), and regions-serve is built with its server.
    @Test func theInstalledLayoutRefreshesAndServesThroughItsLinks() throws {
        let setup = try NetworkEndToEndTests.Setup()
        let bin = try Self.installedLayout(setup.scratch)
        let top = try Tools.run(bin + "/regions-top", ["--db", setup.db, "--limit", "1000", "--format", "ndjson"], environment: setup.environment)
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stderr.hasPrefix("regions-top: the database has no photos yet; refreshing it from Flickr"), "\(top.stderr)")
        let truth = try setup.truth()
        #expect(truth.count > 20)
        #expect(FakeFlickrProcess.truthLines(top.stdout) == truth)

        let site = setup.scratch.file("site")
        let export = try Tools.run(bin + "/regions-serve", ["--db", setup.db, "--export", site], environment: setup.environment)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == site + "/top-regions.html\n")
        #expect(FileManager.default.fileExists(atPath: site + "/top-regions.html"))
    }
}
