/// X25519 (RFC 7748 §5): Diffie-Hellman on Curve25519's Montgomery form, TLS 1.3's x25519
/// group (RFC 8446 §7.4.2). Scalars and u-coordinates are 32 little-endian bytes.
///
/// Constant time as §5 prescribes: the Montgomery ladder does the same field operations for
/// every bit of the scalar, and chooses between its two points with `conditionalSwap`, a mask,
/// never a branch or an index; the final inversion's exponent is public. For PushSim's TLS test
/// server on loopback (docs/tls.md).
public enum X25519 {
    /// The length of a scalar, a u-coordinate and a shared secret.
    public static let byteCount = 32
    /// u = 9, the base point.
    public static let basePoint: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)

    /// X25519(k, u): the scalar `scalar`, clamped (§5: bits 0–2 and 255 cleared, bit 254 set),
    /// times the point of u-coordinate `u` (its top bit masked). Nil unless both are 32 bytes.
    /// The result may be all zeros (a u of small order): `sharedSecret` refuses that.
    /// - Complexity: O(1): 255 ladder steps and one inversion.
    public static func scalarMultiply(scalar: [UInt8], u: [UInt8]) -> [UInt8]? {
        guard scalar.count == byteCount, u.count == byteCount else { return nil }
        var k = scalar
        k[0] &= 248
        k[31] &= 127
        k[31] |= 64
        let x1 = u.withUnsafeBytes { Field25519(bytes: $0.baseAddress!) }
        var x2 = Field25519.one, z2 = Field25519.zero
        var x3 = x1, z3 = Field25519.one
        var swap: UInt64 = 0
        for t in stride(from: 254, through: 0, by: -1) {
            let bit = UInt64(k[t >> 3] >> UInt8(t & 7)) & 1
            swap ^= bit
            Field25519.conditionalSwap(&x2, &x3, bit: swap)
            Field25519.conditionalSwap(&z2, &z3, bit: swap)
            swap = bit
            // §5's ladder step, a24 = 121665.
            let a = x2 + z2, aa = a.squared()
            let b = x2 - z2, bb = b.squared()
            let e = aa - bb
            let c = x3 + z3, d = x3 - z3
            let da = d * a, cb = c * b
            x3 = (da + cb).squared()
            z3 = x1 * (da - cb).squared()
            x2 = aa * bb
            z2 = e * (aa + e.times(121_665))
        }
        Field25519.conditionalSwap(&x2, &x3, bit: swap)
        Field25519.conditionalSwap(&z2, &z3, bit: swap)
        return (x2 * z2.inverse()).bytes()
    }

    /// An X25519 private key: 32 random bytes (clamped when used).
    public struct PrivateKey: Sendable {
        /// The scalar as given.
        public let rawRepresentation: [UInt8]
        /// X25519(k, 9): what goes in a key_share.
        public let publicKey: [UInt8]

        /// The key of 32 bytes; nil for another count.
        /// - Complexity: O(1): one scalar multiplication.
        public init?(rawRepresentation: [UInt8]) {
            guard let publicKey = X25519.scalarMultiply(scalar: rawRepresentation, u: X25519.basePoint) else { return nil }
            self.rawRepresentation = rawRepresentation
            self.publicKey = publicKey
        }

        /// A fresh key from `generator` (a server's ephemeral key: the system's generator, which
        /// draws from the kernel's; a test's seeded one).
        /// - Complexity: O(1): one scalar multiplication.
        public init(using generator: inout some RandomNumberGenerator) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(X25519.byteCount)
            for _ in 0..<4 {
                let word = generator.next()
                for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
            }
            self.init(rawRepresentation: bytes)!
        }

        /// The shared secret with the peer's public key `peer` (a key_share's 32 bytes); nil
        /// for another length, or when the result is all zeros (a peer's point of small order:
        /// RFC 7748 §6.1, which RFC 8446 §7.4.2 makes a MUST). The zero check reads every byte.
        /// - Complexity: O(1): one scalar multiplication.
        public func sharedSecret(with peer: [UInt8]) -> [UInt8]? {
            guard let secret = X25519.scalarMultiply(scalar: rawRepresentation, u: peer) else { return nil }
            let combined = secret.reduce(UInt8(0)) { $0 | $1 }
            return ConstantTime.isZero(combined) ? nil : secret
        }
    }
}
