import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore

extension Queries {
    /// The map of every photo of `list`, for each of its pages (`HTMLPage.ListMap`): a
    /// region's photos placed to 3 decimals (about 100 m) with its places named, other lists'
    /// to 1 (they span the world). One function for regions-top's pages and regions-serve's.
    /// `positions`, when already read (a search's, with its matches), are not read again.
    public func listMap(of list: PhotoList, positions known: [MapSpot]? = nil) throws -> HTMLPage.ListMap? {
        var places: [HTMLPage.PlaceLabel] = []
        if case .region(let region) = list.kind {
            places = try self.places(inRegion: region.regionID).map { HTMLPage.PlaceLabel(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) }
        }
        let positions = try known ?? self.positions(of: list, decimals: Self.mapDecimals(of: list))
        // A region's map draws the subdivision (or country) that holds its photos emphasised.
        return HTMLPage.listMap(
            of: positions, places: places, outline: { if case .region = list.kind { true } else { false } }(), frame: list.view)
    }

    /// To how many decimal degrees `list`'s map places its photos: a region's to 3 (about
    /// 100 m), the world's lists to 1, a zoomed map to what its view shows.
    public static func mapDecimals(of list: PhotoList) -> Int {
        if case .region = list.kind { return 3 }
        // A zoomed map as fine as a region's (a box of a degree or less shows 100 m).
        return list.view.map { $0.north - $0.south <= 10 ? 3 : 2 } ?? 1
    }
}
