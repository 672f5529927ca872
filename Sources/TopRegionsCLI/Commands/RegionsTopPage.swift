import Foundation
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

extension RegionsTop {
    /// `--format html` for photos: the page, with the stored thumbnails and links to the
    /// photos the cache holds. Thumbnails it cannot show are placeholders, said on stderr.
    func writePage(
        _ photos: [StoredPhoto], listing: HTMLPage.PhotoListing, store: Store, times: TimeFormat, sortedBy: String? = nil, _ context: ToolContext
    ) throws -> SysExit {
        let ids = photos.map(\.record.id)
        let images = HTMLPage.Images(
            thumbnails: try ThumbnailStore(store: store).bytes(of: ids), cachedFiles: cachedFiles(ids, context))
        if images.thumbnails == nil {
            context.note("the database has no thumbnail table; the page shows placeholders")
        }
        let unusable = images.unusableThumbnails(among: photos)
        if !unusable.isEmpty {
            let named = unusable.prefix(5).joined(separator: ", ") + (unusable.count > 5 ? ", ..." : "")
            context.note(
                "\(unusable.count) stored thumbnail\(unusable.count == 1 ? " is" : "s are") not an image (photo \(named)); the page shows placeholders")
        }
        context.standardOutput.write(HTMLPage.photos(photos, listing: listing, images: images, formatTime: { times.string($0) }, sortedBy: sortedBy))
        return .ok
    }

    /// The photos whose full-size file is in the photo cache, by id: absolute paths. Only
    /// looks; a cache that does not exist (or no HOME to find it) holds nothing.
    func cachedFiles(_ ids: [String], _ context: ToolContext) -> [String: String] {
        guard var directory = cacheDir ?? (try? PhotoCache.defaultDirectory(environment: context.environment)) else { return [:] }
        if !directory.hasPrefix("/") {
            directory = FileManager.default.currentDirectoryPath + "/" + directory
        }
        directory = (directory as NSString).standardizingPath
        var files: [String: String] = [:]
        for id in ids {
            let path = directory + "/" + PhotoCache.entryName(for: id)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[id] = path
            }
        }
        return files
    }
}

extension PhotoOrder {
    /// How a page's heading says the order, after the listing's name.
    var phrase: String {
        switch self {
        case .uploaded: "newest upload first"
        case .title: "by title"
        case .viewed: "latest view first"
        }
    }
}

extension RegionsTop {
    /// A page is for a browser: on a terminal it is a screenful of markup and megabytes of
    /// base64 thumbnails. As gzip refuses to write compressed data to one, regions-top
    /// refuses, before anything else happens, unless --force says to.
    func refuseAPageOnATerminal(_ context: ToolContext) throws {
        guard format == .html, context.stdoutIsTerminal, !force else { return }
        let file = recents ? "recents.html" : photos ? "all.html" : region == nil && search == nil ? "top-regions.html" : "page.html"
        throw ToolError(.usage, """
            --format html writes a page for a browser, not for a terminal: send it to a file \
            (> \(file)), or give --force to write it here anyway
            """)
    }
}

extension RegionsTop {
    /// --page-name: the name of the file the pages link this page by (`Site.files`; for a
    /// region, `HTMLPage.regionPageName`), so a page written by hand is the one its links
    /// find. Only reads, and never refreshes: a name needs no photos.
    func printPageName(_ context: ToolContext) throws -> SysExit {
        let site = Site.files
        let name: String
        if let region {
            let match = try Self.region(named: region, in: Queries(store: database.openForReading(context)))
            name = site.region(match.regionID)
        } else {
            name = recents ? site.recents() : photos ? site.all() : site.top
        }
        context.standardOutput.line(name)
        return .ok
    }
}
