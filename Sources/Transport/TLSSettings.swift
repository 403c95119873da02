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

    /// Whether both were made by the same `init`.
    /// - Complexity: O(1).
    public static func == (lhs: TLSSettings, rhs: TLSSettings) -> Bool { lhs.identity === rhs.identity }

    /// Hashes the identity `==` compares.
    /// - Complexity: O(1).
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }
}
