/// What the server makes of a ClientHello (RFC 8446 §4.1.1, in the order Go's crypto/tls
/// checks): the version, suite, key exchange, signature scheme and application protocol, or
/// the failure that ends the handshake.
struct ServerNegotiation: Equatable {
    /// How the key exchange goes on.
    enum KeyAgreement: Equatable {
        /// The client sent a share for this group.
        case share(KeyExchangeGroup, [UInt8])
        /// Only supported_groups names this group: a HelloRetryRequest asks for its share.
        case retry(KeyExchangeGroup)
    }

    let suite: CipherSuite
    let keyAgreement: KeyAgreement
    let applicationProtocol: [UInt8]?
    /// The most content our records may carry: the client's record_size_limit less the type byte.
    let maxRecordContent: Int

    /// - Complexity: O(s·c) in the suites, groups and schemes offered and ours.
    init(_ hello: ClientHello, configuration: TLSServerConfiguration) throws(TLSFailure) {
        guard let versions = hello.supportedVersions, versions.contains(ProtocolVersion.tls13) else { throw .versionNotOffered }
        guard hello.compressionMethods == [0] else { throw .compressionOffered }
        guard let suite = configuration.cipherSuites.first(where: { hello.cipherSuites.contains($0.rawValue) }) else {
            throw .noCommonCipherSuite
        }
        self.suite = suite
        guard let schemes = hello.signatureAlgorithms else { throw .missingExtension(ExtensionType.signatureAlgorithms) }
        keyAgreement = try Self.keyAgreement(hello, groups: configuration.groups)
        guard schemes.contains(configuration.credentials.signer.scheme.rawValue) else { throw .noCommonSignatureScheme }
        applicationProtocol = try Self.applicationProtocol(offered: hello.applicationProtocols, ours: configuration.applicationProtocols)
        if let limit = hello.recordSizeLimit {
            guard limit >= 64 else { throw .recordSizeLimitTooSmall }
            maxRecordContent = min(TLSLimits.maxPlaintextBytes, Int(limit) - 1)
        } else {
            maxRecordContent = TLSLimits.maxPlaintextBytes
        }
    }

    /// §4.2.8: shares only for groups in supported_groups, each of its group's form; ours in
    /// our order of preference, a share preferred to a retry.
    private static func keyAgreement(_ hello: ClientHello, groups: [KeyExchangeGroup]) throws(TLSFailure) -> KeyAgreement {
        // §9.2: key_share and supported_groups come together.
        guard let offered = hello.supportedGroups else { throw .missingExtension(ExtensionType.supportedGroups) }
        guard let shares = hello.keyShares else { throw .missingExtension(ExtensionType.keyShare) }
        guard shares.allSatisfy({ offered.contains($0.group) }) else { throw .invalidKeyShare }
        for group in groups {
            guard let share = shares.first(where: { $0.group == group.rawValue }) else { continue }
            guard isWellFormedShare(share.keyExchange, for: group) else { throw .invalidKeyShare }
            return .share(group, share.keyExchange)
        }
        guard let group = groups.first(where: { offered.contains($0.rawValue) }) else { throw .noCommonGroup }
        return .retry(group)
    }

    /// RFC 7301 §3.2: our first protocol the client offers; none in common is refused.
    private static func applicationProtocol(offered: [[UInt8]]?, ours: [[UInt8]]) throws(TLSFailure) -> [UInt8]? {
        guard let offered else { return nil }
        guard let chosen = ours.first(where: offered.contains) else { throw .noApplicationProtocol }
        return chosen
    }

    /// §4.1.2: the second ClientHello must be the first with one share for the group asked
    /// for, no early_data, and nothing else of substance changed.
    static func checkRetried(_ second: ClientHello, first: ClientHello, group: KeyExchangeGroup) throws(TLSFailure) {
        guard let shares = second.keyShares, shares.count == 1, shares[0].group == group.rawValue, !second.offersEarlyData,
              second.random == first.random, second.sessionID == first.sessionID, second.cipherSuites == first.cipherSuites,
              second.compressionMethods == first.compressionMethods, second.supportedVersions == first.supportedVersions,
              second.supportedGroups == first.supportedGroups, second.signatureAlgorithms == first.signatureAlgorithms,
              second.serverName == first.serverName, second.applicationProtocols == first.applicationProtocols
        else { throw .retriedHelloMismatch }
    }
}
