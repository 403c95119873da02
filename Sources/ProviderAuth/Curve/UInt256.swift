/// A 256-bit unsigned integer: four 64-bit limbs, least significant first.
///
/// Fixed width on purpose: every number P-256 needs (coordinates, scalars, the moduli)
/// is below 2²⁵⁶, so there is no allocation and no length to get wrong. Stored
/// properties rather than an array keep a value on the stack in the inner loops.
struct UInt256: Equatable, Hashable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var w3: UInt64

    static let zero = UInt256(0, 0, 0, 0)
    static let one = UInt256(1, 0, 0, 0)

    /// From limbs, least significant first.
    /// - Complexity: O(1).
    init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// From exactly 32 big-endian bytes (the width SEC 1 and JWS write a P-256 number in);
    /// nil for any other count.
    /// - Complexity: O(1).
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var limbs: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() {
            let limb = 3 - index / 8
            limbs[limb] = limbs[limb] << 8 | UInt64(byte)
        }
        self.init(limbs[0], limbs[1], limbs[2], limbs[3])
    }

    /// From 64 hex digits, for the curve's constants written as the standards print them.
    /// Traps on anything else: only literals in this module go through here.
    /// - Complexity: O(1).
    init(hex: StaticString) {
        let text = hex.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        precondition(text.utf8.count == 64, "a 256-bit constant is 64 hex digits")
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        self.init(bigEndian: bytes)!
    }

    /// The 32 big-endian bytes.
    /// - Complexity: O(1).
    var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for limb in [w3, w2, w1, w0] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
        return bytes
    }

    /// Limb `index` (0 = least significant).
    /// - Complexity: O(1).
    subscript(limb index: Int) -> UInt64 {
        switch index {
        case 0: w0
        case 1: w1
        case 2: w2
        default: w3
        }
    }

    var isZero: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Bit `index` (0 = least significant, 255 = most).
    /// - Complexity: O(1).
    func bit(_ index: Int) -> Bool { (self[limb: index >> 6] >> UInt64(index & 63)) & 1 == 1 }

    /// `self + other` modulo 2²⁵⁶ and whether it carried out.
    /// - Complexity: O(1).
    func addingReportingCarry(_ other: UInt256) -> (sum: UInt256, carry: Bool) {
        let (s0, c0) = w0.addingReportingOverflow(other.w0)
        let (s1, c1) = add(w1, other.w1, c0)
        let (s2, c2) = add(w2, other.w2, c1)
        let (s3, c3) = add(w3, other.w3, c2)
        return (UInt256(s0, s1, s2, s3), c3)
    }

    /// `self − other` modulo 2²⁵⁶ and whether it borrowed (`other > self`).
    /// - Complexity: O(1).
    func subtractingReportingBorrow(_ other: UInt256) -> (difference: UInt256, borrow: Bool) {
        let (d0, b0) = w0.subtractingReportingOverflow(other.w0)
        let (d1, b1) = subtract(w1, other.w1, b0)
        let (d2, b2) = subtract(w2, other.w2, b1)
        let (d3, b3) = subtract(w3, other.w3, b2)
        return (UInt256(d0, d1, d2, d3), b3)
    }
}

extension UInt256: Comparable {
    static func < (lhs: UInt256, rhs: UInt256) -> Bool {
        if lhs.w3 != rhs.w3 { return lhs.w3 < rhs.w3 }
        if lhs.w2 != rhs.w2 { return lhs.w2 < rhs.w2 }
        if lhs.w1 != rhs.w1 { return lhs.w1 < rhs.w1 }
        return lhs.w0 < rhs.w0
    }
}

/// `a + b + carry` and the carry out.
@inline(__always)
private func add(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
    let (sum, first) = a.addingReportingOverflow(b)
    let (total, second) = sum.addingReportingOverflow(carry ? 1 : 0)
    return (total, first || second)
}

/// `a − b − borrow` and the borrow out.
@inline(__always)
private func subtract(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
    let (difference, first) = a.subtractingReportingOverflow(b)
    let (total, second) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
    return (total, first || second)
}
