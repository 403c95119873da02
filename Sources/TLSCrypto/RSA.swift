/// RSA signature verification (RFC 8017): RSASSA-PKCS1-v1_5, what certificates are signed with,
/// and RSASSA-PSS as TLS 1.3's rsa_pss_rsae_sha256/384/512 use it (RFC 8446 §4.2.3), for a
/// client's CertificateVerify and RSA certificate chains (Apple issues RSA provider
/// certificates). Verification only: PushSim's server signs with P-256.
///
/// Variable time, on purpose: every input (the key, the signature, the digest) is public, so
/// nothing secret can leak through the time taken. For PushSim's test server on loopback.
public enum RSA {
    /// The hash a signature was made over (and, for PSS, MGF1's).
    public enum Hash: Sendable, Equatable, CaseIterable {
        case sha256
        case sha384
        case sha512

        /// The digest's length in bytes.
        /// - Complexity: O(1).
        public var byteCount: Int {
            switch self {
            case .sha256: SHA256.byteCount
            case .sha384: SHA384.byteCount
            case .sha512: SHA512.byteCount
            }
        }

        /// The digest of `bytes`.
        /// - Complexity: O(n) in the byte count.
        public func hash(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .sha256: SHA256.hash(bytes)
            case .sha384: SHA384.hash(bytes)
            case .sha512: SHA512.hash(bytes)
            }
        }

        /// DER of DigestInfo's AlgorithmIdentifier and the OCTET STRING's header (RFC 8017
        /// §9.2 note 1): what precedes the digest in a PKCS#1 v1.5 encoding. Parameters NULL,
        /// the form RFC 8017 writes; the rare encoding without them is refused.
        var digestInfoPrefix: [UInt8] {
            switch self {
            case .sha256: [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
            case .sha384: [0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
            case .sha512: [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
            }
        }
    }

    /// The modulus lengths accepted, in bits: what TLS 1.3 peers and Apple's certificates use.
    public static let modulusBitCounts = 2048...4096

    /// An RSA public key (n, e).
    public struct PublicKey: Sendable, Equatable {
        /// n, big-endian without leading zeros.
        public let modulus: [UInt8]
        /// e, big-endian without leading zeros.
        public let exponent: [UInt8]
        /// n's length in bits.
        public let modulusBitCount: Int
        /// Arithmetic modulo n.
        let arithmetic: MontgomeryModulus

        /// The key of big-endian `modulus` and `exponent` (leading zeros allowed, as DER's
        /// INTEGERs carry one). Nil unless n is odd with 2048–4096 bits and e is odd, at least 3
        /// and below n.
        /// - Complexity: O(k²) in n's limb count k (its Montgomery constants).
        public init?(modulus: [UInt8], exponent: [UInt8]) {
            let n = Array(modulus.drop { $0 == 0 }), e = Array(exponent.drop { $0 == 0 })
            guard let top = n.first, let last = n.last, last & 1 == 1, let eLast = e.last, eLast & 1 == 1,
                  e.count > 1 || eLast >= 3, e.count <= n.count else { return nil }
            let bits = 8 * n.count - top.leadingZeroBitCount
            guard RSA.modulusBitCounts.contains(bits), let arithmetic = MontgomeryModulus(bigEndian: n) else { return nil }
            let eLimbs = MontgomeryModulus.limbs(bigEndian: e) + [UInt64](repeating: 0, count: arithmetic.limbs.count)
            guard MontgomeryModulus.isLess(Array(eLimbs[..<arithmetic.limbs.count]), arithmetic.limbs) else { return nil }
            self.modulus = n
            self.exponent = e
            modulusBitCount = bits
            self.arithmetic = arithmetic
        }

        /// The same n and e.
        /// - Complexity: O(k).
        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent }

        /// RSAVP1 (RFC 8017 §5.2.2): sᵉ mod n as `count` big-endian bytes; nil unless the
        /// signature is exactly n's length in bytes (§8.1.2 step 1, §8.2.2 step 1) and below n.
        func encodedMessage(_ signature: [UInt8], count: Int) -> [UInt8]? {
            guard signature.count == modulus.count else { return nil }
            let s = MontgomeryModulus.limbs(bigEndian: signature)
            let width = arithmetic.limbs.count
            let padded = s + [UInt64](repeating: 0, count: max(0, width - s.count))
            guard MontgomeryModulus.isLess(Array(padded[..<width]), arithmetic.limbs) else { return nil }
            let m = arithmetic.power(Array(padded[..<width]), exponent: exponent)
            // The message must fit `count` bytes (PSS's emLen may be one short of n's length).
            let whole = MontgomeryModulus.bigEndianBytes(m, count: modulus.count)
            guard whole.prefix(modulus.count - count).allSatisfy({ $0 == 0 }) else { return nil }
            return Array(whole.suffix(count))
        }

        /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature (RFC 8017 §8.2.2) of `digest`
        /// made with `hash`: sᵉ mod n must be exactly 0x00 0x01 FF…FF 0x00 DigestInfo, compared
        /// whole, never parsed. False for a digest of another length than `hash`'s.
        /// - Complexity: O(k² · bits of e).
        public func isValidPKCS1v15Signature(_ signature: [UInt8], digest: [UInt8], hash: Hash) -> Bool {
            guard digest.count == hash.byteCount, let encoded = encodedMessage(signature, count: modulus.count) else { return false }
            let suffix = [0x00] + hash.digestInfoPrefix + digest
            // At least 8 bytes of 0xFF (§9.2 step 3): n ≥ 2048 bits leaves far more.
            let expected = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: modulus.count - 2 - suffix.count) + suffix
            return encoded == expected
        }
    }
}
