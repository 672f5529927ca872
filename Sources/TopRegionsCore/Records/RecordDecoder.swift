import TopRegionsSupport

/// A line of input that is not a usable photo record, located for the user.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    /// 1-based, in characters; nil when no single place is to blame.
    public var column: Int?
    public var message: String

    public var description: String {
        if let column { return "\(source): line \(line), column \(column): \(message)" }
        return "\(source): line \(line): \(message)"
    }
}

/// Turns NDJSON lines into photo records.
///
/// A line is a photo record (ours or Flickr's raw photo object). A line holding a whole
/// Flickr search response (`{"photos":{"photo":[...]},"stat":"ok"}`, optionally wrapped as
/// `jsonFlickrApi(...)`) yields all its photos, so a saved Flickr page can be piped in.
/// Blank lines are ignored.
public enum RecordDecoder {
    public static func decode(line: UnsafeBufferPointer<UInt8>, number: Int, source: String) throws(InputError) -> [PhotoRecord] {
        var body = line
        if isBlank(body) { return [] }
        body = unwrapJSONP(body)
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            let offset = error.offset + (body.baseAddress.map { line.baseAddress!.distance(to: $0) } ?? 0)
            throw InputError(source: source, line: number, column: column(of: offset, in: line), message: "invalid JSON: \(error.message)")
        }
        guard case .object(let object) = value else {
            throw InputError(source: source, line: number, column: 1, message: "expected a JSON object (a photo record), found \(value.kindName)")
        }
        if let page = object["photos"]?.objectValue, let photos = page["photo"]?.arrayValue {
            return try decodePage(object, photos: photos, number: number, source: source)
        }
        if object["stat"]?.stringValue == "fail" {
            throw InputError(source: source, line: number, column: 1, message: "a Flickr error response, not photos: \(flickrError(object))")
        }
        do {
            return [try PhotoRecord(json: object)]
        } catch {
            let column = error.field.flatMap { find(key: $0, in: line) } ?? 1
            throw InputError(source: source, line: number, column: column, message: error.message)
        }
    }

    private static func decodePage(_ response: JSONObject, photos: [JSONValue], number: Int, source: String) throws(InputError) -> [PhotoRecord] {
        var records: [PhotoRecord] = []
        records.reserveCapacity(photos.count)
        for (index, element) in photos.enumerated() {
            guard case .object(let object) = element else {
                throw InputError(source: source, line: number, column: nil, message: "photos.photo[\(index)]: expected an object, found \(element.kindName)")
            }
            do {
                records.append(try PhotoRecord(json: object))
            } catch {
                throw InputError(source: source, line: number, column: nil, message: "photos.photo[\(index)]: \(error.message)")
            }
        }
        return records
    }

    private static func flickrError(_ object: JSONObject) -> String {
        let code: String = switch object["code"] {
        case .number(let n): n
        case .string(let s): s
        default: "?"
        }
        return "code \(Excerpt.of(code)): \(object["message"]?.stringValue.map(Excerpt.of) ?? "no message")"
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// `jsonFlickrApi({...})` is what Flickr sends without `nojsoncallback=1`.
    private static func unwrapJSONP(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let prefix = Array("jsonFlickrApi(".utf8)
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard line.count - start > prefix.count, Array(line[start..<(start + prefix.count)]) == prefix else { return line }
        var end = line.count
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == UInt8(ascii: ";") { end -= 1 }
        guard end > start + prefix.count, line[end - 1] == UInt8(ascii: ")") else { return line }
        return UnsafeBufferPointer(rebasing: line[(start + prefix.count)..<(end - 1)])
    }

    /// 1-based character column of a byte offset (continuation bytes do not count).
    static func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        for i in 0..<min(offset, line.count) where line[i] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// Column of the first `"key"` followed by a colon, to point at a bad field.
    static func find(key: String, in line: UnsafeBufferPointer<UInt8>) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        guard line.count >= needle.count else { return nil }
        var i = 0
        while i <= line.count - needle.count {
            if line[i] == needle[0], Array(line[i..<(i + needle.count)]) == needle {
                var j = i + needle.count
                while j < line.count, line[j] == 0x20 || line[j] == 0x09 { j += 1 }
                if j < line.count, line[j] == UInt8(ascii: ":") { return column(of: i, in: line) }
            }
            i += 1
        }
        return nil
    }
}
