import TLSCrypto

/// A P-256 private key as PEM: read from PKCS#8 (`PRIVATE KEY`, Apple's `.p8`, openssl's
/// `pkcs8 -topk8`) or SEC 1 (`EC PRIVATE KEY`, openssl's `ecparam -genkey`); written as
/// PKCS#8. The DER is read by `ECPrivateKeyFields`, which ProviderAuth's `.p8` reader shares.
public enum P256KeyPEM {
    /// The key of a one-block PEM file.
    /// - Complexity: O(n) plus one scalar multiplication.
    public static func privateKey(pem: [UInt8]) throws(KeyFileError) -> P256.PrivateKey {
        let block: PEMBlock
        do { block = try PEM.block(pem) } catch { throw .pem(error) }
        guard block.label == "PRIVATE KEY" || block.label == "EC PRIVATE KEY" else { throw .unsupportedLabel(block.label) }
        let fields: ECPrivateKeyFields
        do {
            fields = block.label == "PRIVATE KEY" ? try ECPrivateKeyFields(pkcs8: block.der[...]) : try ECPrivateKeyFields(sec1: block.der[...])
        } catch {
            throw .malformed(error)
        }
        return try privateKey(fields)
    }

    /// The key of fields read from DER, checked: versions, the curve wherever named, the
    /// scalar's range, a stored public key against the scalar's.
    /// - Complexity: one scalar multiplication.
    public static func privateKey(_ fields: ECPrivateKeyFields) throws(KeyFileError) -> P256.PrivateKey {
        guard fields.pkcs8Version ?? 0 == 0, fields.version == 1 else { throw .unsupportedVersion }
        if let algorithm = fields.algorithm, !algorithm.isP256 { throw .notP256 }
        if let curve = fields.curve, !curve.elementsEqual(OID.prime256v1.contents) { throw .notP256 }
        guard fields.algorithm != nil || fields.curve != nil else { throw .notP256 }
        guard let key = P256.PrivateKey(rawRepresentation: Array(fields.scalar)) else { throw .scalarOutOfRange }
        if let point = fields.point, !point.elementsEqual(key.publicKey.x963Representation) { throw .publicKeyMismatch }
        return key
    }

    /// `key` as a PKCS#8 PEM file (`-----BEGIN PRIVATE KEY-----`).
    /// - Complexity: O(1).
    public static func encode(_ key: P256.PrivateKey) -> String {
        let der = ECPrivateKeyFields.pkcs8(p256Scalar: key.rawRepresentation, point: key.publicKey.x963Representation)
        return PEM.encode(PEMBlock(label: "PRIVATE KEY", der: der))
    }
}
