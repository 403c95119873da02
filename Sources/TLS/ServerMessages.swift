import TLSCrypto

/// The messages the server writes (RFC 8446 §4), each a function of what was negotiated.
enum ServerMessages {
    /// The ServerHello random that marks a HelloRetryRequest: SHA-256("HelloRetryRequest") (§4.1.3).
    static let helloRetryRequestRandom: [UInt8] = SHA256.hash(Array("HelloRetryRequest".utf8))

    /// ServerHello (§4.1.3): key_share with our share, then supported_versions.
    static func serverHello(random: [UInt8], sessionID: [UInt8], suite: CipherSuite, group: KeyExchangeGroup,
                            publicKey: [UInt8]) -> [UInt8] {
        hello(random: random, sessionID: sessionID, suite: suite) { extensions in
            extensions.extension(ExtensionType.keyShare) { share in
                share.u16(group.rawValue)
                share.vector(lengthBytes: 2) { $0.append(publicKey) }
            }
        }
    }

    /// HelloRetryRequest (§4.1.4): a ServerHello with the special random and the group wanted.
    static func helloRetryRequest(sessionID: [UInt8], suite: CipherSuite, group: KeyExchangeGroup) -> [UInt8] {
        hello(random: helloRetryRequestRandom, sessionID: sessionID, suite: suite) { extensions in
            extensions.extension(ExtensionType.keyShare) { $0.u16(group.rawValue) }
        }
    }

    private static func hello(random: [UInt8], sessionID: [UInt8], suite: CipherSuite,
                              keyShare: (inout WireWriter) -> Void) -> [UInt8] {
        WireWriter.handshake(.serverHello) { body in
            body.u16(ProtocolVersion.tls12)
            body.append(random)
            body.vector(lengthBytes: 1) { $0.append(sessionID) }
            body.u16(suite.rawValue)
            body.u8(0)
            body.vector(lengthBytes: 2) { extensions in
                keyShare(&extensions)
                extensions.extension(ExtensionType.supportedVersions) { $0.u16(ProtocolVersion.tls13) }
            }
        }
    }

    /// EncryptedExtensions (§4.3.1): supported_groups when announced, record_size_limit when
    /// the client sent one, an empty server_name when it named a host, ALPN when chosen.
    static func encryptedExtensions(announcedGroups: [UInt16], recordSizeLimit: Bool, serverName: Bool,
                                    applicationProtocol: [UInt8]?) -> [UInt8] {
        WireWriter.handshake(.encryptedExtensions) { body in
            body.vector(lengthBytes: 2) { extensions in
                if !announcedGroups.isEmpty {
                    extensions.extension(ExtensionType.supportedGroups) { data in
                        data.vector(lengthBytes: 2) { list in announcedGroups.forEach { list.u16($0) } }
                    }
                }
                if recordSizeLimit {
                    extensions.extension(ExtensionType.recordSizeLimit) { $0.u16(UInt16(TLSLimits.maxPlaintextBytes + 1)) }
                }
                if serverName { extensions.extension(ExtensionType.serverName) { _ in } }
                if let applicationProtocol {
                    extensions.extension(ExtensionType.applicationLayerProtocolNegotiation) { data in
                        data.vector(lengthBytes: 2) { list in list.vector(lengthBytes: 1) { $0.append(applicationProtocol) } }
                    }
                }
            }
        }
    }

    /// CertificateRequest (§4.3.2): an empty context, the schemes for CertificateVerify and for certificates.
    static func certificateRequest(schemes: [SignatureScheme], certificateSchemes: [SignatureScheme]) -> [UInt8] {
        WireWriter.handshake(.certificateRequest) { body in
            body.vector(lengthBytes: 1) { _ in }
            body.vector(lengthBytes: 2) { extensions in
                extensions.extension(ExtensionType.signatureAlgorithms) { data in
                    data.vector(lengthBytes: 2) { list in schemes.forEach { list.u16($0.rawValue) } }
                }
                extensions.extension(ExtensionType.signatureAlgorithmsCert) { data in
                    data.vector(lengthBytes: 2) { list in certificateSchemes.forEach { list.u16($0.rawValue) } }
                }
            }
        }
    }

    /// Certificate (§4.4.2): an empty context, each certificate with no extensions.
    static func certificate(chain: [[UInt8]]) -> [UInt8] {
        WireWriter.handshake(.certificate) { body in
            body.vector(lengthBytes: 1) { _ in }
            body.vector(lengthBytes: 3) { list in
                for certificate in chain {
                    list.vector(lengthBytes: 3) { $0.append(certificate) }
                    list.vector(lengthBytes: 2) { _ in }
                }
            }
        }
    }

    /// CertificateVerify (§4.4.3).
    static func certificateVerify(scheme: SignatureScheme, signature: [UInt8]) -> [UInt8] {
        WireWriter.handshake(.certificateVerify) { body in
            body.u16(scheme.rawValue)
            body.vector(lengthBytes: 2) { $0.append(signature) }
        }
    }

    /// Finished (§4.4.4).
    static func finished(verifyData: [UInt8]) -> [UInt8] {
        WireWriter.handshake(.finished) { $0.append(verifyData) }
    }

    /// KeyUpdate (§4.6.3): whether the client should update its key too.
    static func keyUpdate(requested: Bool) -> [UInt8] {
        WireWriter.handshake(.keyUpdate) { $0.u8(requested ? 1 : 0) }
    }

    /// What CertificateVerify signs (§4.4.3): 64 spaces, the context string, a zero, the hash.
    static func signedContent(server: Bool, transcriptHash: [UInt8]) -> [UInt8] {
        let context = server ? "TLS 1.3, server CertificateVerify" : "TLS 1.3, client CertificateVerify"
        return [UInt8](repeating: 0x20, count: 64) + Array(context.utf8) + [0] + transcriptHash
    }
}
