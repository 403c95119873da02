import TLSCrypto

/// A certificate's signature checked with its issuer's key, through TLSCrypto's P-256 and RSA.
enum SignatureCheck {
    /// nil when `certificate`'s signature verifies with `issuer`'s key; the refusal otherwise.
    /// - Complexity: one signature verification.
    static func failure(of certificate: Certificate, by issuer: Certificate) -> ChainRefusal? {
        let subject = certificate.subject
        let algorithm = certificate.signatureAlgorithm
        switch (algorithm, issuer.publicKey) {
        case (.ecdsa(let hash), .p256(let point)):
            guard let key = P256.PublicKey(x963Representation: point) else { return .unusableIssuerKey(subject, issuerKey: issuer.publicKey) }
            // FIPS 186-4 §6.4: ECDSA uses the leftmost 256 bits of a longer digest.
            let digest = Array(digest(certificate.tbsBytes, hash).prefix(32))
            guard let signature = P256.Signature(derRepresentation: certificate.signature),
                  key.isValidSignature(signature, forDigest: digest) else { return .badSignature(subject, issuer: issuer.subject) }
            return nil
        case (.rsaPSS(let hash, let saltLength), .rsa) where saltLength != hash.byteCount:
            // TLSCrypto verifies PSS with the salt as long as the hash, as TLS 1.3 and openssl's
            // `rsa_pss_saltlen:digest` make it; another length is named rather than failed.
            return .unsupportedSignatureAlgorithm(subject, algorithm)
        case (.rsaPKCS1v15(let hash), .rsa(let modulus, let exponent)), (.rsaPSS(let hash, _), .rsa(let modulus, let exponent)):
            guard let key = RSA.PublicKey(modulus: modulus, exponent: exponent) else {
                return .unusableIssuerKey(subject, issuerKey: issuer.publicKey)
            }
            let digest = digest(certificate.tbsBytes, hash)
            let valid = if case .rsaPSS = algorithm {
                key.isValidPSSSignature(certificate.signature, digest: digest, hash: rsaHash(hash))
            } else {
                key.isValidPKCS1v15Signature(certificate.signature, digest: digest, hash: rsaHash(hash))
            }
            return valid ? nil : .badSignature(subject, issuer: issuer.subject)
        case (.unsupported, _):
            return .unsupportedSignatureAlgorithm(subject, algorithm)
        case (.ecdsa, .rsa), (.rsaPKCS1v15, .p256), (.rsaPSS, .p256):
            return .algorithmDoesNotFitKey(subject, algorithm, issuerKey: issuer.publicKey)
        case (.ecdsa, .unsupported), (.rsaPKCS1v15, .unsupported), (.rsaPSS, .unsupported):
            return .unusableIssuerKey(subject, issuerKey: issuer.publicKey)
        }
    }

    static func digest(_ message: [UInt8], _ hash: DigestAlgorithm) -> [UInt8] {
        switch hash {
        case .sha256: SHA256.hash(message)
        case .sha384: SHA384.hash(message)
        case .sha512: SHA512.hash(message)
        }
    }

    private static func rsaHash(_ hash: DigestAlgorithm) -> RSA.Hash {
        switch hash {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}
