/// A region as Flickr describes it: its own place id, display name and, when known, centre.
public struct RegionInfo: Sendable, Equatable {
    public var placeID: String
    public var name: String
    public var latitude: Double?
    public var longitude: Double?

    public init(placeID: String, name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.placeID = placeID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The answer to "which region is this place in?": a region, or none (country-level places,
/// and places Flickr does not know).
public struct PlaceResolution: Sendable, Equatable {
    public var placeID: String
    public var region: RegionInfo?
    /// The place's own short name and centre ("Halifax"), when Flickr gave them: a region's
    /// map names its places where they lie.
    public var label: PlaceLabelInfo?

    public init(placeID: String, region: RegionInfo?, label: PlaceLabelInfo? = nil) {
        self.placeID = placeID
        self.region = region
        self.label = label
    }
}

/// A place's short name and where it is.
public struct PlaceLabelInfo: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A spot on a list's map: a position, rounded as the map places it, and how many of the
/// list's photos are there. What the store reads and the pages draw.
public struct MapSpot: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var photos: Int

    public init(latitude: Double, longitude: Double, photos: Int = 1) {
        self.latitude = latitude
        self.longitude = longitude
        self.photos = photos
    }
}
