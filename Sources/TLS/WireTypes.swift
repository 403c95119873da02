/// RFC 8446 §5.1's record content types.
package enum ContentType: UInt8 {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
}

/// RFC 8446 §4's handshake message types this server sends or reads.
enum HandshakeType: UInt8 {
    case clientHello = 1
    case serverHello = 2
    case newSessionTicket = 4
    case endOfEarlyData = 5
    case encryptedExtensions = 8
    case certificate = 11
    case certificateRequest = 13
    case certificateVerify = 15
    case finished = 20
    case keyUpdate = 24
    /// The synthetic message that replaces the first ClientHello in the transcript after a
    /// HelloRetryRequest (§4.4.1).
    case messageHash = 254
}

/// The extension code points (RFC 8446 §4.2, RFC 6066, RFC 7301, RFC 8449) this server reads or writes.
enum ExtensionType {
    static let serverName: UInt16 = 0
    static let supportedGroups: UInt16 = 10
    static let signatureAlgorithms: UInt16 = 13
    static let applicationLayerProtocolNegotiation: UInt16 = 16
    static let recordSizeLimit: UInt16 = 28
    static let preSharedKey: UInt16 = 41
    static let earlyData: UInt16 = 42
    static let supportedVersions: UInt16 = 43
    static let cookie: UInt16 = 44
    static let pskKeyExchangeModes: UInt16 = 45
    static let signatureAlgorithmsCert: UInt16 = 50
    static let keyShare: UInt16 = 51
}

/// TLS 1.3's version number in supported_versions, and the legacy one records and hellos carry.
enum ProtocolVersion {
    static let tls13: UInt16 = 0x0304
    static let tls12: UInt16 = 0x0303
}

/// The cipher suites the server offers (RFC 8446 §B.4): both with SHA-256.
public enum CipherSuite: UInt16, Sendable, Hashable, CaseIterable {
    case aes128GCMSHA256 = 0x1301
    case chacha20Poly1305SHA256 = 0x1303
}

/// The key exchange groups the server offers (RFC 8446 §4.2.7).
public enum KeyExchangeGroup: UInt16, Sendable, Hashable, CaseIterable {
    case secp256r1 = 0x0017
    case x25519 = 0x001d
}

/// A signature scheme's code point (RFC 8446 §4.2.3): a value, since a peer may name any.
public struct SignatureScheme: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt16
    /// - Complexity: O(1).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let ecdsaSecp256r1SHA256 = SignatureScheme(rawValue: 0x0403)
    public static let rsaPSSRSAESHA256 = SignatureScheme(rawValue: 0x0804)
    public static let rsaPSSRSAESHA384 = SignatureScheme(rawValue: 0x0805)
    public static let rsaPSSRSAESHA512 = SignatureScheme(rawValue: 0x0806)
    public static let rsaPKCS1SHA256 = SignatureScheme(rawValue: 0x0401)
}
