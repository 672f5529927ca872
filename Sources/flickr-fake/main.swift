import ArgumentParser
import FakeFlickr

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct FlickrFake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr-fake",
        abstract: "A deterministic offline Flickr for tests and demos.",
        discussion: """
            Serves flickr.photos.search, flickr.places.getInfo and image downloads from a world \
            built from --seed. The first line on stdout is the base URL; it then serves until \
            SIGTERM or SIGINT. Test controls: GET/POST /_fake/clock, GET/POST /_fake/faults, \
            GET /_fake/truth, GET /_fake/received.

            Examples:
              flickr-fake --port 0
              flickr-fake --seed 7 --fail-429 0.2 --retry-after 2 --log requests.ndjson
              flickr-fake --truth --seed 7 | head -5
            """,
        // The toolkit's version; written out here because the fake shares no code with it.
        version: "0.2.0")

    /// Messages start with the tool's name, as the toolkit's do.
    static var _errorPrefix: String { "flickr-fake: " }

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0
    @Flag(help: "Print the ground truth (top regions as NDJSON) and exit without serving.")
    var truth = false
    @Option(name: .customLong("log"), help: ArgumentHelp("Write one JSON line per answered request here.", valueName: "file"))
    var logPath: String?

    @OptionGroup(title: "World")
    var world: WorldArguments
    @OptionGroup(title: "Faults")
    var faults: FaultArguments

    func serve() async throws {
        var configuration = FakeFlickrConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.world = world.options
        configuration.faults = faults.options
        configuration.requestLogPath = logPath
        do {
            if truth {
                try configuration.faults.validate()
                let world = try World(options: configuration.world)
                for region in world.groundTruth(now: configuration.world.now) {
                    print(region.jsonLine)
                }
                return
            }
            let server = try FakeFlickrServer(configuration: configuration)
            let address: String
            do {
                address = try await server.start(stoppingOnTerminationSignals: true)
            } catch let error as FakeFlickrError {
                throw error
            } catch {
                // 64, as documented (it ended 1 with the network library's words); errno's
                // words when it gave one ("Address already in use").
                let text = "\(error)"
                var reason = text.range(of: "): ").map { String(text[$0.upperBound...]) } ?? text
                if let errno = reason.range(of: " (errno") { reason = String(reason[..<errno.lowerBound]) }
                if reason.hasSuffix(")") && !reason.contains("(") { reason.removeLast() }
                throw ValidationError("cannot listen on \(host):\(port): \(reason)")
            }
            print(address)
            fflush(nil)
            try await server.waitUntilStopped()
        } catch let error as FakeFlickrError {
            throw ValidationError(error.description)
        }
    }
}

struct WorldArguments: ParsableArguments {
    @Option(help: "Builds the world: the same seed always gives the same world.")
    var seed: UInt64 = 1
    @Option(help: "Photos uploaded in the 12 hours up to --now.")
    var photos = 3000
    @Option(help: "Photos uploaded in the 6 hours after --now (visible as the clock advances).")
    var futurePhotos = 600
    @Option var photographers = 400
    @Option(help: ArgumentHelp("Photos of a surge: in the last 3 hours before --now, in one region, by new photographers, two each.", valueName: "photos"))
    var surge = 0
    @Option(help: "Regions, at most \(WorldOptions.maximumRegions).")
    var regions = 70
    @Option(help: "Places below region level per region.")
    var placesPerRegion = 4
    @Option(help: "Country-level places (places with no region).")
    var countryPlaces = 8
    @Option(help: ArgumentHelp("The initial virtual time.", valueName: "unix-seconds"))
    var now: Int64 = 1_763_800_000
    @Option(help: "The API key requests must carry.")
    var apiKey = "fake-key"
    @Option(help: ArgumentHelp("Make every large (_b) image and original exactly this many bytes.", valueName: "bytes"))
    var largeBytes: Int?

    var options: WorldOptions {
        var options = WorldOptions()
        options.seed = seed
        options.photos = photos
        options.futurePhotos = futurePhotos
        options.surge = surge
        options.photographers = photographers
        options.regions = regions
        options.placesPerRegion = placesPerRegion
        options.countryPlaces = countryPlaces
        options.now = now
        options.apiKey = apiKey
        options.largeBytes = largeBytes
        return options
    }
}

struct FaultArguments: ParsableArguments {
    @Option(name: .customLong("latency-ms"), help: "Delay every response this long.")
    var latencyMilliseconds = 0
    @Option(name: .customLong("fail-500"), help: ArgumentHelp("Fraction of requests answered HTTP 500.", valueName: "fraction"))
    var fail500 = 0.0
    @Option(name: .customLong("fail-105"), help: ArgumentHelp("Fraction of REST calls answered stat:fail 105.", valueName: "fraction"))
    var fail105 = 0.0
    @Option(name: .customLong("fail-429"), help: ArgumentHelp("Fraction of requests answered HTTP 429.", valueName: "fraction"))
    var fail429 = 0.0
    @Option(name: .customLong("retry-after"), help: ArgumentHelp("Retry-After of a 429.", valueName: "seconds"))
    var retryAfterSeconds = 1
    @Option(help: ArgumentHelp("Fraction of responses cut after about half the body.", valueName: "fraction"))
    var truncate = 0.0
    @Option(name: .customLong("drip-ms"), help: "Send bodies in ~1 KB chunks this many ms apart.")
    var dripMilliseconds = 0
    @Option(help: "Fault a request on at most its first N attempts; 0 means no limit.")
    var faultRepeat = 1
    @Option(help: "Where faults apply: rest, images or all.")
    var faultsOn = FaultScope.all
    @Option(help: ArgumentHelp(
        "Give every response in scope a body that never ends: endless (JPEG), endless-html, trickle (JPEG at 1.5 KB/s), huge-length (a 10 GiB Content-Length).",
        valueName: "kind"))
    var bodyFault: BodyFault?
    @Option(help: ArgumentHelp("Answer every request in scope with this HTTP status (400 to 599) and an HTML page.", valueName: "code"))
    var status: Int?
    @Option(help: ArgumentHelp("Redirect every request in scope here (302); {key} stands for the request's API key.", valueName: "url"))
    var redirect: String?
    @Flag(help: "Error answers quote the request's API key, as Flickr's invalid-key message and some proxies' pages do.")
    var echoKey = false

    var options: FaultOptions {
        var options = FaultOptions()
        options.latencyMilliseconds = latencyMilliseconds
        options.fail500 = fail500
        options.fail105 = fail105
        options.fail429 = fail429
        options.retryAfterSeconds = retryAfterSeconds
        options.truncate = truncate
        options.dripMilliseconds = dripMilliseconds
        options.faultRepeat = faultRepeat
        options.faultsOn = faultsOn
        options.bodyFault = bodyFault
        options.status = status
        options.redirect = redirect
        options.echoKey = echoKey
        return options
    }
}

extension FaultScope: ExpressibleByArgument {}
extension BodyFault: ExpressibleByArgument {}

// Parsed and run by hand rather than through AsyncParsableCommand: in a main.swift,
// `await FlickrFake.main()` resolves to the synchronous entry point, which refuses to run
// asynchronous commands.
do {
    try await FlickrFake.parse().serve()
} catch {
    FlickrFake.exit(withError: error)
}
