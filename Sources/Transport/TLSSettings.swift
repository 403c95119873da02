import TLS

/// The TLS a listener speaking `.http2OverTLS` offers: the server's credentials and what it
/// negotiates (`TLSServerConfiguration`). Equal when made by the same `init` (credentials hold
/// a signer, which has no equality of its own), so `TransportConfiguration` stays `Hashable`.
public struct TLSSettings: Hashable, Sendable {
    public let server: TLSServerConfiguration
    private let identity = Identity()

    private final class Identity: Sendable {}

    /// - Complexity: O(1).
    public init(_ server: TLSServerConfiguration) {
        self.server = server
    }

    public static func == (lhs: TLSSettings, rhs: TLSSettings) -> Bool { lhs.identity === rhs.identity }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }
}
