/// A 256-bit unsigned integer: four 64-bit limbs, least significant first. What P-256 computes
/// with: coordinates, scalars and both moduli are below 2²⁵⁶, so there is no allocation and no
/// length to get wrong; stored properties keep a value on the stack in the inner loops.
///
/// Two kinds of operation. Those that handle secrets (a private scalar, a nonce, a point it
/// made) are branch-free: carries and borrows come back as words (0 or 1) computed with
/// 128-bit arithmetic, and a choice is `select` by mask. `<`, `isZero` and `bit` branch, and are
/// for public values only (a peer's point, a signature, an exponent written in the code).
struct UInt256: Equatable, Hashable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var w3: UInt64

    static let zero = UInt256(0, 0, 0, 0)
    static let one = UInt256(1, 0, 0, 0)

    /// From limbs, least significant first.
    init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// From exactly 32 big-endian bytes (the width SEC 1 writes a P-256 number in); nil for any
    /// other count. Reads every byte the same way whatever it holds.
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var limbs = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        for (index, byte) in bytes.enumerated() {
            // Public positions: byte index / 8 picks the limb, most significant first.
            switch index >> 3 {
            case 0: limbs.3 = limbs.3 << 8 | UInt64(byte)
            case 1: limbs.2 = limbs.2 << 8 | UInt64(byte)
            case 2: limbs.1 = limbs.1 << 8 | UInt64(byte)
            default: limbs.0 = limbs.0 << 8 | UInt64(byte)
            }
        }
        self.init(limbs.0, limbs.1, limbs.2, limbs.3)
    }

    /// From 64 hex digits, for the curve's constants written as the standards print them. Traps on
    /// anything else: only literals in this module come through here.
    init(hex: StaticString) {
        let digits = hex.withUTF8Buffer { Array($0) }
        precondition(digits.count == 64, "a 256-bit constant is 64 hex digits")
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
        let bytes = stride(from: 0, to: 64, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
        self.init(bigEndian: bytes)!
    }

    /// The 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<8 {
            let shift = UInt64(56 - 8 * index)
            bytes[index] = UInt8(truncatingIfNeeded: w3 >> shift)
            bytes[8 + index] = UInt8(truncatingIfNeeded: w2 >> shift)
            bytes[16 + index] = UInt8(truncatingIfNeeded: w1 >> shift)
            bytes[24 + index] = UInt8(truncatingIfNeeded: w0 >> shift)
        }
        return bytes
    }

    /// Whether this is zero. Branches: public values only (`isZeroMask` for secrets).
    var isZero: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Bit `index` (0 = least significant, 255 = most), of a public value (an exponent, a
    /// verification's scalar).
    func bit(_ index: Int) -> Bool { (limb(index >> 6) >> UInt64(index & 63)) & 1 == 1 }

    /// Limb `index` (0 = least significant); the index is a public position.
    func limb(_ index: Int) -> UInt64 {
        switch index {
        case 0: w0
        case 1: w1
        case 2: w2
        default: w3
        }
    }

    /// `self + other + carry` modulo 2²⁵⁶ and the carry out, 0 or 1. Branch-free.
    func adding(_ other: UInt256, carry: UInt64 = 0) -> (sum: UInt256, carry: UInt64) {
        let (s0, c0) = addWithCarry(w0, other.w0, carry)
        let (s1, c1) = addWithCarry(w1, other.w1, c0)
        let (s2, c2) = addWithCarry(w2, other.w2, c1)
        let (s3, c3) = addWithCarry(w3, other.w3, c2)
        return (UInt256(s0, s1, s2, s3), c3)
    }

    /// `self − other` modulo 2²⁵⁶ and the borrow out, 0 or 1 (1 when `other > self`). Branch-free.
    func subtracting(_ other: UInt256) -> (difference: UInt256, borrow: UInt64) {
        let (d0, b0) = subtractWithBorrow(w0, other.w0, 0)
        let (d1, b1) = subtractWithBorrow(w1, other.w1, b0)
        let (d2, b2) = subtractWithBorrow(w2, other.w2, b1)
        let (d3, b3) = subtractWithBorrow(w3, other.w3, b2)
        return (UInt256(d0, d1, d2, d3), b3)
    }

    /// `ifSet` where `mask` is all ones, `ifClear` where it is zero: a choice without a branch.
    @inline(__always)
    static func select(_ mask: UInt64, _ ifSet: UInt256, _ ifClear: UInt256) -> UInt256 {
        UInt256((ifSet.w0 & mask) | (ifClear.w0 & ~mask), (ifSet.w1 & mask) | (ifClear.w1 & ~mask),
                (ifSet.w2 & mask) | (ifClear.w2 & ~mask), (ifSet.w3 & mask) | (ifClear.w3 & ~mask))
    }

    /// All ones when this is zero, else zero, by arithmetic.
    var isZeroMask: UInt64 { UInt256.mask(ifZero: w0 | w1 | w2 | w3) }

    /// All ones when this is below `bound`, else zero: the borrow of the subtraction, as a mask.
    func belowMask(_ bound: UInt256) -> UInt64 { 0 &- subtracting(bound).borrow }

    /// All ones when `word` is zero, else zero: 0 − w borrows into the top bit for any w ≠ 0.
    @inline(__always)
    static func mask(ifZero word: UInt64) -> UInt64 {
        ((word | (0 &- word)) >> 63) &- 1
    }
}

extension UInt256: Comparable {
    /// Branches on the limbs: public values only.
    static func < (lhs: UInt256, rhs: UInt256) -> Bool {
        if lhs.w3 != rhs.w3 { return lhs.w3 < rhs.w3 }
        if lhs.w2 != rhs.w2 { return lhs.w2 < rhs.w2 }
        if lhs.w1 != rhs.w1 { return lhs.w1 < rhs.w1 }
        return lhs.w0 < rhs.w0
    }
}

/// `a + b + carry` and the carry out (0 or 1), through a 128-bit sum: no flag, no branch.
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
    let sum = UInt128(a) &+ UInt128(b) &+ UInt128(carry)
    return (UInt64(truncatingIfNeeded: sum), UInt64(truncatingIfNeeded: sum >> 64))
}

/// `a − b − borrow` and the borrow out (0 or 1): the 128-bit difference's top bit.
@inline(__always)
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
    let difference = UInt128(a) &- UInt128(b) &- UInt128(borrow)
    return (UInt64(truncatingIfNeeded: difference), UInt64(truncatingIfNeeded: difference >> 127))
}

/// The high and low words of `a·b + c + d`, which never overflows 128 bits:
/// (2⁶⁴ − 1)² + 2(2⁶⁴ − 1) = 2¹²⁸ − 1.
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
    let product = UInt128(a) &* UInt128(b) &+ UInt128(c) &+ UInt128(d)
    return (UInt64(truncatingIfNeeded: product >> 64), UInt64(truncatingIfNeeded: product))
}
