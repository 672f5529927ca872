import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore

/// An empty answer is said on stderr, in the words its page uses (not with -q), so that a
/// table that is only its header, or a pipe that carries nothing, is no mystery. Standard
/// output keeps its shape whatever the answer (a table's and a CSV's header line, no NDJSON
/// line, an empty FeatureCollection): what reads it finds the same columns either way.
extension RegionsTop {
    /// Why a photo listing is empty, and for a search, the search it may have meant.
    static func noPhotos(_ list: PhotoList, times: TimeFormat, queries: Queries) throws -> String {
        var said = noPhotos(list, times: times)
        if case .search(let query, _) = list.kind, let mended = try queries.mendedSearch(query.text) {
            said += "; did you mean \"\(mended)\"?"
        }
        return said
    }

    /// Why a photo listing is empty: none in its window, or none at all.
    static func noPhotos(_ list: PhotoList, times: TimeFormat) -> String {
        if let window = list.window, list.kind != .recents {
            let what = switch list.kind {
            case .region(let region): "no photo of \(region.name) (id \(region.regionID)) was"
            case .search(let query, let region): "no photo matching \"\(query.text)\"" + (region.map { " in \($0.name)" } ?? "") + " was"
            default: "no photo was"
            }
            return what + " " + window.uploadedPhrase(times)
        }
        return switch list.kind {
        case .region(let region):
            "no photo of \(region.name) (id \(region.regionID)) is stored (any more)"
        case .recents:
            "no photo has been viewed yet: photo-cache ID views one"
        case .all:
            "no photo is stored yet"
        case .search(let query, let region):
            "no photo matches \"\(query.text)\" in title, description, photographer or region" + (region.map { ", in \($0.name)" } ?? "")
        }
    }

    /// Why no region is ranked or listed: none has photos in the window, no photo at all, or
    /// none with a region yet.
    static func noRegions(_ queries: Queries, window: TimeWindow? = nil, times: TimeFormat = .utc) throws -> String {
        if let window, try queries.hasPhotos() { return "no region has photos \(window.phrase(times))" }
        return try queries.hasPhotos() ? "no region has photos yet: the photos stored have no region yet (place-resolve --pending looks their places up)" : "no photo is stored yet"
    }
}
