import TLSCrypto
import Testing
import X509

@Suite("The local authority: a CA, serve's server certificate, APNs-style client certificates, keys as PEM")
struct LocalAuthorityTests {
    static let now = CertificateTime(year: 2026, month: 11, day: 27, hour: 12)!

    func authority(seed: UInt64 = 1) -> (LocalAuthority, SeededGenerator) {
        var generator = SeededGenerator(seed: seed)
        return (LocalAuthority(now: Self.now, using: &generator), generator)
    }

    @Test("the CA: self-signed, CA with path length 0, keyCertSign and cRLSign, ten years from an hour ago, a positive 16-byte serial")
    func authorityCertificate() throws {
        let (ca, _) = authority()
        let certificate = ca.certificate
        #expect(certificate.version == 3)
        #expect(certificate.subject == certificate.issuer)
        #expect(certificate.subject.description == "O=PushSim, CN=PushSim Local CA")
        #expect(certificate.extensions.basicConstraints == BasicConstraints(isCA: true, pathLength: 0))
        #expect(certificate.extensions.keyUsage == [.keyCertSign, .cRLSign])
        #expect(certificate.extensions.all.first { $0.oid == .basicConstraints }?.isCritical == true)
        #expect(certificate.notBefore == Self.now.adding(seconds: -3_600))
        #expect(certificate.notAfter == Self.now.adding(seconds: 10 * 365 * 86_400))
        #expect(certificate.serialNumber.count == 16 && certificate.serialNumber[0] < 0x80 && certificate.serialNumber[0] != 0)
        #expect(certificate.signatureAlgorithm == .ecdsa(.sha256))
        #expect(certificate.publicKey == .p256(x963: ca.privateKey.publicKey.x963Representation))
        #expect(try ChainVerifier(trustedRoots: [certificate]).verify(certificate, at: Self.now) == [certificate])
    }

    @Test("serve's server certificate: its six names, serverAuth, verified to the CA; expired after its lifetime")
    func serverCertificate() throws {
        var (ca, generator) = authority()
        let issued = try ca.issueServerCertificate(now: Self.now, using: &generator)
        let server = issued.certificate
        #expect(server.subject.commonName == "api.push.apple.com")
        #expect(server.extensions.subjectAlternativeNames.map(\.description) == [
            "DNS:api.push.apple.com", "DNS:api.sandbox.push.apple.com", "DNS:api.development.push.apple.com", "DNS:localhost",
            "IP:127.0.0.1", "IP:::1",
        ])
        #expect(server.extensions.extendedKeyUsage == [.serverAuth])
        #expect(server.extensions.keyUsage == .digitalSignature)
        #expect(server.extensions.basicConstraints == BasicConstraints(isCA: false))
        #expect(server.extensions.authorityKeyIdentifier == ca.certificate.extensions.subjectKeyIdentifier)
        #expect(server.serialNumber != ca.certificate.serialNumber)
        let verifier = ChainVerifier(trustedRoots: [ca.certificate])
        #expect(try verifier.verify(server, at: Self.now, purpose: .serverAuth) == [server, ca.certificate])
        let late = Self.now.adding(seconds: 397 * 86_400 + 1)
        #expect(throws: ChainRefusal.expired(server.subject, notAfter: server.notAfter, at: late)) { try verifier.verify(server, at: late) }
        #expect(server.publicKey == .p256(x963: issued.privateKey.publicKey.x963Representation))
    }

    @Test("a client certificate carries UID=<topic> and clientAuth, as Apple's do")
    func clientCertificate() throws {
        var (ca, generator) = authority()
        let client = ca.issueClientCertificate(topic: "com.example.mail", now: Self.now, using: &generator).certificate
        #expect(client.subject.description == "UID=com.example.mail, CN=Apple Push Services: com.example.mail")
        #expect(client.subject.userID == "com.example.mail")
        #expect(client.extensions.extendedKeyUsage == [.clientAuth])
        #expect(try ChainVerifier(trustedRoots: [ca.certificate]).verify(client, at: Self.now, purpose: .clientAuth).count == 2)
        #expect(throws: ChainRefusal.purposeNotAllowed(client.subject, purpose: .serverAuth)) {
            try ChainVerifier(trustedRoots: [ca.certificate]).verify(client, at: Self.now, purpose: .serverAuth)
        }
    }

    @Test("the CA written as PEM reads back and issues; another key or a leaf is refused as a CA")
    func reloaded() throws {
        var (ca, generator) = authority()
        let key = try P256KeyPEM.privateKey(pem: Array(P256KeyPEM.encode(ca.privateKey).utf8))
        #expect(key.rawRepresentation == ca.privateKey.rawRepresentation)
        let certificate = try Certificate(pem: Array(ca.certificate.pem.utf8))
        let again = try LocalAuthority(privateKey: key, certificate: certificate)
        let server = try again.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: [], now: Self.now, using: &generator)
        #expect(try ChainVerifier(trustedRoots: [ca.certificate]).verify(server.certificate, at: Self.now).count == 2)
        let other = P256.PrivateKey(using: &generator)
        #expect(throws: LocalAuthorityError.keyDoesNotMatchCertificate) { try LocalAuthority(privateKey: other, certificate: certificate) }
        #expect(throws: LocalAuthorityError.notAnAuthority(server.certificate.subject)) {
            try LocalAuthority(privateKey: server.privateKey, certificate: server.certificate)
        }
    }

    @Test("names: bad DNS names and addresses are refused, as is a certificate without names", arguments: [
        (["bad name"], [String](), LocalAuthorityError.badDNSName("bad name")),
        (["-x.example"], [], .badDNSName("-x.example")),
        (["a..b"], [], .badDNSName("a..b")),
        (["é.example"], [], .badDNSName("é.example")),
        ([], ["127.0.0.256"], .badIPAddress("127.0.0.256")),
        ([], [], .noNames),
    ])
    func badNames(dnsNames: [String], addresses: [String], error: LocalAuthorityError) {
        var (ca, generator) = authority()
        #expect(throws: error) { try ca.issueServerCertificate(dnsNames: dnsNames, ipAddresses: addresses, now: Self.now, using: &generator) }
    }

    @Test("key files: PKCS#8 and SEC 1 read; other curves, versions, labels and a mismatched public key refused")
    func keyFiles() throws {
        var generator = SeededGenerator(seed: 3)
        let key = P256.PrivateKey(using: &generator)
        let point = key.publicKey.x963Representation
        let sec1 = PEM.encode(PEMBlock(label: "EC PRIVATE KEY", der: ECPrivateKeyFields.sec1(scalar: key.rawRepresentation, point: point)))
        #expect(try P256KeyPEM.privateKey(pem: Array(sec1.utf8)).rawRepresentation == key.rawRepresentation)
        let otherPoint = P256.PrivateKey(using: &generator).publicKey.x963Representation
        let mismatched = PEM.encode(PEMBlock(label: "PRIVATE KEY", der: ECPrivateKeyFields.pkcs8(p256Scalar: key.rawRepresentation, point: otherPoint)))
        #expect(throws: KeyFileError.publicKeyMismatch) { try P256KeyPEM.privateKey(pem: Array(mismatched.utf8)) }
        let zero = PEM.encode(PEMBlock(label: "PRIVATE KEY", der: ECPrivateKeyFields.pkcs8(p256Scalar: [UInt8](repeating: 0, count: 32), point: point)))
        #expect(throws: KeyFileError.scalarOutOfRange) { try P256KeyPEM.privateKey(pem: Array(zero.utf8)) }
        let certificate = PEM.encode(PEMBlock(label: "CERTIFICATE", der: [0x30, 0x00]))
        #expect(throws: KeyFileError.unsupportedLabel("CERTIFICATE")) { try P256KeyPEM.privateKey(pem: Array(certificate.utf8)) }
        // SEC 1 without a named curve says nothing of its curve: refused.
        var writer = DERWriter()
        writer.sequence { ec in
            ec.integer(1)
            ec.octetString(key.rawRepresentation)
        }
        #expect(throws: KeyFileError.notP256) {
            try P256KeyPEM.privateKey(pem: Array(PEM.encode(PEMBlock(label: "EC PRIVATE KEY", der: writer.bytes)).utf8))
        }
    }
}
