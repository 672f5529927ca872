/// A request's query string, percent-decoded (so `,` and `%2C` are the same) with `+` as a
/// space. When a name repeats, the last value wins.
struct QueryParameters: Sendable {
    let pairs: [(name: String, value: String)]

    init(rawQuery: String?) {
        pairs = (rawQuery ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    subscript(name: String) -> String? {
        pairs.last { $0.name == name }?.value
    }

    /// Every parameter but the API key, by name: what the request log shows.
    var loggable: [(name: String, value: String)] {
        var latest: [String: String] = [:]
        for pair in pairs where pair.name != "api_key" { latest[pair.name] = pair.value }
        return latest.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    /// The identity of a REST request for fault decisions: its parameters minus the API key,
    /// sorted, so that retries of the same call count as attempts of one request whatever
    /// the parameter order or key.
    var requestKey: String {
        loggable.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                // A malformed escape is kept literally, as lenient servers do.
                let high = iterator.next()
                let low = iterator.next()
                if let high, let low, let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                } else {
                    bytes.append(byte)
                    bytes += [high, low].compactMap { $0 }
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
