import Foundation
import Testing

/// What a finished process left behind.
public struct RunResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]

    public init(status: Int32, stdout: String, stderr: String, stdoutBytes: [UInt8]) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutBytes = stdoutBytes
    }
}

/// Runs the built executables the way a user does: as processes, with arguments, stdin,
/// environment, and their stdout, stderr and exit status captured.
public enum Tools {
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// Where `swift build` put the executables: next to the test bundle, or $TOPREGIONS_BIN.
    public static let binDirectory: URL = {
        if let explicit = ProcessInfo.processInfo.environment["TOPREGIONS_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent())
        candidates.append(testBinary.deletingLastPathComponent().deletingLastPathComponent())
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("regions-load").path) }
            ?? candidates.last!
    }()

    public static func path(_ tool: String) -> String {
        binDirectory.appendingPathComponent(tool).path
    }

    /// A clean environment: nothing from the developer's own setup leaks in.
    public static func environment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "XDG_DATA_HOME": home + "/data",
            "XDG_CACHE_HOME": home + "/cache",
            "LANG": "C.UTF-8",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `tool` to completion. stdin comes from `input` (empty when nil); stdout and
    /// stderr go to files, so a chatty process can never block on a full pipe.
    public static func run(_ tool: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String]) throws -> RunResult {
        try start(tool, arguments, input: input, environment: environment).wait()
    }

    /// Starts `tool` and returns at once; `wait()` collects the result.
    public static func start(_ tool: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String]) throws -> RunningTool {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data(input ?? []).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : path(tool))
        process.arguments = arguments
        process.environment = environment
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        return RunningTool(process: process, scratch: scratch)
    }

    /// Makes a database with no photo in it, as a user gets one: a photo loaded, then deleted
    /// (a run with nothing to store creates no database).
    public static func makeEmptyDatabase(_ db: String, environment: [String: String]) throws {
        let load = try run("regions-load", ["-q", "--db", db], input: Array(#"{"id":"1","owner":"a@N01"}"#.utf8), environment: environment)
        let delete = try run("regions-load", ["-q", "--db", db, "--delete", "1"], environment: environment)
        guard load.status == 0, delete.status == 0 else {
            throw FakeFlickrProcess.FakeError(message: "cannot make an empty database: \(load.stderr)\(delete.stderr)")
        }
    }

    /// The committed fixture: 3,040 records, 3,000 photos (Tests/Fixtures/make-fixture.py).
    public static let fixture = fixtures.appendingPathComponent("photos.ndjson").path

    /// Loads the fixture into a new database through `run` (the built regions-load, or the
    /// command in process) and returns the scratch space holding it, its environment and the
    /// database's path.
    public static func loadedFixture(
        run: (_ tool: String, _ arguments: [String], _ environment: [String: String]) throws -> RunResult,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (TemporaryDirectory, [String: String], String) {
        let scratch = TemporaryDirectory()
        let environment = environment(home: scratch.path)
        let db = scratch.file("photos.db")
        let load = try run("regions-load", ["--db", db, fixture], environment)
        #expect(load.status == 0, sourceLocation: sourceLocation)
        #expect(load.stderr == "regions-load: read 3040, new 3000, updated 0, already stored 40\n", sourceLocation: sourceLocation)
        #expect(load.stdout == "", sourceLocation: sourceLocation)
        return (scratch, environment, db)
    }

    /// Runs a shell pipeline (for `| head` and friends).
    public static func shell(_ script: String, environment: [String: String]) throws -> RunResult {
        var environment = environment
        environment["BIN"] = binDirectory.path
        return try run("/bin/bash", ["-c", script], environment: environment)
    }
}

/// A started process.
public struct RunningTool {
    public let process: Process
    public let scratch: URL

    public var pid: Int32 { process.processIdentifier }

    public func wait() throws -> RunResult {
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = try [UInt8](Data(contentsOf: scratch.appendingPathComponent("stdout")))
        let err = try Data(contentsOf: scratch.appendingPathComponent("stderr"))
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: out)
    }
}

/// Compares `actual` with a committed golden file; `UPDATE_GOLDEN=1` rewrites the file.
public func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = Tools.fixtures.appendingPathComponent("golden/\(name)")
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try Data(actual.utf8).write(to: url)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "output differs from golden/\(name) (UPDATE_GOLDEN=1 rewrites it)", sourceLocation: sourceLocation)
}
