import CSupport
import Foundation
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsStore
import TopRegionsSupport

/// What `regions-serve` does once its command has opened the database and the photo cache:
/// serves until stopped, or writes the site as files.
public enum Serving {
    /// What serving needs besides the database and the cache.
    public struct Settings: Sendable {
        public var address: ListenAddress
        public var port: Int
        /// Names answered besides this machine's own (--allow-host).
        public var allowedHosts: [String]
        /// Thumbnail downloads at once.
        public var downloads: Int
        public var utc: Bool
        /// For the Refresh button: the database's path, the environment its stages get, the
        /// key file they are given, and whether they are quiet.
        public var databasePath: String
        public var environment: [String: String]
        public var apiKeyFile: String?
        public var quiet: Bool
        public var network: Network
        public var now: @Sendable () -> Double
        /// A notice on stderr (not with -q); a trace line (only with -v).
        public var note: @Sendable (String) -> Void
        public var trace: (@Sendable (String) -> Void)?
        /// Prints the address once listening (the first line on standard output).
        public var announce: @Sendable (String) -> Void

        public init(
            address: ListenAddress, port: Int, allowedHosts: [String], downloads: Int, utc: Bool, databasePath: String,
            environment: [String: String], apiKeyFile: String?, quiet: Bool, network: Network, now: @escaping @Sendable () -> Double,
            note: @escaping @Sendable (String) -> Void, trace: (@Sendable (String) -> Void)?, announce: @escaping @Sendable (String) -> Void
        ) {
            self.address = address
            self.port = port
            self.allowedHosts = allowedHosts
            self.downloads = downloads
            self.utc = utc
            self.databasePath = databasePath
            self.environment = environment
            self.apiKeyFile = apiKeyFile
            self.quiet = quiet
            self.network = network
            self.now = now
            self.note = note
            self.trace = trace
            self.announce = announce
        }
    }

    /// Whether the Refresh button has a Flickr key to refresh with (and so whether a database
    /// that does not exist yet may be made).
    public static func hasKey(environment: [String: String], apiKeyFile: String?) -> Bool {
        apiKeyFile != nil || !(environment["FLICKR_API_KEY"] ?? "").isEmpty
    }

    /// Serves `store` and `cache` until SIGINT or SIGTERM; throws when it cannot listen.
    public static func serve(store: Store, cache: PhotoCache?, _ settings: Settings) throws {
        // Pages are built on many threads; each of glibc's arenas (eight per core) keeps what
        // was freed in it, so 450 broad searches left the server at 98 MB with its caches
        // within 20 MB; two arenas, and large blocks mapped and given back when freed: 78 MB.
        _ = tr_malloc_arena_max(2)
        _ = tr_malloc_mmap_threshold(256 << 10)
        try store.keepWriterCacheSmall()
        let address = settings.address
        if !address.isLoopback {
            settings.note("""
                listening on \(address.text), not only on this machine: anyone who can reach it may browse the photos, \
                have this machine download full photos, and delete photos (--bind 127.0.0.1 keeps it to this machine)
                """)
        }
        let refresher = Refresher(
            path: settings.databasePath, environment: settings.environment, apiKeyFile: settings.apiKeyFile, quiet: settings.quiet,
            now: settings.now)
        let retry = RetryPolicy.from(environment: settings.environment, maxAttempts: 3)
        let server = PageServer(
            address: address, port: settings.port, allowedHosts: settings.allowedHosts,
            makeApp: { hosts in
                try ServedApp(
                    store: store, cache: cache, refresher: refresher, formToken: newToken(), hosts: hosts, downloads: settings.downloads,
                    photoLimits: DownloadLimits(maxBytes: 32 << 20, seconds: 300), thumbnailLimits: .thumbnail, network: settings.network,
                    retry: retry, times: settings.utc ? .utc : .local, now: settings.now, note: settings.note, trace: settings.trace)
            },
            announce: { url in
                settings.announce(url)
                settings.note("serving \(store.path) at \(url) (Ctrl-C stops)")
            },
            trace: settings.trace)
        try server.runUntilStopped()
        settings.note("stopped")
    }

    /// Writes the site into `directory`; returns the top page's path and how many pages.
    public static func export(store: Store, to directory: String, utc: Bool, now: Int64) throws -> (top: String, pages: Int, feeds: Int) {
        let export = SiteExport(queries: Queries(store: store), store: store, directory: directory, times: utc ? .utc : .local, now: now)
        let written = try export.write()
        return ((directory as NSString).appendingPathComponent(Site.files.top), written.pages, written.feeds)
    }

    /// A token no other page can guess: 128 random bits, in hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(8) }.joined()
    }
}

extension ListenAddress {
    /// Whether this machine can listen on the address: a loopback one, every address, or one
    /// of its interfaces'.
    public var isThisMachines: Bool {
        isLoopback || isWildcard || MachineIdentity.interfaceAddresses().contains(HostCheck.addressLiteral(hostLiteral) ?? hostLiteral)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
