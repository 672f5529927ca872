import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

/// The bodies that never end, which clients must bound: each goes on until the client hangs
/// up, so curl is run with a limit of its own and the test checks what it got before that.
@Suite("Body faults")
struct BodyFaultTests {
    static let image = "/65535/1_2_s.jpg"

    static func faults(_ body: BodyFault, on scope: FaultScope = .images) -> FaultOptions {
        var options = FaultOptions()
        options.bodyFault = body
        options.faultsOn = scope
        return options
    }

    /// curl with a time limit, the body into a file; returns curl's exit code, the headers
    /// (lowercased names) and the body bytes received.
    static func fetch(_ url: String, _ extra: [String]) async throws -> (exitCode: Int32, headers: [String: String], body: Data) {
        let bodyPath = temporaryPath("body")
        defer { try? FileManager.default.removeItem(atPath: bodyPath) }
        let result = try await Curl.run(extra + ["--output", bodyPath, "--write-out", "%{header_json}", url])
        let headerLists = (try? JSONSerialization.jsonObject(with: Data(result.body)) as? [String: [String]]) ?? [:]
        let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyPath))) ?? Data()
        return (result.exitCode, headerLists.compactMapValues(\.last), body)
    }

    /// The first `bytes` bytes of the body, the response headers, and whether the body was
    /// still going then: curl's output is cut by `head -c`, so curl fails to write (23)
    /// exactly when a longer body keeps coming, whatever the speed.
    static func firstBytes(_ url: String, _ bytes: Int) async throws -> (headers: String, body: Data, stillGoing: Bool) {
        let headers = temporaryPath("headers")
        let body = temporaryPath("body")
        defer {
            try? FileManager.default.removeItem(atPath: headers)
            try? FileManager.default.removeItem(atPath: body)
        }
        let script = #"curl -sS --noproxy '*' --max-time 60 -D "$1" "$2" | head -c "$3" > "$4"; echo "${PIPESTATUS[0]}""#
        let result = try await runProcess("/bin/bash", ["-c", script, "bash", headers, url, String(bytes), body])
        return (
            try String(contentsOfFile: headers, encoding: .utf8).lowercased(), try Data(contentsOf: URL(fileURLWithPath: body)),
            result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "23")
    }

    @Test("endless: a JPEG header, then bytes without end and without a Content-Length")
    func endless() async throws {
        try await RunningFake.with(faults: Self.faults(.endless)) { fake in
            let got = try await Self.firstBytes(fake.baseURL + Self.image, 2_000_000)
            #expect(got.stillGoing, "the body ended by itself")
            #expect(got.headers.contains("content-type: image/jpeg"))
            #expect(!got.headers.contains("content-length"))
            #expect(got.body.count == 2_000_000)
            #expect(got.body.starts(with: [0xFF, 0xD8, 0xFF, 0xE0]))
        }
    }

    @Test("endless-html: an HTML page that never ends")
    func endlessHTML() async throws {
        try await RunningFake.with(faults: Self.faults(.endlessHTML)) { fake in
            let got = try await Self.firstBytes(fake.baseURL + Self.image, 1_000_000)
            #expect(got.stillGoing, "the body ended by itself")
            #expect(got.headers.contains("content-type: text/html"))
            #expect(!got.headers.contains("content-length"))
            #expect(got.body.count == 1_000_000)
            #expect(String(decoding: got.body.prefix(15), as: UTF8.self) == "<!DOCTYPE html>")
        }
    }

    @Test("trickle: a JPEG at about 1.5 KB a second, without end")
    func trickle() async throws {
        try await RunningFake.with(faults: Self.faults(.trickle)) { fake in
            // Only a total time limit ends it. (No stall limit here: whether 1.5 KB a second
            // stays above one depends on how busy the machine running the test is.)
            // Eight seconds: on a machine busy enough (a load of 10 on 2 cores), four let the
            // header alone through.
            let got = try await Self.fetch(fake.baseURL + Self.image, ["--max-time", "8"])
            #expect(got.exitCode == 28, "curl exit \(got.exitCode)")
            #expect(got.body.starts(with: [0xFF, 0xD8, 0xFF, 0xE0]))
            // Something came after the header, and eight seconds of 1.5 KB/s (12 KB) is far
            // from a whole photo.
            #expect(got.body.count > 20 && got.body.count < 16 * 1024, "\(got.body.count) bytes")
        }
    }

    @Test("huge-length: a 10 GiB Content-Length that curl refuses before the body")
    func hugeLength() async throws {
        try await RunningFake.with(faults: Self.faults(.hugeLength)) { fake in
            let got = try await Self.fetch(fake.baseURL + Self.image, ["--max-filesize", "1000000", "--max-time", "20"])
            #expect(got.exitCode == 63, "CURLE_FILESIZE_EXCEEDED, got \(got.exitCode)")
            #expect(got.headers["content-length"] == "10737418240")
            #expect(got.body.isEmpty)
        }
    }

    @Test("a body fault follows faults_on, is set and shown through /_fake/faults, and is logged")
    func control() async throws {
        let log = temporaryPath("log")
        defer { try? FileManager.default.removeItem(atPath: log) }
        try await RunningFake.with(requestLogPath: log) { fake in
            let set = try jsonObject(try await Curl.post(fake.control("faults?body_fault=huge-length&faults_on=images")).body)
            #expect(set["body_fault"] as? String == "huge-length")
            #expect(fake.server.faults.bodyFault == .hugeLength)
            // REST is out of scope: a normal answer.
            #expect(try await Curl.download(fake.rest(FaultTests.searchQuery)).status == 200)
            let got = try await Self.fetch(fake.baseURL + Self.image, ["--max-filesize", "1000", "--max-time", "20"])
            #expect(got.exitCode == 63)
            let bad = try await Curl.post(fake.control("faults?body_fault=forever"), ["--write-out", "%{http_code}", "--output", "/dev/null"])
            #expect(bad.text == "400")
            let cleared = try jsonObject(try await Curl.post(fake.control("faults")).body)
            #expect(cleared["body_fault"] == nil)
            #expect(try await Curl.download(fake.baseURL + Self.image).status == 404, "no fault: the image does not exist")
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("\"fault\":\"huge-length\"") })
    }
}
