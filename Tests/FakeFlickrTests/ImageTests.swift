@testable import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("Image downloads")
struct ImageTests {
    static let jfifStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]

    /// One photo offering every size the checks need, as its search result shows it.
    static func samplePhoto(_ fake: RunningFake) async throws -> [String: Any] {
        let response = try await fake.search([("extras", "original_format,url_sq,url_q,url_l,url_o"), ("per_page", "50")])
        let photos = try #require(response["photo"] as? [[String: Any]])
        return try #require(photos.first { $0["url_l"] != nil && $0["url_o"] != nil })
    }

    @Test("images are JPEG-framed, sized per rendition, with a matching Content-Length")
    func renditions() async throws {
        try await RunningFake.with { fake in
            let photo = try await Self.samplePhoto(fake)
            var sizes: [String: Int] = [:]
            for (extra, range) in [("sq", 1536...4096), ("q", 4096...8192), ("l", 153_600...614_400), ("o", 153_600...Int.max)] {
                let image = try await Curl.download(photo["url_\(extra)"] as! String)
                #expect(image.status == 200)
                #expect(image.headers["content-type"] == "image/jpeg")
                #expect(image.headers["content-length"] == String(image.body.count))
                #expect(Array(image.body.prefix(Self.jfifStart.count)) == Self.jfifStart)
                #expect(Array(image.body.suffix(2)) == [0xFF, 0xD9])
                #expect(range.contains(image.body.count), "url_\(extra): \(image.body.count) bytes")
                sizes[extra] = image.body.count
            }
            #expect(sizes["o"]! >= sizes["l"]!)
        }
    }

    /// The frame's size if `bytes` is a well-formed baseline JPEG: SOI, length-delimited
    /// segments up to SOS, entropy-coded data without a bare 0xFF, and EOI as the last two
    /// bytes. Browsers decode the fake's images (the HTML pages' browser test proves it);
    /// this checks the structure byte by byte.
    static func baselineFrame(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var position = 2
        var frame: (width: Int, height: Int)?
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { return nil }
            if marker == 0xC0 {
                let s = position + 4
                frame = (Int(bytes[s + 3]) << 8 | Int(bytes[s + 4]), Int(bytes[s + 1]) << 8 | Int(bytes[s + 2]))
            }
            position += 2 + length
            if marker == 0xDA {
                // Scan data: 0xFF only as 0xFF 0x00 until the EOI marker that ends the file.
                while position < bytes.count - 2 {
                    if bytes[position] == 0xFF {
                        guard bytes[position + 1] == 0x00 else { return nil }
                        position += 1
                    }
                    position += 1
                }
                return position == bytes.count - 2 && bytes.suffix(2) == [0xFF, 0xD9] ? frame : nil
            }
        }
        return nil
    }

    @Test("images are real baseline JPEGs with the rendition's dimensions, whatever their length")
    func decodableImages() async throws {
        var world = smallWorld()
        world.largeBytes = 3 * 65_535 + 1_000
        try await RunningFake.with(world: world) { fake in
            let photo = try await Self.samplePhoto(fake)
            for extra in ["sq", "q", "l", "o"] {
                let image = try await Curl.download(photo["url_\(extra)"] as! String)
                let frame = Self.baselineFrame([UInt8](image.body))
                #expect(frame != nil, "url_\(extra) is not a well-formed JPEG")
                if extra == "sq" { #expect(frame! == (75, 75)) }
                if extra == "q" { #expect(frame! == (150, 150)) }
                if extra == "l" { #expect(max(frame!.width, frame!.height) == 1024) }
            }
        }
        // Lengths around the shortest a picture fits in and around a full comment segment:
        // fill bytes or comment segments pad exactly, never a segment shorter than its header.
        let shortest = JPEGFiller.header.count + JPEGFiller(length: 10_000, seed: 7, width: 8, height: 8).tail.count
        let edges = [0, 1, 2, 3, 4, 5, 65_535, 65_536, 65_537, 65_538, 65_539, 2 * 65_535 + 3]
        #expect(JPEGFiller(length: shortest - 1, seed: 7, width: 8, height: 8).tail == JPEGFiller.trailer)
        for length in edges.map({ shortest + $0 }) {
            let filler = JPEGFiller(length: length, seed: 7, width: 8, height: 8)
            let bytes = [UInt8](filler.bytes(in: 0..<length).readableBytesView)
            #expect(bytes.count == length)
            #expect(Self.baselineFrame(bytes).map { $0 == (8, 8) } == true, "length \(length)")
            // Any range is the same bytes as the whole.
            let middle = [UInt8](filler.bytes(in: 100..<(length - 50)).readableBytesView)
            #expect(middle == Array(bytes[100..<(length - 50)]))
        }
    }

    @Test("the same seed gives the same bytes on two servers; another seed gives other bytes")
    func deterministicBytes() async throws {
        let (urls, firstBytes) = try await RunningFake.with { fake in
            let photo = try await Self.samplePhoto(fake)
            let paths = ["url_sq", "url_l", "url_o"].map { ($0, (photo[$0] as! String).replacingOccurrences(of: fake.baseURL, with: "")) }
            var bytes: [Data] = []
            for (_, path) in paths { bytes.append(try await Curl.download(fake.baseURL + path).body) }
            return (paths.map(\.1), bytes)
        }
        try await RunningFake.with { fake in
            for (path, expected) in zip(urls, firstBytes) {
                let again = try await Curl.download(fake.baseURL + path)
                #expect(again.body == expected, "\(path)")
            }
        }
        try await RunningFake.with(world: smallWorld(seed: 8)) { fake in
            let photo = try await Self.samplePhoto(fake)
            let other = try await Curl.download(photo["url_l"] as! String)
            #expect(other.body != firstBytes[1])
        }
    }

    @Test("unknown photos, wrong secrets, servers or suffixes, and photos not uploaded yet are 404")
    func notFound() async throws {
        let world = smallWorld()
        try await RunningFake.with(world: world) { fake in
            let photo = try await Self.samplePhoto(fake)
            let (id, secret, server) = (photo["id"] as! String, photo["secret"] as! String, photo["server"] as! String)
            let originalSecret = photo["originalsecret"] as! String
            let base = fake.baseURL
            let wrongServer = server == "65535" ? "1234" : "65535"
            for path in [
                "/\(server)/99999999999_\(secret)_b.jpg", "/\(server)/\(id)_0000000000_b.jpg", "/\(server)/\(id)_\(secret)_x.jpg",
                "/\(wrongServer)/\(id)_\(secret)_b.jpg", "/\(server)/\(id)_\(secret)_o.jpg", "/\(server)/\(id)_\(originalSecret)_b.jpg",
                "/\(server)/\(id)_\(secret)_b.png", "/favicon.ico",
            ] {
                let response = try await Curl.download(base + path)
                #expect(response.status == 404, "\(path)")
            }

            // A photo from the future exists only once the clock has passed its upload time.
            let later = Int(world.now) + 6 * 3600
            _ = try await Curl.post(fake.control("clock?set=\(later)"))
            let future = try await fake.search([("min_upload_date", String(world.now + 1)), ("extras", "url_sq")])
            let futureURL = try #require((future["photo"] as? [[String: Any]])?.first?["url_sq"] as? String)
            _ = try await Curl.post(fake.control("clock?set=\(world.now)"))
            #expect(try await Curl.download(futureURL).status == 404)
            _ = try await Curl.post(fake.control("clock?set=\(later)"))
            #expect(try await Curl.download(futureURL).status == 200)
        }
    }

    @Test("--large-bytes makes every large image exactly that size, streamed")
    func largeBytes() async throws {
        var world = smallWorld()
        world.largeBytes = 41_943_040
        try await RunningFake.with(world: world) { fake in
            let photo = try await Self.samplePhoto(fake)
            let image = try await Curl.download(photo["url_l"] as! String)
            #expect(image.status == 200)
            #expect(image.body.count == 41_943_040)
            #expect(image.headers["content-length"] == "41943040")
            #expect(Array(image.body.prefix(Self.jfifStart.count)) == Self.jfifStart)
            #expect(Array(image.body.suffix(2)) == [0xFF, 0xD9])
            let small = try await Curl.download(photo["url_sq"] as! String)
            #expect((1536...4096).contains(small.body.count), "--large-bytes leaves small sizes alone")
        }
    }
}
