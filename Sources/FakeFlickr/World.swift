/// Coordinates are kept as integer micro-degrees so that they print exactly and identically
/// everywhere (no floating-point formatting in the output).
typealias MicroDegrees = Int

enum PlaceLevel: Int, Sendable {
    // The raw values are Flickr's place_type_id.
    case neighbourhood = 22
    case locality = 7
    case county = 9
    case region = 8
    case country = 12

    var typeName: String {
        switch self {
        case .neighbourhood: "neighbourhood"
        case .locality: "locality"
        case .county: "county"
        case .region: "region"
        case .country: "country"
        }
    }
}

struct Place: Sendable {
    let id: String
    let woeid: String
    let level: PlaceLevel
    /// The bare name (`woe_name`), e.g. "Halifax".
    let woeName: String
    /// The chain form Flickr puts in `name` and `_content`, e.g. "Halifax, Nova Scotia, Canada".
    let name: String
    let latitude: MicroDegrees
    let longitude: MicroDegrees
    let placeURL: String
    let timezone: String
    /// Indices into `World.places` of the places this one lies in, itself included at its
    /// own level. `region` is nil for country-level places: they belong to no region.
    let neighbourhood: Int?
    let locality: Int?
    let county: Int?
    let region: Int?
    let country: Int
}

struct Photographer: Sendable {
    let nsid: String
    let displayName: String
}

struct Photo: Sendable {
    /// Assigned once all photos are drafted, in upload order.
    var id: UInt64
    let uploaded: Int64
    /// Index into `World.photographers`.
    let owner: Int
    /// Index into `World.places`; nil for the photos Flickr shows with no place attached.
    let place: Int?
    let license: Int
    let secret: String
    let server: String
    let farm: Int
    let title: String
    let description: String
    let latitude: MicroDegrees
    let longitude: MicroDegrees
    let accuracy: Int
    let context: Int
    /// Present only when the original may be viewed, as on Flickr.
    let originalSecret: String?
    let originalFormat: String
    /// The sizes from `h` up have their own secrets, and owners can withhold them.
    let secretH: String?
    let secretK: String?
    /// A few photos come without `url_l` even when asked for (clients then build the URL).
    let offersLargeURL: Bool
    let originalWidth: Int
    let originalHeight: Int
}

/// The whole fake Flickr: places, photographers and photos, built from `WorldOptions`.
/// Immutable once built; the only thing that changes at run time is the virtual clock.
public struct World: Sendable {
    static let defaultWindowSeconds: Int64 = 12 * 3600
    static let futureWindowSeconds: Int64 = 6 * 3600
    /// How long before `now` a surge's photos were uploaded in.
    static let surgeSeconds: Int64 = 3 * 3600
    /// The licences the toolkit (like CS193p) asks for by default.
    static let defaultLicenses: Set<Int> = [1, 2, 4, 7]

    public let options: WorldOptions
    let places: [Place]
    let photographers: [Photographer]
    /// Ascending by upload time, and so by id: ids grow with upload time.
    let photos: [Photo]
    /// The place id of the region a surge is in (`WorldOptions.surge`), if there is one.
    public let surgeRegionID: String?
    private let placeIndexByID: [String: Int]
    private let placeIndexByWoeid: [String: Int]
    private let photoIndexByID: [UInt64: Int]

    public init(options: WorldOptions) throws(FakeFlickrError) {
        try options.validate()
        var builder = WorldBuilder(options: options)
        self.options = options
        let places = builder.buildPlaces()
        let photographers = builder.buildPhotographers()
        let photos = builder.buildPhotos(places: places, photographerCount: options.photographers)
        self.places = places
        self.photographers = photographers
        self.photos = photos
        surgeRegionID = options.surge > 0 ? places[builder.surgeRegion].id : nil
        placeIndexByID = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.id, $0) })
        placeIndexByWoeid = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.woeid, $0) })
        photoIndexByID = Dictionary(uniqueKeysWithValues: photos.enumerated().map { ($1.id, $0) })
    }

    func place(id: String) -> Place? {
        placeIndexByID[id].map { places[$0] }
    }

    func place(woeid: String) -> Place? {
        placeIndexByWoeid[woeid].map { places[$0] }
    }

    func photo(id: UInt64) -> Photo? {
        photoIndexByID[id].map { photos[$0] }
    }

    /// The index of the first photo uploaded at or after `time` (`photos.count` if none):
    /// photos are sorted by upload time, so a binary search finds it.
    func firstPhoto(uploadedAtOrAfter time: Int64) -> Int {
        var low = 0
        var high = photos.count
        while low < high {
            let middle = (low + high) / 2
            if photos[middle].uploaded < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The region place a photo counts towards, if its place has a region.
    func regionIndex(of photo: Photo) -> Int? {
        photo.place.flatMap { places[$0].region }
    }

    /// A stable yes/no for one aspect of one thing, e.g. "is this photo's latitude a
    /// string". Used where real Flickr varies the JSON type of a field from object to object.
    func coinFlip(_ subject: UInt64, _ aspect: String) -> Bool {
        Mixing.combine(options.seed, subject, Mixing.hash(aspect)) & 1 == 1
    }
}

/// The generation steps, in a fixed order over one random stream: changing the order changes
/// every world, so append new draws at the end of a step rather than in the middle.
private struct WorldBuilder {
    let options: WorldOptions
    var random: SplitMix64
    private var usedPlaceIDs: Set<String> = []
    private var usedWoeids: Set<String> = []
    /// Indices into `places` of the regions, in order of popularity (most popular first).
    private var regionsByPopularity: [Int] = []
    /// For each region place: the places a photo in that region can be attached to.
    private var photoPlacesByRegion: [Int: [Int]] = [:]
    private var countryPlaceIndices: [Int] = []

    init(options: WorldOptions) {
        self.options = options
        random = SplitMix64(seed: Mixing.combine(options.seed, Mixing.hash("world")))
    }

    // MARK: Places

    mutating func buildPlaces() -> [Place] {
        var places: [Place] = []
        var countryIndexByName: [String: Int] = [:]
        for country in RegionCatalog.countries {
            countryIndexByName[country.name] = places.count
            places.append(
                Place(
                    id: newPlaceID(), woeid: newWoeid(in: 23_424_700...23_424_999), level: .country,
                    woeName: country.name, name: country.name,
                    latitude: microDegrees(country.latitude), longitude: microDegrees(country.longitude),
                    placeURL: urlPath([country.name]), timezone: country.timezone,
                    neighbourhood: nil, locality: nil, county: nil, region: nil,
                    country: places.count))
        }
        countryPlaceIndices = Array(shuffled(Array(0..<RegionCatalog.countries.count)).prefix(options.countryPlaces))

        let chosenRegions = shuffled(Array(RegionCatalog.regions.indices)).prefix(options.regions)
        for catalogIndex in chosenRegions {
            let catalogRegion = RegionCatalog.regions[catalogIndex]
            let country = countryIndexByName[catalogRegion.country]!
            let countryInfo = RegionCatalog.countries[country]
            let regionIndex = places.count
            let regionPath = [countryInfo.name, catalogRegion.name]
            let regionName = "\(catalogRegion.name), \(countryInfo.name)"
            let regionLatitude = microDegrees(catalogRegion.latitude)
            let regionLongitude = microDegrees(catalogRegion.longitude)
            places.append(
                Place(
                    id: newPlaceID(), woeid: newWoeid(in: 2_340_000...2_399_999), level: .region,
                    woeName: catalogRegion.name, name: regionName,
                    latitude: regionLatitude, longitude: regionLongitude,
                    placeURL: urlPath(regionPath), timezone: countryInfo.timezone,
                    neighbourhood: nil, locality: nil, county: nil, region: regionIndex, country: country))
            regionsByPopularity.append(regionIndex)
            var photoPlaces = [regionIndex]

            // Many countries have no county level. Where there is one it comes first, so that
            // every locality of the region lies in it; then localities and neighbourhoods
            // alternate.
            var county: Int?
            let countyPositions = random.chance(0.55) ? 1 : 0
            var latestLocality: (index: Int, town: String, neighbourhoods: [String])?
            var townsUsed = 0
            for position in 0..<options.placesPerRegion {
                let kind: PlaceLevel
                if position < countyPositions {
                    kind = .county
                } else if (position - countyPositions) % 2 == 1,
                    let latestLocality, latestLocality.neighbourhoods.count < RegionCatalog.neighbourhoods.count
                {
                    kind = .neighbourhood
                } else {
                    kind = .locality
                }
                switch kind {
                case .county:
                    let town = catalogRegion.towns[0]
                    let index = places.count
                    let id = newPlaceID()
                    places.append(
                        Place(
                            id: id, woeid: newWoeid(in: 29_300_000...29_399_999), level: .county,
                            woeName: town, name: "\(town), \(regionName)",
                            latitude: jittered(regionLatitude, by: 300_000, shrunkBy: 8), longitude: jittered(regionLongitude, by: 300_000, shrunkBy: 8),
                            // Flickr shows a county's URL as its bare id.
                            placeURL: "/\(id)", timezone: countryInfo.timezone,
                            neighbourhood: nil, locality: nil, county: index, region: regionIndex, country: country))
                    county = index
                    photoPlaces.append(index)
                case .locality:
                    let town = townName(catalogRegion.towns, townsUsed)
                    townsUsed += 1
                    let index = places.count
                    places.append(
                        Place(
                            id: newPlaceID(), woeid: newWoeid(in: 1000...9_999_999), level: .locality,
                            woeName: town, name: "\(town), \(regionName)",
                            latitude: jittered(regionLatitude, by: 500_000, shrunkBy: 8), longitude: jittered(regionLongitude, by: 500_000, shrunkBy: 8),
                            placeURL: urlPath(regionPath + [town]), timezone: countryInfo.timezone,
                            neighbourhood: nil, locality: index, county: county, region: regionIndex, country: country))
                    latestLocality = (index, town, [])
                    photoPlaces.append(index)
                case .neighbourhood:
                    let locality = latestLocality!
                    let unused = RegionCatalog.neighbourhoods.filter { !locality.neighbourhoods.contains($0) }
                    let neighbourhood = random.pick(unused)
                    latestLocality!.neighbourhoods.append(neighbourhood)
                    let index = places.count
                    let localityPlace = places[locality.index]
                    places.append(
                        Place(
                            id: newPlaceID(), woeid: newWoeid(in: 10_000_000...99_999_999), level: .neighbourhood,
                            woeName: neighbourhood, name: "\(neighbourhood), \(localityPlace.name)",
                            latitude: jittered(localityPlace.latitude, by: 20_000),
                            longitude: jittered(localityPlace.longitude, by: 20_000),
                            placeURL: urlPath(regionPath + [locality.town, neighbourhood]), timezone: countryInfo.timezone,
                            neighbourhood: index, locality: locality.index, county: localityPlace.county,
                            region: regionIndex, country: country))
                    photoPlaces.append(index)
                case .region, .country:
                    preconditionFailure("regions and countries are not built per region")
                }
            }
            photoPlacesByRegion[regionIndex] = photoPlaces
        }
        return places
    }

    /// Catalogue towns first, then numbered variants for worlds that ask for many places.
    private func townName(_ towns: [String], _ position: Int) -> String {
        position < towns.count ? towns[position] : "\(towns[position % towns.count]) \(position / towns.count + 1)"
    }

    /// Flickr-like opaque place ids: mostly alphanumeric with dots, sometimes starting with
    /// dots (e.g. "..sw5elTUb7eGTm."), now and then with `_` or `-`.
    private mutating func newPlaceID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        while true {
            let length = random.chance(0.8) ? 16 : 18
            var characters = (0..<length).map { _ in alphabet[random.below(alphabet.count)] }
            characters[random.below(length)] = "."
            if random.chance(0.12) { characters[0] = "." }
            if random.chance(0.05) { characters[1] = "." }
            if random.chance(0.04) { characters[random.below(length)] = random.chance(0.5) ? "_" : "-" }
            let id = String(characters)
            if usedPlaceIDs.insert(id).inserted { return id }
        }
    }

    private mutating func newWoeid(in range: ClosedRange<Int>) -> String {
        while true {
            let woeid = String(random.inRange(range))
            if usedWoeids.insert(woeid).inserted { return woeid }
        }
    }

    private func urlPath(_ names: [String]) -> String {
        "/" + names.map { $0.split(separator: " ").joined(separator: "+") }.joined(separator: "/")
    }

    private mutating func jittered(_ value: MicroDegrees, by spread: Int) -> MicroDegrees {
        value + random.inRange(-spread...spread)
    }

    /// `value` moved by up to `spread / factor`, drawn as a move of up to `spread` is (so every
    /// later draw of the world is what it was): a region's towns within about 7 km of its
    /// centre, inside the region as the maps' subdivisions draw it (half a degree put
    /// Toscana's towns in Emilia-Romagna).
    private mutating func jittered(_ value: MicroDegrees, by spread: Int, shrunkBy factor: Int) -> MicroDegrees {
        value + random.inRange(-spread...spread) / factor
    }

    private mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        // Fisher–Yates with our own generator (Array.shuffled would use the system one).
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, random.below(index + 1))
        }
        return items
    }

    // MARK: Photographers

    private var photographerRegions: [[Int]] = []
    private var photographerLicenses: [Int] = []

    mutating func buildPhotographers() -> [Photographer] {
        let regionPopularity = WeightedPicker.zipf(count: regionsByPopularity.count)
        var usedNSIDs: Set<String> = []
        var photographers: [Photographer] = []
        for index in 0..<options.photographers {
            var nsid: String
            repeat {
                nsid = "\(random.inRange(10_000_000...99_999_999))@N0\(random.pick([0, 1, 2, 3, 4, 5, 7, 8]))"
            } while !usedNSIDs.insert(nsid).inserted
            var displayName = random.pick(Vocabulary.displayNamePatterns)
                .replacing("{g}", with: random.pick(Vocabulary.givenNames))
                .replacing("{f}", with: random.pick(Vocabulary.familyNames))
            // flickr-api.md §7: two different NSIDs share one display name. Photographers 0
            // and 1 are the two most active, so the clash shows up in every window.
            if index == 1 { displayName = photographers[0].displayName }
            photographers.append(Photographer(nsid: nsid, displayName: displayName))

            // Active in a few regions, drawn by popularity; the first is where most of their
            // photos are taken.
            var regionCount = 1
            while regionCount < 8 && random.chance(0.55) { regionCount += 1 }
            var regions: [Int] = []
            for _ in 0..<(regionCount * 4) where regions.count < regionCount {
                let region = regionsByPopularity[regionPopularity.pick(using: &random)]
                if !regions.contains(region) { regions.append(region) }
            }
            photographerRegions.append(regions)
            photographerLicenses.append(drawLicense())
        }
        // The surge's photographers, after the others (a world without one draws nothing
        // more): new to the store, each in the surge's region only.
        for _ in 0..<surgePhotographers {
            var nsid: String
            repeat {
                nsid = "\(random.inRange(10_000_000...99_999_999))@N0\(random.pick([0, 1, 2, 3, 4, 5, 7, 8]))"
            } while !usedNSIDs.insert(nsid).inserted
            let displayName = random.pick(Vocabulary.givenNames) + " " + random.pick(Vocabulary.familyNames)
            photographers.append(Photographer(nsid: nsid, displayName: displayName))
            photographerRegions.append([surgeRegion])
            photographerLicenses.append(drawLicense())
        }
        return photographers
    }

    /// Two photos each.
    var surgePhotographers: Int { (options.surge + 1) / 2 }

    /// The region a surge is in: one of middling popularity, so its photographers triple.
    var surgeRegion: Int { regionsByPopularity[regionsByPopularity.count / 3] }

    /// Mostly the four licences the default query asks for, the rest spread over the others.
    private mutating func drawLicense() -> Int {
        random.chance(0.72) ? random.pick([1, 1, 2, 2, 2, 4, 4, 4, 7]) : random.pick([0, 0, 0, 0, 3, 5, 6, 8, 9, 10])
    }

    // MARK: Photos

    mutating func buildPhotos(places: [Place], photographerCount: Int) -> [Photo] {
        let activity = WeightedPicker.zipf(count: photographerCount)
        let now = options.now
        var photos = draftSessions(
            count: options.photos, after: now - World.defaultWindowSeconds, within: World.defaultWindowSeconds,
            activity: activity, places: places)
        photos += draftSessions(
            count: options.futurePhotos, after: now, within: World.futureWindowSeconds, activity: activity, places: places)
        // The surge: its photographers' photos, in the 3 hours up to now.
        for index in 0..<options.surge {
            let owner = options.photographers + index / 2
            let uploaded = now - World.surgeSeconds + 1 + Int64(random.below(Int(World.surgeSeconds)))
            photos.append(draftPhoto(owner: owner, region: surgeRegion, uploaded: uploaded, places: places))
        }

        // Ids grow with upload time, with gaps (other people's photos) in between.
        photos = photos.indices.sorted { (photos[$0].uploaded, $0) < (photos[$1].uploaded, $1) }.map { photos[$0] }
        var nextID = 53_000_000_000 + UInt64(random.below(400_000_000))
        for index in photos.indices {
            nextID += UInt64(random.inRange(1...40))
            photos[index].id = nextID
        }
        return photos
    }

    /// Uploads come in sessions: one photographer, one region, one to a few photos in the same
    /// second or the next few. That gives the equal upload times real data has. Upload times
    /// fall in (start, start + seconds]; ids are assigned later.
    private mutating func draftSessions(
        count: Int, after start: Int64, within seconds: Int64, activity: WeightedPicker, places: [Place]
    ) -> [Photo] {
        var photos: [Photo] = []
        while photos.count < count {
            let owner = activity.pick(using: &random)
            let regions = photographerRegions[owner]
            let region = regions[min(random.below(regions.count), random.below(regions.count))]
            let sessionStart = start + 1 + Int64(random.below(Int(seconds)))
            let size = min(count - photos.count, random.chance(0.15) ? random.inRange(2...6) : 1)
            for _ in 0..<size {
                let uploaded = min(sessionStart + Int64(random.below(3)), start + seconds)
                photos.append(draftPhoto(owner: owner, region: region, uploaded: uploaded, places: places))
            }
        }
        return photos
    }

    private mutating func draftPhoto(owner: Int, region: Int, uploaded: Int64, places: [Place]) -> Photo {
        let placeIndex: Int?
        let roll = random.unit()
        if roll < 0.03 {
            placeIndex = nil
        } else if roll < 0.075 && !countryPlaceIndices.isEmpty {
            placeIndex = random.pick(countryPlaceIndices)
        } else {
            placeIndex = random.pick(photoPlacesByRegion[region]!)
        }
        let anchor = places[placeIndex ?? region]
        let spread = switch anchor.level {
        case .neighbourhood: 5_000
        case .locality: 40_000
        case .county: 150_000
        case .region: 400_000
        case .country: 1_000_000
        }
        let (width, height) = random.pick([(6000, 4000), (6000, 4000), (4032, 3024), (4000, 6000), (3024, 4032), (3000, 3000)])
        let isCommonServer = random.chance(0.85)
        return Photo(
            id: 0, uploaded: uploaded, owner: owner, place: placeIndex,
            license: random.chance(0.9) ? photographerLicenses[owner] : drawLicense(),
            secret: random.hex(length: 10),
            server: isCommonServer ? "65535" : random.pick(["4578", "7372", "8712", "31337"]),
            farm: isCommonServer ? 66 : random.inRange(1...9),
            title: drawTitle(), description: drawDescription(),
            latitude: jittered(anchor.latitude, by: spread), longitude: jittered(anchor.longitude, by: spread),
            accuracy: random.chance(0.6) ? 16 : random.pick([3, 6, 11, 12, 13, 14, 15]),
            context: random.chance(0.8) ? 0 : random.inRange(1...2),
            originalSecret: random.chance(0.95) ? random.hex(length: 10) : nil, originalFormat: "jpg",
            secretH: random.chance(0.9) ? random.hex(length: 10) : nil,
            secretK: random.chance(0.88) ? random.hex(length: 10) : nil,
            offersLargeURL: !random.chance(0.02),
            originalWidth: width, originalHeight: height)
    }

    private mutating func drawTitle() -> String {
        if random.chance(0.08) { return "" }
        if random.chance(0.1) { return "IMG_\(random.inRange(1000...9999))" }
        return (0..<random.inRange(1...3)).map { _ in random.pick(Vocabulary.titleWords) }.joined(separator: " ")
    }

    private mutating func drawDescription() -> String {
        if random.chance(0.35) { return "" }
        let separator = random.chance(0.5) ? "\n" : " "
        return (0..<random.inRange(1...3)).map { _ in random.pick(Vocabulary.sentences) }.joined(separator: separator)
    }
}

func microDegrees(_ degrees: Double) -> MicroDegrees {
    Int((degrees * 1_000_000).rounded())
}

/// "44.637512", "-8.0": six decimals at most, trailing zeros dropped, at least one kept.
func formatDegrees(_ value: MicroDegrees) -> String {
    let sign = value < 0 ? "-" : ""
    let magnitude = abs(value)
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(magnitude / 1_000_000).\(fraction)"
}
