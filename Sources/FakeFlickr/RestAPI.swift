/// The REST endpoint (`/services/rest/`): argument checks, the two methods the toolkit uses,
/// and Flickr's in-band errors (HTTP 200 with `"stat":"fail"`).
struct RestAPI {
    let world: World
    /// The request's API key, to quote in stat:fail messages (`FaultOptions.echoKey`).
    var quotedKey: String? = nil

    struct Reply {
        let body: String
        let contentType: String
    }

    /// Flickr's error codes and messages (flickr-api.md §4.2).
    enum Failure: Error {
        case requiredParameterMissing
        case invalidPlaceID
        case placeNotFound
        case invalidAPIKey
        case serviceUnavailable
        case formatNotFound(String)
        case methodNotFound(String)

        var code: Int {
            switch self {
            case .requiredParameterMissing: 1
            case .invalidPlaceID: 2
            case .placeNotFound: 3
            case .invalidAPIKey: 100
            case .serviceUnavailable: 105
            case .formatNotFound: 111
            case .methodNotFound: 112
            }
        }

        var message: String {
            switch self {
            case .requiredParameterMissing: "Required parameter missing"
            case .invalidPlaceID: "Not a valid Places ID"
            case .placeNotFound: "Place not found"
            case .invalidAPIKey: "Invalid API Key (Key has invalid format)"
            case .serviceUnavailable: "Service currently unavailable"
            case .formatNotFound(let format): "Format \"\(format)\" not found"
            case .methodNotFound(let method): "Method \"\(method)\" not found"
            }
        }

        /// The answer, its message quoting `key` when given: in place of the invalid-key
        /// message's reason, as Flickr words it ("Invalid API Key (the key)"), else after it.
        func json(quoting key: String?) -> String {
            var text = message
            if let key {
                if case .invalidAPIKey = self { text = "Invalid API Key (\(key))" } else { text += " (\(key))" }
            }
            var object = JSONObject()
            object.add("stat", string: "fail")
            object.add("code", number: code)
            object.add("message", string: text)
            return object.serialized
        }
    }

    /// Checks run in this order: the format first (without it there is no way to answer in
    /// kind; a request without `format` asks for Flickr's default XML "rest" format, which the
    /// fake does not speak), then the key, then the method.
    func respond(to query: QueryParameters, now: Int64, imageBaseURL: String) -> Reply {
        let format = query["format"] ?? "rest"
        guard format == "json" else { return reply(.formatNotFound(format), query) }
        guard query["api_key"] == world.options.apiKey else { return reply(.invalidAPIKey, query) }
        switch query["method"] ?? "" {
        case "flickr.photos.search":
            return reply(PhotoSearch(query).response(in: world, now: now, imageBaseURL: imageBaseURL), query)
        case "flickr.places.getInfo":
            switch placeInfo(query) {
            case .success(let body): return reply(body, query)
            case .failure(let failure): return reply(failure, query)
            }
        case let method:
            return reply(.methodNotFound(method), query)
        }
    }

    func reply(_ failure: Failure, _ query: QueryParameters) -> Reply {
        reply(failure.json(quoting: quotedKey), query)
    }

    /// Without `nojsoncallback=1` Flickr answers JSONP, errors included.
    private func reply(_ json: String, _ query: QueryParameters) -> Reply {
        if query["nojsoncallback"] == "1" {
            return Reply(body: json, contentType: "application/json; charset=utf-8")
        }
        return Reply(body: "jsonFlickrApi(\(json))", contentType: "text/javascript; charset=utf-8")
    }

    // MARK: flickr.places.getInfo

    private static let placeIDCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)

    private func placeInfo(_ query: QueryParameters) -> Result<String, Failure> {
        let place: Place?
        if let placeID = query["place_id"] {
            guard !placeID.isEmpty, placeID.utf8.allSatisfy(Self.placeIDCharacters.contains) else { return .failure(.invalidPlaceID) }
            place = world.place(id: placeID)
        } else if let woeid = query["woe_id"] {
            guard !woeid.isEmpty, woeid.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return .failure(.invalidPlaceID)
            }
            place = world.place(woeid: woeid)
        } else {
            return .failure(.requiredParameterMissing)
        }
        guard let place else { return .failure(.placeNotFound) }

        var info = JSONObject()
        info.add("place_id", string: place.id)
        info.add("woeid", string: place.woeid)
        info.add("latitude", numeral: formatDegrees(place.latitude), quoted: false)
        info.add("longitude", numeral: formatDegrees(place.longitude), quoted: false)
        info.add("place_url", string: place.placeURL)
        info.add("place_type", string: place.level.typeName)
        info.add("place_type_id", number: place.level.rawValue)
        info.add("timezone", string: place.timezone)
        info.add("name", string: place.name)
        info.add("woe_name", string: place.woeName)
        info.add("has_shapedata", number: 0)
        // The levels the place lies in, from itself up (flickr-api.md §3.2); a region-level
        // place describes itself as the region, a country-level one has no region.
        let levels: [(String, Int?)] = [
            ("neighbourhood", place.neighbourhood), ("locality", place.locality), ("county", place.county),
            ("region", place.region), ("country", place.country),
        ]
        for case (let name, let index?) in levels {
            let level = world.places[index]
            var object = JSONObject()
            object.add("_content", string: level.name)
            object.add("place_id", string: level.id)
            object.add("woeid", string: level.woeid)
            object.add("latitude", numeral: formatDegrees(level.latitude), quoted: false)
            object.add("longitude", numeral: formatDegrees(level.longitude), quoted: false)
            object.add("place_url", string: level.placeURL)
            info.add(name, object: object)
        }
        var body = JSONObject()
        body.add("place", object: info)
        body.add("stat", string: "ok")
        return .success(body.serialized)
    }
}
