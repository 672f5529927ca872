/// A JSON value that keeps what a filter must pass on unchanged: object members stay in
/// their input order and numbers keep their exact text (`1.50` stays `1.50`, a 20-digit
/// integer is not rounded through a Double).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, already checked against the JSON grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public static func number(_ value: Int64) -> JSONValue { .number(String(value)) }
    public static func number(_ value: Double) -> JSONValue { .number(JSONWriter.format(value)) }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// A short description of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object whose members keep their order. Lookups are linear, which beats hashing
/// for the dozen or so members a photo record has.
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    public subscript(key: String) -> JSONValue? {
        get {
            // The last occurrence wins, as in most JSON readers.
            // Comparing lengths first skips String ==, which is slow for short strings that differ.
            let length = key.utf8.count
            for member in members.reversed() where member.key.utf8.count == length && member.key == key {
                return member.value
            }
            return nil
        }
        set {
            let length = key.utf8.count
            if let index = members.lastIndex(where: { $0.key.utf8.count == length && $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public var isEmpty: Bool { members.isEmpty }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
