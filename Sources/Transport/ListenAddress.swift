import Glibc

/// A local address to listen on, resolved from the host as a person types it: an IPv4 or
/// IPv6 literal (with or without brackets), `localhost`, or a name the resolver knows.
struct ListenAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 { Int32(storage.ss_family) }
    /// `host:port` as typed, IPv6 in brackets: how errors name it.
    var display: String

    /// Resolves `host` and `port` (getaddrinfo(3), numeric port). `localhost` is 127.0.0.1,
    /// whatever the resolver's order: one address, the one clients try first or fall back to.
    /// - Complexity: that of the resolver.
    init(host: String, port: Int) throws(TransportError) {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        display = name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)"
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        if name == "localhost" { name = "127.0.0.1" }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &results)
        defer { if let results { freeaddrinfo(results) } }
        guard status == 0, let first = results, let address = first.pointee.ai_addr else {
            let reason = status == EAI_SYSTEM ? Socket.errorText(errno) : String(cString: gai_strerror(status))
            throw .cannotListen(address: display, reason: reason)
        }
        length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { storage in
            storage.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        }
    }

    /// The port of a bound socket (what port 0 became).
    static func boundPort(of descriptor: Int32) -> Int? {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        switch Int32(bound.ss_family) {
        case AF_INET: return withUnsafeBytes(of: &bound) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
        case AF_INET6: return withUnsafeBytes(of: &bound) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
        default: return nil
        }
    }
}
