/// Poly1305 (RFC 8439 §2.5): a one-time authenticator. The message's 16-byte blocks, each with
/// a 1 appended, are the coefficients of a polynomial evaluated at r (the key's first half,
/// clamped) modulo 2¹³⁰ − 5; s (its second half) is added to the result.
///
/// The accumulator is three limbs of 44, 44 and 42 bits with 128-bit products (as Andrew
/// Moon's poly1305-donna-64 lays it out). Constant time: carries are shifts and masks, and the
/// final reduction below p chooses between h and h − p with a mask, not a branch.
public struct Poly1305: Sendable {
    /// The one-time key's length in bytes: r then s.
    public static let keyByteCount = 32
    /// The tag's length in bytes.
    public static let tagByteCount = 16

    private static let mask44: UInt64 = 0xfff_ffff_ffff
    private static let mask42: UInt64 = 0x3ff_ffff_ffff

    /// r, clamped, in limbs; and 20·r₁, 20·r₂ for the products that wrap past 2¹³⁰.
    private let r0, r1, r2, s1, s2: UInt64
    /// s, added at the end.
    private let pad0, pad1: UInt64
    /// The accumulator h.
    private var h0: UInt64 = 0, h1: UInt64 = 0, h2: UInt64 = 0
    /// Bytes of a block not yet complete; the first `pending` count.
    private var buffer = InlineArray<16, UInt8>(repeating: 0)
    private var pending = 0

    /// The authenticator of the one-time `key`; nil unless it is 32 bytes.
    /// - Complexity: O(1).
    public init?(key: [UInt8]) {
        guard key.count == Self.keyByteCount else { return nil }
        self = key.withUnsafeBytes { Poly1305(key: $0.baseAddress!) }
    }

    /// The authenticator of the 32 bytes at `key`.
    init(key: UnsafeRawPointer) {
        let t0 = UInt64(littleEndian: key.loadUnaligned(as: UInt64.self))
        let t1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        // Clamping (§2.5.1) folded into the limb masks.
        r0 = t0 & 0xffc_0fff_ffff
        r1 = ((t0 >> 44) | (t1 << 20)) & 0xfff_ffc0_ffff
        r2 = (t1 >> 24) & 0x00f_ffff_fc0f
        s1 = r1 &* 20
        s2 = r2 &* 20
        pad0 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        pad1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Authenticates `bytes` after what came before.
    /// - Complexity: O(n) in the byte count, no allocation.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        if pending > 0 {
            let taken = min(16 - pending, bytes.count)
            for index in 0..<taken { buffer[pending + index] = bytes[index] }
            pending += taken
            offset = taken
            guard pending == 16 else { return }
            let block = buffer
            withUnsafeBytes(of: block) { absorb($0.baseAddress!, count: 16, high: 1 << 40) }
            pending = 0
        }
        let whole = (bytes.count - offset) & ~15
        if whole > 0 { absorb(bytes.baseAddress! + offset, count: whole, high: 1 << 40) }
        offset += whole
        for index in offset..<bytes.count { buffer[index - offset] = bytes[index] }
        pending = bytes.count - offset
    }

    /// Authenticates `bytes` followed by zeros to a multiple of 16 bytes, as whole blocks:
    /// RFC 8439 §2.8's pad16 after the additional data and after the ciphertext. Only at a
    /// block boundary (nothing pending).
    /// - Complexity: O(n) in the byte count, no allocation.
    mutating func updatePadded(_ bytes: UnsafeRawBufferPointer) {
        precondition(pending == 0, "pad16 is only defined at a block boundary")
        let whole = bytes.count & ~15
        if whole > 0 { absorb(bytes.baseAddress!, count: whole, high: 1 << 40) }
        if whole < bytes.count {
            var block = InlineArray<16, UInt8>(repeating: 0)
            for index in whole..<bytes.count { block[index - whole] = bytes[index] }
            withUnsafeBytes(of: block) { absorb($0.baseAddress!, count: 16, high: 1 << 40) }
        }
    }

    /// Authenticates the two 64-bit little-endian lengths that end §2.8's MAC data.
    mutating func updateLengths(_ first: Int, _ second: Int) {
        precondition(pending == 0, "the lengths block comes at a block boundary")
        let block: (UInt64, UInt64) = (UInt64(first).littleEndian, UInt64(second).littleEndian)
        withUnsafeBytes(of: block) { absorb($0.baseAddress!, count: 16, high: 1 << 40) }
    }

    /// h = (h + block + high·2¹²⁸)·r mod 2¹³⁰ − 5 for each 16-byte block at `bytes`.
    private mutating func absorb(_ bytes: UnsafeRawPointer, count: Int, high: UInt64) {
        var (h0, h1, h2) = (self.h0, self.h1, self.h2)
        let (r0, r1, r2, s1, s2) = (self.r0, self.r1, self.r2, self.s1, self.s2)
        var offset = 0
        while offset < count {
            let t0 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let t1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            h0 &+= t0 & Self.mask44
            h1 &+= ((t0 >> 44) | (t1 << 20)) & Self.mask44
            h2 &+= ((t1 >> 24) & Self.mask42) | high
            let d0 = wide(h0, r0) &+ wide(h1, s2) &+ wide(h2, s1)
            var d1 = wide(h0, r1) &+ wide(h1, r0) &+ wide(h2, s2)
            var d2 = wide(h0, r2) &+ wide(h1, r1) &+ wide(h2, r0)
            var carry = UInt64(truncatingIfNeeded: d0 >> 44)
            h0 = UInt64(truncatingIfNeeded: d0) & Self.mask44
            d1 &+= UInt128(carry)
            carry = UInt64(truncatingIfNeeded: d1 >> 44)
            h1 = UInt64(truncatingIfNeeded: d1) & Self.mask44
            d2 &+= UInt128(carry)
            carry = UInt64(truncatingIfNeeded: d2 >> 42)
            h2 = UInt64(truncatingIfNeeded: d2) & Self.mask42
            h0 &+= carry &* 5
            carry = h0 >> 44
            h0 &= Self.mask44
            h1 &+= carry
            offset += 16
        }
        (self.h0, self.h1, self.h2) = (h0, h1, h2)
    }

    /// The 16-byte tag of everything so far (a last partial block padded with 1 then zeros).
    /// - Complexity: O(1).
    public func finalize() -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: Self.tagByteCount)
        tag.withUnsafeMutableBytes { finalize(into: $0) }
        return tag
    }

    /// Writes the tag over the 16 bytes of `tag`.
    func finalize(into tag: UnsafeMutableRawBufferPointer) {
        var copy = self
        if pending > 0 {
            var block = InlineArray<16, UInt8>(repeating: 0)
            for index in 0..<pending { block[index] = buffer[index] }
            block[pending] = 1
            withUnsafeBytes(of: block) { copy.absorb($0.baseAddress!, count: 16, high: 0) }
        }
        var (h0, h1, h2) = (copy.h0, copy.h1, copy.h2)
        // Carry fully: h below 2¹³⁰ + a little.
        var carry = h1 >> 44; h1 &= Self.mask44
        h2 &+= carry; carry = h2 >> 42; h2 &= Self.mask42
        h0 &+= carry &* 5; carry = h0 >> 44; h0 &= Self.mask44
        h1 &+= carry; carry = h1 >> 44; h1 &= Self.mask44
        h2 &+= carry; carry = h2 >> 42; h2 &= Self.mask42
        h0 &+= carry &* 5; carry = h0 >> 44; h0 &= Self.mask44
        h1 &+= carry
        // g = h + 5 − 2¹³⁰: non-negative exactly when h ≥ p. Keep g then, by a mask.
        var g0 = h0 &+ 5; carry = g0 >> 44; g0 &= Self.mask44
        var g1 = h1 &+ carry; carry = g1 >> 44; g1 &= Self.mask44
        var g2 = h2 &+ carry &- (1 << 42)
        let keepG = (g2 >> 63) &- 1
        g0 &= keepG; g1 &= keepG; g2 &= keepG
        h0 = (h0 & ~keepG) | g0
        h1 = (h1 & ~keepG) | g1
        h2 = (h2 & ~keepG) | g2
        // h + s mod 2¹²⁸.
        h0 &+= pad0 & Self.mask44; carry = h0 >> 44; h0 &= Self.mask44
        h1 &+= (((pad0 >> 44) | (pad1 << 20)) & Self.mask44) &+ carry; carry = h1 >> 44; h1 &= Self.mask44
        h2 &+= ((pad1 >> 24) & Self.mask42) &+ carry; h2 &= Self.mask42
        let low = h0 | (h1 << 44)
        let high = (h1 >> 20) | (h2 << 24)
        precondition(tag.count == Self.tagByteCount, "a Poly1305 tag is 16 bytes")
        tag.storeBytes(of: low.littleEndian, toByteOffset: 0, as: UInt64.self)
        tag.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
    }
}

/// The full 128-bit product of two 64-bit words (private to the file, so it inlines without
/// whole-module optimization too).
@inline(__always)
private func wide(_ a: UInt64, _ b: UInt64) -> UInt128 {
    UInt128(a) &* UInt128(b)
}
