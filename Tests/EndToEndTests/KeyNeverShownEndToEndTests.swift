import Foundation
import Testing
import TopRegionsTestSupport

/// Issue 26.3: the API key never appears in what a tool prints, even when what came from
/// outside quotes it: Flickr's invalid-key message ("Invalid API Key (the key)"), another
/// error's message, an error page, libcurl's words about a redirect's host. The fake quotes
/// the key the request carried (`echo_key`) in every error it sends.
@Suite struct KeyNeverShownEndToEndTests {
    /// The key the tools send, which the fake (started with its own key) refuses in the
    /// first case and quotes in every case.
    static let key = "tools-key-0123456789abcdef"

    /// What the fake is told to do, and the last line each tool's stderr must end with
    /// (the key shown as [API key]).
    static let faults: [(query: String, last: String)] = [
        ("echo_key=1", "Flickr error 100: Invalid API Key ([API key]); check FLICKR_API_KEY or --api-key-file"),
        ("echo_key=1&fail_105=1&fault_repeat=0", "Flickr error 105: Service currently unavailable ([API key])"),
        ("echo_key=1&status=403", "HTTP 403"),
        ("echo_key=1&redirect=http%3A%2F%2Fproxy-%7Bkey%7D.invalid%2F", "Could not resolve host: proxy-[API key].invalid"),
        ("echo_key=1&redirect=ftp%3A%2F%2F127.0.0.1%2F%3Fapi_key%3D%7Bkey%7D", "only http and https URLs are fetched"),
    ]

    @Test func noToolThatCallsFlickrShowsTheKeyWhateverTheAnswerQuotes() throws {
        let setup = try NetworkEndToEndTests.Setup()
        // Records to resolve, and a database whose photos have places but no regions yet.
        let recent = try Tools.run("flickr-recent", ["-q", "--db", setup.scratch.file("scratch.db"), "--pages", "1"], environment: setup.environment)
        let records = Array(recent.stdout.split(separator: "\n").prefix(3).map { $0 + "\n" }.joined().utf8)
        #expect(recent.status == 0 && records.count > 100, "\(recent.stderr)")
        let pendingDB = setup.scratch.file("pending.db")
        let load = try Tools.run("regions-load", ["-q", "--db", pendingDB], input: records, environment: setup.environment)
        #expect(load.status == 0, "\(load.stderr)")

        // The first case's key is refused: the fake knows another. Every case quotes it.
        var environment = setup.environment
        environment["FLICKR_API_KEY"] = Self.key
        for (index, fault) in Self.faults.enumerated() {
            for verbosity in [[], ["-v"]] {
                try setup.fake.control("/_fake/faults?faults_on=rest&" + fault.query)
                let runs: [(String, RunResult)] = [
                    ("flickr-recent", try Tools.run(
                        "flickr-recent", verbosity + ["--db", setup.scratch.file("recent-\(index).db"), "--pages", "1", "--retries", "1"],
                        environment: environment)),
                    ("place-resolve", try Tools.run(
                        "place-resolve", verbosity + ["--db", setup.scratch.file("resolve-\(index).db"), "--retries", "1", "--parallel", "1"],
                        input: records, environment: environment)),
                    ("place-resolve", try Tools.run(
                        "place-resolve", verbosity + ["--db", pendingDB, "--pending", "--retries", "1", "--parallel", "1"],
                        environment: environment)),
                    ("regions-top", try Tools.run(
                        "regions-top", verbosity + ["--db", setup.scratch.file("top-\(index).db"), "--format", "ndjson"],
                        environment: environment)),
                ]
                for (tool, run) in runs {
                    let shown = "\(tool) \(verbosity) with \(fault.query): \(run.status)\n\(run.stderr)"
                    #expect(!run.stderr.contains(Self.key) && !run.stdout.contains(Self.key), "\(shown)")
                    #expect(run.status != 0 && run.stderr.contains(fault.last), "\(shown)")
                }
            }
        }
        // The fake did quote the key: the same error page, fetched by curl, holds it.
        try setup.fake.control("/_fake/faults?faults_on=rest&echo_key=1&status=403")
        let page = try Tools.run("/usr/bin/curl", ["-sS", setup.fake.apiBase + "?method=flickr.photos.search&api_key=" + Self.key], environment: setup.environment)
        #expect(page.stdout.contains("key \(Self.key)"))
    }
}
