/// The answers the store gives, as the formatters and tools pass them on.

/// A row of the top-regions answer.
public struct RegionRank: Sendable, Equatable {
    public var rank: Int
    public var regionID: String
    public var name: String
    public var photographers: Int
    public var photos: Int
    public var latitude: Double?
    public var longitude: Double?

    public init(rank: Int, regionID: String, name: String, photographers: Int, photos: Int, latitude: Double?, longitude: Double?) {
        self.rank = rank
        self.regionID = regionID
        self.name = name
        self.photographers = photographers
        self.photos = photos
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A photo as stored, with what the store knows beyond the record.
public struct StoredPhoto: Sendable, Equatable {
    public var record: PhotoRecord
    public var addedAt: Int64
    public var viewedAt: Int64?

    public init(record: PhotoRecord, addedAt: Int64, viewedAt: Int64?) {
        self.record = record
        self.addedAt = addedAt
        self.viewedAt = viewedAt
    }
}
