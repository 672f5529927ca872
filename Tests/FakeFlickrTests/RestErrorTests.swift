import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("REST errors and JSONP")
struct RestErrorTests {
    @Test("a missing or wrong API key is code 100, in-band with HTTP 200")
    func invalidKey() async throws {
        try await RunningFake.with { fake in
            let expected = #"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#
            let wrong = try await Curl.get(fake.rest([("method", "flickr.photos.search")], apiKey: "not-the-key"), ["--write-out", "\n%{http_code}"])
            #expect(wrong.text == expected + "\n200")
            let missing = try await Curl.get("\(fake.baseURL)/services/rest/?method=flickr.photos.search&format=json&nojsoncallback=1")
            #expect(missing.text == expected)
        }
    }

    @Test("an unknown method is code 112, an unknown format code 111")
    func unknownMethodAndFormat() async throws {
        try await RunningFake.with { fake in
            let method = try await Curl.get(fake.rest([("method", "flickr.photos.getRecent")]))
            #expect(method.text == #"{"stat":"fail","code":112,"message":"Method \"flickr.photos.getRecent\" not found"}"#)
            let format = try await Curl.get(fake.rest([("method", "flickr.photos.search")], format: "xml"))
            #expect(format.text == #"{"stat":"fail","code":111,"message":"Format \"xml\" not found"}"#)
            let noFormat = try await Curl.get(fake.rest([("method", "flickr.photos.search")], format: nil))
            #expect(noFormat.text == #"{"stat":"fail","code":111,"message":"Format \"rest\" not found"}"#)
        }
    }

    @Test("without nojsoncallback=1 every answer, errors included, is wrapped as jsonFlickrApi(...)")
    func jsonp() async throws {
        try await RunningFake.with { fake in
            let bare = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("per_page", "5")]))
            let wrapped = try await Curl.get(fake.rest([("method", "flickr.photos.search"), ("per_page", "5")], noCallback: false))
            #expect(wrapped.text == "jsonFlickrApi(" + bare.text + ")")
            let error = try await Curl.get(fake.rest([("method", "flickr.nope")], noCallback: false))
            #expect(error.text == #"jsonFlickrApi({"stat":"fail","code":112,"message":"Method \"flickr.nope\" not found"})"#)
            let badKey = try await Curl.get(fake.rest([("method", "flickr.photos.search")], noCallback: false, apiKey: "x"))
            #expect(badKey.text.hasPrefix("jsonFlickrApi({\"stat\":\"fail\",\"code\":100,"))
        }
    }

    @Test("the endpoint answers with and without its trailing slash, whatever the parameter order")
    func pathAndOrder() async throws {
        try await RunningFake.with { fake in
            let key = fake.apiKey
            let a = try await Curl.get("\(fake.baseURL)/services/rest/?method=flickr.photos.search&per_page=7&format=json&nojsoncallback=1&api_key=\(key)")
            let b = try await Curl.get("\(fake.baseURL)/services/rest?api_key=\(key)&nojsoncallback=1&format=json&per_page=7&method=flickr.photos.search")
            #expect(a.body == b.body)
            #expect(try jsonObject(a.body)["stat"] as? String == "ok")
        }
    }
}
