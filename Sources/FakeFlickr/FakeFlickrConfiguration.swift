/// How the fake world is built. Equal options give an identical world: photos, places,
/// names, image bytes and fault decisions all derive from `seed`.
public struct WorldOptions: Sendable, Equatable {
    public var seed: UInt64 = 1
    /// Photos uploaded in the 12 hours up to and including `now`.
    public var photos = 3000
    /// Photos uploaded in the 6 hours after `now`: they appear as the virtual clock advances.
    public var futurePhotos = 600
    public var photographers = 400
    /// Photos of a surge (a festival, an eclipse): uploaded in the last 3 hours before `now`
    /// in one region of middling popularity, by new photographers, two photos each, who
    /// photograph nowhere else; rising regions find it. 0: none.
    public var surge = 0
    public var regions = 70
    /// Places below region level (localities, neighbourhoods, a county) per region; every
    /// region also has its own region-level place.
    public var placesPerRegion = 4
    /// Country-level places photos can be attached to; they have no region.
    public var countryPlaces = 8
    /// The initial virtual time, in Unix seconds.
    public var now: Int64 = 1_763_800_000
    public var apiKey = "fake-key"
    /// When set, every `_b` (large) image and every original is exactly this many bytes.
    public var largeBytes: Int?

    public init() {}

    /// The times the virtual clock can show: Unix seconds from 1970 to the end of year 9999.
    public static let validTimes: ClosedRange<Int64> = 0...253_402_300_799

    /// The size of the built-in region list, the most `regions` can be.
    public static var maximumRegions: Int { RegionCatalog.regions.count }
    /// The size of the built-in country list, the most `countryPlaces` can be.
    public static var maximumCountryPlaces: Int { RegionCatalog.countries.count }

    /// Throws a message naming the command-line flag when an option is out of range.
    public func validate() throws(FakeFlickrError) {
        try require(photos >= 0, "--photos must be 0 or more")
        try require(futurePhotos >= 0, "--future-photos must be 0 or more")
        try require((0...100_000).contains(surge), "--surge must be between 0 and 100000")
        try require(photographers >= 1, "--photographers must be at least 1")
        try require((1...Self.maximumRegions).contains(regions), "--regions must be between 1 and \(Self.maximumRegions)")
        try require(placesPerRegion >= 0, "--places-per-region must be 0 or more")
        try require(
            (0...Self.maximumCountryPlaces).contains(countryPlaces),
            "--country-places must be between 0 and \(Self.maximumCountryPlaces)")
        try require(Self.validTimes.contains(now), "--now must be Unix seconds between 0 and \(Self.validTimes.upperBound)")
        try require(!apiKey.isEmpty, "--api-key must not be empty")
        if let largeBytes {
            try require(largeBytes >= JPEGFiller.minimumLength, "--large-bytes must be at least \(JPEGFiller.minimumLength)")
        }
    }
}

/// Which responses the fault switches (latency and drip included) apply to.
public enum FaultScope: String, Sendable, CaseIterable {
    case rest, images, all
}

/// A response body that misbehaves without end, for testing that clients bound their
/// downloads. Each applies to every response in scope (`faultsOn`), every attempt.
public enum BodyFault: String, Sendable, CaseIterable, Equatable {
    /// 200, image/jpeg, no Content-Length: a JPEG header, then bytes for ever, fast.
    case endless
    /// 200, text/html, no Content-Length: an HTML page that never ends.
    case endlessHTML = "endless-html"
    /// 200, image/jpeg, no Content-Length: a JPEG header, then 1.5 KB a second for ever
    /// (just above a 1 KB/s stall threshold, so only a total time limit ends it).
    case trickle
    /// 200, image/jpeg, announcing a Content-Length of 10 GiB, then bytes for ever.
    case hugeLength = "huge-length"
}

/// Injected misbehaviour. Fractions are probabilities in [0, 1], decided per request by a
/// hash of (seed, request key, attempt number), so a run is reproducible.
public struct FaultOptions: Sendable, Equatable {
    /// Delay before every response in scope, faulted or not.
    public var latencyMilliseconds = 0
    public var fail500 = 0.0
    public var fail105 = 0.0
    public var fail429 = 0.0
    /// The `Retry-After` header of a 429.
    public var retryAfterSeconds = 1
    /// Announce the full Content-Length, send about half the body, close the connection.
    public var truncate = 0.0
    /// When above 0, every body in scope goes out in ~1 KB chunks this many ms apart.
    public var dripMilliseconds = 0
    /// A request may be faulted on at most its first N attempts; 0 means no limit.
    public var faultRepeat = 1
    public var faultsOn = FaultScope.all
    /// When set, every response in scope gets this body instead of its own.
    public var bodyFault: BodyFault?
    /// When set, every response in scope is this HTTP status (400…599) with an HTML page.
    public var status: Int?
    /// When set, every response in scope redirects (302) here; `{key}` in it stands for the
    /// API key the request carried.
    public var redirect: String?
    /// Error answers quote the API key the request carried, as Flickr's invalid-key message
    /// and some proxies' pages do: stat:fail messages ("Invalid API Key (the key)"), HTML
    /// error pages.
    public var echoKey = false

    public init() {}

    /// Throws a message naming the command-line flag when a setting is out of range.
    public func validate() throws(FakeFlickrError) {
        for (name, fraction) in [("fail-500", fail500), ("fail-105", fail105), ("fail-429", fail429), ("truncate", truncate)] {
            try require((0...1).contains(fraction), "--\(name) must be a fraction between 0 and 1")
        }
        try require(latencyMilliseconds >= 0, "--latency-ms must be 0 or more")
        try require(retryAfterSeconds >= 0, "--retry-after must be 0 or more")
        try require(dripMilliseconds >= 0, "--drip-ms must be 0 or more")
        try require(faultRepeat >= 0, "--fault-repeat must be 0 or more")
        if let status { try require((400...599).contains(status), "--status must be an HTTP error status, 400 to 599") }
        try require(
            [bodyFault != nil, status != nil, redirect != nil].filter { $0 }.count <= 1,
            "give at most one of --body-fault, --status and --redirect")
    }
}

/// Everything a `FakeFlickrServer` needs.
public struct FakeFlickrConfiguration: Sendable {
    /// The address to listen on; loopback by default so a test never exposes the fake.
    public var host = "127.0.0.1"
    /// 0 picks a free port; `FakeFlickrServer.start()` returns the URL with the real one.
    public var port = 0
    public var world = WorldOptions()
    public var faults = FaultOptions()
    /// When set, one JSON line per answered request is written here (the file is replaced).
    public var requestLogPath: String?

    public init() {}
}

public struct FakeFlickrError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FakeFlickrError) {
    if !condition { throw FakeFlickrError(message()) }
}
