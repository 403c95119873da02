import TLSCrypto

/// A signature checked with a certificate's public key, through TLSCrypto's P-256 and RSA: a
/// certificate's by its issuer's key, or a TLS peer's CertificateVerify by the leaf's.
enum SignatureCheck {
    /// What checking a signature found.
    enum Verdict: Equatable {
        case valid, invalid
        /// An algorithm not verified here (or PSS with a salt not as long as the hash).
        case unsupportedAlgorithm
        /// An algorithm of another family than the key (RSA over an EC key …).
        case algorithmDoesNotFitKey
        /// A point off the curve, an RSA key out of TLSCrypto's range, another key algorithm.
        case unusableKey
    }

    /// The verdict on `signature` over `message` by `key` under `algorithm`.
    /// - Complexity: one signature verification.
    static func verdict(_ signature: [UInt8], over message: [UInt8], algorithm: SignatureAlgorithm, key: SubjectPublicKey) -> Verdict {
        switch (algorithm, key) {
        case (.ecdsa(let hash), .p256(let point)):
            guard let key = P256.PublicKey(x963Representation: point) else { return .unusableKey }
            // FIPS 186-4 §6.4: ECDSA uses the leftmost 256 bits of a longer digest.
            let digest = Array(digest(message, hash).prefix(32))
            guard let signature = P256.Signature(derRepresentation: signature) else { return .invalid }
            return key.isValidSignature(signature, forDigest: digest) ? .valid : .invalid
        case (.rsaPSS(let hash, let saltLength), .rsa) where saltLength != hash.byteCount:
            // TLSCrypto verifies PSS with the salt as long as the hash, as TLS 1.3 and openssl's
            // `rsa_pss_saltlen:digest` make it; another length is named rather than failed.
            return .unsupportedAlgorithm
        case (.rsaPKCS1v15(let hash), .rsa(let modulus, let exponent)), (.rsaPSS(let hash, _), .rsa(let modulus, let exponent)):
            guard let key = RSA.PublicKey(modulus: modulus, exponent: exponent) else { return .unusableKey }
            let digest = digest(message, hash)
            let valid = if case .rsaPSS = algorithm {
                key.isValidPSSSignature(signature, digest: digest, hash: rsaHash(hash))
            } else {
                key.isValidPKCS1v15Signature(signature, digest: digest, hash: rsaHash(hash))
            }
            return valid ? .valid : .invalid
        case (.unsupported, _):
            return .unsupportedAlgorithm
        case (.ecdsa, .rsa), (.rsaPKCS1v15, .p256), (.rsaPSS, .p256):
            return .algorithmDoesNotFitKey
        case (.ecdsa, .unsupported), (.rsaPKCS1v15, .unsupported), (.rsaPSS, .unsupported):
            return .unusableKey
        }
    }

    /// nil when `certificate`'s signature verifies with `issuer`'s key; the refusal otherwise.
    /// - Complexity: one signature verification.
    static func failure(of certificate: Certificate, by issuer: Certificate) -> ChainRefusal? {
        let subject = certificate.subject
        let algorithm = certificate.signatureAlgorithm
        switch verdict(certificate.signature, over: certificate.tbsBytes, algorithm: algorithm, key: issuer.publicKey) {
        case .valid: return nil
        case .invalid: return .badSignature(subject, issuer: issuer.subject)
        case .unsupportedAlgorithm: return .unsupportedSignatureAlgorithm(subject, algorithm)
        case .algorithmDoesNotFitKey: return .algorithmDoesNotFitKey(subject, algorithm, issuerKey: issuer.publicKey)
        case .unusableKey: return .unusableIssuerKey(subject, issuerKey: issuer.publicKey)
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

extension SubjectPublicKey {
    /// Whether `signature` over `message` verifies with this key under `algorithm`: what a TLS
    /// 1.3 server asks of a client's CertificateVerify (ecdsa_secp256r1_sha256 is
    /// `.ecdsa(.sha256)` with a DER signature; rsa_pss_rsae_sha256 is `.rsaPSS(.sha256,
    /// saltLength: 32)`). False for an unusable key or an algorithm that does not fit it.
    /// - Complexity: one signature verification.
    public func isValidSignature(_ signature: [UInt8], over message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        SignatureCheck.verdict(signature, over: message, algorithm: algorithm, key: self) == .valid
    }
}
