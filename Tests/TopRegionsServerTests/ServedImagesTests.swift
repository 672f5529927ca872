import Foundation
import Testing
import TopRegionsCache
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsStore
import TopRegionsTestSupport

/// Thumbnails and photos as the served pages ask for them, in process: fetched when asked
/// for, once ever, and stored where thumb-get and photo-cache find them (the network's log
/// says what Flickr was asked).
@Suite struct ServedImagesTests {
    typealias Fixture = ServedFixture

    /// The first `count` photos of the top region, newest first.
    static func photos(_ fixture: Fixture, _ count: Int) throws -> [StoredPhoto] {
        let top = try #require(try fixture.queries.topRegions(limit: 1).first)
        return try fixture.queries.photos(in: PhotoList(.region(top)), limit: count)
    }

    @Test func aThumbnailIsFetchedOnlyWhenAskedForAndOnceEver() async throws {
        let fixture = try Fixture()
        let photos = try Self.photos(fixture, 3)
        let ids = photos.map(\.record.id)
        // The 150 px square beside the record's 75 px one, each answered once.
        let urls = try photos.map { try Fixture.thumbnailURL($0) }
        for (index, url) in urls.enumerated() {
            fixture.network.answer(url, headers: ["content-type": "image/jpeg"], body: Fixture.jpeg(2_000, fill: UInt8(index + 1)))
        }
        let regionID = try #require(photos[0].record.regionID)
        try await fixture.serve { client in
            _ = try await client.get("/regions/\(regionID)")
            #expect(fixture.network.requests.isEmpty, "a page alone asks Flickr for nothing")
            // Another site's <img> makes the server ask Flickr for nothing either (it made it
            // download the thumbnail, or the full photo into the person's cache).
            for path in ["/thumbs/\(ids[0]).jpg", "/photos/\(ids[0]).jpg"] {
                let crossSite = try await client.get(path, headers: ["Sec-Fetch-Site": "cross-site"])
                #expect(crossSite.status == 403, "\(path)")
            }
            #expect(fixture.network.requests.isEmpty)

            let first = try await client.get("/thumbs/\(ids[0]).jpg", headers: ["Sec-Fetch-Site": "same-origin"])
            #expect(first.status == 200 && first.header("Content-Type") == "image/jpeg")
            #expect(first.body == Fixture.jpeg(2_000, fill: 1))
            #expect(first.header("Cache-Control")?.contains("immutable") == true)
            let again = try await client.get("/thumbs/\(ids[0]).jpg")
            #expect(again.body == first.body)
            #expect(fixture.network.requests == [urls[0]])

            // Eight browsers at once on the same two new thumbnails: each fetched once.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask { try await client.get("/thumbs/\(ids[1 + index % 2]).jpg").status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
        }
        #expect(fixture.network.requests.sorted() == urls.sorted())
        // thumb-get finds them in the database: the server stored them as thumb-get would.
        let nothingAnswered = MemoryNetwork()
        let stored = try Thumbnails(store: fixture.store).thumbnails(
            for: ids, photos: Dictionary(uniqueKeysWithValues: zip(ids, photos)), parallel: 1, now: { 0 },
            makeDownloader: { try Downloader(network: nothingAnswered.network, retry: RetryPolicy(), now: { 0 }) })
        #expect(stored == [
            ids[0]: .found(Fixture.jpeg(2_000, fill: 1), downloaded: false), ids[1]: .found(Fixture.jpeg(2_000, fill: 2), downloaded: false),
            ids[2]: .found(Fixture.jpeg(2_000, fill: 3), downloaded: false),
        ])
        #expect(nothingAnswered.requests.isEmpty)
    }

    @Test func viewingAPhotoCachesItOnceAndPutsItAtTheTopOfRecents() async throws {
        let fixture = try Fixture()
        let photos = try Self.photos(fixture, 2)
        let ids = photos.map(\.record.id)
        let urls = try photos.map { try #require($0.record.photoURL) }
        for (index, url) in urls.enumerated() {
            fixture.network.answer(url, headers: ["content-type": "image/jpeg"], body: Fixture.jpeg(20_000, fill: UInt8(index + 1)))
        }
        try await fixture.serve { client in
            for (index, id) in ids.enumerated().reversed() {
                let page = try await client.get("/photos/\(id)")
                #expect(page.status == 200)
                #expect(page.text.contains("<img src=\"/photos/\(id).jpg\""))
                #expect(page.text.contains("href=\"https://www.flickr.com/photos/"))
                let image = try await client.get("/photos/\(id).jpg")
                #expect(image.status == 200 && image.header("Content-Type") == "image/jpeg")
                #expect(image.body == Fixture.jpeg(20_000, fill: UInt8(index + 1)))
                #expect(try await client.get("/photos/\(id).jpg").body == image.body)
            }
            #expect(fixture.network.requests == urls.reversed(), "each photo downloaded once")
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.cacheDirectory).filter { $0.hasSuffix(".jpg") }.count == 2)
            // The latest viewed first, in Recents here and then for regions-top (views are
            // written beside the pages: Recents writes those still waiting first).
            let recents = try await client.get("/recents")
            #expect(Fixture.cards(recents.text) == ids)
            #expect(try fixture.queries.photos(in: .recents, limit: nil).map(\.record.id) == ids)
        }
        // photo-cache finds it cached: no download.
        let nothingAnswered = MemoryNetwork()
        let cache = try PhotoCache(directory: fixture.cacheDirectory, capBytes: PhotoCache.defaultCap)
        let outcome = try cache.ensure(
            photoID: ids[0], url: urls[0], downloader: try Downloader(network: nothingAnswered.network, retry: RetryPolicy(), now: { 0 }),
            limits: DownloadLimits(maxBytes: 32 << 20, seconds: 300), now: 0)
        guard case .hit = outcome else {
            Issue.record("photo-cache downloaded it again: \(outcome)")
            return
        }
        #expect(nothingAnswered.requests.isEmpty)
    }
}
