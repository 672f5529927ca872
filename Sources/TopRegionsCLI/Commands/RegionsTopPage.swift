import Foundation
import TopRegionsCache
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

extension RegionsTop {
    /// `--format html` for photos: the page, with the stored thumbnails and links to the
    /// photos the cache holds. Thumbnails it cannot show are placeholders, said on stderr.
    ///
    /// A page shows 30 photos at most (Flickr's terms): the list's `--page` (the first by
    /// default), with links to the pages before and after by their file names, and the
    /// count and the map of the whole list. `--limit` makes the list its first N photos.
    func writePage(_ list: PhotoList, queries: Queries, store: Store, times: TimeFormat, saidEmpty: Bool, _ context: ToolContext) throws -> SysExit {
        // Recents are the 50 latest views unless --limit says otherwise, as in every format.
        let cap = limit ?? (list == .recents ? 50 : nil)
        let summary = try ListSummary(list, queries, cap: cap)
        guard let shown = try queries.page(page ?? 1, of: list, summary: summary) else {
            let paging = Paging(page: page ?? 1, total: summary.total)
            throw ToolError(.noInput, "--page \(paging.page): the list has \(paging.pages) page\(paging.pages == 1 ? "" : "s") of \(Paging.size) photos")
        }
        if summary.total == 0 && !saidEmpty { context.note(try Self.noPhotos(list, times: times, queries: queries)) }
        let photos = shown.photos
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
        let stored = list == .all ? try queries.photoCount() : nil
        var html = HTMLPage.photos(
            photos, list: list, images: images, paging: shown.paging, map: summary.map, stored: stored,
            formatTime: { times.string($0) }, times: times)
        // What the refreshes missed of its window, under its heading, as the served page says it.
        let notice = summary.coverageNotice(list, times: times, sentences: context.isVerbose ? .max : 3)
        if !notice.isEmpty { html = HTMLPage.inserting(notice, afterHeaderOf: html) }
        context.standardOutput.write(html)
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
            name = site.region(match.regionID, page: page ?? 1)
        } else {
            name = recents ? site.recents(page: page ?? 1) : photos ? site.all(page: page ?? 1) : site.top
        }
        context.standardOutput.line(name)
        return .ok
    }
}
