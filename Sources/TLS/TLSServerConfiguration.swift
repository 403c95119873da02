/// What the server offers and enforces.
public struct TLSServerConfiguration: Sendable {
    public var credentials: ServerCredentials
    /// Cipher suites in the server's order of preference, the first the client offers chosen.
    /// ChaCha20-Poly1305 first: TLSCrypto's AES is constant-time software, several times slower.
    public var cipherSuites: [CipherSuite] = [.chacha20Poly1305SHA256, .aes128GCMSHA256]
    /// Key exchange groups in order of preference: a client's key share for the first one it
    /// offers is used; a client that offers one only in supported_groups gets a HelloRetryRequest.
    public var groups: [KeyExchangeGroup] = [.x25519, .secp256r1]
    /// Application protocols (ALPN, RFC 7301) in order of preference. A client that offers
    /// ALPN without any of them gets no_application_protocol; one that offers none, none.
    public var applicationProtocols: [[UInt8]] = [Array("h2".utf8)]
    public var clientAuthentication: ClientAuthentication = .none
    /// The schemes a client's CertificateVerify may use (CertificateRequest's signature_algorithms).
    public var clientSignatureSchemes: [SignatureScheme] = [.ecdsaSecp256r1SHA256, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384,
                                                            .rsaPSSRSAESHA512]
    /// The schemes the client's certificates may be signed with (signature_algorithms_cert).
    public var clientCertificateSignatureSchemes: [SignatureScheme] = [.ecdsaSecp256r1SHA256, .rsaPSSRSAESHA256, .rsaPSSRSAESHA384,
                                                                       .rsaPSSRSAESHA512, .rsaPKCS1SHA256]
    /// Groups named in EncryptedExtensions' supported_groups (§4.2.7: a hint for later
    /// connections); empty, the extension is not sent. Raw code points.
    public var announcedGroups: [UInt16] = []
    public var limits = TLSLimits()

    /// - Complexity: O(1).
    public init(credentials: ServerCredentials) {
        self.credentials = credentials
    }
}
