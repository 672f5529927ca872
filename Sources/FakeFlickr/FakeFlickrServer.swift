import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The offline Flickr as an HTTP server, for tests (in process) and for the `flickr-fake`
/// tool.
///
///     let server = try FakeFlickrServer(configuration: configuration)
///     let baseURL = try await server.start()      // "http://127.0.0.1:41234"
///     …                                            // talk to baseURL
///     try await server.stop()
///
/// Endpoints: `/services/rest/` (flickr.photos.search, flickr.places.getInfo), the image host
/// `/{server}/{id}_{secret}_{suffix}.jpg`, and the test controls under `/_fake/` (virtual
/// clock, fault settings, ground truth; see `ControlAPI`).
public final class FakeFlickrServer: Sendable {
    public let world: World
    private let configuration: FakeFlickrConfiguration
    private let state: ServerState
    private let running = Mutex<Running?>(nil)

    private struct Running {
        let group: ServiceGroup
        let task: Task<Void, any Error>
        let baseURL: String
    }

    /// Builds the world (well under a second for the default size) and opens the request log;
    /// nothing listens until `start()`.
    public init(configuration: FakeFlickrConfiguration) throws {
        try configuration.faults.validate()
        self.configuration = configuration
        world = try World(options: configuration.world)
        let log = try configuration.requestLogPath.map(RequestLog.init(path:))
        state = ServerState(world: world, faults: configuration.faults, log: log)
    }

    /// Starts listening and returns the base URL once connections are accepted.
    /// - Parameter stoppingOnTerminationSignals: stop gracefully on SIGTERM and SIGINT (for
    ///   the command-line tool; an in-process server leaves signals alone).
    public func start(stoppingOnTerminationSignals: Bool = false) async throws -> String {
        guard baseURL == nil else { throw FakeFlickrError("the server is already running") }
        var logger = Logger(label: "flickr-fake")
        logger.logLevel = .warning
        let requestedPort = configuration.port
        let (boundPorts, boundPort) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            responder: FakeFlickrResponder(state: state),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                boundPort.yield(channel.localAddress?.port ?? requestedPort)
                boundPort.finish()
            },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application],
            gracefulShutdownSignals: stoppingOnTerminationSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        // A dripping or long download must not hold a shutdown up for long.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            defer { boundPort.finish() }
            try await group.run()
        }
        var ports = boundPorts.makeAsyncIterator()
        guard let port = await ports.next() else {
            // The group ended before listening, e.g. the port is taken: report why.
            try await task.value
            throw FakeFlickrError("the server stopped before it was listening")
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let baseURL = "http://\(host):\(port)"
        running.withLock { $0 = Running(group: group, task: task, baseURL: baseURL) }
        return baseURL
    }

    /// The URL `start()` returned, while running.
    public var baseURL: String? {
        running.withLock { $0?.baseURL }
    }

    /// Stops accepting connections, lets responses in flight finish (for at most 5 seconds;
    /// one held by a latency, a drip or a trickle ends at once) and returns when the server
    /// is down.
    public func stop() async throws {
        guard let running = running.withLock({ $0 }) else { return }
        await running.group.triggerGracefulShutdown()
        try await waitUntilStopped()
    }

    /// Returns when the server has stopped, by `stop()` or by a termination signal.
    public func waitUntilStopped() async throws {
        guard let running = running.withLock({ $0 }) else { return }
        try await running.task.value
        self.running.withLock { $0 = nil }
    }

    /// The virtual clock, in Unix seconds; also `GET/POST /_fake/clock`.
    public var now: Int64 {
        state.now
    }

    /// The fault settings in force; also `GET /_fake/faults`.
    public var faults: FaultOptions {
        state.faults.options
    }

    /// Replaces every fault setting, like `POST /_fake/faults`, and forgets the attempt counts
    /// of earlier requests.
    public func replaceFaults(with options: FaultOptions) throws {
        try options.validate()
        state.faults.replace(with: options)
    }

    /// The ground truth at the current virtual time; also `GET /_fake/truth`.
    public func groundTruth(
        minUploadDate: Int64? = nil, maxUploadDate: Int64? = nil, licenses: Set<Int>? = nil
    ) -> [RegionTruth] {
        world.groundTruth(now: now, minUploadDate: minUploadDate, maxUploadDate: maxUploadDate, licenses: licenses)
    }
}
