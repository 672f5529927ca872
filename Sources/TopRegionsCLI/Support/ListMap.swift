import TopRegionsFormatting
import TopRegionsStore

extension Queries {
    /// The map of every photo of `list`, for each of its pages (`HTMLPage.ListMap`): a
    /// region's photos placed to 3 decimals (about 100 m) with its places named, other lists'
    /// to 1 (they span the world). One function for regions-top's pages and regions-serve's.
    public func listMap(of list: PhotoList) throws -> HTMLPage.ListMap? {
        var decimals = 1
        var places: [HTMLPage.PlaceLabel] = []
        if case .region(let regionID) = list {
            decimals = 3
            places = try self.places(inRegion: regionID).map { HTMLPage.PlaceLabel(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) }
        }
        let positions = try self.positions(of: list, decimals: decimals).map { HTMLPage.MapPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return HTMLPage.listMap(of: positions, places: places)
    }
}
