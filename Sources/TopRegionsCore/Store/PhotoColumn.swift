import TopRegionsRecords

/// The columns a photo listing selects (`Queries.photoColumns`), read back by name: each
/// constant is its column's position in the select list, so a listing's reader and its SQL
/// cannot disagree. The plain fields (`PhotoRecord.plainFields`) come from their columns of
/// `photo`, named by their keys.
enum PhotoColumn {
    private static let structural: [(name: String, sql: String)] = [
        ("id", "photo.id"), ("owner", "photographer.nsid"), ("owner_name", "photographer.name"),
        ("latitude", "photo.latitude"), ("longitude", "photo.longitude"), ("place_id", "photo.place_id"),
        ("uploaded", "photo.uploaded"), ("region_id", "region.place_id"), ("region", "region.name"),
        ("extra", "photo.extra"), ("added_at", "photo.added_at"), ("viewed_at", "photo.viewed_at"),
    ]
    private static let selected = structural + PhotoRecord.plainFields.map { ($0.key, "photo.\($0.key)") }

    /// The select list, in order.
    static let selectList = selected.map(\.sql).joined(separator: ", ")
    /// The number of columns it selects: a query may select more after them, from here.
    static let count = Int32(selected.count)

    static let id = index("id"), owner = index("owner"), ownerName = index("owner_name")
    static let latitude = index("latitude"), longitude = index("longitude"), placeID = index("place_id")
    static let uploaded = index("uploaded"), regionID = index("region_id"), region = index("region")
    static let extra = index("extra"), addedAt = index("added_at"), viewedAt = index("viewed_at")
    /// The column of each plain field, by slot.
    static let plain = PhotoRecord.plainFields.map { index($0.key) }

    private static func index(_ name: String) -> Int32 {
        guard let index = selected.firstIndex(where: { $0.name == name }) else { preconditionFailure("no photo column \(name)") }
        return Int32(index)
    }
}
