/// An `http://` (HTTP/1.1) or `h2c://` (HTTP/2 with prior knowledge) URL naming where
/// outgoing requests go, with an optional path prefix: what `--provider` and `--apns` take.
public struct EndpointURL: Hashable, Sendable, CustomStringConvertible {
    public var endpoint: Endpoint
    /// The path the requests' own paths are put under: "" or "/prefix" (never a trailing `/`).
    public var pathPrefix: String

    /// Reads `http://HOST:PORT[/PREFIX]` or `h2c://HOST:PORT[/PREFIX]`; an IPv6 host in
    /// brackets. nil for anything else (another scheme, no port, a port out of 1…65535,
    /// a query or fragment).
    /// - Complexity: O(n) in the text.
    public init?(_ text: String) {
        let speaks: OutgoingProtocol
        var rest: Substring
        if text.hasPrefix("http://") {
            speaks = .http1
            rest = text.dropFirst(7)
        } else if text.hasPrefix("h2c://") {
            speaks = .http2PriorKnowledge
            rest = text.dropFirst(6)
        } else {
            return nil
        }
        guard !rest.contains("?"), !rest.contains("#"), !rest.contains(where: \.isWhitespace) else { return nil }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        var prefix = String(rest[slash...])
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let host: Substring, portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]"), authority[authority.index(after: close)...].hasPrefix(":") else { return nil }
            host = authority[...close]
            portText = authority[authority.index(close, offsetBy: 2)...]
        } else {
            guard let colon = authority.lastIndex(of: ":") else { return nil }
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains("@"), let port = Int(portText), (1...65_535).contains(port) else { return nil }
        endpoint = Endpoint(host: String(host), port: port, protocol: speaks)
        pathPrefix = prefix
    }

    /// The URL as it would be typed.
    public var description: String {
        (endpoint.protocol == .http1 ? "http://" : "h2c://") + endpoint.description + pathPrefix
    }
}
