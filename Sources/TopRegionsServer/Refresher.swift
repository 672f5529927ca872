import Foundation
import Synchronization
import TopRegionsRefresh
import TopRegionsStore
import TopRegionsSupport

/// The refresh a person starts from a page (or the first visit to an empty database starts):
/// `flickr-recent | place-resolve | regions-load`, the three tools installed beside the
/// server, run as regions-top runs them, in the background. One at a time across processes:
/// it holds the same lock as regions-top's refresh while it runs.
final class Refresher: Sendable {
    enum State: Sendable, Equatable {
        case idle
        case running(since: Double, photosBefore: Int)
        case finished(at: Double, status: Int32, message: String, newPhotos: Int)
    }

    private let state = StateBox()
    let path: String
    let environment: [String: String]
    let apiKeyFile: String?
    let quiet: Bool
    let now: @Sendable () -> Double

    init(path: String, environment: [String: String], apiKeyFile: String?, quiet: Bool, now: @escaping @Sendable () -> Double) {
        self.path = path
        self.environment = environment
        self.apiKeyFile = apiKeyFile
        self.quiet = quiet
        self.now = now
    }

    var current: State { state.withLock { $0 } }

    /// The state, shared with the thread that runs the refresh.
    final class StateBox: Sendable {
        private let state = Mutex(State.idle)

        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// Whether a Flickr key is configured: without one there is nothing to refresh from.
    var hasKey: Bool { apiKeyFile != nil || !(environment["FLICKR_API_KEY"] ?? "").isEmpty }

    enum Start: Sendable, Equatable {
        case started
        case alreadyRunning
        /// Another process (regions-top, another server) is refreshing this database.
        case elsewhere
        case noKey
        case cannot(String)
    }

    /// Starts a refresh unless one runs; `photos` counts what is stored (for the progress).
    func start(photos: @escaping @Sendable () -> Int) -> Start {
        guard hasKey else { return .noKey }
        let stages: [ProcessPipeline.Stage]
        do {
            stages = try RefreshStages.installed(beside: "regions-serve", path: path, verbosity: quiet ? .quiet : .normal, apiKeyFile: apiKeyFile)
        } catch {
            return .cannot(error.reason)
        }
        let lock: KeyLock
        do {
            guard let held = try Store.keyLocks(for: path).tryLock(RefreshStages.lockKey) else { return .elsewhere }
            lock = held
        } catch {
            return .cannot("cannot take the refresh lock: \(error)")
        }
        let before = photos()
        let (environment, now, box, path) = (self.environment, self.now, self.state, self.path)
        let began = box.withLock { state -> Bool in
            if case .running = state { return false }
            state = .running(since: now(), photosBefore: before)
            return true
        }
        guard began else {
            lock.unlock()
            return .alreadyRunning
        }
        Thread.detachNewThread {
            defer { lock.unlock() }
            var status: Int32 = 0
            var message = "finished"
            do {
                // The last stage's output (a summary line) goes to stderr, like its progress.
                // The stages share the lock: it is held until the last of them is gone, and
                // they die with the server (as regions-top's refresh does). Each in a session
                // of its own: a load without a terminal lowers its session's CPU weight while
                // it runs, which in the server's session would be the server's, whose pages
                // are to come first.
                try RefreshStages.runAll(stages, path: path, environment: environment, lastOutput: STDERR_FILENO, sharing: lock, ownSessions: true)
            } catch let failed as RefreshStages.Failed {
                status = failed.status
                message = failed.how
            } catch {
                status = 71
                message = "the refresh could not start: \(error)"
            }
            let after = photos()
            box.withLock { $0 = .finished(at: now(), status: status, message: message, newPhotos: after - before) }
        }
        return .started
    }
}
