import TopRegionsRecords

/// The columns a batch's photos are written with, into `photo` or the staging table, in
/// parameter order: one multi-row INSERT binds photo `row` (from 0) of its group to
/// parameters `row * count + column`. The decoding thread fills the texts and the writer
/// the numbers, row ids and the names the store holds for them, both through these names,
/// so they cannot disagree.
enum StagedColumn: Int32, CaseIterable {
    case id = 1, photographer, region, title, description, latitude, longitude, placeID, uploaded, thumbURL, photoURL, extra
    /// The photographer's and the region's names as stored (what the search index reads).
    case ownerName, regionName

    static let count = Int32(allCases.count)
    static let names = allCases.map(\.name)

    var name: String {
        switch self {
        case .id: "id"
        case .photographer: "photographer"
        case .region: "region"
        case .title: "title"
        case .description: "description"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .placeID: "place_id"
        case .uploaded: "uploaded"
        case .thumbURL: "thumb_url"
        case .photoURL: "photo_url"
        case .extra: "extra"
        case .ownerName: "owner_name"
        case .regionName: "region_name"
        }
    }

    /// The statement parameter of this column for photo `row` of a group.
    func parameter(row: Int) -> Int32 {
        Int32(row) * Self.count + rawValue
    }
}

/// A batch made ready for the store: repeats removed (the last copy of an id wins), the
/// photographers, regions and places it mentions collected once each, and the photos laid
/// out column by column as the staging statement binds them. Preparing is pure work on the
/// records, so the loader does it on its decoding thread: the writer's thread, the one a
/// load waits for, is left with the database work, and with freeing a few big buffers
/// rather than every record's strings.
public struct PreparedBatch: Sendable {
    /// How many photos one staging statement inserts: one statement step per group
    /// instead of per photo (each step has a fixed cost).
    static let rowsPerInsert = 32
    /// Photos in the batch, after removing repeats.
    private(set) var photoCount = 0
    /// Records repeated within the batch (the earlier copies).
    private(set) var duplicates = 0
    private(set) var photographers: [(nsid: String, name: String)] = []
    private(set) var regions: [RegionInfo] = []
    /// Places the records name; `answered` when a record tells the place's region.
    private(set) var places: [(placeID: String, regionPlaceID: String?, answered: Bool)] = []

    // One entry per photo: indexes into the arrays above (-1: none), and the numbers.
    private(set) var photographerIndex: [Int32] = []
    private(set) var regionIndex: [Int32] = []
    private(set) var placeIndex: [Int32] = []
    private(set) var latitude: [Double?] = []
    private(set) var longitude: [Double?] = []
    private(set) var uploaded: [Int64?] = []
    /// The text parameters (id, title, description, place, URLs, unknown fields as a JSON
    /// object) of each group of `rowsPerInsert` photos, numbered for the staging statement.
    private(set) var texts: [TextRow] = []
    /// The newest upload time in the batch.
    private(set) var newestUpload: Int64?

    /// The newest upload time in the batch that is not after `latest`.
    func newestUpload(notAfter latest: Int64) -> Int64? {
        if let newestUpload, newestUpload <= latest { return newestUpload }
        return uploaded.lazy.compactMap { $0 }.filter { $0 <= latest }.max()
    }
    /// The photo ids as a JSON array, to ask the store about all of them in one statement.
    private(set) var idsJSON = "[]"
    /// The smallest and largest photo id, in SQLite's text order (bytewise UTF-8).
    private(set) var firstID: String?
    private(set) var lastID: String?

    public init(_ batch: [PhotoRecord]) {
        var latest: [String: Int] = [:]
        latest.reserveCapacity(batch.count)
        for index in batch.indices where latest.updateValue(index, forKey: batch[index].id) != nil {
            duplicates += 1
        }
        let records = duplicates == 0 ? batch : batch.indices.filter { latest[batch[$0].id] == $0 }.map { batch[$0] }
        photoCount = records.count

        var photographerSlots: [String: Int32] = [:]
        var regionSlots: [String: Int32] = [:]
        var placeSlots: [String: Int32] = [:]
        var extra = JSONWriter(capacity: 256)
        photographerIndex.reserveCapacity(records.count)
        regionIndex.reserveCapacity(records.count)
        placeIndex.reserveCapacity(records.count)
        latitude.reserveCapacity(records.count)
        longitude.reserveCapacity(records.count)
        uploaded.reserveCapacity(records.count)
        texts.reserveCapacity(records.count / Self.rowsPerInsert + 1)
        var group = TextRow()

        for (index, record) in records.enumerated() {
            // Photographers: the last non-empty name wins.
            if let slot = photographerSlots[record.owner] {
                if !record.ownerName.isEmpty { photographers[Int(slot)].name = record.ownerName }
                photographerIndex.append(slot)
            } else {
                let slot = Int32(photographers.count)
                photographerSlots[record.owner] = slot
                photographers.append((record.owner, record.ownerName))
                photographerIndex.append(slot)
            }
            // Regions the records name: the last non-empty name wins.
            if let regionID = record.regionID {
                let name = record.region ?? ""
                if let slot = regionSlots[regionID] {
                    if !name.isEmpty { regions[Int(slot)].name = name }
                    regionIndex.append(slot)
                } else {
                    let slot = Int32(regions.count)
                    regionSlots[regionID] = slot
                    regions.append(RegionInfo(placeID: regionID, name: name))
                    regionIndex.append(slot)
                }
            } else {
                regionIndex.append(-1)
            }
            // Places: a record with a region answers for its place; one without says
            // nothing about it, so the place is only looked up.
            if let placeID = record.placeID {
                if let slot = placeSlots[placeID] {
                    if let regionID = record.regionID { places[Int(slot)] = (placeID, regionID, true) }
                    placeIndex.append(slot)
                } else {
                    let slot = Int32(places.count)
                    placeSlots[placeID] = slot
                    places.append((placeID, record.regionID, record.regionID != nil))
                    placeIndex.append(slot)
                }
            } else {
                placeIndex.append(-1)
            }
            latitude.append(record.latitude)
            longitude.append(record.longitude)
            uploaded.append(record.uploaded)
            if let time = record.uploaded, time > newestUpload ?? .min { newestUpload = time }

            let row = index % Self.rowsPerInsert
            group.set(StagedColumn.id.parameter(row: row), record.id)
            group.set(StagedColumn.title.parameter(row: row), record.title)
            group.set(StagedColumn.description.parameter(row: row), record.description)
            group.set(StagedColumn.placeID.parameter(row: row), record.placeID)
            group.set(StagedColumn.thumbURL.parameter(row: row), record.thumbURL)
            group.set(StagedColumn.photoURL.parameter(row: row), record.photoURL)
            if record.extra.isEmpty {
                group.set(StagedColumn.extra.parameter(row: row), nil)
            } else {
                extra.removeAll()
                extra.value(.object(record.extra))
                group.set(StagedColumn.extra.parameter(row: row), extra.bytes)
            }
            if row == Self.rowsPerInsert - 1 || index == records.count - 1 {
                texts.append(group)
                group = TextRow()
            }
        }
        extra.removeAll()
        extra.value(.array(records.map { .string($0.id) }))
        idsJSON = String(decoding: extra.bytes, as: UTF8.self)
        // Compared as UTF-8 bytes, as SQLite's BINARY collation does (Swift's own string
        // order treats canonically equivalent strings as equal).
        func bytewise(_ a: PhotoRecord, _ b: PhotoRecord) -> Bool { a.id.utf8.lexicographicallyPrecedes(b.id.utf8) }
        firstID = records.min(by: bytewise)?.id
        lastID = records.max(by: bytewise)?.id
    }
}
