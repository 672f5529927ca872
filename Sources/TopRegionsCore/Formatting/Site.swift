import Foundation
import TopRegionsRecords
import TopRegionsSupport

/// Where a page's links lead and what it may load: the one difference between the pages
/// `regions-top --format html` writes as files and the pages `regions-serve` serves, which
/// are otherwise made by the same code.
///
/// - `files`: self-contained pages that load nothing (thumbnails embedded as data: URIs) and
///   link to each other by file name in one directory (`regionPageName`).
/// - `served`: pages of a running `regions-serve`, whose thumbnails are images the browser
///   asks for when they come on screen (`loading="lazy"`), and whose forms carry the
///   server's token.
public struct Site: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case files
        case served
    }

    public let kind: Kind
    /// The token every form of a served page carries; the server refuses a POST without it.
    public let formToken: String
    /// The span of upload time a served page keeps to, as its address says it (`?window=24h`),
    /// carried by its links to the top regions, regions, All and search; nil: none said.
    public private(set) var window: String?
    /// Whether the feeds of its pages are there to link: served, and exported (written beside
    /// the pages); not a page `regions-top --format html` writes alone.
    public private(set) var hasFeeds: Bool
    /// Whether its pages offer what changes the database (Refresh, Delete, Prune): not on a
    /// database the server cannot write.
    public private(set) var canChange = true

    public init(kind: Kind, formToken: String) {
        self.kind = kind
        self.formToken = formToken
        self.hasFeeds = kind == .served
    }

    public static let files = Site(kind: .files, formToken: "")

    /// Files written with their feeds beside them (`regions-serve --export`).
    public static let exported: Site = {
        var site = Site.files
        site.hasFeeds = true
        return site
    }()

    public static func served(formToken: String) -> Site {
        Site(kind: .served, formToken: formToken)
    }

    /// The same site, offering changes or not.
    public func changing(_ canChange: Bool) -> Site {
        var site = self
        site.canChange = canChange
        return site
    }

    /// The same site, its links carrying `window` (served pages only).
    public func windowed(_ window: String?) -> Site {
        var site = self
        site.window = isServed ? window : nil
        return site
    }

    public var isServed: Bool { kind == .served }

    /// Files: no script and nothing fetched (images only from data: URIs). Served: no
    /// script, images from the server itself, forms only to it. (Never being framed can be
    /// said only in the HTTP header, which the server adds: a <meta> policy ignores it.)
    public var contentSecurityPolicy: String {
        switch kind {
        case .files:
            "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; form-action 'none'"
        case .served:
            "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; form-action 'self'"
        }
    }

    // MARK: Links

    /// The top regions.
    public var top: String { isServed ? "/" + query(page: 1) : "top-regions.html" }

    /// The top regions in another window ("all" for every stored photo).
    public func top(window: String) -> String { windowed(window).top }

    /// A region's photos in another window.
    public func region(_ regionID: String, window: String) -> String { windowed(window).region(regionID) }

    /// A region's feed (served pages: its window carried; files: beside its page).
    public func feed(regionID: String) -> String {
        isServed ? "/feeds/regions/" + HTMLPage.percentEncoded(regionID) + query(page: 1) : HTMLPage.regionFeedName(regionID)
    }

    /// The rising regions' feed in `window`.
    public func risingFeed(window: String) -> String {
        isServed ? "/feeds/rising?window=" + HTMLPage.percentEncoded(window) : "rising.atom"
    }

    /// Rising regions in `window` (served pages only).
    public func rising(window: String) -> String { "/rising?window=" + HTMLPage.percentEncoded(window) }

    /// Every stored photo (inside `view`, when given: served pages only).
    public func all(page: Int = 1, sort: String? = nil, view: GeoBox? = nil) -> String {
        isServed ? "/all" + query(page: page, sort: sort, view: view) : HTMLPage.listPageName("all", page: page)
    }

    /// Recently viewed photos (inside `view`, when given: served pages only).
    public func recents(page: Int = 1, view: GeoBox? = nil) -> String {
        isServed ? "/recents" + query(page: page, view: view) : HTMLPage.listPageName("recents", page: page)
    }

    /// A region's photos (inside `view`, when given: a zoomed map's).
    public func region(_ regionID: String, page: Int = 1, sort: String? = nil, view: GeoBox? = nil) -> String {
        isServed
            ? "/regions/" + HTMLPage.percentEncoded(regionID) + query(page: page, sort: sort, view: view)
            : HTMLPage.regionPageName(regionID, page: page, view: view)
    }

    /// Photos a search found (served pages only: a file cannot search).
    public func search(_ text: String, regionID: String? = nil, page: Int = 1, view: GeoBox? = nil) -> String {
        var pairs = [("q", text)]
        if let regionID { pairs.append(("region", regionID)) }
        if let window { pairs.append(("window", window)) }
        if let view { pairs.append(("bbox", view.text)) }
        if page > 1 { pairs.append(("page", String(page))) }
        return "/search?" + pairs.map { "\($0)=\(HTMLPage.percentEncoded($1))" }.joined(separator: "&")
    }

    /// One photo's page (served pages only).
    public func photo(_ photoID: String) -> String { "/photos/" + HTMLPage.percentEncoded(photoID) }

    /// A photo's full image, through the photo cache (served pages only).
    public func image(_ photoID: String) -> String { "/photos/" + HTMLPage.percentEncoded(photoID) + ".jpg" }

    /// A photo's square thumbnail, fetched once when first asked for (served pages only).
    public func thumbnail(_ photoID: String) -> String { "/thumbs/" + HTMLPage.percentEncoded(photoID) + ".jpg" }

    /// The list's link, on `page` (in its order, inside its view).
    public func link(to list: PhotoList, page: Int) -> String {
        let sort = list.order?.rawValue
        switch list.kind {
        case .region(let region): return self.region(region.regionID, page: page, sort: sort, view: list.view)
        case .recents: return recents(page: page, view: list.view)
        case .all: return all(page: page, sort: sort, view: list.view)
        case .search(let query, let region):
            // A file cannot search: its pages are named as the other lists' are.
            return isServed ? search(query.text, regionID: region?.regionID, page: page, view: list.view) : HTMLPage.listPageName("search", page: page)
        }
    }

    /// Whether a page of `list` offers to zoom its map into a part of it: served pages
    /// always (down to `GeoBox.smallest`); files only from the whole map of a region with
    /// more photos than one page shows (a page of fewer has each of them as a pin), to the
    /// quarters `regions-serve --export` writes beside it.
    public func zoomsIn(_ list: PhotoList) -> Bool {
        if isServed { return true }
        guard hasFeeds, case .region(let region) = list.kind else { return false }
        return list.view == nil && region.photos > Paging.size
    }

    private func query(page: Int, sort: String? = nil, view: GeoBox? = nil) -> String {
        var pairs: [String] = []
        if let window { pairs.append("window=" + HTMLPage.percentEncoded(window)) }
        if let sort, sort != "uploaded" { pairs.append("sort=" + HTMLPage.percentEncoded(sort)) }
        if let view { pairs.append("bbox=" + view.text) }
        if page > 1 { pairs.append("page=\(page)") }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }
}

/// Which slice of a long list a page shows: Flickr's terms allow at most 30 of its users'
/// photos on one page, so every list of photos is shown 30 at a time, with links to the
/// pages before and after.
public struct Paging: Sendable, Equatable {
    /// Photos on one page, at most (Flickr API Terms of Use).
    public static let size = 30

    /// 1-based.
    public var page: Int
    /// Photos in the whole list.
    public var total: Int

    public init(page: Int, total: Int) {
        self.page = page
        self.total = total
    }

    /// How many pages the list has (an empty list has one, saying it is empty).
    public var pages: Int { max(1, (total + Self.size - 1) / Self.size) }
    /// The offset of the page's first photo in the list.
    public var offset: Int { (page - 1) * Self.size }
    /// Whether the page is one the list has.
    public var exists: Bool { page >= 1 && page <= pages }
}
