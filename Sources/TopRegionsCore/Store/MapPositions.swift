import GRDB
import TopRegionsRecords

extension Queries {
    /// How many of a region's newest photos place its marker when Flickr gave no centre.
    public static let markerSample = 20

    /// For a map of many regions: a region without Flickr's centre gets the mean position of
    /// its newest `sample` photos (walking the region's index, so the cost per region is
    /// bounded: a million photos cost what a hundred do). `fillingCentres` averages every
    /// photo instead, for GeoJSON's exact numbers, and scans a region to do so.
    public func sampledCentres(_ rows: [RegionRank], sample: Int = Queries.markerSample) throws -> [RegionRank] {
        try store.read { db in
            try rows.map { row in
                guard row.latitude == nil || row.longitude == nil else { return row }
                var row = row
                if let centre = try Row.fetchOneCached(db, sql: """
                    SELECT AVG(latitude), AVG(longitude) FROM (
                        SELECT latitude, longitude FROM photo
                        WHERE region = (SELECT id FROM region WHERE place_id = ?) AND latitude IS NOT NULL AND longitude IS NOT NULL
                        ORDER BY region, uploaded DESC, id
                        LIMIT ?)
                    """, arguments: [row.regionID, sample]) {
                    let round6 = { (value: Double?) in value.map { ($0 * 1e6).rounded() / 1e6 } }
                    row.latitude = round6(centre[0])
                    row.longitude = round6(centre[1])
                }
                return row
            }
        }
    }
}
