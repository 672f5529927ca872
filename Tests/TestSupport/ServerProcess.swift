import Foundation
import Testing

/// A `regions-serve` process for one test: started with its arguments, its address read from
/// the first line of its stdout, stopped (SIGTERM) when the test is done with it.
public final class ServerProcess {
    public let process: Process
    public let url: String
    public let stderrPath: String
    private var stopped: (status: Int32, stderr: String)?

    public init(_ arguments: [String], environment: [String: String], scratch: TemporaryDirectory) throws {
        stderrPath = scratch.file("serve-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.path("regions-serve"))
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var line: [UInt8] = []
        let handle = output.fileHandleForReading
        while true {
            guard let byte = try handle.read(upToCount: 1)?.first else {
                process.waitUntilExit()
                let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                throw FakeFlickrProcess.FakeError(message: "regions-serve exited \(process.terminationStatus) before printing its address: \(stderr)")
            }
            if byte == 0x0A { break }
            line.append(byte)
        }
        url = String(decoding: line, as: UTF8.self)
    }

    /// "http://127.0.0.1:PORT/" without its last "/", to put paths after.
    public var base: String { String(url.dropLast()) }
    public var port: Int { Int(url.split(separator: ":").last!.dropLast())! }

    /// Signalled when the process exits.
    private let exited = DispatchSemaphore(value: 0)

    /// Sends SIGTERM and waits: the exit status and everything written on stderr. A server
    /// still running two minutes later is killed, and the test fails (it did not stop).
    @discardableResult
    public func stop() -> (status: Int32, stderr: String) {
        if let stopped { return stopped }
        if process.isRunning {
            process.terminate()
            if exited.wait(timeout: .now() + 120) == .timedOut {
                Issue.record("regions-serve did not stop within 120 s of SIGTERM")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
        let result = (process.terminationStatus, (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        stopped = result
        return result
    }

    deinit {
        stop()
    }
}

/// One HTTP exchange through curl (an HTTP client independent of the toolkit's).
public struct HTTPExchange {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `method` to `url`, with extra `headers` and a form `body`.
    public static func request(
        _ url: String, method: String = "GET", headers: [String: String] = [:], form: String? = nil, scratch: TemporaryDirectory
    ) throws -> HTTPExchange {
        let bodyPath = scratch.file("body-\(UUID().uuidString)")
        let headersPath = scratch.file("headers-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: bodyPath)
            try? FileManager.default.removeItem(atPath: headersPath)
        }
        // --max-time: a server that hangs fails the test instead of holding the suite up.
        var arguments = ["-sS", "--max-time", "60", "--path-as-is", "-o", bodyPath, "-D", headersPath, "-w", "%{http_code}", "-X", method]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let form { arguments += ["--data-binary", form] }
        let result = try Tools.run("/usr/bin/curl", arguments + [url], environment: Tools.environment(home: scratch.path))
        guard result.status == 0 else { throw FakeFlickrProcess.FakeError(message: "curl \(url): \(result.stderr)") }
        var parsed: [String: String] = [:]
        for line in (try String(contentsOfFile: headersPath, encoding: .utf8)).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: bodyPath)))) ?? []
        return HTTPExchange(status: Int(result.stdout) ?? 0, headers: parsed, body: body)
    }
}
