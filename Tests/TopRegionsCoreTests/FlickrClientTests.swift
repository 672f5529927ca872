import Foundation
import GRDB
import Testing
@testable import TopRegionsFlickr
@testable import TopRegionsHTTP
@testable import TopRegionsStore
@testable import TopRegionsSupport
import TopRegionsTestSupport

@Suite struct FlickrClientTests {
    @Test func interpretsOkFailJSONPAndGarbage() {
        let ok = FlickrClient.interpret(Array(#"{"photos":{"page":1},"stat":"ok"}"#.utf8), method: "m")
        #expect((try? ok.get())?["photos"] != nil)
        let fail = FlickrClient.interpret(Array(#"jsonFlickrApi({"stat":"fail","code":100,"message":"Invalid API Key (Key has expired)"})"#.utf8), method: "m")
        #expect(fail == .failure(.api(method: "m", code: 100, message: "Invalid API Key (Key has expired)")))
        let html = FlickrClient.interpret(Array("<html>Too Many Requests</html>".utf8), method: "m")
        guard case .failure(let error) = html, case .badResponse = error else { Issue.record("HTML accepted"); return }
        #expect(error.isTemporary)
        let cut = FlickrClient.interpret(Array(#"{"photos":{"page":1,"pho"#.utf8), method: "m")
        guard case .failure(.badResponse) = cut else { Issue.record("cut JSON accepted"); return }
    }

    @Test func sortsErrorsIntoConfigurationTemporaryAndOther() {
        #expect(FlickrError.api(method: "flickr.photos.search", code: 100, message: "").isConfigurationError)
        #expect(FlickrError.api(method: "x", code: 112, message: "").isConfigurationError)
        #expect(FlickrError.api(method: "x", code: 95, message: "").isConfigurationError)
        #expect(FlickrError.api(method: "x", code: 105, message: "").isTemporary)
        #expect(FlickrError.api(method: "flickr.photos.search", code: 10, message: "").isTemporary)
        #expect(!FlickrError.api(method: "flickr.places.getInfo", code: 10, message: "").isTemporary)
        #expect(FlickrError.http(method: "x", status: 503).isTemporary)
        #expect(FlickrError.http(method: "x", status: 429).isTemporary)
        #expect(!FlickrError.http(method: "x", status: 404).isTemporary)
        #expect(FlickrError.transport(method: "x", .truncated(received: 1, expected: 2)).isTemporary)
        #expect(!FlickrError.transport(method: "x", .tls("bad certificate")).isTemporary)
    }

    @Test func encodesValuesButLeavesCommasLiteral() {
        #expect(FlickrClient.encode("original_format,description,geo") == "original_format,description,geo")
        #expect(FlickrClient.encode("a b&c=d") == "a%20b%26c%3Dd")
        #expect(FlickrClient.encode("..sw5elTUb7eGTm.") == "..sw5elTUb7eGTm.")
    }

    @Test func retryAfterReadsSecondsAndDates() {
        #expect(RetryPolicy.retryAfter("7", now: 0) == 7)
        #expect(RetryPolicy.retryAfter(" 0 ", now: 0) == 0)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: 1_445_412_470) == 10)
        #expect(RetryPolicy.retryAfter("soon", now: 0) == nil)
        // Whatever a server sends, the wait stays a finite number of seconds.
        #expect(RetryPolicy.retryAfter("inf", now: 0) == nil)
        #expect(RetryPolicy.retryAfter("99999999999999999999", now: 0) == 86_400)
        #expect(RetryPolicy.retryAfter(nil, now: 0) == nil)
    }

    @Test func backoffGrowsWithJitterWithinBounds() {
        var policy = RetryPolicy()
        policy.baseDelay = 1
        policy.maxDelay = 8
        for attempt in 1...6 {
            let ceiling = min(8, pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = policy.backoff(after: attempt)
                #expect(delay >= ceiling / 2 && delay <= ceiling)
            }
        }
    }

    @Test func theKeyIsNeverShown() throws {
        let key = try FlickrAPIKey.load(file: nil, environment: ["FLICKR_API_KEY": " 0123456789abcdef0123456789abcdef "])
        #expect(key.value == "0123456789abcdef0123456789abcdef")
        #expect("\(key)" == "[API key]")
        #expect(key.redact("GET x?api_key=0123456789abcdef0123456789abcdef") == "GET x?api_key=[API key]")
        #expect(throws: Failure.self) { try FlickrAPIKey.load(file: nil, environment: [:]) }
        #expect(throws: Failure.self) { try FlickrAPIKey.load(file: nil, environment: ["FLICKR_API_KEY": "has space"]) }
    }

    @Test func endpointsFollowOneSetting() {
        #expect(FlickrEndpoints.from(environment: [:]) == FlickrEndpoints(
            apiBase: "https://api.flickr.com/services/rest/", staticBase: "https://live.staticflickr.com"))
        #expect(FlickrEndpoints.from(environment: ["FLICKR_API_BASE": "http://127.0.0.1:8080/services/rest/"]) == FlickrEndpoints(
            apiBase: "http://127.0.0.1:8080/services/rest/", staticBase: "http://127.0.0.1:8080"))
        #expect(FlickrEndpoints.from(environment: ["FLICKR_API_BASE": "http://a/rest", "FLICKR_STATIC_BASE": "http://b"]).staticBase == "http://b")
    }

    @Test func onlyHTTPAndHTTPSAreFetchable() {
        #expect(CurlSession.isFetchable("https://live.staticflickr.com/1/2_s.jpg"))
        #expect(CurlSession.isFetchable("HTTP://127.0.0.1:9/x"))
        #expect(!CurlSession.isFetchable("file:///etc/passwd"))
        #expect(!CurlSession.isFetchable("ftp://example.com/x.jpg"))
        #expect(!CurlSession.isFetchable("gopher://x"))
        #expect(!CurlSession.isFetchable("http:///nohost"))
        #expect(!CurlSession.isFetchable("javascript:alert(1)"))
        #expect(CurlSession.isFetchable("hTtPs://x"))
        #expect(!CurlSession.isFetchable("http://"))
        #expect(!CurlSession.isFetchable("https:/x"))
        #expect(!CurlSession.isFetchable(" http://x"))
    }

    /// What a Content-Type may say for a body to be read as an image (RFC 9110: the media
    /// type is case-insensitive, parameters follow a ";", optional white space is SP or HTAB).
    @Test func imageContentTypes() {
        for type in ["image/jpeg", "IMAGE/JPEG", " image/png ; q=1", "\timage/webp;", "", "  ", "application/octet-stream",
                     "Application/Octet-Stream; x=y", "binary/octet-stream"] {
            #expect(Downloader.mayBeImage(contentType: type), "\(type)")
        }
        for type in ["text/html; charset=utf-8", "image", "imagex/jpeg", "application/json", "application/octet-streamx",
                     "text/plain; image/jpeg"] {
            #expect(!Downloader.mayBeImage(contentType: type), "\(type)")
        }
    }

    @Test func aRefusedSchemeIsNeverRequested() throws {
        let session = try CurlSession()
        #expect(throws: HTTPError.unsupportedURL) { _ = try session.fetch("file:///etc/passwd") }
    }

    @Test func theRunBudgetCountsEveryCall() throws {
        let budget = RunBudget(limit: 2)
        try budget.take()
        try budget.take()
        #expect(throws: FlickrError.runBudgetSpent(limit: 2)) { try budget.take() }
        #expect(budget.callsMade == 2)
    }

    @Test func theLedgerKeepsTheHourUnderTheLimitAcrossClients() throws {
        let directory = TemporaryDirectory()
        let store = try Store.open(path: directory.file("ledger.db"))
        let first = CallLedger(store: store, limit: 3)
        let second = CallLedger(store: try Store.open(path: directory.file("ledger.db")), limit: 3)
        try first.admit(now: 1000)
        try second.admit(now: 1500)
        try first.admit(now: 2000)
        #expect(throws: FlickrError.hourlyLimitReached(limit: 3, nextCallIn: 1100)) { try second.admit(now: 3500) }
        // The first call leaves the window an hour after it was made.
        try second.admit(now: 4600.5)
        let recorded = try store.read { try Double.fetchAll($0, sql: "SELECT at FROM api_call ORDER BY at") }
        #expect(recorded == [1500, 2000, 4600.5])
    }

    /// Before the database exists the calls are counted in memory, under the same limit, and
    /// no file is made; once it exists they are written into it, and count for everyone.
    @Test func callsBeforeTheDatabaseExistsAreCountedAndWrittenOnceItDoes() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("new.db")
        let database = try StoreOnFirstWrite(path: path)
        let ledger = CallLedger(database: database, limit: 2)
        try ledger.admit(now: 1000)
        try ledger.admit(now: 1200)
        #expect(throws: FlickrError.hourlyLimitReached(limit: 2, nextCallIn: 2600)) { try ledger.admit(now: 2000) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        _ = try database.store()
        try ledger.recordCallsMadeBefore()
        let other = CallLedger(store: try Store.open(path: path), limit: 2)
        #expect(throws: FlickrError.hourlyLimitReached(limit: 2, nextCallIn: 2600)) { try other.admit(now: 2000) }
        try ledger.admit(now: 4601)
        let recorded = try Store.open(path: path).read { try Double.fetchAll($0, sql: "SELECT at FROM api_call ORDER BY at") }
        #expect(recorded == [1200, 4601])
    }
}

@Suite struct NamesAndTimesTests {
    @Test func fileNamesFromIDsStayInTheirDirectory() {
        #expect(SafeName.fileName(for: "53120987654", extension: "jpg") == "53120987654.jpg")
        #expect(SafeName.fileName(for: "a_b-1", extension: "jpg") == "a_b-1.jpg")
        for id in ["../../etc/passwd", "", "a/b\u{0}c", "ĳ", "a.b", String(repeating: "9", count: 200)] {
            let name = SafeName.fileName(for: id, extension: "jpg")
            #expect(name.hasSuffix(".jpg") && !name.contains("/") && !name.hasPrefix("."), "\(id) → \(name)")
            #expect(name.dropLast(4).unicodeScalars.allSatisfy(SafeName.isSafe), "\(id) → \(name)")
        }
        // Ids that differ only where characters had to be replaced keep apart.
        #expect(SafeName.fileName(for: "a.b", extension: "jpg") != SafeName.fileName(for: "a_b", extension: "jpg"))
        #expect(SafeName.fileName(for: "a.b", extension: "jpg") != SafeName.fileName(for: "a,b", extension: "jpg"))
    }

    @Test func timesReadAsSecondsDatesOrAges() {
        #expect(Units.parseTime("1700000000", now: 0) == 1_700_000_000)
        #expect(Units.parseTime("2023-11-14T22:13:20Z", now: 0) == 1_700_000_000)
        // A date alone is local midnight.
        #expect(Units.parseTime("2023-11-14", now: 0, timeZone: TimeZone(identifier: "UTC")!) == 1_699_920_000)
        #expect(Units.parseTime("2h", now: 10_000) == 2_800)
        #expect(Units.parseTime("yesterday", now: 0) == nil)
        #expect(Units.parseTime("1e300d", now: 0) == nil)
        #expect(Units.parseDuration("1e300d") == nil)
        #expect(Units.parseDuration("1e308w") == nil)
    }
}
