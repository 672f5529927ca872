import Foundation
import TopRegionsRecords

/// The columns a batch's photos are written with, into `photo` or the staging table, in
/// parameter order: one multi-row INSERT binds photo `row` (from 0) of its group to
/// parameters `row * count + column`. The decoding thread fills the texts and the writer
/// the numbers, row ids and the names the store holds for them, both through these names,
/// so they cannot disagree. The structural columns first, then one per plain field
/// (`PhotoRecord.plainFields`, in slot order), named by its key.
package struct StagedColumn: Sendable, Equatable {
    /// Its parameter in a group's first row (from 1).
    package let rawValue: Int32
    package let name: String
    /// Its declaration in the staging table.
    package let declaration: String

    private init(_ rawValue: Int32, _ name: String, _ type: String) {
        self.rawValue = rawValue
        self.name = name
        self.declaration = "\(name) \(type)"
    }

    package static let id = StagedColumn(1, "id", "TEXT NOT NULL")
    package static let photographer = StagedColumn(2, "photographer", "INTEGER NOT NULL")
    package static let region = StagedColumn(3, "region", "INTEGER")
    package static let latitude = StagedColumn(4, "latitude", "REAL")
    package static let longitude = StagedColumn(5, "longitude", "REAL")
    package static let placeID = StagedColumn(6, "place_id", "TEXT")
    package static let uploaded = StagedColumn(7, "uploaded", "INTEGER")
    /// Unknown members, as a JSON object.
    package static let extra = StagedColumn(8, "extra", "TEXT")
    /// The photographer's and the region's names as stored (what the search index reads).
    package static let ownerName = StagedColumn(9, "owner_name", "TEXT NOT NULL")
    package static let regionName = StagedColumn(10, "region_name", "TEXT")
    private static let structural: [StagedColumn] = [id, photographer, region, latitude, longitude, placeID, uploaded, extra, ownerName, regionName]

    /// The column of plain field `slot`.
    package static func plain(_ slot: Int) -> StagedColumn { plainColumns[slot] }
    private static let plainColumns: [StagedColumn] = PhotoRecord.plainFields.enumerated().map { slot, field in
        StagedColumn(Int32(structural.count + slot + 1), field.key, field.kind.isNeverAbsent ? "TEXT NOT NULL" : "TEXT")
    }

    package static let allCases = structural + plainColumns
    package static let count = Int32(allCases.count)
    package static let names = allCases.map(\.name)

    /// The statement parameter of this column for photo `row` of a group.
    package func parameter(row: Int) -> Int32 {
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
    package static let rowsPerInsert = 32
    /// Photos in the batch, after removing repeats.
    package private(set) var photoCount = 0
    /// Records repeated within the batch (the earlier copies).
    package private(set) var duplicates = 0
    package private(set) var photographers: [(nsid: String, name: String)] = []
    package private(set) var regions: [RegionInfo] = []
    /// Places the records name; `answered` when a record tells the place's region.
    package private(set) var places: [(placeID: String, regionPlaceID: String?, answered: Bool)] = []

    // One entry per photo: indexes into the arrays above (-1: none), and the numbers.
    package private(set) var photographerIndex: [Int32] = []
    package private(set) var regionIndex: [Int32] = []
    package private(set) var placeIndex: [Int32] = []
    package private(set) var latitude: [Double?] = []
    package private(set) var longitude: [Double?] = []
    package private(set) var uploaded: [Int64?] = []
    /// The text parameters (id, title, description, place, URLs, unknown fields as a JSON
    /// object) of each group of `rowsPerInsert` photos, numbered for the staging statement.
    package private(set) var texts: [TextRow] = []
    /// The newest upload time in the batch.
    package private(set) var newestUpload: Int64?

    /// The newest upload time in the batch that is not after `latest`.
    package func newestUpload(notAfter latest: Int64) -> Int64? {
        if let newestUpload, newestUpload <= latest { return newestUpload }
        return uploaded.lazy.compactMap { $0 }.filter { $0 <= latest }.max()
    }
    /// The photo ids as a JSON array, to ask the store about all of them in one statement.
    package private(set) var idsJSON = "[]"
    /// The smallest and largest photo id, in SQLite's text order (bytewise UTF-8).
    package private(set) var firstID: String?
    package private(set) var lastID: String?

    public init(_ records: [PhotoRecord]) {
        var buffer = BatchBuffer(reservingPhotos: records.count)
        for record in records { buffer.append(record) }
        self.init(buffer)
    }

    /// The bytes the texts are spans of (shared by every row of `texts`).
    private var textBytes: [UInt8] = []

    /// The text bytes, for another batch to reuse once this one is stored; the batch has no
    /// texts after.
    package mutating func takeTextBytes() -> [UInt8] {
        texts = []
        defer { textBytes = [] }
        return textBytes
    }

    /// Lays out the photos of `buffer`; their texts are bound from its bytes, not copied.
    public init(_ buffer: BatchBuffer) {
        let all = buffer.photos
        let bytes = buffer.bytes
        textBytes = bytes
        let kept: [Int]  // the photos written, in batch order: the last copy of each id
        (kept, duplicates) = bytes.withUnsafeBufferPointer { Self.lastCopies(of: all, in: $0) }
        photoCount = kept.count
        reserveColumns(kept.count)
        var names = MentionedNames()
        var ids = IDList(capacity: kept.count)
        var group = TextRow(sharing: bytes, capacity: Self.rowsPerInsert * Self.textColumns.count)
        bytes.withUnsafeBufferPointer { text in
            for (index, photoIndex) in kept.enumerated() {
                let photo = all[photoIndex]
                let mentioned = names.note(photo, in: text)
                photographerIndex.append(mentioned.photographer)
                regionIndex.append(mentioned.region)
                placeIndex.append(mentioned.place)
                latitude.append(photo.latitude)
                longitude.append(photo.longitude)
                uploaded.append(photo.uploaded)
                if let time = photo.uploaded, time > newestUpload ?? .min { newestUpload = time }

                let row = index % Self.rowsPerInsert
                Self.setTexts(of: photo, row: row, in: &group)
                if row == Self.rowsPerInsert - 1 || index == kept.count - 1 {
                    texts.append(group)
                    group = TextRow(sharing: bytes, capacity: Self.rowsPerInsert * Self.textColumns.count)
                }
                ids.append(photo.id, in: text)
            }
        }
        idsJSON = ids.closedJSON()
        firstID = ids.first.flatMap(buffer.string)
        lastID = ids.last.flatMap(buffer.string)
        photographers = zip(names.photographerSlots.keys, names.photographerNames).map { (buffer.string($0)!, buffer.string($1)!) }
        regions = zip(names.regionSlots.keys, names.regionNames).map { RegionInfo(placeID: buffer.string($0)!, name: buffer.string($1)!) }
        places = zip(names.placeSlots.keys, names.placeRegions).map { (buffer.string($0)!, buffer.string($1.regionPlaceID), $1.answered) }
    }

    /// The photos to write, in batch order: the last copy of each id; and how many earlier
    /// copies that leaves out.
    private static func lastCopies(of all: [RecordSpans], in text: UnsafeBufferPointer<UInt8>) -> (kept: [Int], duplicates: Int) {
        var ids = SpanTable(capacity: all.count)
        var latest = [Int32](repeating: -1, count: all.count)  // id number → its last photo
        var idOf = [Int32](repeating: 0, count: all.count)
        var duplicates = 0
        for (index, photo) in all.enumerated() {
            let (id, new) = ids.insert(photo.id, in: text)
            if !new { duplicates += 1 }
            latest[Int(id)] = Int32(index)
            idOf[index] = id
        }
        var kept: [Int] = []
        kept.reserveCapacity(all.count - duplicates)
        for index in all.indices where duplicates == 0 || latest[Int(idOf[index])] == Int32(index) {
            kept.append(index)
        }
        return (kept, duplicates)
    }

    private mutating func reserveColumns(_ count: Int) {
        photographerIndex.reserveCapacity(count)
        regionIndex.reserveCapacity(count)
        placeIndex.reserveCapacity(count)
        latitude.reserveCapacity(count)
        longitude.reserveCapacity(count)
        uploaded.reserveCapacity(count)
        texts.reserveCapacity(count / Self.rowsPerInsert + 1)
    }

    /// Binds a photo's texts as row `row` of a group.
    private static func setTexts(of photo: RecordSpans, row: Int, in group: inout TextRow) {
        group.set(StagedColumn.id.parameter(row: row), photo.id)
        group.set(StagedColumn.placeID.parameter(row: row), photo.placeID)
        group.set(StagedColumn.extra.parameter(row: row), photo.extra)
        for slot in PhotoRecord.plainFields.indices {
            group.set(StagedColumn.plain(slot).parameter(row: row), photo.plain[slot])
        }
    }

    /// The columns the decoding thread fills, as texts.
    package static let textColumns: [StagedColumn] = [.id, .placeID, .extra] + PhotoRecord.plainFields.indices.map(StagedColumn.plain)
}

/// The photographers, regions and places a batch's photos mention, each once, with the
/// names the records give them.
private struct MentionedNames {
    var photographerSlots = SpanTable(capacity: 1024)
    var photographerNames: [TextSpan] = []
    var regionSlots = SpanTable(capacity: 256)
    var regionNames: [TextSpan] = []
    var placeSlots = SpanTable(capacity: 1024)
    var placeRegions: [(regionPlaceID: TextSpan, answered: Bool)] = []

    /// The numbers of the photo's photographer, region and place (-1: none).
    mutating func note(_ photo: RecordSpans, in text: UnsafeBufferPointer<UInt8>) -> (photographer: Int32, region: Int32, place: Int32) {
        let photographer = Self.slot(of: photo.owner, named: photo.ownerName, in: &photographerSlots, names: &photographerNames, text)
        let region = photo.regionID.isNone ? -1
            : Self.slot(of: photo.regionID, named: photo.region, in: &regionSlots, names: &regionNames, text)
        // Places: a record with a region answers for its place; one without says nothing
        // about it, so the place is only looked up.
        var place: Int32 = -1
        if !photo.placeID.isNone {
            let new: Bool
            (place, new) = placeSlots.insert(photo.placeID, in: text)
            if new {
                placeRegions.append((photo.regionID, !photo.regionID.isNone))
            } else if !photo.regionID.isNone {
                placeRegions[Int(place)] = (photo.regionID, true)
            }
        }
        return (photographer, region, place)
    }

    /// The slot of `key`, remembering `name` for it: the last non-empty name wins.
    private static func slot(
        of key: TextSpan, named name: TextSpan, in slots: inout SpanTable, names: inout [TextSpan], _ text: UnsafeBufferPointer<UInt8>
    ) -> Int32 {
        let (slot, new) = slots.insert(key, in: text)
        if new {
            names.append(name)
        } else if name.count > 0 {
            names[Int(slot)] = name
        }
        return slot
    }
}

/// A batch's photo ids as one JSON array (to ask the store about all of them in one
/// statement), and the smallest and largest in SQLite's text order.
private struct IDList {
    private var bytes: [UInt8] = [UInt8(ascii: "[")]
    private(set) var first: TextSpan?
    private(set) var last: TextSpan?

    init(capacity: Int) {
        bytes.reserveCapacity(capacity * 14 + 2)
    }

    mutating func append(_ id: TextSpan, in text: UnsafeBufferPointer<UInt8>) {
        // Ids are digits (both readers check), so each is its own JSON string.
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[Int(id.start)..<Int(id.start + id.count)]))
        bytes.append(UInt8(ascii: "\""))
        if first.map({ Self.precedes(id, $0, text) }) ?? true { first = id }
        if last.map({ Self.precedes($0, id, text) }) ?? true { last = id }
    }

    /// The array, closed: call once, after the last id.
    mutating func closedJSON() -> String {
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytewise, as SQLite's BINARY collation compares UTF-8.
    private static func precedes(_ a: TextSpan, _ b: TextSpan, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let order = memcmp(text.baseAddress! + Int(a.start), text.baseAddress! + Int(b.start), Int(min(a.count, b.count)))
        return order < 0 || (order == 0 && a.count < b.count)
    }
}
