import Foundation
import TestThreads
import TLSCrypto
import Testing
import X509

/// The certificates and keys made here, judged by openssl; openssl's keys read here.
@Suite("openssl as a peer of the local authority", .ownThread, .needsOpenSSL)
struct OpenSSLPeerTests {
    let now = CertificateTime(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))

    func write(_ text: String, _ name: String, in folder: URL) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    @Test("openssl verify accepts serve's server certificate (sslserver) and a client one (sslclient) under the CA")
    func verify() throws {
        var generator = SystemRandomNumberGenerator()
        let ca = LocalAuthority(now: now, using: &generator)
        let server = try ca.issueServerCertificate(now: now, using: &generator)
        let client = ca.issueClientCertificate(topic: "com.example.mail", now: now, using: &generator)
        let folder = try OpenSSLTool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(ca.certificate.pem, "ca.pem", in: folder)
        try write(server.certificatePEM, "server.pem", in: folder)
        try write(client.certificatePEM, "client.pem", in: folder)
        let plain = try OpenSSLTool.run(["verify", "-CAfile", "ca.pem", "server.pem"], in: folder)
        #expect(plain.status == 0 && plain.output.contains("server.pem: OK"), "\(plain.output)")
        let asServer = try OpenSSLTool.run(["verify", "-CAfile", "ca.pem", "-purpose", "sslserver", "-x509_strict", "server.pem"], in: folder)
        #expect(asServer.status == 0, "\(asServer.output)")
        let asClient = try OpenSSLTool.run(["verify", "-CAfile", "ca.pem", "-purpose", "sslclient", "-x509_strict", "client.pem"], in: folder)
        #expect(asClient.status == 0, "\(asClient.output)")
        let wrong = try OpenSSLTool.run(["verify", "-CAfile", "ca.pem", "-purpose", "sslserver", "client.pem"], in: folder)
        #expect(wrong.status != 0)
    }

    @Test("openssl x509 -text prints the fields as written: names, SANs, usages, validity")
    func text() throws {
        var generator = SystemRandomNumberGenerator()
        let ca = LocalAuthority(now: now, using: &generator)
        let server = try ca.issueServerCertificate(now: now, using: &generator)
        let client = ca.issueClientCertificate(topic: "com.example.mail", now: now, using: &generator)
        let folder = try OpenSSLTool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(server.certificatePEM, "server.pem", in: folder)
        try write(client.certificatePEM, "client.pem", in: folder)
        let serverText = try OpenSSLTool.run(["x509", "-in", "server.pem", "-noout", "-text"], in: folder)
        #expect(serverText.status == 0)
        for expected in ["Version: 3 (0x2)", "Signature Algorithm: ecdsa-with-SHA256", "Issuer: O = PushSim, CN = PushSim Local CA",
                         "Subject: CN = api.push.apple.com", "ASN1 OID: prime256v1", "X509v3 Basic Constraints: critical", "CA:FALSE",
                         "X509v3 Key Usage: critical", "Digital Signature", "TLS Web Server Authentication",
                         "DNS:api.push.apple.com, DNS:api.sandbox.push.apple.com, DNS:api.development.push.apple.com, DNS:localhost, "
                             + "IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1"] {
            #expect(serverText.output.contains(expected), "\(expected) not in \(serverText.output)")
        }
        let clientText = try OpenSSLTool.run(["x509", "-in", "client.pem", "-noout", "-subject", "-dates", "-serial"], in: folder)
        #expect(clientText.output.contains("subject=UID = com.example.mail, CN = Apple Push Services: com.example.mail"), "\(clientText.output)")
        let serial = client.certificate.serialNumber.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(clientText.output.contains("serial=" + serial))
    }

    @Test("keys: openssl reads the PKCS#8 written here to the same point; its SEC 1 and PKCS#8 keys are read here; a CSR signed by openssl with the CA's key verifies here")
    func keys() throws {
        var generator = SystemRandomNumberGenerator()
        let ca = LocalAuthority(now: now, using: &generator)
        let folder = try OpenSSLTool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(P256KeyPEM.encode(ca.privateKey), "ca.key", in: folder)
        try write(ca.certificate.pem, "ca.pem", in: folder)
        let check = try OpenSSLTool.run(["pkey", "-in", "ca.key", "-check", "-noout"], in: folder)
        #expect(check.status == 0 && check.output.contains("Key is valid"), "\(check.output)")
        let publicKey = try OpenSSLTool.run(["pkey", "-in", "ca.key", "-pubout"], in: folder)
        let spki = ECPrivateKeyFields.subjectPublicKeyInfo(p256Point: ca.privateKey.publicKey.x963Representation)
        #expect(publicKey.output == PEM.encode(PEMBlock(label: "PUBLIC KEY", der: spki)))
        #expect(try OpenSSLTool.run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "sec1.key"], in: folder).status == 0)
        #expect(try OpenSSLTool.run(["pkcs8", "-topk8", "-nocrypt", "-in", "sec1.key", "-out", "leaf.key"], in: folder).status == 0)
        let sec1 = try P256KeyPEM.privateKey(pem: Array(try Data(contentsOf: folder.appendingPathComponent("sec1.key"))))
        let pkcs8 = try P256KeyPEM.privateKey(pem: Array(try Data(contentsOf: folder.appendingPathComponent("leaf.key"))))
        #expect(sec1.rawRepresentation == pkcs8.rawRepresentation)
        #expect(try OpenSSLTool.run(["req", "-new", "-key", "leaf.key", "-subj", "/CN=openssl leaf", "-out", "leaf.csr"], in: folder).status == 0)
        let signed = try OpenSSLTool.run(["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-days", "2", "-sha256",
                                          "-set_serial", "9", "-out", "leaf.pem"], in: folder)
        #expect(signed.status == 0, "\(signed.output)")
        let leaf = try Certificate(pem: Array(try Data(contentsOf: folder.appendingPathComponent("leaf.pem"))))
        #expect(leaf.publicKey == .p256(x963: pkcs8.publicKey.x963Representation))
        // openssl's validity starts when it signs, after `now`.
        #expect(try ChainVerifier(trustedRoots: [ca.certificate]).verify(leaf, at: leaf.notBefore).count == 2)
    }
}
