import Foundation
/// One region of the expected "top regions by distinct photographers" answer.
public struct RegionTruth: Sendable, Equatable {
    public let rank: Int
    /// The region's own place id.
    public let regionID: String
    /// The region's name as `flickr.places.getInfo` gives it, e.g. "Nova Scotia, Canada".
    public let name: String
    /// Distinct owners (NSIDs, not display names) of the counted photos in the region.
    public let photographers: Int
    public let photos: Int

    /// `{"rank":1,"region_id":"…","name":"…","photographers":N,"photos":M}`
    public var jsonLine: String {
        var object = JSONObject()
        object.add("rank", number: rank)
        object.add("region_id", string: regionID)
        object.add("name", string: name)
        object.add("photographers", number: photographers)
        object.add("photos", number: photos)
        return object.serialized
    }
}

extension World {
    /// The answer the toolkit should reach for the photos its default fetch gets: photos
    /// visible at `now`, uploaded in the last 12 hours (or between the given dates, inclusive),
    /// with a licence in `licenses` (1, 2, 4 and 7 by default), whose place has a region.
    /// Every region with at least one photographer, ordered by photographers (most first),
    /// then name with case, accents and width folded (Foundation's folding), then region id,
    /// both compared as UTF-8 bytes.
    ///
    /// Computed from the world's own tables and deliberately not through the search code, so
    /// a test comparing the two checks one against the other.
    public func groundTruth(
        now: Int64, minUploadDate: Int64? = nil, maxUploadDate: Int64? = nil, licenses: Set<Int>? = nil
    ) -> [RegionTruth] {
        let wanted = licenses ?? World.defaultLicenses
        let inWindow: (Int64) -> Bool
        if minUploadDate == nil && maxUploadDate == nil {
            inWindow = { $0 > now - World.defaultWindowSeconds && $0 <= now }
        } else {
            inWindow = { $0 >= (minUploadDate ?? .min) && $0 <= (maxUploadDate ?? .max) && $0 <= now }
        }
        var ownersByRegion: [Int: Set<Int>] = [:]
        var photosByRegion: [Int: Int] = [:]
        for photo in photos where inWindow(photo.uploaded) && wanted.contains(photo.license) {
            guard let region = regionIndex(of: photo) else { continue }
            ownersByRegion[region, default: []].insert(photo.owner)
            photosByRegion[region, default: 0] += 1
        }
        let ordered = ownersByRegion.keys.sorted { left, right in
            let (leftCount, rightCount) = (ownersByRegion[left]!.count, ownersByRegion[right]!.count)
            if leftCount != rightCount { return leftCount > rightCount }
            let folding: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
            let (leftName, rightName) = (places[left].name.folding(options: folding, locale: nil), places[right].name.folding(options: folding, locale: nil))
            if !leftName.utf8.elementsEqual(rightName.utf8) { return leftName.utf8.lexicographicallyPrecedes(rightName.utf8) }
            return places[left].id.utf8.lexicographicallyPrecedes(places[right].id.utf8)
        }
        return ordered.enumerated().map { position, region in
            RegionTruth(
                rank: position + 1, regionID: places[region].id, name: places[region].name,
                photographers: ownersByRegion[region]!.count, photos: photosByRegion[region]!)
        }
    }
}
