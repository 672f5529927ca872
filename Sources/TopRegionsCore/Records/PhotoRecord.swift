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
    /// The region's own Flickr place id, once the place is resolved.
    public var regionID: String?
    /// The region's display name.
    public var region: String?
    /// Members this version of the toolkit does not know, passed on unchanged.
    public var extra: JSONObject

    public init(
        id: String, owner: String, ownerName: String = "", title: String = "", description: String = "",
        latitude: Double? = nil, longitude: Double? = nil, placeID: String? = nil, uploaded: Int64? = nil,
        thumbURL: String? = nil, photoURL: String? = nil, regionID: String? = nil, region: String? = nil,
        extra: JSONObject = JSONObject()
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
    /// same thing. They never end up in `extra`.
    package enum Field: Int, CaseIterable {
        case id, owner, ownerName, flickrOwnerName, title, description, latitude, longitude, placeID
        case uploaded, flickrUploaded, thumbURL, flickrThumbURL, photoURL, flickrPhotoURL, regionID, region

        var name: StaticString {
            switch self {
            case .id: "id"
            case .owner: "owner"
            case .ownerName: "owner_name"
            case .flickrOwnerName: "ownername"
            case .title: "title"
            case .description: "description"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .placeID: "place_id"
            case .uploaded: "uploaded"
            case .flickrUploaded: "dateupload"
            case .thumbURL: "thumb_url"
            case .flickrThumbURL: "url_sq"
            case .photoURL: "photo_url"
            case .flickrPhotoURL: "url_l"
            case .regionID: "region_id"
            case .region: "region"
            }
        }

        /// Fields grouped by name length, so a key is compared with two or three names at
        /// most, byte by byte. (String == on short strings that differ takes Unicode's slow
        /// path; a chain of them was the decoder's largest cost.)
        private static let byLength: [[Field]] = {
            var table = [[Field]](repeating: [], count: 12)
            for field in allCases { table[field.name.utf8CodeUnitCount].append(field) }
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
                  let found = Self.byLength[count].first(where: { memcmp(name, $0.name.utf8Start, count) == 0 })
            else { return nil }
            self = found
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
        var title = "", description = ""
        var latitude: Double?, longitude: Double?
        var placeID: String?
        var uploaded: Int64?, flickrUploaded: Int64?
        var thumbURL: String?, flickrThumbURL: String?
        var photoURL: String?, flickrPhotoURL: String?
        var regionID: String?, region: String?
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
            case .title: title = try Self.text(value, key) ?? ""
            case .description:
                // Flickr nests it: {"_content": "..."}.
                if case .object(let nested) = value, let content = nested["_content"] {
                    description = try Self.text(content, key) ?? ""
                } else {
                    description = try Self.text(value, key) ?? ""
                }
            case .latitude: latitude = try Self.coordinate(value, key, limit: 90)
            case .longitude: longitude = try Self.coordinate(value, key, limit: 180)
            case .placeID: placeID = try Self.optionalIdentifier(value, key, maxLength: Self.maxPlaceIDLength)
            case .uploaded: uploaded = try Self.uploadTime(value, key)
            case .flickrUploaded: flickrUploaded = try Self.uploadTime(value, key)
            case .thumbURL: thumbURL = try Self.url(value, key)
            case .flickrThumbURL: flickrThumbURL = try Self.url(value, key)
            case .photoURL: photoURL = try Self.url(value, key)
            case .flickrPhotoURL: flickrPhotoURL = try Self.url(value, key)
            case .regionID: regionID = try Self.optionalIdentifier(value, key, maxLength: Self.maxPlaceIDLength)
            case .region: region = try Self.text(value, key)
            }
        }
        guard let id else { throw RecordError(field: nil, message: "missing field \"id\"") }
        guard let owner else { throw RecordError(field: nil, message: "missing field \"owner\" (the photographer's NSID)") }
        if region != nil, regionID == nil {
            throw RecordError(field: "region", message: "field \"region\" needs \"region_id\" (the region's place id)")
        }
        self.init(
            id: id, owner: owner, ownerName: ownerName ?? flickrOwnerName ?? "", title: title, description: description,
            latitude: latitude, longitude: longitude, placeID: placeID, uploaded: uploaded ?? flickrUploaded,
            thumbURL: thumbURL ?? flickrThumbURL, photoURL: photoURL ?? flickrPhotoURL,
            regionID: regionID, region: regionID == nil ? nil : (region ?? ""), extra: extra.object)
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
            o.string("id", id)
            o.string("owner", owner)
            o.string("owner_name", ownerName)
            o.string("title", title)
            o.string("description", description)
            o.double("latitude", latitude)
            o.double("longitude", longitude)
            o.string("place_id", placeID)
            o.int("uploaded", uploaded)
            o.string("thumb_url", thumbURL)
            o.string("photo_url", photoURL)
            o.string("region_id", regionID)
            o.string("region", region)
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
