import Foundation
import Testing
@testable import TopRegionsCLI
import TopRegionsHTTP
import TopRegionsTestSupport

/// What the commands make of Flickr's answers, run in this process against canned answers
/// (`MemoryNetwork` in the context): exact output, statuses, and the request log that says
/// what was asked, and how often.
@Suite struct FlickrAnswersInProcessTests {
    static let key = "0123456789abcdef0123456789abcdef"
    static let api = "http://flickr.test/services/rest/"
    static let environment = ["FLICKR_API_KEY": key, "FLICKR_API_BASE": api]

    /// The URL the client asks for `method` with `parameters`, key included.
    static func call(_ method: String, _ parameters: String) -> String {
        "\(api)?method=\(method)&\(parameters)&format=json&nojsoncallback=1&api_key=\(key)"
    }

    /// A key Flickr refuses (error 100), in a message that quotes it: status 78 at the first
    /// call, no retry, one line on stderr that says so without the key, nothing on stdout.
    @Test func aRefusedKeyStopsAtOnceAndIsNeverShown() throws {
        let directory = TemporaryDirectory()
        let network = MemoryNetwork()
        let search = Self.call(
            "flickr.photos.search",
            "has_geo=1&license=1,2,4,7&extras=original_format,description,geo,date_upload,owner_name,license,url_sq,url_l&sort=date-posted-asc&per_page=500&page=1")
        network.answer(search, json: #"{"stat":"fail","code":100,"message":"Invalid API Key (Key not found: \#(Self.key))"}"#)

        let run = CommandTests.run(FlickrRecent.self, ["--db", directory.file("t.db")], environment: Self.environment, network: network.network)
        #expect(run.status == 78)
        #expect(run.stdout == "")
        #expect(run.stderr == "flickr-recent: flickr.photos.search: Flickr error 100: Invalid API Key (Key not found: [API key]); check FLICKR_API_KEY or --api-key-file\n")
        #expect(network.requests == [search])
    }

    /// Each place is looked up once, whatever the number of its photos, and the answer goes
    /// on every record of the place; a place Flickr gives no region (a country) passes
    /// through without one, and is remembered: a second run asks nothing.
    @Test func eachPlaceIsAskedOnceAndItsAnswerKept() throws {
        let directory = TemporaryDirectory()
        let network = MemoryNetwork()
        let halifax = Self.call("flickr.places.getInfo", "place_id=P1")
        let canada = Self.call("flickr.places.getInfo", "place_id=P2")
        network.answer(halifax, json: #"{"place":{"place_id":"P1","woe_name":"Halifax","latitude":44.6,"longitude":-63.5,"region":{"place_id":"R1","_content":"Nova Scotia, Canada","latitude":45,"longitude":-63}},"stat":"ok"}"#)
        network.answer(canada, json: #"{"place":{"place_id":"P2","woe_name":"Canada","latitude":56,"longitude":-106},"stat":"ok"}"#)
        let records = [
            #"{"id":"1","owner":"a@N01","owner_name":"","title":"","description":"","place_id":"P1","uploaded":1699990000"#,
            #"{"id":"2","owner":"b@N01","owner_name":"","title":"","description":"","place_id":"P1","uploaded":1699990100"#,
            #"{"id":"3","owner":"a@N01","owner_name":"","title":"","description":"","place_id":"P2","uploaded":1699990200"#,
        ]
        let input = records.map { $0 + "}\n" }.joined()
        let arguments = ["--db", directory.file("t.db")]
        let region = #","region_id":"R1","region":"Nova Scotia, Canada"}"#
        let expected = records[0] + region + "\n" + records[1] + region + "\n" + records[2] + "}\n"

        let first = CommandTests.run(PlaceResolve.self, arguments, input: input, environment: Self.environment, network: network.network)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == expected)
        #expect(first.stderr == "place-resolve: 3 records, 2 places known, 2 looked up\n")
        #expect(network.requests.sorted() == [halifax, canada].sorted())

        let again = CommandTests.run(PlaceResolve.self, arguments, input: input, environment: Self.environment, network: network.network)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == expected)
        #expect(network.requests.count == 2, "a place known is never asked again")
    }

    /// A thumbnail the server does not have (404) is said on stderr and ends the run with
    /// 69; the others are printed with their size. Each URL is asked once; a second run
    /// finds the stored thumbnail in the database and asks only for the missing one.
    @Test func aMissingThumbnailIsSaidAndTheOthersPrinted() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.db")
        let records = (1...2).map {
            #"{"id":"\#($0)","owner":"a@N01","place_id":"P1","region_id":"R1","region":"Alpha, X","uploaded":1699990000,"thumb_url":"http://images.test/\#($0)_s.jpg"}"#
        }.joined(separator: "\n") + "\n"
        #expect(CommandTests.run(RegionsLoad.self, ["--db", db], input: records).status == 0)
        let network = MemoryNetwork()
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 60) + [0xFF, 0xD9]
        network.answer("http://images.test/1_s.jpg", status: 404, headers: ["content-type": "text/html"], body: Array("<h1>Not Found</h1>".utf8))
        network.answer("http://images.test/2_s.jpg", headers: ["content-type": "image/jpeg"], body: jpeg)
        network.answer("http://images.test/1_s.jpg", status: 404, headers: ["content-type": "text/html"], body: Array("<h1>Not Found</h1>".utf8))
        let asked = #"{"id":"1"}"# + "\n" + #"{"id":"2"}"# + "\n"

        let first = CommandTests.run(ThumbGet.self, ["--db", db], input: asked, network: network.network)
        #expect(first.status == 69)
        #expect(first.stdout == #"{"id":"2","thumb_bytes":66}"# + "\n")
        #expect(first.stderr == "thumb-get: photo 1: thumbnail download failed: HTTP 404\n")
        #expect(network.requests.sorted() == ["http://images.test/1_s.jpg", "http://images.test/2_s.jpg"])

        let again = CommandTests.run(ThumbGet.self, ["--db", db], input: asked, network: network.network)
        #expect(again.status == 69)
        #expect(again.stdout == first.stdout)
        #expect(again.stderr == first.stderr)
        #expect(network.requests.sorted() == ["http://images.test/1_s.jpg", "http://images.test/1_s.jpg", "http://images.test/2_s.jpg"])
    }
}
