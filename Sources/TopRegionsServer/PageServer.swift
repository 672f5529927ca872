import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TopRegionsHTTP
import TopRegionsSupport

/// The HTTP server around `ServedApp`: listens, says where, and stops gracefully on SIGINT
/// or SIGTERM (requests under way are finished first).
struct PageServer {
    let address: ListenAddress
    let port: Int
    /// Names given with --allow-host, answered besides this machine's own.
    let allowedHosts: [String]
    /// Makes the app once the port is known (the Host names it answers to include it).
    let makeApp: @Sendable (HostCheck) throws -> ServedApp
    let announce: @Sendable (String) -> Void
    let trace: (@Sendable (String) -> Void)?

    /// Serves until a termination signal; throws when it cannot listen.
    func runUntilStopped() throws {
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await run()
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0! }.get()
    }

    /// How long a request's head may take to arrive (and a kept-alive connection may wait
    /// for its next request).
    static let headerSeconds = 10

    /// The connections served at once, at most; one more is answered 503.
    let connections = ConnectionLimit.forThisProcess()

    private func run() async throws {
        var logger = Logger(label: "regions-serve")
        logger.logLevel = .critical
        let app = AppSlot()
        let failure = Mutex<(any Error)?>(nil)
        let (makeApp, announce, address, allowedHosts, connections) = (self.makeApp, self.announce, self.address, self.allowedHosts, self.connections)
        let responder = ServeResponder(app: app)
        let application = Application(
            responder: responder,
            server: GuardedHTTP1Channel.builder(connections: connections, headerTimeout: .seconds(Int64(Self.headerSeconds))),
            configuration: ApplicationConfiguration(address: .hostname(address.text, port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                do {
                    let made = try makeApp(HostCheck(address: address, port: port, allowed: allowedHosts))
                    app.set(made)
                    announce(address.openableURL(port: port))
                } catch {
                    failure.withLock { $0 = error }
                    kill(getpid(), SIGTERM)
                }
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Requests under way get `graceSeconds` to finish once a stop is asked; then the
        // downloads still running are ended (a slow image server held the stop up for the
        // download's 300 s), which ends their requests, and the server exits.
        let stopper = Self.stopDownloadsAfterGrace()
        defer { stopper.cancel() }
        configuration.maximumGracefulShutdownDuration = .seconds(Int64(Self.graceSeconds + 5))
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            if let failure = failure.withLock({ $0 }) { throw failure }
            throw Self.listening(error, address: address, port: port)
        }
        if let failure = failure.withLock({ $0 }) { throw failure }
        if app.get() == nil {
            throw Failure(.unavailable, "cannot listen on \(address.url(port: port))")
        }
        CurlSession.stopAll()
        await app.get()?.blocking.shutdown()
        await app.get()?.reads.shutdown()
        app.get()?.views?.close()
    }

    /// How long requests under way may go on after SIGINT or SIGTERM.
    static let graceSeconds = 10

    /// On SIGINT or SIGTERM (beside the service group's own handling of them), ends every
    /// download `graceSeconds` later.
    static func stopDownloadsAfterGrace() -> SignalSources {
        let queue = DispatchQueue(label: "regions-serve stop")
        let sources = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for source in sources {
            source.setEventHandler {
                queue.asyncAfter(deadline: .now() + .seconds(graceSeconds)) { CurlSession.stopAll() }
            }
            source.resume()
        }
        return SignalSources(sources)
    }

    /// Why the server could not listen, in words.
    static func listening(_ error: any Error, address: ListenAddress, port: Int) -> Failure {
        let text = "\(error)"
        let reason: String
        if text.contains("Address already in use") {
            reason = "port \(port) is taken (--port 0 picks a free one)"
        } else if text.contains("Cannot assign requested address") {
            reason = "\(address.text) is not an address of this machine"
        } else if text.contains("Permission denied") {
            reason = "permission denied (ports below 1024 need privileges)"
        } else {
            reason = text
        }
        return Failure(.unavailable, "cannot listen on \(address.url(port: port)): \(reason)")
    }
}

/// Hands each request to the app (made once the port is known).
struct ServeResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let app: AppSlot

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard let app = app.get() else {
            return Responses.text(.serviceUnavailable, "Starting; try again in a moment.\n")
        }
        return await app.respond(to: request)
    }
}

/// The app, once made.
final class AppSlot: Sendable {
    private let app = Mutex<ServedApp?>(nil)

    func set(_ made: ServedApp) { app.withLock { $0 = made } }
    func get() -> ServedApp? { app.withLock { $0 } }
}

/// Several signal sources cancelled together.
final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
