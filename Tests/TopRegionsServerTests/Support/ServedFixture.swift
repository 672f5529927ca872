import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TopRegionsCache
import TopRegionsHTTP
import TopRegionsRecords
@testable import TopRegionsServer
import TopRegionsStore
import TopRegionsTestSupport

/// `regions-serve`'s app in process, as its command makes it, over a database loaded from
/// Tests/Fixtures/photos.ndjson (3,040 photos, most with a region) and a network in memory:
/// each request goes to the app as Hummingbird's router test framework hands it over, without
/// a socket. What only a socket or a process shows (Host headers, slow and excess connections,
/// signals, another process's write lock, the server's size) stays in ServeEndToEndTests.
final class ServedFixture: Sendable {
    /// When the photos were stored (seconds since 1970), and the clock's start.
    static let storedAt: Int64 = 1_800_000_000

    let directory = TemporaryDirectory()
    var db: String { directory.file("photos.db") }
    var cacheDirectory: String { directory.file("cache") }
    let store: Store
    let queries: Queries
    let network = MemoryNetwork()
    let app: ServedApp
    /// The app's clock, which a test may move on.
    let clock = Shared<Double>(Double(storedAt))
    /// What the app said on stderr (notes).
    let notes = Shared<[String]>([])

    init() throws {
        store = try Store.open(path: directory.file("photos.db"))
        _ = try Loader(writer: PhotoWriter(store: store), options: LoadOptions())
            .load([.file(Tools.fixtures.appendingPathComponent("photos.ndjson").path)], now: Self.storedAt) { _ in }
        queries = Queries(store: store)
        let cache = try PhotoCache(directory: directory.file("cache"), capBytes: 10 << 20, claim: true)
        let (clock, notes) = (self.clock, self.notes)
        let now: @Sendable () -> Double = { clock.value }
        let refresher = Refresher(path: directory.file("photos.db"), environment: [:], apiKeyFile: nil, quiet: true, now: now)
        app = try ServedApp(
            store: store, cache: cache, refresher: refresher, formToken: Self.formToken,
            hosts: HostCheck(address: ListenAddress.parse("127.0.0.1")!, port: 80), downloads: 4,
            photoLimits: DownloadLimits(maxBytes: 32 << 20, seconds: 300), thumbnailLimits: .thumbnail, network: network.network,
            retry: RetryPolicy.from(environment: [:], maxAttempts: 1), times: .utc, now: now,
            note: { note in notes.change { $0.append(note) } }, trace: nil)
    }

    /// The form token of this app's pages (a served app makes 128 random bits of its own).
    static let formToken = "0123456789abcdef0123456789abcdef"

    /// Runs `body` with a client of the app, then stops the app's workers as the server does.
    func serve<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws -> T {
        let slot = AppSlot()
        slot.set(app)
        let application = Application(responder: ServeResponder(app: slot))
        let result: T
        do {
            result = try await application.test(.router) { client in try await body(Client(client: client)) }
        } catch {
            await stop()
            throw error
        }
        await stop()
        return result
    }

    private func stop() async {
        await app.blocking.shutdown()
        await app.reads.shutdown()
        app.views?.close()
    }

    /// One answer, its body as bytes and as text.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        func get(_ uri: String, headers: [String: String] = [:]) async throws -> Answer {
            try await request(uri, method: .get, headers: headers)
        }

        /// A form's POST, as a browser sends it.
        func post(_ uri: String, form: String, headers: [String: String] = [:]) async throws -> Answer {
            var headers = headers
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            return try await request(uri, method: .post, headers: headers, body: ByteBuffer(string: form))
        }

        func request(_ uri: String, method: HTTPRequest.Method, headers: [String: String] = [:], body: ByteBuffer? = nil) async throws -> Answer {
            var fields = HTTPFields()
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            let response = try await client.executeRequest(uri: uri, method: method, headers: fields, body: body)
            return Answer(status: Int(response.status.code), headers: response.headers, body: Array(buffer: response.body))
        }
    }

    // MARK: What the pages are checked against

    /// What the store holds after loading the fixture, read apart from the toolkit.
    static let recount = FixtureRecount()

    /// How many photos the fixture stores.
    static var stored: Int { recount.regionOfPhoto.count }

    /// The thumbnail URL the server asks for: the record's 75 px one made 150 px. Written here
    /// rather than taken from `Thumbnails.sharper`, so the request log is checked against what
    /// the test expects, not against what the code under test computes.
    static func thumbnailURL(_ photo: StoredPhoto) throws -> String {
        try #require(photo.record.thumbURL?.replacingOccurrences(of: "_s.jpg", with: "_q.jpg"))
    }

    /// The ids of the photos on a served page (its cards), in order.
    static func cards(_ html: String) -> [String] {
        PageText.attributes("id", in: html).filter { $0.hasPrefix("photo-") }.map { String($0.dropFirst(6)) }
    }

    /// A JPEG's first and last bytes around `count - 5` zeros: what an image server answers.
    static func jpeg(_ count: Int, fill: UInt8 = 0) -> [UInt8] {
        [0xFF, 0xD8, 0xFF] + [UInt8](repeating: fill, count: count - 5) + [0xFF, 0xD9]
    }
}

/// A value shared between the test and the app's threads.
final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    init(_ value: Value) {
        state = Mutex(value)
    }

    var value: Value { state.withLock { $0 } }

    func change(_ body: (inout Value) -> Void) {
        state.withLock { body(&$0) }
    }
}
