import Foundation
import Testing

/// What one process run left behind.
public struct ProcessResult: Sendable {
    public let exitCode: Int32
    public let body: Data
    public let stderr: String

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// The HTTP client of these tests is the curl command-line tool, so that nothing of the
/// server's own stack (or of Foundation's URL loading) can hide a protocol mistake.
public enum Curl {
    public static func run(_ arguments: [String]) async throws -> ProcessResult {
        // --noproxy: a developer's proxy settings must not route loopback requests elsewhere.
        try await runProcess("/usr/bin/env", ["curl", "--silent", "--show-error", "--noproxy", "*"] + arguments)
    }

    /// GETs `url` and expects curl to succeed.
    public static func get(_ url: String, _ extraArguments: [String] = []) async throws -> ProcessResult {
        let result = try await run(extraArguments + [url])
        #expect(result.exitCode == 0, "curl \(url): \(result.stderr)")
        return result
    }

    public static func post(_ url: String, _ extraArguments: [String] = []) async throws -> ProcessResult {
        try await get(url, ["--request", "POST"] + extraArguments)
    }

    /// GETs every URL in one curl run (so over one kept-alive connection) and returns the
    /// bodies in order, and curl's stdout, which carries any `--write-out` output.
    public static func getMany(_ urls: [String], _ extraArguments: [String] = []) async throws -> (bodies: [Data], output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = urls.indices.map { directory.appendingPathComponent("\($0)").path }
        let result = try await run(extraArguments + zip(files, urls).flatMap { ["--output", $0, $1] })
        #expect(result.exitCode == 0, "curl: \(result.stderr)")
        return (try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, result.text)
    }

    /// GETs `url` into a file and returns the body with the status and response headers
    /// (names lowercased), as curl saw them.
    public static func download(_ url: String) async throws -> (status: Int, headers: [String: String], body: Data) {
        let bodyPath = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: bodyPath) }
        let result = try await get(url, ["--output", bodyPath, "--write-out", "%{http_code}\n%{header_json}"])
        let lines = result.text.split(separator: "\n", maxSplits: 1)
        let headerLists = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [String: [String]]
        return (Int(lines[0])!, headerLists.compactMapValues(\.last), try Data(contentsOf: URL(fileURLWithPath: bodyPath)))
    }

    /// GETs `url` and parses the body as a JSON object.
    public static func json(_ url: String) async throws -> [String: Any] {
        try jsonObject(try await get(url).body)
    }
}

/// Runs a program to completion. The process is awaited through its termination handler
/// rather than `waitUntilExit()`: blocking a Swift concurrency thread could starve the
/// in-process server, which runs on the same small pool. Output goes to files, never to a pipe
/// that could fill up.
public func runProcess(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
        }
    }
    return ProcessResult(
        exitCode: process.terminationStatus,
        body: try Data(contentsOf: outURL),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

public func jsonObject(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    return object
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
