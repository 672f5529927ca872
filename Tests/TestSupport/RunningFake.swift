import FakeFlickr
import Foundation

/// A world small enough to build and page through quickly, yet with every feature: more than
/// 50 regions, counties, country places, photos without places.
public func smallWorld(seed: UInt64 = 7) -> WorldOptions {
    var options = WorldOptions()
    options.seed = seed
    options.photos = 700
    options.futurePhotos = 150
    options.photographers = 120
    options.regions = 60
    return options
}

/// An in-process fake on a free port, and URL builders for talking to it with curl.
public struct RunningFake: Sendable {
    public let server: FakeFlickrServer
    public let baseURL: String
    public let apiKey: String

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or not.
    public static func with<T>(
        world: WorldOptions = smallWorld(),
        faults: FaultOptions = FaultOptions(),
        requestLogPath: String? = nil,
        _ body: (RunningFake) async throws -> T
    ) async throws -> T {
        var configuration = FakeFlickrConfiguration()
        configuration.world = world
        configuration.faults = faults
        configuration.requestLogPath = requestLogPath
        let server = try FakeFlickrServer(configuration: configuration)
        let baseURL = try await server.start()
        let fake = RunningFake(server: server, baseURL: baseURL, apiKey: world.apiKey)
        do {
            let result = try await body(fake)
            try await server.stop()
            return result
        } catch {
            try await server.stop()
            throw error
        }
    }

    /// A REST URL with the toolkit's usual suffix (JSON, no callback, the key), the given
    /// parameters first.
    public func rest(_ parameters: [(String, String)], format: String? = "json", noCallback: Bool = true, apiKey: String? = nil)
        -> String
    {
        var all = parameters
        if let format { all.append(("format", format)) }
        if noCallback { all.append(("nojsoncallback", "1")) }
        all.append(("api_key", apiKey ?? self.apiKey))
        return "\(baseURL)/services/rest/?" + all.map { "\($0)=\(queryEscaped($1))" }.joined(separator: "&")
    }

    /// `flickr.photos.search` with the given parameters; returns the `photos` object.
    public func search(_ parameters: [(String, String)]) async throws -> [String: Any] {
        let response = try await Curl.json(rest([("method", "flickr.photos.search")] + parameters))
        guard response["stat"] as? String == "ok", let photos = response["photos"] as? [String: Any] else {
            throw TestFailure("search failed: \(response)")
        }
        return photos
    }

    /// Every photo of a search, following pages until `pages`, deduplicated by id (pages
    /// overlap by one photo by design). Also returns how many pages were read.
    public func searchAllPages(_ parameters: [(String, String)], perPage: Int = 500) async throws -> (photos: [[String: Any]], pages: Int) {
        var seen: Set<String> = []
        var photos: [[String: Any]] = []
        var page = 1
        var pageCount = 1
        while page <= pageCount {
            let result = try await search(parameters + [("per_page", String(perPage)), ("page", String(page))])
            pageCount = try intValue(result["pages"])
            for photo in result["photo"] as? [[String: Any]] ?? [] where seen.insert(photo["id"] as! String).inserted {
                photos.append(photo)
            }
            page += 1
        }
        return (photos, pageCount)
    }

    public func placeInfo(_ placeID: String) async throws -> [String: Any] {
        try await Curl.json(rest([("method", "flickr.places.getInfo"), ("place_id", placeID)]))
    }

    public func control(_ path: String) -> String {
        "\(baseURL)/_fake/\(path)"
    }
}

public func queryEscaped(_ value: String) -> String {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+")
    return value.addingPercentEncoding(withAllowedCharacters: allowed)!
}

/// Flickr's numbers come as JSON numbers or as numeric strings; both read as Int here.
public func intValue(_ value: Any?) throws -> Int {
    if let string = value as? String {
        guard let number = Int(string) else { throw TestFailure("not a numeric string: \(string)") }
        return number
    }
    if let number = value as? NSNumber { return number.intValue }
    throw TestFailure("not a number or numeric string: \(String(describing: value))")
}

/// A temporary file path, removed by the caller when it matters.
public func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
}
