import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore

/// What a page says of its whole list: how many photos and the map of all of them (a
/// region's with its places named); for a search, its matches in order, so each page reads
/// its 30 by row id instead of ranking every match again, and for any other list of at most
/// `rowidsKeptUpTo` photos its row ids in order, so each page reads its 30 by row id
/// instead of walking past the photos before them. What regions-top's page, the
/// served pages (which keep it until the photos change) and the export compute once per list.
public struct ListSummary: Sendable {
    public var total: Int
    public var map: HTMLPage.ListMap?
    public var ranked: [Int64]?
    /// How the refreshes cover the list's window (nil: no window).
    public var coverage: Coverage?

    /// What the refreshes missed of `list`'s window, as a notice under a page's heading (at most
    /// `sentences` gaps; empty when nothing, or no window).
    public func coverageNotice(_ list: PhotoList, times: TimeFormat, sentences: Int = 3) -> String {
        guard let coverage, let window = list.window else { return "" }
        return HTMLPage.coverageNotice(coverage.sentences(for: window, times: times, limit: sentences))
    }

    /// `cap`: the list cut to its first photos (regions-top --limit): counted so, and mapped
    /// by each page's photos alone (no map of the whole list).
    public init(_ list: PhotoList, _ queries: Queries, cap: Int? = nil) throws {
        // Its count, row ids, map and coverage from one snapshot: a load committing between
        // them would otherwise make the count and the map's photos differ.
        self = try queries.store.read { _ in try Self(reading: list, queries, cap: cap) }
    }

    private init(reading list: PhotoList, _ queries: Queries, cap: Int?) throws {
        if case .search(let query, let region) = list.kind {
            // The matches and where they are in one read: the search is not made again for
            // its map.
            let matches = try queries.searchMatches(
                query, inRegion: region?.regionID, order: list.order, window: list.window, view: list.view,
                decimals: Queries.mapDecimals(of: list))
            ranked = matches.rowids
            total = matches.rowids.count
            map = try queries.listMap(of: list, positions: matches.positions)
        } else if let rowids = try queries.rowids(of: list, atMost: Self.rowidsKeptUpTo) {
            // Kept so that any page reads its photos by row id, not past those before it;
            // counted from them, so that the count and the pages agree.
            ranked = rowids
            total = rowids.count
            map = try queries.listMap(of: list)
        } else {
            total = try queries.count(of: list)
            map = try queries.listMap(of: list)
        }
        if let window = list.window {
            coverage = try queries.coverage(start: window.start, end: window.end)
        }
        if let cap, cap < total {
            total = cap
            map = nil
            ranked = ranked.map { Array($0.prefix(cap)) }
        }
    }

    /// Up to how many photos a list's row ids are kept (8 bytes each): a region's, Recents',
    /// a zoomed view's; not the whole store's, whose every page reads past the photos before
    /// it in an index.
    public static let rowidsKeptUpTo = 50_000

    /// What keeping it costs, about.
    public var bytes: Int { 64 + (map?.bytes ?? 0) + 8 * (ranked?.count ?? 0) }
}

/// One page of a list: its photos (at most `Paging.size`), with where it stands in the whole
/// list and the list's summary.
public struct ListPage: Sendable {
    public var list: PhotoList
    public var summary: ListSummary
    public var paging: Paging
    public var photos: [StoredPhoto]
}

extension Queries {
    /// Page `number` of `list`, whose summary is `summary`; nil when the list has no such
    /// page (`Paging(page: number, total: summary.total).pages` it has).
    public func page(_ number: Int, of list: PhotoList, summary: ListSummary) throws -> ListPage? {
        let paging = Paging(page: number, total: summary.total)
        guard paging.exists else { return nil }
        let count = min(Paging.size, summary.total - paging.offset)
        let photos: [StoredPhoto]
        if let ranked = summary.ranked {
            photos = try self.photos(rowids: Array(ranked[paging.offset..<min(paging.offset + count, ranked.count)]))
        } else {
            photos = count > 0 ? try self.photos(in: list, limit: count, offset: paging.offset) : []
        }
        return ListPage(list: list, summary: summary, paging: paging, photos: photos)
    }
}
