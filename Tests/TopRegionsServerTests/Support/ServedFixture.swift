import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TopRegionsCache
import TopRegionsHTTP
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

    /// The fixture's photos as written (an independent reading: JSONSerialization).
    nonisolated(unsafe) static let records: [[String: Any]] = {
        let text = try! String(contentsOf: Tools.fixtures.appendingPathComponent("photos.ndjson"), encoding: .utf8)
        return text.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }()

    /// Each stored photo's region, read from the fixture as regions-load stores it: the last
    /// record of an id wins; a record without a region is in the region another record gives
    /// its place; a country-level place, or none, is in no region.
    static let regionOfPhoto: [String: String] = {
        var regionOfPlace: [String: String] = [:]
        for record in records {
            if let region = record["region_id"] as? String, let place = record["place_id"] as? String { regionOfPlace[place] = region }
        }
        var regions: [String: String] = [:]
        for record in records {
            let id = record["id"] as! String
            regions[id] = record["region_id"] as? String ?? (record["place_id"] as? String).flatMap { regionOfPlace[$0] }
        }
        return regions
    }()

    /// Each region's photos and distinct photographers, counted from the fixture.
    static let regionCounts: [String: (photos: Int, photographers: Int)] = {
        var owner: [String: String] = [:]
        for record in records { owner[record["id"] as! String] = record["owner"] as? String }
        var photos: [String: Int] = [:]
        var owners: [String: Set<String>] = [:]
        for (id, region) in regionOfPhoto {
            photos[region, default: 0] += 1
            owners[region, default: []].insert(owner[id]!)
        }
        return photos.mapValues { ($0, 0) }.merging(owners.mapValues { (0, $0.count) }) { ($0.photos, $1.photographers) }
    }()

    /// The ids of the region's photos in the fixture.
    static func ids(inRegion regionID: String) -> Set<String> {
        Set(regionOfPhoto.filter { $0.value == regionID }.keys)
    }

    /// The ids of the photos on a served page (its cards), in order.
    static func cards(_ html: String) -> [String] {
        attributes("id", in: html).filter { $0.hasPrefix("photo-") }.map { String($0.dropFirst(6)) }
    }

    static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The values of `attribute` in `html`, in order.
    static func attributes(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
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
