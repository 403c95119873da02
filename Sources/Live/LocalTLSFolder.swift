import FoundationEssentials
import Reports
import X509

/// The folder where `serve --tls` keeps its local CA and the server certificate it issued for
/// APNs's host names and loopback (`--tls-dir`, default `.pushsim/tls`): reused while both are
/// valid for those names and not near expiry, made again otherwise. Written by `ReportWriter`
/// (whole or not at all); keys with mode 0600, certificates readable, so a client can be
/// pointed at `ca.pem`.
public enum LocalTLSFolder {
    /// The files, as docs/serve.md names them.
    public static let authorityCertificate = "ca.pem"
    public static let authorityKey = "ca-key.pem"
    /// The server's certificate, then the CA's: the chain serve presents.
    public static let serverCertificate = "server.pem"
    public static let serverKey = "server-key.pem"
    /// A certificate that expires sooner than this is made again (30 days).
    public static let renewalMargin: Int64 = 30 * 86_400

    /// What the folder holds after `prepare`: the server's identity, the CA's file, and which
    /// of the two serve made this time (false: reused).
    public struct Prepared: Sendable {
        public let identity: ServerIdentity
        public let authorityPath: String
        public let madeAuthority: Bool
        public let madeServerCertificate: Bool
    }

    /// The local CA and server certificate of `folder` (made when absent, expired or near
    /// expiry, or, for the server's, not for every name serve answers to), at `now` (seconds
    /// since the epoch). A file that is there but unreadable as what serve writes is an error
    /// rather than replaced: it may be someone's.
    /// - Complexity: a few signatures and file writes.
    public static func prepare(_ folder: String, now: Int64) throws(ServeTLSError) -> Prepared {
        let time = CertificateTime(secondsSinceEpoch: now)
        var generator = SystemRandomNumberGenerator()
        var files: [(name: String, contents: String)] = []
        let authority: LocalAuthority
        if let kept = try keptAuthority(folder, at: time) {
            authority = kept
            if let identity = try keptServer(folder, authority: authority, at: time) {
                return Prepared(identity: identity, authorityPath: path(folder, authorityCertificate), madeAuthority: false,
                                madeServerCertificate: false)
            }
        } else {
            authority = LocalAuthority(now: time, using: &generator)
            files += [(authorityCertificate, authority.certificate.pem), (authorityKey, P256KeyPEM.encode(authority.privateKey))]
        }
        let issued: IssuedCertificate
        do { issued = try authority.issueServerCertificate(now: time, using: &generator) } catch {
            throw .badLocalAuthority(path: path(folder, authorityCertificate), reason: error.description)
        }
        files += [(serverCertificate, issued.certificatePEM + authority.certificate.pem), (serverKey, issued.privateKeyPEM)]
        // All at once or none: a CA is never left without its key, nor a certificate without its.
        do { try ReportWriter.write(files, to: folder, privateFiles: [authorityKey, serverKey]) } catch {
            throw .unwritable(error.description)
        }
        return Prepared(identity: ServerIdentity(chain: [issued.certificate, authority.certificate], key: issued.privateKey),
                        authorityPath: path(folder, authorityCertificate), madeAuthority: files.count == 4, madeServerCertificate: true)
    }

    static func path(_ folder: String, _ file: String) -> String { folder.hasSuffix("/") ? folder + file : folder + "/" + file }

    /// The CA in the folder, if both its files are there and it is valid for the margin; nil
    /// when absent or near expiry.
    private static func keptAuthority(_ folder: String, at time: CertificateTime) throws(ServeTLSError) -> LocalAuthority? {
        let certificatePath = path(folder, authorityCertificate), keyPath = path(folder, authorityKey)
        guard exists(certificatePath) || exists(keyPath) else { return nil }
        let certificate = try ServerIdentity.readCertificates(certificatePath)[0]
        let key = try ServerIdentity.readKey(keyPath)
        let authority: LocalAuthority
        do { authority = try LocalAuthority(privateKey: key, certificate: certificate) } catch {
            throw .badLocalAuthority(path: certificatePath, reason: error.description)
        }
        return isCurrent(certificate, at: time) ? authority : nil
    }

    /// The server certificate in the folder, if it is the CA's, for every name, current for
    /// the margin, and its key is beside it; nil otherwise.
    private static func keptServer(_ folder: String, authority: LocalAuthority,
                                   at time: CertificateTime) throws(ServeTLSError) -> ServerIdentity? {
        let certificatePath = path(folder, serverCertificate), keyPath = path(folder, serverKey)
        guard exists(certificatePath), exists(keyPath),
              let identity = try? ServerIdentity.load(certificatePath: certificatePath, keyPath: keyPath) else { return nil }
        let leaf = identity.chain[0]
        guard (try? leaf.verifySignature(issuedBy: authority.certificate)) != nil, isCurrent(leaf, at: time) else { return nil }
        let names = Set(leaf.extensions.subjectAlternativeNames)
        let wanted = LocalAuthority.serveDNSNames.map(GeneralName.dnsName)
            + LocalAuthority.serveIPAddresses.compactMap { IPAddressText.parse($0).map(GeneralName.ipAddress) }
        guard wanted.allSatisfy(names.contains) else { return nil }
        return ServerIdentity(chain: [leaf, authority.certificate], key: identity.key)
    }

    private static func isCurrent(_ certificate: Certificate, at time: CertificateTime) -> Bool {
        certificate.notBefore <= time && time.adding(seconds: renewalMargin) < certificate.notAfter
    }

    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
