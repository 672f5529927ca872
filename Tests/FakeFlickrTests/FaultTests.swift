import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("Fault injection")
struct FaultTests {
    static func faults(_ configure: (inout FaultOptions) -> Void) -> FaultOptions {
        var options = FaultOptions()
        configure(&options)
        return options
    }

    static let searchQuery: [(String, String)] = [("method", "flickr.photos.search"), ("per_page", "50")]

    @Test("429: HTTP 429 with Retry-After and a small HTML page")
    func tooManyRequests() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail429 = 1; $0.retryAfterSeconds = 3 }) { fake in
            let response = try await Curl.download(fake.rest(Self.searchQuery))
            #expect(response.status == 429)
            #expect(response.headers["retry-after"] == "3")
            #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(String(decoding: response.body, as: UTF8.self).contains("<html>"))
            #expect(response.headers["content-length"] == String(response.body.count))
        }
    }

    @Test("500: HTTP 500 with an HTML body, for REST and images alike")
    func serverError() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail500 = 1 }) { fake in
            let rest = try await Curl.download(fake.rest(Self.searchQuery))
            #expect(rest.status == 500 && rest.headers["content-type"]?.hasPrefix("text/html") == true)
            let image = try await Curl.download("\(fake.baseURL)/65535/1_2_s.jpg")
            #expect(image.status == 500)
        }
    }

    @Test("105: stat:fail in-band for REST, never for images")
    func serviceUnavailable() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail105 = 1 }) { fake in
            let rest = try await Curl.get(fake.rest(Self.searchQuery), ["--write-out", "\n%{http_code}"])
            #expect(rest.text == #"{"stat":"fail","code":105,"message":"Service currently unavailable"}"# + "\n200")
            let jsonp = try await Curl.get(fake.rest([("method", "flickr.places.getInfo"), ("place_id", "x")], noCallback: false))
            #expect(jsonp.text == #"jsonFlickrApi({"stat":"fail","code":105,"message":"Service currently unavailable"})"#)
            let image = try await Curl.download("\(fake.baseURL)/65535/1_2_s.jpg")
            #expect(image.status == 404, "105 is a REST error; the image request goes through")
        }
    }

    @Test("truncation: the full Content-Length is announced, about half is sent, curl reports a short transfer")
    func truncation() async throws {
        try await RunningFake.with(faults: Self.faults { $0.truncate = 1 }) { fake in
            let result = try await Curl.run(["--write-out", "%{size_download} %{http_code}", "--output", "/dev/null", fake.rest(Self.searchQuery)])
            #expect(result.exitCode == 18, "CURLE_PARTIAL_FILE: \(result.stderr)")
            try fake.server.replaceFaults(with: FaultOptions())
            let full = try await Curl.get(fake.rest(Self.searchQuery))
            let parts = result.text.split(separator: " ")
            #expect(Int(parts[0]) == full.body.count / 2)
            #expect(parts[1] == "200")
        }
    }

    @Test("drip: the body arrives in ~1 KB chunks, each after the given delay")
    func drip() async throws {
        try await RunningFake.with(faults: Self.faults { $0.dripMilliseconds = 20 }) { fake in
            let started = ContinuousClock.now
            let response = try await Curl.get(fake.rest(Self.searchQuery))
            let chunks = (response.body.count + 1023) / 1024
            #expect(chunks >= 5)
            #expect(ContinuousClock.now - started >= .milliseconds(20 * (chunks - 1)))
        }
    }

    @Test("latency delays every response, faulted or not")
    func latency() async throws {
        try await RunningFake.with(faults: Self.faults { $0.latencyMilliseconds = 200 }) { fake in
            for url in [fake.rest(Self.searchQuery), "\(fake.baseURL)/65535/1_2_s.jpg"] {
                let started = ContinuousClock.now
                _ = try await Curl.download(url)
                #expect(ContinuousClock.now - started >= .milliseconds(200))
            }
        }
    }

    @Test("GET /_fake/received counts a request on arrival, while latency still holds its answer; control requests are not counted")
    func received() async throws {
        let log = temporaryPath("log")
        defer { try? FileManager.default.removeItem(atPath: log) }
        try await RunningFake.with(faults: Self.faults { $0.latencyMilliseconds = 10_000 }, requestLogPath: log) { fake in
            func received() async throws -> Int? { try await Curl.json(fake.control("received"))["requests"] as? Int }
            #expect(try await received() == 0)
            let asking = Task { try await Curl.download(fake.rest(Self.searchQuery)) }
            var count = 0
            let started = ContinuousClock.now
            while count == 0 && ContinuousClock.now - started < .seconds(30) { count = try await received() ?? -1 }
            #expect(count == 1)
            // The log has a line for an answer once it goes out: not yet.
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "", "counted only once answered")
            #expect(try await asking.value.status == 200)
            #expect(try await received() == 1)
            #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 1)
        }
    }

    @Test("fault-repeat: a request is faulted on its first N attempts only, so a retry succeeds")
    func faultRepeat() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail500 = 1; $0.faultRepeat = 2 }) { fake throws in
            let url = fake.rest(Self.searchQuery)
            #expect(try await Curl.download(url).status == 500)
            #expect(try await Curl.download(url).status == 500)
            #expect(try await Curl.download(url).status == 200)
            // The key leaves out the API key and the parameter order: this is a fourth attempt.
            let reordered = "\(fake.baseURL)/services/rest?nojsoncallback=1&format=json&per_page=50&method=flickr.photos.search&api_key=other"
            #expect(String(decoding: try await Curl.download(reordered).body, as: UTF8.self).contains("\"code\":100"))
            // Another request has attempts of its own.
            #expect(try await Curl.download(fake.rest([("method", "flickr.photos.search")])).status == 500)
        }
        try await RunningFake.with(faults: Self.faults { $0.fail500 = 1; $0.faultRepeat = 0 }) { fake throws in
            for _ in 1...4 {
                #expect(try await Curl.download(fake.rest(Self.searchQuery)).status == 500)
            }
        }
    }

    @Test("faults-on limits faults to REST or to images; /_fake is never faulted")
    func scope() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail429 = 1; $0.faultRepeat = 0; $0.faultsOn = .images }) { fake throws in
            #expect(try await Curl.download(fake.rest(Self.searchQuery)).status == 200)
            #expect(try await Curl.download("\(fake.baseURL)/65535/1_2_s.jpg").status == 429)
            #expect(try await Curl.download(fake.control("clock")).status == 200)
        }
        try await RunningFake.with(faults: Self.faults { $0.fail429 = 1; $0.faultRepeat = 0; $0.faultsOn = .rest }) { fake throws in
            #expect(try await Curl.download(fake.rest(Self.searchQuery)).status == 429)
            #expect(try await Curl.download("\(fake.baseURL)/65535/1_2_s.jpg").status == 404)
        }
    }

    @Test("status: every request in scope answered with that status and an HTML page, every attempt")
    func status() async throws {
        try await RunningFake.with(faults: Self.faults { $0.status = 400 }) { fake in
            for _ in 1...2 {
                let rest = try await Curl.download(fake.rest(Self.searchQuery))
                #expect(rest.status == 400 && rest.headers["content-type"]?.hasPrefix("text/html") == true)
            }
            #expect(try await Curl.download("\(fake.baseURL)/65535/1_2_s.jpg").status == 400)
        }
    }

    @Test("redirect: a 302 to the given URL, {key} standing for the request's API key")
    func redirect() async throws {
        try await RunningFake.with(faults: Self.faults { $0.redirect = "ftp://127.0.0.1/x?k={key}" }) { fake in
            let response = try await Curl.download(fake.rest(Self.searchQuery, apiKey: "sent-key"))
            #expect(response.status == 302)
            #expect(response.headers["location"] == "ftp://127.0.0.1/x?k=sent-key")
        }
    }

    @Test("echo-key: error answers quote the key the request carried; answers that are not errors do not")
    func echoKey() async throws {
        try await RunningFake.with(faults: Self.faults { $0.echoKey = true }) { fake in
            let refused = try await Curl.get(fake.rest(Self.searchQuery, apiKey: "sent-key"))
            #expect(refused.text == #"{"stat":"fail","code":100,"message":"Invalid API Key (sent-key)"}"#)
            #expect(!(try await Curl.get(fake.rest(Self.searchQuery))).text.contains(fake.apiKey))
            try fake.server.replaceFaults(with: Self.faults { $0.echoKey = true; $0.fail105 = 1 })
            let busy = try await Curl.get(fake.rest(Self.searchQuery))
            #expect(busy.text == #"{"stat":"fail","code":105,"message":"Service currently unavailable (\#(fake.apiKey))"}"#)
            try fake.server.replaceFaults(with: Self.faults { $0.echoKey = true; $0.status = 403 })
            let page = try await Curl.download(fake.rest(Self.searchQuery))
            #expect(page.status == 403 && String(decoding: page.body, as: UTF8.self).contains("key \(fake.apiKey)."))
        }
    }

    @Test("fault decisions are a function of seed, request and attempt: two servers agree")
    func determinism() async throws {
        let options = Self.faults { $0.fail500 = 0.3; $0.fail429 = 0.2; $0.fail105 = 0.2; $0.faultRepeat = 0 }
        let urls: (RunningFake) -> [String] = { fake in
            (1...30).map { fake.rest([("method", "flickr.photos.search"), ("per_page", "1"), ("page", String($0 % 10 + 1))]) }
        }
        func outcomes(_ fake: RunningFake) async throws -> [String] {
            var outcomes: [String] = []
            for url in urls(fake) {
                let response = try await Curl.download(url)
                let text = String(decoding: response.body, as: UTF8.self)
                outcomes.append(response.status == 200 && text.contains("\"code\":105") ? "105" : String(response.status))
            }
            return outcomes
        }
        let first = try await RunningFake.with(faults: options) { try await outcomes($0) }
        let second = try await RunningFake.with(faults: options) { try await outcomes($0) }
        #expect(first == second)
        #expect(Set(first) == ["200", "429", "500", "105"], "\(first)")
        let otherSeed = try await RunningFake.with(world: smallWorld(seed: 99), faults: options) { try await outcomes($0) }
        #expect(otherSeed != first)
    }

    @Test("POST /_fake/faults replaces the whole configuration; GET shows it")
    func control() async throws {
        try await RunningFake.with(faults: Self.faults { $0.fail500 = 1; $0.latencyMilliseconds = 5 }) { fake in
            let shown = try await Curl.json(fake.control("faults"))
            #expect(shown["fail_500"] as? Double == 1 && shown["latency_ms"] as? Int == 5)
            let replaced = try jsonObject(try await Curl.post(fake.control("faults?fail_429=0.5&faults_on=rest&retry_after=4")).body)
            #expect(replaced["fail_500"] as? Double == 0, "left out means back to the default")
            #expect(replaced["latency_ms"] as? Int == 0)
            #expect(replaced["fail_429"] as? Double == 0.5 && replaced["faults_on"] as? String == "rest")
            #expect(replaced["retry_after"] as? Int == 4 && replaced["fault_repeat"] as? Int == 1)
            #expect(fake.server.faults.fail429 == 0.5)
            for bad in ["fail_500=2", "faults_on=everything", "latency=5", "drip_ms=x", "status=200", "echo_key=yes", "status=500&redirect=http://x/"] {
                let response = try await Curl.post(fake.control("faults?\(bad)"), ["--write-out", "%{http_code}", "--output", "/dev/null"])
                #expect(response.text == "400", "\(bad)")
            }
            #expect(fake.server.faults.fail429 == 0.5, "a rejected change changes nothing")
        }
    }
}
