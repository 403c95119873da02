import Foundation
@testable import Live
import Testing
import TLS
import TLSCrypto
import Transport
import X509

/// `serve --tls`'s certificates and client authentication, without sockets: the local CA's
/// folder (made, kept, made again), the client certificate check (X509's chain verification
/// and the CertificateVerify signature) and the topic a verified certificate allows.
@Suite("serve --tls: the local CA's folder, client certificates, the certificate's topic")
struct ServeTLSTests {
    /// 2026-11-27 12:00 UTC.
    static let now: Int64 = 1_795_780_800

    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-servetls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("the folder is made once (keys 0600, certificates 0644, the server's for APNs's hosts and loopback) and kept on the next start")
    func folderIsMadeThenKept() throws {
        let folder = try Self.scratch() + "/tls"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try LocalTLSFolder.prepare(folder, now: Self.now)
        #expect(first.madeAuthority && first.madeServerCertificate)
        #expect(first.authorityPath == folder + "/ca.pem")
        #expect(try Self.mode(folder + "/ca-key.pem") == 0o600)
        #expect(try Self.mode(folder + "/server-key.pem") == 0o600)
        #expect(try Self.mode(folder + "/ca.pem") & 0o044 == 0o044)
        let names = Set(first.identity.chain[0].extensions.subjectAlternativeNames)
        #expect(names.isSuperset(of: [.dnsName("api.push.apple.com"), .dnsName("api.sandbox.push.apple.com"),
                                      .dnsName("api.development.push.apple.com"), .dnsName("localhost"),
                                      .ipAddress([127, 0, 0, 1]), .ipAddress(Array(repeating: 0, count: 15) + [1])]))
        let roots = try Certificate.chain(pem: Array(try Data(contentsOf: URL(fileURLWithPath: first.authorityPath))))
        _ = try ChainVerifier(trustedRoots: roots).verify(first.identity.chain[0], at: CertificateTime(secondsSinceEpoch: Self.now),
                                                          purpose: .serverAuth)
        let second = try LocalTLSFolder.prepare(folder, now: Self.now + 86_400)
        #expect(!second.madeAuthority && !second.madeServerCertificate)
        #expect(second.identity.chain == first.identity.chain)
    }

    @Test("a server certificate near expiry or missing a name is issued again by the same CA; a CA near expiry is made again")
    func renewal() throws {
        let folder = try Self.scratch() + "/tls"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try LocalTLSFolder.prepare(folder, now: Self.now)
        let nearLeafExpiry = Self.now + LocalAuthority.leafLifetime - 10 * 86_400
        let renewed = try LocalTLSFolder.prepare(folder, now: nearLeafExpiry)
        #expect(!renewed.madeAuthority && renewed.madeServerCertificate)
        #expect(renewed.identity.chain[1] == first.identity.chain[1])
        // A server certificate for localhost only, by the same CA.
        let caKey = try P256KeyPEM.privateKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/ca-key.pem"))))
        let authority = try LocalAuthority(privateKey: caKey, certificate: first.identity.chain[1])
        var generator = SystemRandomNumberGenerator()
        let narrow = try authority.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: [],
                                                          now: CertificateTime(secondsSinceEpoch: Self.now), using: &generator)
        try Data((narrow.certificatePEM + authority.certificate.pem).utf8).write(to: URL(fileURLWithPath: folder + "/server.pem"))
        try Data(narrow.privateKeyPEM.utf8).write(to: URL(fileURLWithPath: folder + "/server-key.pem"))
        let widened = try LocalTLSFolder.prepare(folder, now: Self.now)
        #expect(!widened.madeAuthority && widened.madeServerCertificate)
        let nearAuthorityExpiry = Self.now + LocalAuthority.authorityLifetime - 10 * 86_400
        let remade = try LocalTLSFolder.prepare(folder, now: nearAuthorityExpiry)
        #expect(remade.madeAuthority && remade.madeServerCertificate)
        #expect(remade.identity.chain[1] != first.identity.chain[1])
    }

    @Test("a CA file that is not a CA, or whose key is not its own, is refused rather than replaced")
    func foreignFolderRefused() throws {
        let folder = try Self.scratch() + "/tls"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try LocalTLSFolder.prepare(folder, now: Self.now)
        try FileManager.default.removeItem(atPath: folder + "/ca-key.pem")
        try FileManager.default.copyItem(atPath: folder + "/server-key.pem", toPath: folder + "/ca-key.pem")
        #expect(throws: ServeTLSError.badLocalAuthority(path: first.authorityPath,
                                                        reason: LocalAuthorityError.keyDoesNotMatchCertificate.description)) {
            try LocalTLSFolder.prepare(folder, now: Self.now)
        }
    }

    /// A client certificate of `authority` for `topic` and its CertificateVerify over `content`.
    static func client(_ authority: LocalAuthority, topic: String = "com.example.mail",
                       at time: Int64 = now) -> (chain: [[UInt8]], key: P256.PrivateKey) {
        var generator = SystemRandomNumberGenerator()
        let issued = authority.issueClientCertificate(topic: topic, now: CertificateTime(secondsSinceEpoch: time), using: &generator)
        return ([issued.certificate.der], issued.privateKey)
    }

    static func authority() -> LocalAuthority {
        var generator = SystemRandomNumberGenerator()
        return LocalAuthority(now: CertificateTime(secondsSinceEpoch: now), using: &generator)
    }

    @Test("a client certificate is accepted when it chains to a named CA and its CertificateVerify verifies; else the alert RFC 8446 names")
    func clientCertificateCheck() throws {
        let trusted = Self.authority(), stranger = Self.authority()
        let check = ClientCertificateCheck(verifier: ChainVerifier(trustedRoots: [trusted.certificate]), now: { Self.now })
        let content = Array("TLS 1.3, client CertificateVerify".utf8)
        func signed(_ key: P256.PrivateKey) -> [UInt8] { key.signature(forDigest: TLSCrypto.SHA256.hash(content)).derRepresentation }
        let good = Self.client(trusted)
        #expect(check.verify(chain: good.chain, scheme: .ecdsaSecp256r1SHA256, signature: signed(good.key), signedContent: content)
                == .accepted)
        let other = Self.client(stranger)
        guard case .refused(let alert, _) = check.verify(chain: other.chain, scheme: .ecdsaSecp256r1SHA256, signature: signed(other.key),
                                                          signedContent: content) else { Issue.record("a stranger's certificate passed"); return }
        #expect(alert == .unknownCA)
        guard case .refused(let forged, _) = check.verify(chain: good.chain, scheme: .ecdsaSecp256r1SHA256, signature: signed(other.key),
                                                           signedContent: content) else { Issue.record("another key's signature passed"); return }
        #expect(forged == .decryptError)
        let later = ClientCertificateCheck(verifier: ChainVerifier(trustedRoots: [trusted.certificate]),
                                           now: { Self.now + LocalAuthority.leafLifetime + 1 })
        guard case .refused(let expired, _) = later.verify(chain: good.chain, scheme: .ecdsaSecp256r1SHA256, signature: signed(good.key),
                                                            signedContent: content) else { Issue.record("an expired certificate passed"); return }
        #expect(expired == .certificateExpired)
        guard case .refused(let unparsed, _) = check.verify(chain: [[0x30, 0x00]], scheme: .ecdsaSecp256r1SHA256, signature: [1],
                                                             signedContent: content) else { Issue.record("garbage passed"); return }
        #expect(unparsed == .badCertificate)
    }

    @Test("the schemes a client may sign CertificateVerify with map to X.509's algorithms: ECDSA P-256 and RSA-PSS with a salt as long as the hash")
    func schemes() {
        #expect(ClientCertificateCheck.algorithm(of: .ecdsaSecp256r1SHA256) == .ecdsa(.sha256))
        #expect(ClientCertificateCheck.algorithm(of: .rsaPSSRSAESHA256) == .rsaPSS(.sha256, saltLength: 32))
        #expect(ClientCertificateCheck.algorithm(of: .rsaPSSRSAESHA384) == .rsaPSS(.sha384, saltLength: 48))
        #expect(ClientCertificateCheck.algorithm(of: .rsaPSSRSAESHA512) == .rsaPSS(.sha512, saltLength: 64))
        #expect(ClientCertificateCheck.algorithm(of: .rsaPKCS1SHA256) == nil)
    }

    @Test("a verified client certificate's UID is the topic: no apns-topic takes it, another is 400 TopicDisallowed, none is 403 BadCertificate, no certificate 403 MissingProviderToken")
    func certificateTopic() throws {
        let harness = try LiveHarness(LiveHarness.scenario(), authentication: .clientCertificate)
        let token = try #require(try harness.devices().first?["token"]?.string)
        let authority = Self.authority()
        let mail = Self.client(authority, topic: LiveHarness.topic).chain
        #expect(harness.push(token, topic: nil, clientCertificateChain: mail).status == 200)
        #expect(harness.push(token, clientCertificateChain: mail).status == 200)
        // A push type's suffix on the certificate's topic is the same app's (Apple's certificates cover .voip).
        #expect(harness.push(token, topic: LiveHarness.topic + ".voip", clientCertificateChain: mail).reason != "TopicDisallowed")
        let other = harness.push(token, topic: "com.example.other", clientCertificateChain: mail)
        #expect(other.status == 400 && other.reason == "TopicDisallowed")
        #expect(harness.push(token).reason == "MissingProviderToken")
        var generator = SystemRandomNumberGenerator()
        let noUID = try authority.issueServerCertificate(now: CertificateTime(secondsSinceEpoch: Self.now), using: &generator)
        var elsewhere = harness
        elsewhere.connection = 9
        let refused = elsewhere.push(token, clientCertificateChain: [noUID.certificate.der])
        #expect(refused.status == 403 && refused.reason == "BadCertificate")
    }
}
