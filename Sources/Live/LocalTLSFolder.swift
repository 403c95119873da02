import Foundation
import Glibc
import X509

/// The folder where `serve --tls` keeps its local CA and the server certificate it issued for
/// APNs's host names and loopback (`--tls-dir`, default `.pushsim/tls`): reused while both are
/// valid for those names and not near expiry, made again otherwise. Keys are written with
/// mode 0600; certificates 0644, so a client can be pointed at `ca.pem`.
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
        try makeFolder(folder)
        let time = CertificateTime(secondsSinceEpoch: now)
        var generator = SystemRandomNumberGenerator()
        var madeAuthority = false
        let authority: LocalAuthority
        if let kept = try keptAuthority(folder, at: time) {
            authority = kept
        } else {
            authority = LocalAuthority(now: time, using: &generator)
            try write(authority.certificate.pem, to: path(folder, authorityCertificate), secret: false)
            try write(P256KeyPEM.encode(authority.privateKey), to: path(folder, authorityKey), secret: true)
            madeAuthority = true
        }
        if !madeAuthority, let identity = try keptServer(folder, authority: authority, at: time) {
            return Prepared(identity: identity, authorityPath: path(folder, authorityCertificate), madeAuthority: false,
                            madeServerCertificate: false)
        }
        let issued: IssuedCertificate
        do { issued = try authority.issueServerCertificate(now: time, using: &generator) } catch {
            throw .badLocalAuthority(path: path(folder, authorityCertificate), reason: error.description)
        }
        try write(issued.certificatePEM + authority.certificate.pem, to: path(folder, serverCertificate), secret: false)
        try write(issued.privateKeyPEM, to: path(folder, serverKey), secret: true)
        return Prepared(identity: ServerIdentity(chain: [issued.certificate, authority.certificate], key: issued.privateKey),
                        authorityPath: path(folder, authorityCertificate), madeAuthority: madeAuthority, madeServerCertificate: true)
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

    private static func makeFolder(_ folder: String) throws(ServeTLSError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: folder, reason: (error as NSError).localizedDescription)
        }
    }

    /// Writes `text` under a temporary name created with its final mode (0600 for a key, so
    /// it is never readable by others, even for an instant), then renames it into place.
    private static func write(_ text: String, to path: String, secret: Bool) throws(ServeTLSError) {
        let temporary = path + ".partial"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, secret ? 0o600 : 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let closed = close(descriptor) == 0
        guard written == bytes.count, closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }
}
