import Foundation
import Testing

/// A `flickr-fake` process for one test: started on a free port, its request log in a
/// scratch directory, stopped when the test lets go of it.
public final class FakeFlickrProcess {
    public let process: Process
    public let baseURL: String
    public let logPath: String
    public let arguments: [String]
    public static let apiKey = "fake-key-0123456789abcdef"

    public init(_ arguments: [String] = [], scratch: TemporaryDirectory) throws {
        logPath = scratch.file("fake-\(UUID().uuidString).log")
        self.arguments = ["--port", "0", "--api-key", Self.apiKey, "--log", logPath] + arguments
        process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.path("flickr-fake"))
        process.arguments = self.arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line on stdout is the base URL; read it byte by byte (it arrives at once).
        var line: [UInt8] = []
        let handle = output.fileHandleForReading
        while true {
            guard let byte = try handle.read(upToCount: 1)?.first else {
                throw FakeError(message: "flickr-fake exited before printing its URL (\(self.arguments))")
            }
            if byte == 0x0A { break }
            line.append(byte)
        }
        baseURL = String(decoding: line, as: UTF8.self)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    public struct FakeError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public var apiBase: String { baseURL + "/services/rest/" }

    /// The environment a tool needs to use this fake.
    public func environment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        Tools.environment(home: home, [
            "FLICKR_API_BASE": apiBase,
            "FLICKR_API_KEY": Self.apiKey,
            "TOPREGIONS_BACKOFF_SCALE": "0.01",
        ].merging(extra) { $1 })
    }

    /// One line of the fake's request log.
    public struct LoggedRequest {
        public var kind: String
        public var method: String?
        public var path: String
        public var params: [String: String]
        public var status: Int
        public var bytes: Int
        public var fault: String
    }

    /// Everything answered so far, in order.
    public func requests() throws -> [LoggedRequest] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let params = (object["params"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            return LoggedRequest(
                kind: object["kind"] as! String, method: object["method"] as? String, path: object["path"] as! String,
                params: params, status: object["status"] as! Int, bytes: object["bytes"] as! Int, fault: object["fault"] as! String)
        }
    }

    public func requests(method: String) throws -> [LoggedRequest] {
        try requests().filter { $0.method == method }
    }

    public func imageRequests() throws -> [LoggedRequest] {
        try requests().filter { $0.kind == "image" }
    }

    /// A control request (`/_fake/...`), through curl so the test does not depend on the
    /// toolkit's own HTTP client.
    @discardableResult
    public func control(_ pathAndQuery: String, post: Bool = true) throws -> String {
        let result = try Tools.run("/usr/bin/curl", ["-sS", "-f"] + (post ? ["-X", "POST"] : []) + [baseURL + pathAndQuery], environment: Tools.environment(home: "/tmp"))
        guard result.status == 0 else { throw FakeError(message: "control \(pathAndQuery) failed: \(result.stderr)") }
        return result.stdout
    }

    /// Requests the fake has received so far, answered or not (its answers may be held back
    /// by --latency-ms).
    public func received() throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(try control("/_fake/received", post: false).utf8)) as? [String: Any]
        return object?["requests"] as? Int ?? -1
    }

    /// The fake's ground truth as (region id, name, photographers, photos) lines.
    public static func truthLines(_ ndjson: String) -> [String] {
        ndjson.split(separator: "\n").map { line in
            let row = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return "\(row["region_id"]!) | \(row["name"]!) | \(row["photographers"]!) | \(row["photos"]!)"
        }
    }
}
