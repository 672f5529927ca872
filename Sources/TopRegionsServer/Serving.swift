import Foundation
import TopRegionsCLI
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsStore
import TopRegionsSupport

/// What `regions-serve` does once its options are read: opens the database and the photo
/// cache, then serves until stopped.
public enum Serving {
    /// Makes `RegionsServe` serve (the executable calls this before `RegionsServe.main()`).
    public static func install() {
        RegionsServe.server.withLock { $0 = { command, context in try run(command, context) } }
    }

    static func run(_ command: RegionsServe, _ context: ToolContext) throws -> SysExit {
        if let directory = command.export {
            return try export(command, to: directory, context)
        }
        let address = ListenAddress.resolve(command.bind)!
        // Checked before anything is said or opened: a warning about what an address exposes
        // is no use when the server cannot listen there.
        if !address.isLoopback, !address.isWildcard,
           !MachineIdentity.interfaceAddresses().contains(HostCheck.addressLiteral(address.hostLiteral) ?? address.hostLiteral) {
            throw ToolError(.unavailable, "cannot listen on \(address.url(port: command.port)): \(address.text) is not an address of this machine")
        }
        context.network.loadInBackground()
        defer { context.network.awaitLoading() }
        let refresher = Refresher(
            path: try Store.resolvePath(option: command.database.db, environment: context.environment), environment: context.environment,
            apiKeyFile: command.apiKeyFile, quiet: context.verbosity == .quiet, now: context.now)
        // With a Flickr key, a new database is made and filled on the first visit.
        let store = try command.database.open(context, create: refresher.hasKey)
        context.trace("database \(store.path)")
        let directory = try command.cacheDir ?? PhotoCache.defaultDirectory(environment: context.environment)
        let cache = try PhotoCache(directory: directory, capBytes: command.maxBytes.bytes)
        context.trace("photo cache \(cache.directory), at most \(command.maxBytes)")
        if !address.isLoopback {
            context.note("""
                listening on \(address.text), not only on this machine: anyone who can reach it may browse the photos, \
                have this machine download full photos, and delete photos (--bind 127.0.0.1 keeps it to this machine)
                """)
        }
        let retry = RetryPolicy.from(environment: context.environment, maxAttempts: 3)
        let (parallel, utc, port) = (command.parallel, command.utc, command.port)
        let server = PageServer(
            address: address, port: port, allowedHosts: command.allowHost,
            makeApp: { hosts in
                try ServedApp(
                    store: store, cache: cache, refresher: refresher, formToken: newToken(), hosts: hosts, downloads: parallel,
                    photoLimits: DownloadLimits(maxBytes: 32 << 20, seconds: 300), thumbnailLimits: .thumbnail, network: context.network, retry: retry,
                    times: utc ? .utc : .local, now: context.now, note: { context.note($0) }, trace: context.tracer)
            },
            announce: { url in
                context.standardOutput.line(url)
                context.standardOutput.flush()
                context.note("serving \(store.path) at \(url) (Ctrl-C stops)")
            },
            trace: context.tracer)
        try server.runUntilStopped()
        context.note("stopped")
        return .ok
    }

    static func export(_ command: RegionsServe, to directory: String, _ context: ToolContext) throws -> SysExit {
        let store = try command.database.openForReading(context)
        let export = SiteExport(queries: Queries(store: store), store: store, directory: directory, times: command.utc ? .utc : .local)
        let pages = try export.write()
        context.standardOutput.line((directory as NSString).appendingPathComponent(Site.files.top))
        context.note("wrote \(pages) page\(pages == 1 ? "" : "s") into \(directory)")
        return .ok
    }

    /// A token no other page can guess: 128 random bits, in hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(8) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
