import Foundation

/// The committed fixture read apart from the toolkit (Foundation's JSON parser, the documented
/// rules, Swift sets): what the store must hold after loading it. The last record of an id is
/// the photo; a record without a region is in the region the first record naming its place
/// gives it; a country-level place, or none, is in no region.
public struct FixtureRecount: Sendable {
    /// Each stored photo's region (nil: in none).
    public let regionOfPhoto: [String: String?]
    /// Each region's name (its last record's), distinct photographers and photos.
    public let regions: [String: (name: String, photographers: Int, photos: Int)]

    public init(_ path: String = Tools.fixture) {
        let text = try! String(contentsOfFile: path, encoding: .utf8)
        var last: [String: [String: Any]] = [:]
        var placeRegion: [String: String] = [:]
        var names: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            last[object["id"] as! String] = object
            if let region = object["region_id"] as? String {
                names[region] = object["region"] as? String
                if let place = object["place_id"] as? String, placeRegion[place] == nil { placeRegion[place] = region }
            }
        }
        var regionOfPhoto: [String: String?] = [:]
        var owners: [String: Set<String>] = [:]
        var photos: [String: Int] = [:]
        for (id, object) in last {
            let region = (object["region_id"] as? String) ?? (object["place_id"] as? String).flatMap { placeRegion[$0] }
            regionOfPhoto[id] = region
            guard let region else { continue }
            owners[region, default: []].insert(object["owner"] as! String)
            photos[region, default: 0] += 1
        }
        self.regionOfPhoto = regionOfPhoto
        regions = Dictionary(uniqueKeysWithValues: owners.map { region, owners in
            (region, (names[region]!, owners.count, photos[region]!))
        })
    }

    /// The ids of the region's photos.
    public func ids(inRegion regionID: String) -> Set<String> {
        Set(regionOfPhoto.compactMap { $0.value == regionID ? $0.key : nil })
    }
}
