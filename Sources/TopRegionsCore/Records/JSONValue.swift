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

/// Builds a `JSONObject` one member at a time, each name once, in time linear in the
/// members: the object's own lookups are linear, so setting n members through its
/// subscript took time quadratic in n (a line with 80,000 members, minutes). A few
/// members are found by comparing names, as `JSONObject` does; past `hashingFrom`, a
/// dictionary of names keeps each lookup constant.
public struct JSONObjectBuilder: Sendable {
    public private(set) var object = JSONObject()
    /// Each name's position in `object`, once there are `hashingFrom` members or more.
    private var positions: [String: Int] = [:]
    static let hashingFrom = 16

    public init() {}

    /// The position of the member named `key`, if there is one.
    public func position(of key: String) -> Int? {
        let members = object.members
        guard members.count >= Self.hashingFrom else {
            let length = key.utf8.count
            return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
        }
        return positions[key]
    }

    /// Adds the member `key`, or gives the one of that name `value` in its place (as
    /// `JSONObject`'s subscript does: a repeated name keeps its first position and its
    /// last value).
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let position = position(of: key) {
            object.members[position].value = value
        } else {
            append(key, value)
        }
    }

    /// Adds the member `key` unless one of that name is there; returns whether it was added.
    public mutating func addIfNew(_ key: String, _ value: JSONValue) -> Bool {
        guard position(of: key) == nil else { return false }
        append(key, value)
        return true
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        object.members.append((key, value))
        let count = object.members.count
        if count == Self.hashingFrom {
            positions.reserveCapacity(2 * count)
            for (position, member) in object.members.enumerated() { positions[member.key] = position }
        } else if count > Self.hashingFrom {
            positions[key] = count - 1
        }
    }
}
