/// The photo record's fields, declared once: what each is called in a record and by Flickr,
/// what it holds, whether the search index reads it and whether the reports show it. The
/// decoder, the loader's scanner, the writer, the store's staging, merge and queries and the
/// reports all work from this table (man/topregions-record.7 documents the same fields).
///
/// Most fields are plain: a text the toolkit keeps as it came, in a `photo` column of the
/// same name, and shows. Adding one is an entry in `PhotoRecord.fields`, a property of
/// `PhotoRecord`, and a migration adding its column (Schema.swift). The structural fields
/// (ids, the photographer, the place and region, the position, the upload time) each mean
/// something to the store, so each has its own code besides its entry here.
public struct RecordField: Sendable {
    /// What a field holds, and so how every reader checks it.
    public enum Kind: Sendable, Equatable {
        /// Text, never absent: missing or null reads as "" (title, description).
        case textOrEmpty
        /// As `textOrEmpty`; Flickr nests it as `{"_content": text}` (description).
        case nestedTextOrEmpty
        /// A URL: absent when missing, null or "".
        case url
        /// A short code (Flickr's license id): a string without spaces or control
        /// characters, or a number's digits, at most `maxCodeLength` bytes; absent when
        /// missing, null or "".
        case code
        /// A field with code of its own in each reader (its `Structural` case).
        case structural(Structural)

        /// Whether a plain field of this kind always has a text (missing reads as "").
        public var isNeverAbsent: Bool { self == .textOrEmpty || self == .nestedTextOrEmpty }
    }

    /// The fields each reader handles by name, because the store gives them a meaning.
    public enum Structural: Sendable, Equatable {
        case id, owner, ownerName, latitude, longitude, placeID, uploaded, regionID, region
    }

    /// How the reports show a field: a CSV column named by the key, a GeoJSON property named
    /// by the key, or neither.
    public struct Report: Sendable, Equatable {
        public var csv: Bool
        /// Its place among a GeoJSON feature's properties (they keep the order they had
        /// before this table); nil: not a property.
        public var geoJSONOrder: Int?
        /// GeoJSON shows the text's first words (`Reports.snippet`), not all of it.
        public var geoJSONSnippet = false

        public static let csv = Report(csv: true, geoJSONOrder: nil)
        public static func csvAndGeoJSON(_ order: Int, snippet: Bool = false) -> Report {
            Report(csv: true, geoJSONOrder: order, geoJSONSnippet: snippet)
        }
    }

    /// Its name in a record, and its column in `photo` when it is plain.
    public let key: String
    /// Flickr's name for it, read as well (the record's own name wins when both are there).
    public let flickrKey: String?
    public let kind: Kind
    /// Whether the full-text search index reads it (`regions-top --search`).
    public let searchIndexed: Bool
    public let report: Report
    /// Its value in `record`, as a record writes it (nil: left out).
    public let value: @Sendable (PhotoRecord) -> JSONValue?
    /// Sets a plain field's text (`nil`: absent).
    let setText: (@Sendable (inout PhotoRecord, String?) -> Void)?

    /// A plain field, kept as a text in `record[keyPath: text]`.
    init(plain key: String, flickr flickrKey: String? = nil, _ kind: Kind, searchIndexed: Bool = false, report: Report, text: WritableKeyPath<PhotoRecord, String?> & Sendable) {
        self.key = key
        self.flickrKey = flickrKey
        self.kind = kind
        self.searchIndexed = searchIndexed
        self.report = report
        self.value = { record in record[keyPath: text].map(JSONValue.string) }
        self.setText = { record, new in record[keyPath: text] = new }
    }

    /// A plain field that is never absent.
    init(plain key: String, _ kind: Kind, searchIndexed: Bool = false, report: Report, text: WritableKeyPath<PhotoRecord, String> & Sendable) {
        self.key = key
        self.flickrKey = nil
        self.kind = kind
        self.searchIndexed = searchIndexed
        self.report = report
        self.value = { record in .string(record[keyPath: text]) }
        self.setText = { record, new in record[keyPath: text] = new ?? "" }
    }

    init(structural: Structural, key: String, flickr flickrKey: String? = nil, searchIndexed: Bool = false, report: Report, value: @escaping @Sendable (PhotoRecord) -> JSONValue?) {
        self.key = key
        self.flickrKey = flickrKey
        self.kind = .structural(structural)
        self.searchIndexed = searchIndexed
        self.report = report
        self.value = value
        self.setText = nil
    }

    /// Whether it is kept as a text in a `photo` column named by its key.
    public var isPlain: Bool {
        if case .structural = kind { false } else { true }
    }

    /// The longest code accepted.
    public static let maxCodeLength = 32
}

extension PhotoRecord {
    /// Every field, in the order a record is written.
    public static let fields: [RecordField] = [
        RecordField(structural: .id, key: "id", report: .csvAndGeoJSON(0)) { .string($0.id) },
        RecordField(structural: .owner, key: "owner", report: .csv) { .string($0.owner) },
        RecordField(structural: .ownerName, key: "owner_name", flickr: "ownername", searchIndexed: true, report: .csvAndGeoJSON(3)) { .string($0.ownerName) },
        RecordField(plain: "title", .textOrEmpty, searchIndexed: true, report: .csvAndGeoJSON(1), text: \.title),
        RecordField(plain: "description", .nestedTextOrEmpty, searchIndexed: true, report: .csvAndGeoJSON(2, snippet: true), text: \.description),
        RecordField(structural: .latitude, key: "latitude", report: .csv) { $0.latitude.map { .number(JSONWriter.format($0)) } },
        RecordField(structural: .longitude, key: "longitude", report: .csv) { $0.longitude.map { .number(JSONWriter.format($0)) } },
        RecordField(structural: .placeID, key: "place_id", report: .csv) { $0.placeID.map(JSONValue.string) },
        RecordField(structural: .uploaded, key: "uploaded", flickr: "dateupload", report: .csv) { $0.uploaded.map { .number(String($0)) } },
        RecordField(plain: "thumb_url", flickr: "url_sq", .url, report: .csvAndGeoJSON(4), text: \.thumbURL),
        RecordField(plain: "photo_url", flickr: "url_l", .url, report: .csv, text: \.photoURL),
        RecordField(structural: .regionID, key: "region_id", report: .csv) { $0.regionID.map(JSONValue.string) },
        RecordField(structural: .region, key: "region", searchIndexed: true, report: .csvAndGeoJSON(6)) { $0.region.map(JSONValue.string) },
        // Added after the record format was first published: written last, where records that
        // carried it as an unknown member had it.
        RecordField(plain: "license", .code, report: .csvAndGeoJSON(5), text: \.license),
    ]

    /// The plain fields, in `fields`' order; a plain field's slot is its place here.
    public static let plainFields: [RecordField] = fields.filter(\.isPlain)

    /// The slot of the plain field named `key`.
    public static func plainSlot(_ key: String) -> Int {
        guard let slot = plainFields.firstIndex(where: { $0.key == key }) else { preconditionFailure("no plain field \(key)") }
        return slot
    }

    /// The plain field's text in this record.
    public func text(ofPlain slot: Int) -> String? {
        if case .string(let text)? = Self.plainFields[slot].value(self) { return text }
        return nil
    }

    /// Sets the plain field's text.
    public mutating func setText(_ text: String?, ofPlain slot: Int) {
        Self.plainFields[slot].setText!(&self, text)
    }
}
