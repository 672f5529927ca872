import Foundation
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// `regions-serve --export DIR`: the site as files a browser opens from the disk, made by the
/// same page code as the served pages: the top regions, every page of each of their photo
/// lists, All and Recents, each page 30 photos with links to the pages before and after, and
/// the thumbnails the database holds embedded (no thumbnail is downloaded for it: a page of
/// files cannot ask for one when it comes on screen).
///
/// It writes only in a directory of its own: a new or empty one, or one an earlier export
/// wrote, known by its list of the pages it wrote (`manifestName`). A directory holding
/// anything else is refused, nothing written: hand-made files are never overwritten. Pages an
/// earlier export wrote that this one does not (a region no longer in the top 50) are
/// removed; nothing else is.
class SiteExport {
    let queries: Queries
    let store: Store
    let directory: String
    let times: TimeFormat
    /// The present, where the rising feed's window ends.
    let now: Int64
    /// The pages (and feeds) written so far, by name.
    private var written: [String] = []

    /// The export's list of the pages it wrote, one name a line.
    static let manifestName = ".topregions-export"

    init(queries: Queries, store: Store, directory: String, times: TimeFormat, now: Int64) {
        self.queries = queries
        self.store = store
        self.directory = directory
        self.times = times
        self.now = now
    }

    /// Writes every page and feed; returns how many of each.
    func write() throws -> (pages: Int, feeds: Int) {
        let earlier = try claimDirectory()
        var written = 0
        let top = try queries.sampledCentres(try queries.topRegions(limit: 50))
        // The heading says how many photos, uploaded when; the notice what no refresh fetched.
        try save(HTMLPage.regions(top, window: nil, end: now, queries: queries, site: .exported, times: times), as: Site.files.top)
        written += 1
        for region in top {
            let list = PhotoList(.region(region))
            let map = try writeList(list, pages: &written)
            // The parts of its map a person can look closer at (a region of more than a page
            // of photos): each quarter holding photos, with its own pages (its pages link to them).
            for quarter in Site.exported.zoomsIn(list) ? map.map(HTMLPage.zoomQuarters) ?? [] : [] {
                _ = try writeList(list.viewing(quarter), pages: &written)
            }
            // Its feed beside its pages: its newest 30 photos.
            let newest = try queries.photos(in: list, limit: Paging.size)
            try save(AtomFeed.photos(newest, list: list, links: .files(list), now: now, times: times), as: HTMLPage.regionFeedName(region.regionID))
        }
        try writeList(.all, pages: &written)
        try writeList(.recents, pages: &written)
        // The regions rising in the 24 hours to now, against the 24 hours before.
        let day = try TimeWindow("24h", end: now, endsNow: true)
        let rising = try RisingAnswer(day, queries, limit: 50, times: times)
        try save(AtomFeed.rising(rising.rows, window: day, links: .risingFiles, times: times, notes: rising.notes(times)), as: "rising.atom")
        try SafeName.writeAtomically(Array(self.written.map { $0 + "\n" }.joined().utf8), to: path(Self.manifestName))
        // What the earlier export wrote and this one did not: its own, stale.
        for name in earlier.subtracting(self.written) where Self.isPageName(name) {
            unlink(path(name))
        }
        return (written, self.written.count - written)
    }

    /// Makes sure the directory is the export's to write in; returns the pages an earlier
    /// export wrote there.
    private func claimDirectory() throws -> Set<String> {
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw Failure(.cannotCreate, "cannot create the --export directory \(directory): \(error.reason)")
        }
        let names: [String]
        do {
            names = try FileSystem.contentsOfDirectory(directory)
        } catch {
            throw Failure(.cannotCreate, "cannot read the --export directory \(directory): \(error.reason)")
        }
        var earlier: Set<String> = []
        if names.contains(Self.manifestName), let text = try? String(contentsOfFile: path(Self.manifestName), encoding: .utf8) {
            earlier = Set(text.split(separator: "\n").map(String.init).filter(Self.isPageName))
        }
        let others = names.filter { $0 != Self.manifestName && !earlier.contains($0) && !Self.isLeftover($0) }.sorted()
        guard others.isEmpty else {
            let shown = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", ..." : "")
            throw Failure(.cannotCreate, """
                will not write the site into \(directory): it holds \(Grammar.count(others.count, "file")) an earlier export did not \
                write (\(shown)); give an empty or new directory
                """)
        }
        // A page's temporary file (`<page>.html.tmp-<pid>`) left by an export that was killed:
        // removed only once the directory is known to be the site's (they went first, also
        // from a directory then refused as someone else's).
        for name in names where Self.isLeftover(name) { unlink(path(name)) }
        return earlier
    }

    /// What SafeName.writeAtomically leaves of a page when killed while writing it.
    static func isLeftover(_ name: String) -> Bool {
        if name.hasPrefix(manifestName + ".tmp-") { return true }
        guard let range = name.range(of: ".html.tmp-") ?? name.range(of: ".atom.tmp-") else { return false }
        let pid = name[range.upperBound...]
        return !pid.isEmpty && pid.allSatisfy(\.isNumber) && isPageName(String(name[..<range.upperBound].dropLast(5)))
    }

    /// A name the export gives a page or a feed: `<something>.html` or `.atom`, no directory.
    static func isPageName(_ name: String) -> Bool {
        (name.hasSuffix(".html") || name.hasSuffix(".atom")) && !name.contains("/") && !name.hasPrefix(".")
    }

    private func path(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// Every page of one list, counted in `pages`; returns its map.
    @discardableResult
    private func writeList(_ list: PhotoList, pages written: inout Int) throws -> HTMLPage.ListMap? {
        let summary = try ListSummary(list, queries)
        let pages = Paging(page: 1, total: summary.total).pages
        for number in 1...pages {
            guard let shown = try queries.page(number, of: list, summary: summary) else { break }
            let images = HTMLPage.Images(thumbnails: try ThumbnailStore(store: store).bytes(of: shown.photos.map(\.record.id)))
            let page = HTMLPage.photos(
                shown.photos, list: list, images: images, site: .exported, paging: shown.paging, map: summary.map,
                formatTime: { [times] in times.string($0) })
            try save(page, as: Site.files.link(to: list, page: number))
        }
        written += pages
        return summary.map
    }

    private func save(_ page: [UInt8], as name: String) throws {
        try SafeName.writeAtomically(page, to: path(name))
        written.append(name)
    }
}
