import ArgumentParser
import Foundation
import TopRegionsCLI
import TopRegionsToolkit

/// Writes man/*.1 and the README's tables of environment variables and exit statuses from
/// the commands themselves (their argument parsers and their declarations), so the
/// documentation is said once, in the code. bin/gen-man runs it; the test suite runs it
/// with --check.
struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topregions-docs",
        abstract: "Write the man pages and the README's tables from the commands' declarations.",
        discussion: """
            Writes man/<tool>.1 for the seven tools, topregions (the program they are links to \
            once installed) and flickr-fake (whose description comes from the flickr-fake built \
            next to this program), and the tables between the BEGIN/END \
            markers in README.md. A page whose text is unchanged keeps its date. With --check, \
            writes nothing, names what is out of date on stderr, and exits 1 if anything is.
            """)

    @Option(help: ArgumentHelp("The package's root directory.", valueName: "dir"), completion: .directory)
    var root = "."

    @Option(help: ArgumentHelp("The date on pages that changed (default: today, in UTC).", valueName: "Month D, YYYY"))
    var date: String?

    @Flag(help: "Write nothing; list what is out of date, and exit 1 if anything is.")
    var check = false

    func run() throws {
        var stale: [String] = []
        func update(_ path: String, _ make: (String?) throws -> String) throws {
            let url = URL(fileURLWithPath: root).appendingPathComponent(path)
            let old = try? String(contentsOf: url, encoding: .utf8)
            let new = try make(old)
            guard new != old else { return }
            stale.append(path)
            if !check { try Data(new.utf8).write(to: url) }
        }

        for command in Toolkit.commands {
            let page = try Toolkit.manualPage(command, date: "")
            try update("man/\(command.toolName).1") { old in Self.dated(page, old: old, date: date) }
        }
        let program = try Toolkit.programPage(date: "")
        try update("man/topregions.1") { old in Self.dated(program, old: old, date: date) }
        let fake = try fakePage()
        try update("man/flickr-fake.1") { old in Self.dated(fake, old: old, date: date) }
        try update("README.md") { old in
            guard let old, let new = Toolkit.updatingReadme(old) else {
                throw ValidationError("README.md lacks the BEGIN/END markers of the generated tables")
            }
            return new
        }

        for path in stale {
            FileHandle.standardError.write(Data("topregions-docs: \(path) \(check ? "is out of date (bin/gen-man rewrites it)" : "written")\n".utf8))
        }
        if check && !stale.isEmpty { throw ExitCode(1) }
    }

    /// The page's text with its date: the old page's date when nothing else changed, so
    /// regenerating an unchanged page changes nothing.
    static func dated(_ page: ManualPage, old: String?, date: String?) -> String {
        var page = page
        let oldDate = old?.split(separator: "\n").first { $0.hasPrefix(".Dd ") }.map { String($0.dropFirst(4)) }
        if let oldDate {
            page.date = oldDate
            if page.text == old { return page.text }
        }
        page.date = date ?? today()
        return page.text
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy"
        return formatter.string(from: Date())
    }

    /// flickr-fake's page: its interface from the flickr-fake built beside this program
    /// (the fake shares no code with the toolkit, so it cannot be linked here).
    func fakePage() throws -> ManualPage {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let process = Process()
        process.executableURL = directory.appendingPathComponent("flickr-fake")
        process.arguments = ["--experimental-dump-help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let json = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("flickr-fake --experimental-dump-help failed") }
        return ManualPage(
            interface: try CommandInterface(dumpHelp: String(decoding: json, as: UTF8.self)), environment: [],
            exitStatuses: [
                (0, "Served until SIGTERM or SIGINT, or printed what was asked (--truth, --help, --version)."),
                (1, "Any other failure."),
                (64, "A bad option, a world or faults it cannot build, or an address it cannot listen on."),
            ],
            seeAlso: Toolkit.names.map { "\($0)(1)" } + ["topregions-record(7)"], date: "", version: toolkitVersion)
    }
}

Docs.main()
