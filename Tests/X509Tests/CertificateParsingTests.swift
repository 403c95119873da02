import Testing
import X509

@Suite("Certificates: openssl's, read field by field")
struct CertificateParsingTests {
    typealias F = FixtureCertificates

    func certificate(_ pem: String) throws -> Certificate { try Certificate(pem: Array(pem.utf8)) }

    @Test("the EC server certificate: every field openssl -text prints")
    func ecLeaf() throws {
        let leaf = try certificate(F.ecLeaf)
        #expect(leaf.version == 3)
        #expect(leaf.serialNumber == [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A])
        #expect(leaf.signatureAlgorithm == .ecdsa(.sha256))
        #expect(leaf.issuer.description == "C=US, O=PushSim Test, CN=PushSim Test EC Root")
        #expect(leaf.subject.description == "CN=api.push.apple.com")
        #expect(leaf.subject.commonName == "api.push.apple.com")
        #expect(leaf.notBefore == CertificateTime(year: 2026, month: 11, day: 27, hour: 8, minute: 10, second: 48))
        #expect(leaf.notAfter == CertificateTime(year: 2029, month: 3, day: 1, hour: 8, minute: 10, second: 48))
        let point = try #require(leaf.publicKey.p256Point, "not a P-256 key: \(leaf.publicKey)")
        #expect(point.count == 65 && point.first == 0x04)
        let extensions = leaf.extensions
        #expect(extensions.basicConstraints == BasicConstraints(isCA: false))
        #expect(extensions.keyUsage == .digitalSignature)
        #expect(extensions.extendedKeyUsage == [.serverAuth])
        #expect(extensions.subjectAlternativeNames == [.dnsName("api.push.apple.com"), .dnsName("localhost"),
                                                       .ipAddress([127, 0, 0, 1]), .ipAddress([UInt8](repeating: 0, count: 15) + [1])])
        #expect(extensions.subjectAlternativeNames.map(\.description) == ["DNS:api.push.apple.com", "DNS:localhost", "IP:127.0.0.1", "IP:::1"])
        #expect(extensions.subjectKeyIdentifier == bytes("380D973BB458A4013A582944D24037E50506CC3D"))
        #expect(extensions.authorityKeyIdentifier == bytes("B5F06539FECBE73EC95E6721C8D6C6003866AA72"))
        #expect(extensions.all.map(\.isCritical) == [true, true, false, false, false, false])
        #expect(extensions.unhandledCritical.isEmpty)
        #expect(leaf.signature.prefix(4) == [0x30, 0x46, 0x02, 0x21])
        // The signed bytes are tbsCertificate exactly: the certificate is they, the algorithm and the signature.
        #expect(leaf.der.count == leaf.tbsBytes.count + 4 + 12 + 2 + 1 + leaf.signature.count)
        #expect(leaf.der.dropFirst(4).starts(with: leaf.tbsBytes))
        #expect(leaf.pem == F.ecLeaf + "\n")
    }

    @Test("the APNs client certificate: UID carries the topic, in the order the subject was written")
    func apnsClient() throws {
        let client = try certificate(F.apnsClient)
        #expect(client.subject.userID == "com.example.mail")
        #expect(client.subject.commonName == "Apple Push Services: com.example.mail")
        #expect(client.subject.values(of: .organizationalUnit) == ["TEAM123456"])
        #expect(client.subject.values(of: .organization) == ["Example Inc."])
        #expect(client.subject.values(of: .country) == ["US"])
        #expect(client.subject.description
            == "UID=com.example.mail, CN=Apple Push Services: com.example.mail, OU=TEAM123456, O=Example Inc., C=US")
        #expect(client.subject.relativeNames.first?.first?.type == .userID)
        #expect(client.serialNumber == [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(client.signatureAlgorithm == .rsaPKCS1v15(.sha256))
        #expect(client.extensions.extendedKeyUsage == [.clientAuth])
        #expect(client.extensions.basicConstraints?.isCA == false)
        let (modulus, exponent) = try #require(client.publicKey.rsaNumbers, "not an RSA key: \(client.publicKey)")
        #expect(modulus.count == 256 && modulus[0] >= 0x80)
        #expect(exponent == [0x01, 0x00, 0x01])
        #expect(client.publicKey.description == "RSA 2048 bits")
    }

    @Test("CAs: basicConstraints, path length, key usage; RSA-4096 and the hashes of each chain")
    func authorities() throws {
        let ecRoot = try certificate(F.ecRoot)
        #expect(ecRoot.extensions.basicConstraints == BasicConstraints(isCA: true, pathLength: 1))
        #expect(ecRoot.extensions.keyUsage == [.keyCertSign, .cRLSign])
        #expect(ecRoot.issuer == ecRoot.subject)
        #expect(ecRoot.serialNumber.count == 20)
        let intermediate = try certificate(F.rsa2048Intermediate)
        #expect(intermediate.extensions.basicConstraints == BasicConstraints(isCA: true, pathLength: 0))
        #expect(intermediate.issuer == (try certificate(F.rsa2048Root)).subject)
        let root4096 = try certificate(F.rsa4096Root)
        #expect(root4096.publicKey.description == "RSA 4096 bits")
        #expect(root4096.signatureAlgorithm == .rsaPKCS1v15(.sha512))
        #expect(root4096.extensions.keyUsage == .keyCertSign)
        #expect(try certificate(F.rsa4096Leaf).signatureAlgorithm == .rsaPKCS1v15(.sha384))
        #expect(try certificate(F.rsa2048Root).subject.description == "C=US, O=PushSim Test, OU=Roots, CN=PushSim Test RSA 2048 Root")
    }

    @Test("RSASSA-PSS: hash, MGF1 hash and salt length read from the parameters")
    func pss() throws {
        let leaf = try certificate(F.pssLeaf)
        #expect(leaf.signatureAlgorithm == .rsaPSS(.sha256, saltLength: 32))
        #expect(leaf.signatureAlgorithm.description == "RSASSA-PSS with SHA256 (salt 32 bytes)")
    }

    @Test("a chain file: every block in order, text between them ignored; other blocks refused")
    func chainFile() throws {
        let text = "subject=CN=api.push.apple.com\n" + F.ecLeaf + "\n\nissuer note\n" + F.ecRoot + "\n"
        let chain = try Certificate.chain(pem: Array(text.utf8))
        #expect(chain.map(\.subject.commonName) == ["api.push.apple.com", "PushSim Test EC Root"])
        #expect(throws: CertificateError.notACertificate(label: "PRIVATE KEY")) {
            try Certificate.chain(pem: Array((F.ecRoot + "\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").utf8))
        }
        #expect(throws: CertificateError.pem(.textAfter(line: 14, secondBlock: true))) {
            try Certificate(pem: Array((F.ecRoot + "\n" + F.ecLeaf).utf8))
        }
    }

    @Test("every cut of a certificate is refused with a reason, never a trap; so is every flipped tag or length byte")
    func truncationsAndFlips() throws {
        let der = try certificate(F.ecLeaf).der
        for length in 0..<der.count {
            #expect(throws: CertificateError.self) { try Certificate(der: Array(der.prefix(length))) }
        }
        #expect(throws: CertificateError.self) { try Certificate(der: der + [0]) }
        // Every byte changed: a refusal or a certificate, never a crash.
        var accepted = 0
        for index in 0..<der.count {
            var changed = der
            changed[index] ^= 0x80
            if (try? Certificate(der: changed)) != nil { accepted += 1 }
        }
        #expect(accepted < der.count)
    }

    @Test("structural refusals name the field", arguments: [
        ("inner and outer algorithms differ", "not the certificate's signature algorithm"),
        ("a duplicate extension", "appears twice"),
        ("version 4", "not 1, 2 or 3"),
    ])
    func structuralRefusals(change: String, message: String) throws {
        let leaf = try certificate(F.ecLeaf)
        var der = leaf.der
        switch change {
        case "inner and outer algorithms differ":
            // ecdsa-with-SHA256's last arc in tbsCertificate becomes SHA-384's.
            let oid = OID.ecdsaWithSHA256.contents
            let at = try #require(firstRange(of: oid, in: der))
            der[at.upperBound - 1] = 0x03
        case "a duplicate extension":
            // extKeyUsage's OID becomes keyUsage's (same length): two keyUsage extensions.
            let at = try #require(firstRange(of: OID.extKeyUsage.contents, in: der))
            der[at.upperBound - 1] = 0x0F
        default:
            let at = try #require(firstRange(of: [0xA0, 0x03, 0x02, 0x01, 0x02], in: der))
            der[at.upperBound - 1] = 0x03
        }
        #expect { try Certificate(der: der) } throws: { "\($0)".contains(message) }
    }

    func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }.map { $0..<$0 + needle.count }
    }
}

/// Bytes of a hexadecimal string (spaces allowed).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { $0 != " " }.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
}

extension SubjectPublicKey {
    var p256Point: [UInt8]? {
        if case .p256(let point) = self { point } else { nil }
    }

    var rsaNumbers: (modulus: [UInt8], exponent: [UInt8])? {
        if case .rsa(let modulus, let exponent) = self { (modulus, exponent) } else { nil }
    }
}
