import Base
import TLS
import TLSCrypto
import X509

/// The certificate chain `serve --tls` presents and the P-256 key that signs its handshake:
/// the team's own (`--tls-cert`, `--tls-key`) or the local CA's (`LocalTLSFolder`).
public struct ServerIdentity: Sendable {
    /// The server's certificate first, then what the client may need to reach its root.
    public let chain: [Certificate]
    let key: P256.PrivateKey

    /// - Complexity: O(1).
    init(chain: [Certificate], key: P256.PrivateKey) {
        self.chain = chain
        self.key = key
    }

    /// The team's chain (`certificatePath`, PEM, the server's certificate first) and key
    /// (`keyPath`, P-256, PKCS#8 or SEC 1 PEM), checked to belong together.
    /// - Complexity: O(n) in the files, plus one scalar multiplication.
    public static func load(certificatePath: String, keyPath: String) throws(ServeTLSError) -> ServerIdentity {
        let chain = try readCertificates(certificatePath)
        let key = try readKey(keyPath)
        guard case .p256(let point) = chain[0].publicKey else { throw .notP256(path: certificatePath) }
        guard point == key.publicKey.x963Representation else { throw .keyDoesNotMatch(certificate: certificatePath, key: keyPath) }
        return ServerIdentity(chain: chain, key: key)
    }

    /// Every certificate of a PEM file, at least one.
    /// - Complexity: O(n) in the file.
    static func readCertificates(_ path: String) throws(ServeTLSError) -> [Certificate] {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: 1 << 20) } catch { throw .unreadable(path: path, reason: error.reason) }
        let chain: [Certificate]
        do { chain = try Certificate.chain(pem: bytes) } catch { throw .badCertificates(path: path, reason: error.description) }
        guard !chain.isEmpty else { throw .badCertificates(path: path, reason: "no -----BEGIN CERTIFICATE----- block") }
        return chain
    }

    /// A P-256 private key from a PEM file.
    /// - Complexity: O(n) in the file, plus one scalar multiplication.
    static func readKey(_ path: String) throws(ServeTLSError) -> P256.PrivateKey {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: 1 << 16) } catch { throw .unreadable(path: path, reason: error.reason) }
        do { return try P256KeyPEM.privateKey(pem: bytes) } catch { throw .badKey(path: path, reason: error.description) }
    }

    /// The credentials TLS presents: the chain as DER, and ECDSA P-256 signatures by the key.
    /// - Complexity: O(1).
    var credentials: ServerCredentials {
        ServerCredentials(certificateChain: chain.map(\.der), signer: P256CertificateVerifySigner(key: key))
    }
}

/// Signs the server's CertificateVerify with ECDSA P-256 over SHA-256 (TLSCrypto: constant
/// time, deterministic nonces), as a DER ECDSA-Sig-Value (RFC 8446 §4.2.3).
struct P256CertificateVerifySigner: CertificateVerifySigner {
    let key: P256.PrivateKey
    var scheme: SignatureScheme { .ecdsaSecp256r1SHA256 }

    /// - Complexity: one signature.
    func sign(_ content: [UInt8]) -> [UInt8] { key.signature(forDigest: TLSCrypto.SHA256.hash(content)).derRepresentation }
}
