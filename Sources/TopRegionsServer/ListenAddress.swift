import Foundation

/// An address to listen on, as `--bind` gives it: an IP address, or a host name that resolves
/// to one (`localhost`).
public struct ListenAddress: Sendable {
    /// The IP address listened on, as given or as the name resolved (`127.0.0.1`, `::1`).
    public var text: String
    /// The host name given, when `--bind` named one.
    public var name: String?
    public var isLoopback: Bool
    /// 0.0.0.0 or ::: every address of the machine.
    public var isWildcard: Bool
    public var isIPv6: Bool

    /// An IP address; nil for anything else.
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

    /// An IP address, or a host name and the first address it resolves to (IPv4 first, as
    /// most names that lead to a machine have one); nil when it is neither.
    public static func resolve(_ text: String) -> ListenAddress? {
        if let address = parse(text) { return address }
        guard isHostName(text) else { return nil }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(text, nil, &hints, &result) == 0, let result else { return nil }
        defer { freeaddrinfo(result) }
        var found: [ListenAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = result
        while let entry = next {
            defer { next = entry.pointee.ai_next }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard let address = entry.pointee.ai_addr else { continue }
            let written: UnsafePointer<CChar>?
            switch entry.pointee.ai_family {
            case AF_INET:
                written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket in
                    var raw = socket.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                written = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { socket in
                    var raw = socket.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                }
            default:
                written = nil
            }
            if let written, var address = parse(String(cString: written)) {
                address.name = text
                found.append(address)
            }
        }
        return found.first { !$0.isIPv6 } ?? found.first
    }

    /// Letters, digits, '-' and '.', as DNS names are written (no port, no path).
    public static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253 && !text.hasPrefix("-") && !text.hasPrefix(".")
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x2E }
    }

    /// The address as a Host header writes it: IPv6 in brackets, lowercased.
    public var hostLiteral: String {
        isIPv6 ? "[\(text.lowercased())]" : text
    }

    /// The address in a URL: the name given, else the address.
    public func url(port: Int) -> String {
        "http://\(name ?? hostLiteral):\(port)/"
    }

    /// The URL that opens the server from this machine, as the first line says it: for
    /// every address (0.0.0.0, ::), the loopback one, where http://0.0.0.0:PORT/ is
    /// refused by browsers (Chrome blocks 0.0.0.0) and [::] opens nowhere.
    public func openableURL(port: Int) -> String {
        guard isWildcard, name == nil else { return url(port: port) }
        return isIPv6 ? "http://[::1]:\(port)/" : "http://127.0.0.1:\(port)/"
    }
}
