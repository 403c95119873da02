import TLSCrypto
import Testing
import X509

@Suite("Chains: openssl's accepted, and each refusal with its reason")
struct ChainVerifierTests {
    typealias F = FixtureCertificates

    func certificate(_ pem: String) throws -> Certificate { try Certificate(pem: Array(pem.utf8)) }

    /// A copy of `certificate` with one bit of its DER flipped at `offset` from the end.
    func flipped(_ certificate: Certificate, fromEnd offset: Int) throws -> Certificate {
        var der = certificate.der
        der[der.count - offset] ^= 0x01
        return try Certificate(der: der)
    }

    @Test("EC: a server leaf to its root; RSA-2048 through an intermediate; RSA-4096; PSS; the APNs client")
    func accepted() throws {
        let ecRoot = try certificate(F.ecRoot), ecLeaf = try certificate(F.ecLeaf)
        #expect(try ChainVerifier(trustedRoots: [ecRoot]).verify(ecLeaf, at: F.now, purpose: .serverAuth) == [ecLeaf, ecRoot])
        let rsaRoot = try certificate(F.rsa2048Root), intermediate = try certificate(F.rsa2048Intermediate)
        let rsaVerifier = ChainVerifier(trustedRoots: [ecRoot, rsaRoot])
        let rsaLeaf = try certificate(F.rsa2048Leaf)
        #expect(try rsaVerifier.verify(rsaLeaf, intermediates: [intermediate], at: F.now, purpose: .serverAuth)
            == [rsaLeaf, intermediate, rsaRoot])
        let client = try certificate(F.apnsClient)
        // Intermediates in any order, with extras: the root itself and unrelated ones.
        #expect(try rsaVerifier.verify(client, intermediates: [ecLeaf, rsaRoot, intermediate], at: F.now, purpose: .clientAuth).count == 3)
        #expect(try rsaVerifier.verify(try certificate(F.pssLeaf), at: F.now, purpose: .serverAuth).count == 2)
        let root4096 = try certificate(F.rsa4096Root)
        #expect(try ChainVerifier(trustedRoots: [root4096]).verify(try certificate(F.rsa4096Leaf), at: F.now).count == 2)
        // A trusted root verifies as itself.
        #expect(try ChainVerifier(trustedRoots: [root4096]).verify(root4096, at: F.now) == [root4096])
    }

    @Test("validity: accepted from notBefore through notAfter, refused a second outside")
    func validity() throws {
        let root = try certificate(F.ecRoot), leaf = try certificate(F.ecLeaf)
        let verifier = ChainVerifier(trustedRoots: [root])
        #expect(throws: Never.self) { try verifier.verify(leaf, at: leaf.notAfter) }
        #expect(throws: Never.self) { try verifier.verify(leaf, at: root.notBefore) }
        let late = leaf.notAfter.adding(seconds: 1)
        #expect(throws: ChainRefusal.expired(leaf.subject, notAfter: leaf.notAfter, at: late)) { try verifier.verify(leaf, at: late) }
        let early = leaf.notBefore.adding(seconds: -1)
        #expect(throws: ChainRefusal.notYetValid(leaf.subject, notBefore: leaf.notBefore, at: early)) { try verifier.verify(leaf, at: early) }
        // The root's own validity counts too.
        let afterRoot = root.notAfter.adding(seconds: 1)
        #expect(throws: ChainRefusal.expired(root.subject, notAfter: root.notAfter, at: afterRoot)) {
            try ChainVerifier(trustedRoots: [root]).verify(root, at: afterRoot)
        }
    }

    @Test("wrong or missing issuer, a leaf as issuer, a flipped signature or field, the wrong purpose")
    func refusals() throws {
        let ecRoot = try certificate(F.ecRoot), ecLeaf = try certificate(F.ecLeaf)
        let rsaRoot = try certificate(F.rsa2048Root), rsaLeaf = try certificate(F.rsa2048Leaf)
        let intermediate = try certificate(F.rsa2048Intermediate)
        #expect(throws: ChainRefusal.issuerNotFound(ecLeaf.subject, issuer: ecRoot.subject)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(ecLeaf, at: F.now)
        }
        #expect(throws: ChainRefusal.issuerNotFound(rsaLeaf.subject, issuer: intermediate.subject)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(rsaLeaf, at: F.now)
        }
        let underLeaf = try certificate(F.underLeaf)
        #expect(throws: ChainRefusal.issuerNotCA(ecLeaf.subject)) {
            try ChainVerifier(trustedRoots: [ecRoot]).verify(underLeaf, intermediates: [ecLeaf], at: F.now)
        }
        // The signature's last byte, then a byte inside tbsCertificate (the subject's last letter).
        #expect(throws: ChainRefusal.badSignature(ecLeaf.subject, issuer: ecRoot.subject)) {
            try ChainVerifier(trustedRoots: [ecRoot]).verify(try flipped(ecLeaf, fromEnd: 1), at: F.now)
        }
        var der = rsaLeaf.der
        let at = try #require((0..<der.count - 9).first { der[$0..<$0 + 9].elementsEqual(Array("localhost".utf8)) })
        der[at + 8] ^= 0x20
        let changed = try Certificate(der: der)
        #expect(throws: ChainRefusal.badSignature(changed.subject, issuer: intermediate.subject)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(changed, intermediates: [intermediate], at: F.now)
        }
        #expect(throws: ChainRefusal.badSignature(rsaLeaf.subject, issuer: intermediate.subject)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(try flipped(rsaLeaf, fromEnd: 1), intermediates: [intermediate], at: F.now)
        }
        #expect(throws: ChainRefusal.purposeNotAllowed(ecLeaf.subject, purpose: .clientAuth)) {
            try ChainVerifier(trustedRoots: [ecRoot]).verify(ecLeaf, at: F.now, purpose: .clientAuth)
        }
        let client = try certificate(F.apnsClient)
        #expect(throws: ChainRefusal.purposeNotAllowed(client.subject, purpose: .serverAuth)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(client, intermediates: [intermediate], at: F.now, purpose: .serverAuth)
        }
        let pss = try certificate(F.pssLeaf)
        #expect(throws: ChainRefusal.badSignature(pss.subject, issuer: rsaRoot.subject)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(try flipped(pss, fromEnd: 100), at: F.now)
        }
    }

    /// A P-256 certificate made here: `issuer` signs (itself when nil).
    func made(_ name: String, key: P256.PrivateKey, issuer: (name: DistinguishedName, key: P256.PrivateKey)? = nil,
              change: (inout CertificateTemplate) -> Void = { _ in }) -> Certificate {
        let subject = DistinguishedName([NameAttribute(.commonName, name)])
        var template = CertificateTemplate(serialNumber: [1], issuer: issuer?.name ?? subject, subject: subject,
                                           notBefore: F.now.adding(seconds: -10), notAfter: F.now.adding(seconds: 10), publicKey: key.publicKey)
        template.basicConstraints = BasicConstraints(isCA: true)
        change(&template)
        return template.signed(by: issuer?.key ?? key)
    }

    @Test("issuers: path length, keyCertSign, an unknown critical extension, a path too long, an algorithm that does not fit the key")
    func issuerRules() throws {
        var generator = SeededGenerator(seed: 7)
        let keys = (0..<10).map { _ in P256.PrivateKey(using: &generator) }
        let root = made("root", key: keys[0]) { $0.basicConstraints = BasicConstraints(isCA: true, pathLength: 0) }
        let middle = made("middle", key: keys[1], issuer: (root.subject, keys[0]))
        let leaf = made("leaf", key: keys[2], issuer: (middle.subject, keys[1])) { $0.basicConstraints = nil }
        #expect(throws: ChainRefusal.pathLengthExceeded(root.subject, allowed: 0, found: 1)) {
            try ChainVerifier(trustedRoots: [root]).verify(leaf, intermediates: [middle], at: F.now)
        }
        let signOnly = made("sign only", key: keys[3]) { $0.keyUsage = .digitalSignature }
        #expect(throws: ChainRefusal.issuerMayNotSignCertificates(signOnly.subject)) {
            try ChainVerifier(trustedRoots: [signOnly]).verify(made("leaf", key: keys[2], issuer: (signOnly.subject, keys[3])), at: F.now)
        }
        let unknown = OID("1.3.6.1.4.1.99999.1")
        let critical = made("critical", key: keys[4], issuer: (root.subject, keys[0])) {
            $0.otherExtensions = [Extension(oid: unknown, isCritical: true, value: [0x05, 0x00])]
        }
        #expect(throws: ChainRefusal.unhandledCriticalExtension(critical.subject, unknown)) {
            try ChainVerifier(trustedRoots: [root]).verify(critical, at: F.now)
        }
        // Nine certificates in a line, each CA signing the next.
        var chain = [made("c0", key: keys[0])]
        for index in 1..<9 { chain.append(made("c\(index)", key: keys[index], issuer: (chain[index - 1].subject, keys[index - 1]))) }
        #expect(throws: ChainRefusal.pathTooLong) {
            try ChainVerifier(trustedRoots: [chain[0]]).verify(chain[8], intermediates: Array(chain[1..<8]), at: F.now)
        }
        #expect(try ChainVerifier(trustedRoots: [chain[1]]).verify(chain[8], intermediates: Array(chain[2..<8]), at: F.now).count == 8)
        // ECDSA claimed under an RSA root's name: the algorithm does not fit its key.
        let rsaRoot = try certificate(F.rsa2048Root)
        let mismatched = made("mismatched", key: keys[5], issuer: (rsaRoot.subject, keys[5]))
        #expect(throws: ChainRefusal.algorithmDoesNotFitKey(mismatched.subject, .ecdsa(.sha256), issuerKey: rsaRoot.publicKey)) {
            try ChainVerifier(trustedRoots: [rsaRoot]).verify(mismatched, at: F.now)
        }
    }

    @Test("a key verifies a signature over any message, as a TLS CertificateVerify asks: P-256 with DER signatures, RSA with PKCS #1 v1.5")
    func keySignatures() throws {
        var generator = SeededGenerator(seed: 11)
        let key = P256.PrivateKey(using: &generator)
        let message = Array("TLS 1.3, client CertificateVerify".utf8)
        let signature = key.signature(forDigest: SHA256.hash(message)).derRepresentation
        let publicKey = SubjectPublicKey.p256(x963: key.publicKey.x963Representation)
        #expect(publicKey.isValidSignature(signature, over: message, algorithm: .ecdsa(.sha256)))
        #expect(!publicKey.isValidSignature(signature, over: message + [0], algorithm: .ecdsa(.sha256)))
        #expect(!publicKey.isValidSignature(signature, over: message, algorithm: .rsaPSS(.sha256, saltLength: 32)))
        // An RSA certificate's signature is its issuer's over tbsCertificate.
        let leaf = try certificate(F.rsa2048Leaf), intermediate = try certificate(F.rsa2048Intermediate)
        #expect(intermediate.publicKey.isValidSignature(leaf.signature, over: leaf.tbsBytes, algorithm: leaf.signatureAlgorithm))
        #expect(!intermediate.publicKey.isValidSignature(leaf.signature, over: leaf.tbsBytes, algorithm: .rsaPKCS1v15(.sha384)))
        #expect(throws: Never.self) { try leaf.verifySignature(issuedBy: intermediate) }
    }

    @Test("every refusal reads as one line naming the certificate")
    func messages() throws {
        let leaf = try certificate(F.ecLeaf)
        let refusal = ChainRefusal.expired(leaf.subject, notAfter: leaf.notAfter, at: F.now)
        #expect(refusal.description == "the certificate \"CN=api.push.apple.com\" expired at 2029-03-01T08:10:48Z (checked at 2026-11-28T00:00:00Z)")
        let hostile = DistinguishedName([NameAttribute(.commonName, "evil\nline\u{202E}")])
        #expect(ChainRefusal.issuerNotCA(hostile).description == "\"CN=evil\\u{a}line\\u{202e}\" issued a certificate but is not a CA (basicConstraints cA is not true)")
    }
}
