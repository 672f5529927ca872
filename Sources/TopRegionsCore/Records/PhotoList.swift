/// A list of photos a person asks for: which photos, in which order. What regions-top lists,
/// what a served or exported page shows 30 at a time with the count and map of the whole
/// list, and what the queries read: one type for all of them.
public struct PhotoList: Sendable, Equatable {
    /// Which photos.
    public enum Kind: Sendable, Equatable {
        /// The photos of a region (its row: name, id, totals).
        case region(RegionRank)
        /// Every stored photo.
        case all
        /// The photos viewed, through photo-cache or a served page (Recents).
        case recents
        /// The photos a search finds (`query.text` as typed), in one region or all.
        case search(SearchQuery, region: RegionRank?)
    }

    public var kind: Kind
    /// nil: the list's own order: newest upload first; latest view first for Recents; best
    /// match first for a search.
    public var order: PhotoOrder?
    /// The span of upload time it keeps to; nil: every stored photo.
    public var window: TimeWindow?
    /// The part of the map it keeps to (a zoomed map's view); nil: wherever its photos are.
    public var view: GeoBox?

    public init(_ kind: Kind, order: PhotoOrder? = nil, window: TimeWindow? = nil, view: GeoBox? = nil) {
        self.kind = kind
        self.order = order
        self.window = window?.isEverything == true ? nil : window
        self.view = view
    }

    public static let all = PhotoList(.all)
    public static let recents = PhotoList(.recents)

    /// The same photos in `order`.
    public func ordered(by order: PhotoOrder?) -> PhotoList {
        PhotoList(kind, order: order, window: window, view: view)
    }

    /// The same photos in `window`.
    public func within(_ window: TimeWindow?) -> PhotoList {
        PhotoList(kind, order: order, window: window, view: view)
    }

    /// The same photos inside `view` (nil: wherever they are).
    public func viewing(_ view: GeoBox?) -> PhotoList {
        PhotoList(kind, order: order, window: window, view: view)
    }

    /// The region the list keeps to, if it keeps to one.
    public var regionID: String? {
        switch kind {
        case .region(let region): region.regionID
        case .search(_, let region): region?.regionID
        case .all, .recents: nil
        }
    }

    /// Whether each photo is shown with its region: when the list is not one region's.
    public var showsRegions: Bool {
        switch kind {
        case .region: false
        case .recents, .all: true
        case .search(_, let region): region == nil
        }
    }

    /// What names the list's count, map and its photos' row ids in order (a search's ranked
    /// matches; any other list's when it is not too long): so its order too.
    public var summaryKey: String {
        let window = (self.window.map { " " + $0.key } ?? "") + (view.map { " view " + $0.text } ?? "")
        let order = " " + (self.order?.rawValue ?? "")
        switch kind {
        case .region(let region): return "region" + order + " " + region.regionID + window
        case .all: return "all" + order + window
        case .recents: return "recents" + order + window
        case .search(let query, let region): return "search" + order + " \(region?.regionID ?? "")\(window) \(query.match)"
        }
    }
}

/// How a list of photos is ordered.
public enum PhotoOrder: String, CaseIterable, Sendable {
    /// Newest upload first (photos without an upload time last), then by id.
    case uploaded
    /// By title, case-folded and without diacritics ("émile" beside "Emile"), untitled
    /// photos last; equal titles by id.
    case title
    /// Latest view through photo-cache first, photos never viewed after them (newest
    /// upload first), then by id.
    case viewed

    /// How a page's heading says the order, after the list's name.
    public var phrase: String {
        switch self {
        case .uploaded: "newest upload first"
        case .title: "by title"
        case .viewed: "latest view first"
        }
    }
}
