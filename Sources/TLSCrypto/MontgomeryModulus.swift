/// Arithmetic modulo a large odd modulus (RSA's, 2048–4096 bits): numbers as arrays of 64-bit
/// limbs, least significant first, every one as long as the modulus; products in Montgomery form
/// (CIOS, as `MontgomeryField` for 256 bits), so modular exponentiation needs no division.
///
/// Variable time, on purpose: RSA verification handles only public values (the key, the
/// signature, the digest), so branches and early exits on them leak nothing.
struct MontgomeryModulus: Sendable {
    /// The modulus, least significant limb first.
    let limbs: [UInt64]
    /// −m⁻¹ mod 2⁶⁴.
    private let inverseNegated: UInt64
    /// R² mod m, R = 2^(64·limbs.count): multiplying by it enters Montgomery form.
    private let rSquared: [UInt64]
    /// R mod m: 1 in Montgomery form.
    private let one: [UInt64]

    /// The modulus of big-endian `bytes` (leading zeros allowed); nil unless odd and above 1.
    /// - Complexity: O(k²) in the limb count k (2·64k modular doublings).
    init?(bigEndian bytes: [UInt8]) {
        let limbs = Self.limbs(bigEndian: bytes)
        guard let count = limbs.lastIndex(where: { $0 != 0 }).map({ $0 + 1 }), limbs[0] & 1 == 1, count > 1 || limbs[0] > 1 else {
            return nil
        }
        self.limbs = Array(limbs[..<count])
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- limbs[0] &* inverse) }
        inverseNegated = 0 &- inverse
        // 1, doubled 64k times modulo m, is R mod m; 64k more doublings give R² mod m.
        var value = [UInt64](repeating: 0, count: count)
        value[0] = 1
        for _ in 0..<(64 * count) { value = Self.double(value, modulo: self.limbs) }
        one = value
        for _ in 0..<(64 * count) { value = Self.double(value, modulo: self.limbs) }
        rSquared = value
    }

    /// Limbs of big-endian bytes, least significant first, as many as the bytes need.
    static func limbs(bigEndian bytes: [UInt8]) -> [UInt64] {
        var limbs = [UInt64](repeating: 0, count: max(1, (bytes.count + 7) / 8))
        for (index, byte) in bytes.reversed().enumerated() { limbs[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8)) }
        return limbs
    }

    /// `value` as exactly `count` big-endian bytes (the higher limbs' bytes dropped; callers
    /// ask for at least the modulus's length, so nothing is).
    static func bigEndianBytes(_ value: [UInt64], count: Int) -> [UInt8] {
        (0..<count).map { position in
            let index = count - 1 - position
            return index / 8 < value.count ? UInt8(truncatingIfNeeded: value[index / 8] >> UInt64(8 * (index % 8))) : 0
        }
    }

    /// Whether a < b, both of the same limb count.
    static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] { return a[index] < b[index] }
        return false
    }

    /// a − b (a ≥ b, or the result taken modulo 2^(64k)), limb by limb.
    static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = a, borrow: UInt64 = 0
        for index in a.indices { (result[index], borrow) = subtractWithBorrow(a[index], b[index], borrow) }
        return result
    }

    /// 2a mod m, for a < m.
    private static func double(_ a: [UInt64], modulo m: [UInt64]) -> [UInt64] {
        var doubled = a, carry: UInt64 = 0
        for index in a.indices { (doubled[index], carry) = addWithCarry(a[index], a[index], carry) }
        return carry == 1 || !isLess(doubled, m) ? subtract(doubled, m) : doubled
    }

    /// a·b·R⁻¹ mod m, for a, b < m.
    /// - Complexity: O(k²).
    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let count = limbs.count
        var t = [UInt64](repeating: 0, count: count + 2)
        for word in b {
            var carry: UInt64 = 0
            for index in 0..<count { (carry, t[index]) = multiplyAdd(a[index], word, t[index], carry) }
            (t[count], carry) = addWithCarry(t[count], carry, 0)
            t[count + 1] = carry
            let q = t[0] &* inverseNegated
            (carry, _) = multiplyAdd(q, limbs[0], t[0], 0)
            for index in 1..<count { (carry, t[index - 1]) = multiplyAdd(q, limbs[index], t[index], carry) }
            (t[count - 1], carry) = addWithCarry(t[count], carry, 0)
            t[count] = t[count + 1] &+ carry
        }
        let result = Array(t[..<count])
        return t[count] != 0 || !Self.isLess(result, limbs) ? Self.subtract(result, limbs) : result
    }

    /// baseᵉ mod m for a base below m, by square and multiply from the exponent's top bit.
    /// - Complexity: O(k² · bits of e).
    func power(_ base: [UInt64], exponent: [UInt8]) -> [UInt64] {
        let montgomeryBase = multiply(base, rSquared)
        var result = one
        for byte in exponent {
            for bit in stride(from: 7, through: 0, by: -1) {
                result = multiply(result, result)
                if (byte >> UInt8(bit)) & 1 == 1 { result = multiply(result, montgomeryBase) }
            }
        }
        var plainOne = [UInt64](repeating: 0, count: limbs.count)
        plainOne[0] = 1
        return multiply(result, plainOne)
    }
}
