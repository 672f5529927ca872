/// Builds one compact JSON object, members in the order they are added. Hand-written rather
/// than Codable because the fake must choose, field by field, whether a number goes out as a
/// JSON number or as a string, the way Flickr does.
struct JSONObject {
    private var text = "{"
    private var hasMembers = false

    mutating func add(_ key: String, string value: String) {
        addKey(key)
        appendQuoted(value, to: &text)
    }

    mutating func add(_ key: String, number value: some BinaryInteger) {
        addKey(key)
        text += String(value)
    }

    /// A number written either bare or quoted: the type flipping Flickr's decoders must survive.
    mutating func add(_ key: String, numeral: String, quoted: Bool) {
        addKey(key)
        text += quoted ? "\"\(numeral)\"" : numeral
    }

    mutating func add(_ key: String, object: JSONObject) {
        addKey(key)
        text += object.serialized
    }

    /// Already-serialized JSON, e.g. an array.
    mutating func add(_ key: String, json: String) {
        addKey(key)
        text += json
    }

    var serialized: String {
        text + "}"
    }

    private mutating func addKey(_ key: String) {
        if hasMembers { text += "," }
        hasMembers = true
        appendQuoted(key, to: &text)
        text += ":"
    }
}

func jsonArray(_ elements: [String]) -> String {
    "[" + elements.joined(separator: ",") + "]"
}

/// RFC 8259 string escaping; non-ASCII is written as UTF-8, as Flickr does.
func appendQuoted(_ value: String, to text: inout String) {
    text += "\""
    // Most strings need no escaping: append those whole rather than scalar by scalar.
    if value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
        appendEscaped(value, to: &text)
    } else {
        text += value
    }
    text += "\""
}

private func appendEscaped(_ value: String, to text: inout String) {
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default:
            text.unicodeScalars.append(scalar)
        }
    }
}
