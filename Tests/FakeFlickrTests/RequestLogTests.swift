import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("Request log")
struct RequestLogTests {
    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try jsonObject(Data($0.utf8)) }
    }

    @Test("one line per answered request, with what was asked and what was sent, never the key")
    func contents() async throws {
        let logPath = temporaryPath("requests.ndjson")
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        var world = smallWorld()
        world.apiKey = "s3cret-KEY-42"
        try await RunningFake.with(world: world, requestLogPath: logPath) { fake in
            let search = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("extras", "url_sq,geo"), ("per_page", "3")]))
            let photo = try #require((try jsonObject(search.body)["photos"] as? [String: Any])?["photo"] as? [[String: Any]]).first!
            let imagePath = (photo["url_sq"] as! String).replacingOccurrences(of: fake.baseURL, with: "")
            let image = try await Curl.get(photo["url_sq"] as! String)
            let missing = try await Curl.get("\(fake.baseURL)/65535/1_2_s.jpg")
            _ = try await Curl.get(fake.control("clock"))
            let info = try await Curl.get(fake.rest([("method", "flickr.places.getInfo"), ("place_id", "unknown.place")]))
            try fake.server.replaceFaults(with: { var faults = FaultOptions(); faults.truncate = 1; return faults }())
            let cut = try await Curl.run(["--output", "/dev/null", "--write-out", "%{size_download}", fake.rest([("method", "flickr.photos.search")])])
            #expect(cut.exitCode == 18)
            try fake.server.replaceFaults(with: { var faults = FaultOptions(); faults.fail429 = 1; faults.dripMilliseconds = 1; return faults }())
            _ = try await Curl.get(photo["url_sq"] as! String)

            let lines = try Self.lines(logPath)
            #expect(lines.count == 6, "the /_fake request is not logged")
            #expect(lines.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5, 6])

            #expect(lines[0]["kind"] as? String == "rest" && lines[0]["method"] as? String == "flickr.photos.search")
            #expect(lines[0]["path"] as? String == "/services/rest/")
            let parameters = try #require(lines[0]["params"] as? [String: String])
            #expect(parameters == [
                "method": "flickr.photos.search", "extras": "url_sq,geo", "per_page": "3", "format": "json", "nojsoncallback": "1",
            ])
            #expect(lines[0]["status"] as? Int == 200 && lines[0]["bytes"] as? Int == search.body.count)
            #expect(lines[0]["fault"] as? String == "none" && lines[0]["attempt"] as? Int == 1)

            #expect(lines[1]["kind"] as? String == "image" && lines[1]["method"] == nil)
            #expect(lines[1]["path"] as? String == imagePath && (lines[1]["params"] as? [String: String])?.isEmpty == true)
            #expect(lines[1]["status"] as? Int == 200 && lines[1]["bytes"] as? Int == image.body.count)
            #expect(lines[2]["status"] as? Int == 404 && lines[2]["bytes"] as? Int == missing.body.count)
            #expect(lines[3]["method"] as? String == "flickr.places.getInfo" && lines[3]["bytes"] as? Int == info.body.count)

            #expect(lines[4]["fault"] as? String == "truncated" && lines[4]["status"] as? Int == 200)
            #expect(lines[4]["bytes"] as? Int == Int(cut.text), "bytes is what was really sent")
            #expect(lines[5]["fault"] as? String == "http429" && lines[5]["status"] as? Int == 429)
            #expect(lines[5]["attempt"] as? Int == 1, "new fault settings start attempts afresh")
        }
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(!text.contains("s3cret-KEY-42") && !text.contains("api_key"))
    }

    @Test("attempts count repeats of one request; a dripped response says so")
    func attemptsAndDrip() async throws {
        let logPath = temporaryPath("requests.ndjson")
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        var faults = FaultOptions()
        faults.dripMilliseconds = 1
        try await RunningFake.with(faults: faults, requestLogPath: logPath) { fake in
            for _ in 1...3 { _ = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("per_page", "2")])) }
            _ = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("per_page", "2")], apiKey: "another-key"))
            let lines = try Self.lines(logPath)
            #expect(lines.map { $0["attempt"] as? Int } == [1, 2, 3, 4])
            #expect(lines.allSatisfy { $0["fault"] as? String == "drip" })
        }
    }
}
