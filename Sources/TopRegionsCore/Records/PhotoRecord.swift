import Foundation
import TopRegionsSupport

/// One photo as it travels between the stages: the record format documented in
/// `man/topregions-record.7`.
///
/// The decoder accepts both the normalized record and Flickr's raw photo object (numbers as
/// strings, `description._content`, `ownername`, `dateupload`, `url_sq`, `url_l`), so a saved
/// Flickr search page can be piped straight in. Fields it does not know are kept in
/// `extra`, in input order, and written back unchanged.
public struct PhotoRecord: Sendable, Equatable {
    /// Flickr photo id: decimal digits, at most `maxIDDigits` of them.
    public var id: String
    /// The photographer's NSID (e.g. `12345678@N04`): the photographer's identity.
    public var owner: String
    /// The photographer's display name (not unique).
    public var ownerName: String
    public var title: String
    public var description: String
    public var latitude: Double?
    public var longitude: Double?
    /// Flickr place id of the place the photo is in; nil when Flickr attached none.
    public var placeID: String?
    /// Upload time, Unix seconds.
    public var uploaded: Int64?
    /// Square 75 px thumbnail URL (`_s`).
    public var thumbURL: String?
    /// Large 1024 px photo URL (`_b`).
    public var photoURL: String?
    /// Flickr's license id (`"4"`: CC BY 2.0; `PhotoLicense` names them).
    public var license: String?
    /// The region's own Flickr place id, once the place is resolved.
    public var regionID: String?
    /// The region's display name.
    public var region: String?
    /// Members this version of the toolkit does not know, passed on unchanged.
    public var extra: JSONObject

    public init(
        id: String, owner: String, ownerName: String = "", title: String = "", description: String = "",
        latitude: Double? = nil, longitude: Double? = nil, placeID: String? = nil, uploaded: Int64? = nil,
        thumbURL: String? = nil, photoURL: String? = nil, license: String? = nil, regionID: String? = nil,
        region: String? = nil, extra: JSONObject = JSONObject()
    ) {
        self.id = id
        self.owner = owner
        self.ownerName = ownerName
        self.title = title
        self.description = description
        self.latitude = latitude
        self.longitude = longitude
        self.placeID = placeID
        self.uploaded = uploaded
        self.thumbURL = thumbURL
        self.photoURL = photoURL
        self.license = license
        self.regionID = regionID
        self.region = region
        self.extra = extra
    }

    /// The longest photo id accepted (Flickr's are 11 digits today).
    public static let maxIDDigits = 32
    /// The longest owner (NSID) accepted.
    public static let maxOwnerLength = 255
    /// The longest place or region id accepted.
    public static let maxPlaceIDLength = 128

    /// Whether `id` has the form of a Flickr photo id: 1 to 32 ASCII digits.
    public static func isPhotoID(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= maxIDDigits && utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Names the decoder understands: the record's own, and the Flickr names that mean the
    /// same thing (from `fields`). They never end up in `extra`.
    package enum Field: Equatable, Sendable {
        case id, owner, ownerName, flickrOwnerName, latitude, longitude, placeID, uploaded, flickrUploaded, regionID, region
        /// A plain field, by its slot in `plainFields`, named by the record's name or Flickr's.
        case plain(slot: Int, flickr: Bool)

        /// A bit of its own, to notice a member named twice.
        package var bit: UInt64 {
            switch self {
            case .id: 1 << 0
            case .owner: 1 << 1
            case .ownerName: 1 << 2
            case .flickrOwnerName: 1 << 3
            case .latitude: 1 << 4
            case .longitude: 1 << 5
            case .placeID: 1 << 6
            case .uploaded: 1 << 7
            case .flickrUploaded: 1 << 8
            case .regionID: 1 << 9
            case .region: 1 << 10
            case .plain(let slot, let flickr): 1 << (11 + 2 * UInt64(slot) + (flickr ? 1 : 0))
            }
        }

        /// Every name, with the field it names.
        private static let named: [(name: [UInt8], field: Field)] = {
            var named: [(name: [UInt8], field: Field)] = []
            for field in PhotoRecord.fields {
                switch field.kind {
                case .structural(let structural):
                    let (own, flickr): (Field, Field?) = switch structural {
                    case .id: (.id, nil)
                    case .owner: (.owner, nil)
                    case .ownerName: (.ownerName, .flickrOwnerName)
                    case .latitude: (.latitude, nil)
                    case .longitude: (.longitude, nil)
                    case .placeID: (.placeID, nil)
                    case .uploaded: (.uploaded, .flickrUploaded)
                    case .regionID: (.regionID, nil)
                    case .region: (.region, nil)
                    }
                    named.append((Array(field.key.utf8), own))
                    if let flickr, let key = field.flickrKey { named.append((Array(key.utf8), flickr)) }
                default:
                    let slot = PhotoRecord.plainSlot(field.key)
                    named.append((Array(field.key.utf8), .plain(slot: slot, flickr: false)))
                    if let key = field.flickrKey { named.append((Array(key.utf8), .plain(slot: slot, flickr: true))) }
                }
            }
            precondition(named.count <= 64, "more names than Field.bit has bits")
            return named
        }()

        /// Fields grouped by name length, so a key is compared with two or three names at
        /// most, byte by byte. (String == on short strings that differ takes Unicode's slow
        /// path; a chain of them was the decoder's largest cost.)
        private static let byLength: [[(name: [UInt8], field: Field)]] = {
            var table = [[(name: [UInt8], field: Field)]](repeating: [], count: (named.map(\.name.count).max() ?? 0) + 1)
            for entry in named { table[entry.name.count].append(entry) }
            return table
        }()

        init?(name key: String) {
            var key = key
            let found: Field? = key.withUTF8 { utf8 in
                guard let base = utf8.baseAddress else { return nil }
                return Field(utf8: base, count: utf8.count)
            }
            guard let found else { return nil }
            self = found
        }

        /// The field named by `count` bytes at `name`.
        package init?(utf8 name: UnsafePointer<UInt8>, count: Int) {
            guard count < Self.byLength.count,
                  let found = Self.byLength[count].first(where: { entry in entry.name.withUnsafeBufferPointer { memcmp(name, $0.baseAddress!, count) == 0 } })
            else { return nil }
            self = found.field
        }
    }
}

/// Why a JSON object is not a usable photo record. `field` names the member at fault so
/// the caller can point at its column.
public struct RecordError: Error, Sendable, Equatable {
    public var field: String?
    public var message: String
}

extension PhotoRecord {
    /// Reads a record from a JSON object, normalizing Flickr's representations.
    public init(json object: JSONObject) throws(RecordError) {
        var id: String?
        var owner: String?
        var ownerName: String?, flickrOwnerName: String?
        var latitude: Double?, longitude: Double?
        var placeID: String?
        var uploaded: Int64?, flickrUploaded: Int64?
        var regionID: String?, region: String?
        // Plain fields' texts by slot, under the record's name and under Flickr's.
        var plain = [String?](repeating: nil, count: Self.plainFields.count)
        var flickrPlain = plain
        var extra = JSONObjectBuilder()

        for (key, value) in object.members {
            guard let field = Field(name: key) else {
                extra.set(key, value)
                continue
            }
            switch field {
            case .id: id = try Self.photoID(value, key)
            case .owner: owner = try Self.identifier(value, key, maxLength: Self.maxOwnerLength)
            case .ownerName: ownerName = try Self.text(value, key)
            case .flickrOwnerName: flickrOwnerName = try Self.text(value, key)
            case .latitude: latitude = try Self.coordinate(value, key, limit: 90)
            case .longitude: longitude = try Self.coordinate(value, key, limit: 180)
            case .placeID: placeID = try Self.optionalIdentifier(value, key, maxLength: Self.maxPlaceIDLength)
            case .uploaded: uploaded = try Self.uploadTime(value, key)
            case .flickrUploaded: flickrUploaded = try Self.uploadTime(value, key)
            case .regionID:
                regionID = try Self.optionalIdentifier(value, key, maxLength: Self.maxPlaceIDLength)
                if let id = regionID, !Self.isRegionID(id.utf8) {
                    throw RecordError(field: key, message: """
                        field "\(key)" must be a Flickr place id (letters, digits, '.', '-' and '_', not only dots): \
                        every page and file of the region is named by it, not \(Excerpt.quoted(id))
                        """)
                }
            case .region: region = try Self.text(value, key)
            case .plain(let slot, let flickr):
                let text = try Self.plainText(value, key, Self.plainFields[slot].kind)
                if flickr { flickrPlain[slot] = text } else { plain[slot] = text }
            }
        }
        guard let id else { throw RecordError(field: nil, message: "missing field \"id\"") }
        guard let owner else { throw RecordError(field: nil, message: "missing field \"owner\" (the photographer's NSID)") }
        if region != nil, regionID == nil {
            throw RecordError(field: "region", message: "field \"region\" needs \"region_id\" (the region's place id)")
        }
        self.init(
            id: id, owner: owner, ownerName: ownerName ?? flickrOwnerName ?? "",
            latitude: latitude, longitude: longitude, placeID: placeID, uploaded: uploaded ?? flickrUploaded,
            regionID: regionID, region: regionID == nil ? nil : (region ?? ""), extra: extra.object)
        for slot in plain.indices {
            setText(plain[slot] ?? flickrPlain[slot], ofPlain: slot)
        }
    }

    /// A plain field's text, as its kind reads it.
    private static func plainText(_ value: JSONValue, _ key: String, _ kind: RecordField.Kind) throws(RecordError) -> String? {
        switch kind {
        case .textOrEmpty: try text(value, key)
        case .nestedTextOrEmpty:
            if case .object(let nested) = value, let content = nested["_content"] { try text(content, key) } else { try text(value, key) }
        case .url: try url(value, key)
        case .code: try optionalIdentifier(value, key, maxLength: RecordField.maxCodeLength)
        case .structural: nil
        }
    }

    /// Fills in missing image URLs from Flickr's `server` and `secret` fields, in today's
    /// `live.staticflickr.com` form (or under `staticBase`, for a fake or a mirror).
    public mutating func fillImageURLs(staticBase: String) {
        guard thumbURL == nil || photoURL == nil,
              let server = extra["server"].flatMap(Self.plainString), let secret = extra["secret"].flatMap(Self.plainString),
              Self.isURLSafe(server), Self.isURLSafe(secret), Self.isURLSafe(id)
        else { return }
        let base = staticBase.hasSuffix("/") ? String(staticBase.dropLast()) : staticBase
        if thumbURL == nil { thumbURL = "\(base)/\(server)/\(id)_\(secret)_s.jpg" }
        if photoURL == nil { photoURL = "\(base)/\(server)/\(id)_\(secret)_b.jpg" }
    }

    // MARK: Tolerant field readers

    private static func plainString(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): s
        case .number(let n): n
        default: nil
        }
    }

    private static func isURLSafe(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }

    /// A photo id: decimal digits (a string, or a number: some exporters drop the quotes),
    /// so an id can never be a path, and at most 32 of them.
    private static func photoID(_ value: JSONValue, _ key: String) throws(RecordError) -> String {
        let id = try identifier(value, key, maxLength: maxIDDigits)
        guard isPhotoID(id) else {
            throw RecordError(field: key, message: "field \"\(key)\" must be a photo id: decimal digits only, not \(Excerpt.quoted(id))")
        }
        return id
    }

    /// Owner, place and region ids are opaque strings without spaces or control
    /// characters, of a bounded length; a number is accepted (some exporters drop the quotes).
    /// Whether `id` can be a region's id: made of what Flickr's place ids are made of
    /// (letters, digits, '.', '-', '_'), and not only dots. A region's pages and files are
    /// named by its id, so an id such as `..` or `a/../b` would be stored and never reachable.
    public static func isRegionID<Bytes: Collection<UInt8>>(_ id: Bytes) -> Bool {
        var onlyDots = true
        for byte in id {
            switch byte {
            case 0x2E: continue
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F: onlyDots = false
            default: return false
            }
        }
        return !id.isEmpty && !onlyDots
    }

    private static func identifier(_ value: JSONValue, _ key: String, maxLength: Int) throws(RecordError) -> String {
        guard let id = try optionalIdentifier(value, key, maxLength: maxLength) else {
            throw RecordError(field: key, message: "field \"\(key)\" is empty")
        }
        return id
    }

    private static func optionalIdentifier(_ value: JSONValue, _ key: String, maxLength: Int) throws(RecordError) -> String? {
        switch value {
        case .null: return nil
        case .string(let s):
            if s.isEmpty { return nil }
            var text = s
            let clean = text.withUTF8 { utf8 in !utf8.contains { $0 <= 0x20 || $0 == 0x7F } }
            guard clean else {
                throw RecordError(field: key, message: "field \"\(key)\" contains whitespace or control characters")
            }
            guard s.utf8.count <= maxLength else {
                throw RecordError(field: key, message: "field \"\(key)\" is \(s.utf8.count) bytes long; at most \(maxLength) are accepted")
            }
            return s
        case .number(let n) where !n.contains(where: { $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" }):
            guard n.utf8.count <= maxLength else {
                throw RecordError(field: key, message: "field \"\(key)\" is \(n.utf8.count) digits long; at most \(maxLength) are accepted")
            }
            return n
        case .number(let n):
            // Whole digits only: 1e5 or 12.0 as an id would be another text than Flickr's.
            throw RecordError(field: key, message: "field \"\(key)\" is \(n): give it as a string, or a number of digits alone (no sign, fraction or exponent)")
        default: throw RecordError(field: key, message: "field \"\(key)\" must be a string, not \(value.kindName)")
        }
    }

    private static func text(_ value: JSONValue, _ key: String) throws(RecordError) -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        case .number(let n): return n
        default: throw RecordError(field: key, message: "field \"\(key)\" must be a string, not \(value.kindName)")
        }
    }

    private static func url(_ value: JSONValue, _ key: String) throws(RecordError) -> String? {
        guard let s = try text(value, key), !s.isEmpty else { return nil }
        return s
    }

    /// Flickr sends coordinates as numbers or numeric strings, photo to photo.
    private static func coordinate(_ value: JSONValue, _ key: String, limit: Double) throws(RecordError) -> Double? {
        guard let (text, shown) = try numberText(value, key, "a number") else { return nil }
        // A number too large for a Double (1e400) reads as infinite: out of range as well.
        guard let number = Double(text), abs(number) <= limit else {
            throw RecordError(field: key, message: "field \"\(key)\" is \(shown), out of range (-\(Int(limit))…\(Int(limit)))")
        }
        return number
    }

    /// The text of a number, or of a string that holds one (spaces around it aside), and
    /// that text as a message shows it; nil for null or an empty string. Only decimal number
    /// text: Swift's Double() would also read "0x1F", "inf", "nan". `expected` says what the
    /// field must be ("a number").
    private static func numberText(_ value: JSONValue, _ key: String, _ expected: String) throws(RecordError) -> (text: String, shown: String)? {
        switch value {
        case .null: return nil
        case .number(let text): return (text, Excerpt.of(text))
        case .string(let string):
            let text = string.trimmingSpaces()
            if text.isEmpty { return nil }
            guard JSONParser.isNumber(text) else {
                throw RecordError(field: key, message: "field \"\(key)\" must be \(expected), not \(Excerpt.quoted(string))")
            }
            return (text, Excerpt.quoted(text))
        default: throw RecordError(field: key, message: "field \"\(key)\" must be \(expected), not \(value.kindName)")
        }
    }

    /// An upload time: Unix seconds, not before 1970.
    private static func uploadTime(_ value: JSONValue, _ key: String) throws(RecordError) -> Int64? {
        guard let seconds = try integer(value, key) else { return nil }
        guard seconds >= 0 else {
            throw RecordError(field: key, message: "field \"\(key)\" is \(seconds), before 1970: an upload time is Unix seconds")
        }
        return seconds
    }

    /// Unix seconds; Flickr sends `"1700000123"`, exporters sometimes `1700000123.0`.
    private static func integer(_ value: JSONValue, _ key: String) throws(RecordError) -> Int64? {
        guard let (text, shown) = try numberText(value, key, "a whole number") else { return nil }
        if let exact = Int64(text) { return exact }
        // Number text, so Double reads it: infinite when too large for one (1e400).
        let double = Double(text) ?? .infinity
        guard !double.isFinite || double == double.rounded() else {
            throw RecordError(field: key, message: "field \"\(key)\" must be a whole number, not \(shown)")
        }
        guard abs(double) < 9e15 else {
            throw RecordError(field: key, message: "field \"\(key)\" is \(shown), out of range for Unix seconds")
        }
        return Int64(double)
    }
}

extension PhotoRecord {
    /// Writes the normalized record as one compact JSON object: known fields in a fixed
    /// order, then the unknown ones as they came, then `additional` (stage outputs such as
    /// `thumb_path`), which replace unknown fields of the same name.
    public func write(to writer: inout JSONWriter, additional: [(String, JSONValue)] = []) {
        writer.object { o in
            for field in Self.fields {
                o.value(field.key, field.value(self))
            }
            for (key, value) in extra.members where !additional.contains(where: { $0.0 == key }) {
                o.value(key, value)
            }
            for (key, value) in additional {
                o.value(key, value)
            }
        }
    }

    /// The record as one NDJSON line, newline included.
    public func ndjsonLine(additional: [(String, JSONValue)] = []) -> [UInt8] {
        var writer = JSONWriter()
        write(to: &writer, additional: additional)
        writer.newline()
        return writer.bytes
    }
}
