import TopRegionsCache
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsSupport

/// photo-cache: what the cache directory is and holds (--info), what opening it did, and
/// --prune.
extension PhotoCacheCommand {
    /// --prune: evicts down to the cap, but for photos a photo-cache still running printed.
    static func prune(_ cache: PhotoCache, _ context: ToolContext) throws -> SysExit {
        let eviction = try cache.enforceCap()
        for entry in eviction.removed { context.trace("removed \(entry.name) (\(Units.formatSize(entry.bytes)))") }
        var said = "removed \(photos(eviction.removed))"
        if !eviction.inUse.isEmpty {
            said += "; \(photos(eviction.inUse)) printed by a photo-cache still running \(eviction.inUse.count == 1 ? "stays" : "stay")"
        }
        context.note(said)
        return .ok
    }

    /// --prune --dry-run: what --prune would remove, one NDJSON line per photo on stdout
    /// (`{"action":"remove","id":…,"bytes":…}`, least recently used first, as regions-load
    /// --dry-run lists its photos), and a summary; a directory that is not a cache is left
    /// as it is, as --info leaves it.
    func previewPrune(_ directory: String, _ context: ToolContext) throws -> SysExit {
        var eviction = PhotoCache.Eviction()
        switch try PhotoCache.ownership(of: directory) {
        case .owned, .unclaimed:
            eviction = try PhotoCache(directory: directory, capBytes: maxBytes.bytes).enforceCap(dryRun: true)
        case .missing:
            break
        case .foreign(let others):
            context.note("\(directory) is not a photo cache: it holds \(Grammar.count(others.count, "file")) the cache did not write and no CACHEDIR.TAG of topregions")
        }
        var lines = JSONWriter()
        for entry in eviction.removed {
            lines.object { o in
                o.string("action", "remove")
                o.string("id", entry.photoID)
                o.int("bytes", entry.bytes)
            }
            lines.newline()
        }
        context.standardOutput.write(lines.bytes)
        var said = "dry run: would remove \(Self.photos(eviction.removed))"
        if eviction.leftovers > 0 { said += " and \(Grammar.count(eviction.leftovers, "leftover file")) of interrupted downloads" }
        if !eviction.inUse.isEmpty {
            said += "; \(Self.photos(eviction.inUse)) printed by a photo-cache still running would stay"
        }
        context.note(said + "; nothing changed")
        return .ok
    }

    /// "2 photos (200K)".
    static func photos(_ entries: [PhotoCache.Entry]) -> String {
        "\(Grammar.count(entries.count, "photo")) (\(Units.formatSize(entries.reduce(0) { $0 + $1.bytes })))"
    }

    /// What taking over an earlier version's cache did, when it did anything.
    static func report(_ adoption: PhotoCache.Adoption, in directory: String, _ context: ToolContext) {
        if adoption.adopted > 0 {
            context.trace("took over \(Grammar.count(adoption.adopted, "photo")) of an earlier photo-cache in \(directory)")
        }
        let left = adoption.leftAlone
        if !left.isEmpty {
            let shown = left.prefix(3).joined(separator: ", ") + (left.count > 3 ? ", ..." : "")
            context.note("""
                left \(Grammar.count(left.count, "file")) named like an earlier photo-cache's photos alone in \(directory) \
                (\(shown)): beside files of others they may not be the cache's; remove them yourself if they are
                """)
        }
    }

    /// --info only looks: a directory that is not a cache (missing, or someone else's) is
    /// shown as holding no photo, and left as it is.
    func showInfo(_ directory: String, _ context: ToolContext) throws -> SysExit {
        let capBytes = maxBytes.bytes
        let info: PhotoCache.Info
        switch try PhotoCache.ownership(of: directory) {
        case .owned, .unclaimed:
            let cache = try PhotoCache(directory: directory, capBytes: capBytes)
            Self.report(cache.adoption, in: directory, context)
            info = try cache.info()
        case .missing:
            info = PhotoCache.Info(entries: [], bytes: 0, ignored: 0)
        case .foreign(let others):
            info = PhotoCache.Info(entries: [], bytes: 0, ignored: others.count)
            context.note("\(directory) is not a photo cache: it holds \(Grammar.count(others.count, "file")) the cache did not write and no CACHEDIR.TAG of topregions")
        }
        let oldest = info.entries.first
        let newest = info.entries.last
        func id(_ entry: PhotoCache.Entry) -> String { entry.photoID }
        if context.stdoutIsTerminal {
            let times = utc ? TimeFormat.utc : TimeFormat.local
            var text = "directory  \(directory)\nentries    \(info.entries.count)\n"
            text += "bytes      \(info.bytes) (\(Units.formatSize(info.bytes)))\ncap        \(capBytes) (\(Units.formatSize(capBytes)))\n"
            if let oldest, let newest {
                text += "oldest     \(id(oldest)), used \(times.string(Int64(oldest.usedAt)))\n"
                text += "newest     \(id(newest)), used \(times.string(Int64(newest.usedAt)))\n"
            }
            if info.ignored > 0 { text += "ignored    \(info.ignored) files the cache did not write\n" }
            context.standardOutput.write(text)
        } else {
            var writer = JSONWriter()
            writer.object { o in
                o.string("directory", directory)
                o.int("entries", info.entries.count)
                o.int("bytes", info.bytes)
                o.int("cap", capBytes)
                o.int("ignored", info.ignored)
                for (key, entry) in [("oldest", oldest), ("newest", newest)] {
                    guard let entry else { continue }
                    o.value(key, .object(JSONObject([
                        (key: "id", value: .string(id(entry))), (key: "bytes", value: .number(entry.bytes)),
                        (key: "used_at", value: .number(entry.usedAt)),
                    ])))
                }
            }
            writer.newline()
            context.standardOutput.write(writer.bytes)
        }
        return .ok
    }
}
