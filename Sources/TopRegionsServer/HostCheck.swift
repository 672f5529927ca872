import Foundation
import Synchronization

/// Which Host header values the server answers to, whatever address it listens on.
///
/// DNS rebinding: a page on another site whose name is then pointed at this machine reaches
/// the server with the browser's blessing, as the same origin, but its requests still carry
/// the other site's name as their Host. So a request is answered only when its Host names
/// this server: the address it listens on, `localhost` when that is a loopback address, and,
/// when it listens beyond this machine, the machine's own addresses and host name; plus the
/// names given with `--allow-host` (a reverse proxy's, a name in the local DNS). A wildcard
/// bind (0.0.0.0, ::) is no exception: that is where a rebinding page is most at home.
final class HostCheck: Sendable {
    /// The server's port: a Host naming this machine must name it too (none means 80).
    let port: Int
    /// Names and address literals (lowercased; IPv6 in brackets) accepted with the port.
    let names: Set<String>
    /// Names given with `--allow-host`, accepted with any port or none: a reverse proxy in
    /// front forwards its own (443, 80).
    let allowed: Set<String>
    /// Whether the machine's own addresses are accepted: it listens beyond loopback.
    let acceptsMachineAddresses: Bool
    /// The machine's addresses, looked up again when a Host names an address not among them
    /// (addresses come and go with networks).
    private let machineAddresses = Mutex<Set<String>>([])

    init(address: ListenAddress, port: Int, allowed: [String] = [], machine: MachineIdentity = .current()) {
        self.port = port
        var names: Set<String> = [address.hostLiteral]
        if let name = address.name { names.insert(name.lowercased()) }
        if address.isLoopback { names.insert("localhost") }
        acceptsMachineAddresses = !address.isLoopback
        if acceptsMachineAddresses {
            names.formUnion(machine.names.map { $0.lowercased() })
            names.insert("localhost")
        }
        self.names = names
        self.allowed = Set(allowed.map { Self.normalized($0) })
        machineAddresses.withLock { $0 = machine.addresses }
    }

    /// Whether a request whose Host header is `authority` may be answered.
    func allows(_ authority: String?) -> Bool {
        guard let authority, let (host, port) = Self.split(authority) else { return false }
        if allowed.contains(host) { return true }
        guard port ?? 80 == self.port else { return false }
        if names.contains(host) { return true }
        guard acceptsMachineAddresses, let literal = Self.addressLiteral(host) else { return false }
        if machineAddresses.withLock({ $0.contains(literal) }) { return true }
        let current = MachineIdentity.interfaceAddresses()
        machineAddresses.withLock { $0 = current }
        return current.contains(literal)
    }

    /// What the refusal says it answers to.
    var described: String {
        let shown = (names.sorted().map { "\($0):\(port)" } + allowed.sorted())
        return shown.joined(separator: ", ") + (acceptsMachineAddresses ? " and this machine's addresses" : "")
    }

    /// `host[:port]` split, the host lowercased without a trailing dot; nil when it is not one.
    static func split(_ authority: String) -> (host: String, port: Int?)? {
        let text = authority.lowercased()
        var host: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            rest = text[text.index(after: close)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            rest = text[colon...]
        } else {
            host = Substring(text)
            rest = ""
        }
        var port: Int?
        if !rest.isEmpty {
            guard rest.first == ":", let number = Int(rest.dropFirst()), (0...65_535).contains(number), rest.count <= 6 else { return nil }
            port = number
        }
        if host.hasSuffix("."), host.count > 1 { host = host.dropLast() }
        guard !host.isEmpty, !host.contains(":") || host.hasPrefix("[") else { return nil }
        return (String(host), port)
    }

    /// A name as `--allow-host` gives it, compared as a Host's host is.
    static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        if name.contains(":"), !name.hasPrefix("[") { name = "[\(name)]" }
        return addressLiteral(name) ?? name
    }

    /// An IP address in its one written form (IPv6 in brackets), or nil when `host` is a name.
    static func addressLiteral(_ host: String) -> String? {
        if host.hasPrefix("["), host.hasSuffix("]") {
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &v6) == 1 else { return nil }
            return "[" + MachineIdentity.text(v6) + "]"
        }
        var v4 = in_addr()
        guard inet_pton(AF_INET, host, &v4) == 1 else { return nil }
        return MachineIdentity.text(v4)
    }
}

/// This machine's names and addresses, as other machines may call it.
struct MachineIdentity: Sendable {
    var names: [String]
    /// Written as `HostCheck.addressLiteral` writes them.
    var addresses: Set<String>

    static func current() -> MachineIdentity {
        MachineIdentity(names: hostNames(), addresses: interfaceAddresses())
    }

    /// The host name, and its fully qualified form when the resolver knows one.
    static func hostNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(cString: buffer)
        guard !name.isEmpty else { return [] }
        var names = [name]
        var hints = addrinfo()
        hints.ai_flags = AI_CANONNAME
        var result: UnsafeMutablePointer<addrinfo>?
        if getaddrinfo(name, nil, &hints, &result) == 0, let result {
            if let canonical = result.pointee.ai_canonname.map({ String(cString: $0) }), canonical != name, !canonical.isEmpty {
                names.append(canonical)
            }
            freeaddrinfo(result)
        }
        return names
    }

    /// Every address of every interface of this machine.
    static func interfaceAddresses() -> Set<String> {
        var addresses: Set<String> = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return addresses }
        defer { freeifaddrs(list) }
        var next = list
        while let interface = next {
            defer { next = interface.pointee.ifa_next }
            guard let address = interface.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                _ = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { addresses.insert(text($0.pointee.sin_addr)) }
            case AF_INET6:
                _ = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { addresses.insert("[" + text($0.pointee.sin6_addr) + "]") }
            default:
                continue
            }
        }
        return addresses
    }

    static func text(_ address: in_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        return inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
    }

    static func text(_ address: in6_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
    }
}
