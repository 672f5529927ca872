import Foundation

/// An address to listen on, as `--bind` gives it.
public struct ListenAddress: Sendable {
    /// As given (`127.0.0.1`, `::1`).
    public var text: String
    public var isLoopback: Bool
    /// 0.0.0.0 or ::: every address of the machine.
    public var isWildcard: Bool
    public var isIPv6: Bool

    public static func parse(_ text: String) -> ListenAddress? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let first = UInt32(bigEndian: v4.s_addr) >> 24
            return ListenAddress(text: text, isLoopback: first == 127, isWildcard: v4.s_addr == 0, isIPv6: false)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            let loopback = bytes == Array(repeating: 0, count: 15) + [1]
            return ListenAddress(text: text, isLoopback: loopback, isWildcard: bytes.allSatisfy { $0 == 0 }, isIPv6: true)
        }
        return nil
    }

    /// The Host header values a browser sends for this address and `port`: the address
    /// itself, and `localhost` for a loopback one. Nil for a wildcard (any name may lead here).
    public func hosts(port: Int) -> Set<String>? {
        guard !isWildcard else { return nil }
        let literal = isIPv6 ? "[\(text.lowercased())]" : text
        var names = [literal]
        if isLoopback { names.append("localhost") }
        var hosts = Set(names.map { "\($0):\(port)" })
        if port == 80 { hosts.formUnion(names) }
        return hosts
    }

    /// The address in a URL.
    public func url(port: Int) -> String {
        "http://\(isIPv6 ? "[\(text)]" : text):\(port)/"
    }
}
