/// AES's round functions on four blocks at once, bitsliced: the 64 bytes of four blocks become
/// eight 64-bit words, word b holding bit b of every byte (byte j of block k at bit 16k + j, the
/// column-major order FIPS 197 reads a block in). Each round is then a fixed sequence of AND,
/// XOR and shifts over the eight words: no table, so no index and no branch depends on the key or
/// the data (the cache-timing attacks on table AES have nothing to measure).
///
/// SubBytes is computed, not looked up: the inverse in GF(2⁸) as x²⁵⁴ (four multiplications and
/// seven squarings, each a circuit over the slices), then FIPS 197 §5.1.1's affine map.
struct Slices: Sendable {
    var b0, b1, b2, b3, b4, b5, b6, b7: UInt64

    init(_ b0: UInt64, _ b1: UInt64, _ b2: UInt64, _ b3: UInt64, _ b4: UInt64, _ b5: UInt64, _ b6: UInt64, _ b7: UInt64) {
        (self.b0, self.b1, self.b2, self.b3, self.b4, self.b5, self.b6, self.b7) = (b0, b1, b2, b3, b4, b5, b6, b7)
    }

    init(repeating value: UInt64) {
        self.init(value, value, value, value, value, value, value, value)
    }

    /// Word `index` (0..<8), for the code off the hot path.
    subscript(index: Int) -> UInt64 {
        get {
            switch index {
            case 0: b0
            case 1: b1
            case 2: b2
            case 3: b3
            case 4: b4
            case 5: b5
            case 6: b6
            default: b7
            }
        }
        set {
            switch index {
            case 0: b0 = newValue
            case 1: b1 = newValue
            case 2: b2 = newValue
            case 3: b3 = newValue
            case 4: b4 = newValue
            case 5: b5 = newValue
            case 6: b6 = newValue
            default: b7 = newValue
            }
        }
    }

    /// Each word XORed with the other's.
    @inline(__always)
    static func ^ (a: Slices, b: Slices) -> Slices {
        Slices(a.b0 ^ b.b0, a.b1 ^ b.b1, a.b2 ^ b.b2, a.b3 ^ b.b3, a.b4 ^ b.b4, a.b5 ^ b.b5, a.b6 ^ b.b6, a.b7 ^ b.b7)
    }

    /// `transform` applied to each word.
    @inline(__always)
    func map(_ transform: (UInt64) -> UInt64) -> Slices {
        Slices(transform(b0), transform(b1), transform(b2), transform(b3), transform(b4), transform(b5), transform(b6), transform(b7))
    }
}

enum AESBitslice {
    /// The eight little-endian words of 64 bytes (four blocks) to slices, and back with
    /// `unslice`. Each is the transpose of a bit matrix, done as two: the 8×8 bits inside each
    /// word, then the 8×8 bytes across the words.
    @inline(__always)
    static func slice(_ words: inout Slices) {
        words = transposeBytes(words.map(transposeBits))
    }

    /// The inverse of `slice` (both transposes are their own inverses).
    @inline(__always)
    static func unslice(_ slices: inout Slices) {
        slices = transposeBytes(slices).map(transposeBits)
    }

    /// Bit 8r + c to bit 8c + r: the 8×8 bit matrix of a word's bytes (rows) and bits
    /// (columns) transposed by three exchanges of blocks (Hacker's Delight §7-3).
    @inline(__always)
    static func transposeBits(_ word: UInt64) -> UInt64 {
        var x = word
        var t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa
        x ^= t ^ (t << 7)
        t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc
        x ^= t ^ (t << 14)
        t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0
        x ^= t ^ (t << 28)
        return x
    }

    /// Byte b of word i to byte i of word b: halves, quarters, then bytes exchanged between words.
    @inline(__always)
    static func transposeBytes(_ w: Slices) -> Slices {
        @inline(__always)
        func exchange(_ a: inout UInt64, _ c: inout UInt64, _ shift: UInt64, _ low: UInt64) {
            let (x, y) = (a, c)
            a = (x & low) | ((y & low) << shift)
            c = ((x >> shift) & low) | (y & ~low)
        }
        var w = w
        exchange(&w.b0, &w.b4, 32, 0x0000_0000_ffff_ffff); exchange(&w.b1, &w.b5, 32, 0x0000_0000_ffff_ffff)
        exchange(&w.b2, &w.b6, 32, 0x0000_0000_ffff_ffff); exchange(&w.b3, &w.b7, 32, 0x0000_0000_ffff_ffff)
        exchange(&w.b0, &w.b2, 16, 0x0000_ffff_0000_ffff); exchange(&w.b1, &w.b3, 16, 0x0000_ffff_0000_ffff)
        exchange(&w.b4, &w.b6, 16, 0x0000_ffff_0000_ffff); exchange(&w.b5, &w.b7, 16, 0x0000_ffff_0000_ffff)
        exchange(&w.b0, &w.b1, 8, 0x00ff_00ff_00ff_00ff); exchange(&w.b2, &w.b3, 8, 0x00ff_00ff_00ff_00ff)
        exchange(&w.b4, &w.b5, 8, 0x00ff_00ff_00ff_00ff); exchange(&w.b6, &w.b7, 8, 0x00ff_00ff_00ff_00ff)
        return w
    }

    /// a·b in GF(2⁸) modulo x⁸ + x⁴ + x³ + x + 1, on every byte of the slices at once: the 64
    /// partial products, then x⁸…x¹⁴ folded back as x⁴ + x³ + x + 1 from the top down.
    @inline(__always)
    static func multiply(_ a: Slices, _ b: Slices) -> Slices {
        var p0 = (a.b0 & b.b0)
        var p1 = (a.b0 & b.b1) ^ (a.b1 & b.b0)
        var p2 = (a.b0 & b.b2) ^ (a.b1 & b.b1) ^ (a.b2 & b.b0)
        var p3 = (a.b0 & b.b3) ^ (a.b1 & b.b2) ^ (a.b2 & b.b1) ^ (a.b3 & b.b0)
        var p4 = (a.b0 & b.b4) ^ (a.b1 & b.b3) ^ (a.b2 & b.b2) ^ (a.b3 & b.b1) ^ (a.b4 & b.b0)
        var p5 = (a.b0 & b.b5) ^ (a.b1 & b.b4) ^ (a.b2 & b.b3) ^ (a.b3 & b.b2) ^ (a.b4 & b.b1) ^ (a.b5 & b.b0)
        var p6 = (a.b0 & b.b6) ^ (a.b1 & b.b5) ^ (a.b2 & b.b4) ^ (a.b3 & b.b3) ^ (a.b4 & b.b2) ^ (a.b5 & b.b1) ^ (a.b6 & b.b0)
        var p7 = (a.b0 & b.b7) ^ (a.b1 & b.b6) ^ (a.b2 & b.b5) ^ (a.b3 & b.b4) ^ (a.b4 & b.b3) ^ (a.b5 & b.b2) ^ (a.b6 & b.b1) ^ (a.b7 & b.b0)
        var p8 = (a.b1 & b.b7) ^ (a.b2 & b.b6) ^ (a.b3 & b.b5) ^ (a.b4 & b.b4) ^ (a.b5 & b.b3) ^ (a.b6 & b.b2) ^ (a.b7 & b.b1)
        var p9 = (a.b2 & b.b7) ^ (a.b3 & b.b6) ^ (a.b4 & b.b5) ^ (a.b5 & b.b4) ^ (a.b6 & b.b3) ^ (a.b7 & b.b2)
        var p10 = (a.b3 & b.b7) ^ (a.b4 & b.b6) ^ (a.b5 & b.b5) ^ (a.b6 & b.b4) ^ (a.b7 & b.b3)
        let p11 = (a.b4 & b.b7) ^ (a.b5 & b.b6) ^ (a.b6 & b.b5) ^ (a.b7 & b.b4)
        let p12 = (a.b5 & b.b7) ^ (a.b6 & b.b6) ^ (a.b7 & b.b5)
        let p13 = (a.b6 & b.b7) ^ (a.b7 & b.b6)
        let p14 = (a.b7 & b.b7)
        p6 ^= p14; p7 ^= p14; p9 ^= p14; p10 ^= p14
        p5 ^= p13; p6 ^= p13; p8 ^= p13; p9 ^= p13
        p4 ^= p12; p5 ^= p12; p7 ^= p12; p8 ^= p12
        p3 ^= p11; p4 ^= p11; p6 ^= p11; p7 ^= p11
        p2 ^= p10; p3 ^= p10; p5 ^= p10; p6 ^= p10
        p1 ^= p9; p2 ^= p9; p4 ^= p9; p5 ^= p9
        p0 ^= p8; p1 ^= p8; p3 ^= p8; p4 ^= p8
        return Slices(p0, p1, p2, p3, p4, p5, p6, p7)
    }

    /// a² in GF(2⁸): linear (a² = Σ aᵢx²ⁱ), so a few XORs (the reduction of x⁸…x¹⁴ worked out).
    @inline(__always)
    static func square(_ a: Slices) -> Slices {
        Slices(a.b0 ^ a.b4 ^ a.b6, a.b4 ^ a.b6 ^ a.b7, a.b1 ^ a.b5, a.b4 ^ a.b5 ^ a.b6 ^ a.b7,
               a.b2 ^ a.b4 ^ a.b7, a.b5 ^ a.b6, a.b3 ^ a.b5, a.b6 ^ a.b7)
    }

    /// SubBytes on every byte: x²⁵⁴ (the inverse, 0 for 0), then the affine map
    /// bᵢ ⊕ bᵢ₊₄ ⊕ bᵢ₊₅ ⊕ bᵢ₊₆ ⊕ bᵢ₊₇ ⊕ cᵢ with c = 0x63.
    @inline(__always)
    static func substitute(_ x: inout Slices) {
        let x2 = square(x)
        let x3 = multiply(x2, x)
        let x12 = square(square(x3))
        let x15 = multiply(x12, x3)
        let x240 = square(square(square(square(x15))))
        let x252 = multiply(x240, x12)
        let b = multiply(x252, x2)
        x = Slices(~(b.b0 ^ b.b4 ^ b.b5 ^ b.b6 ^ b.b7), ~(b.b1 ^ b.b5 ^ b.b6 ^ b.b7 ^ b.b0),
                   b.b2 ^ b.b6 ^ b.b7 ^ b.b0 ^ b.b1, b.b3 ^ b.b7 ^ b.b0 ^ b.b1 ^ b.b2,
                   b.b4 ^ b.b0 ^ b.b1 ^ b.b2 ^ b.b3, ~(b.b5 ^ b.b1 ^ b.b2 ^ b.b3 ^ b.b4),
                   ~(b.b6 ^ b.b2 ^ b.b3 ^ b.b4 ^ b.b5), b.b7 ^ b.b3 ^ b.b4 ^ b.b5 ^ b.b6)
    }

    /// ShiftRows: row r of each block (bits r, r + 4, r + 8, r + 12 of its 16-bit lane) rotated
    /// left by r columns, which moves its bits down by 4r within the lane.
    @inline(__always)
    static func shiftRows(_ x: inout Slices) {
        x = x.map { v in
            let row1 = v & 0x2222_2222_2222_2222, row2 = v & 0x4444_4444_4444_4444, row3 = v & 0x8888_8888_8888_8888
            return (v & 0x1111_1111_1111_1111)
                | ((row1 >> 4) & 0x0fff_0fff_0fff_0fff) | ((row1 << 12) & 0xf000_f000_f000_f000)
                | ((row2 >> 8) & 0x00ff_00ff_00ff_00ff) | ((row2 << 8) & 0xff00_ff00_ff00_ff00)
                | ((row3 >> 12) & 0x000f_000f_000f_000f) | ((row3 << 4) & 0xfff0_fff0_fff0_fff0)
        }
    }

    /// MixColumns: s′ᵣ = 2(sᵣ ⊕ sᵣ₊₁) ⊕ sᵣ₊₁ ⊕ sᵣ₊₂ ⊕ sᵣ₊₃ in each column (a nibble of the
    /// lane); rows rotate inside the nibble, and doubling is a shift across the slices.
    @inline(__always)
    static func mixColumns(_ x: inout Slices) {
        let y = x.map(rotateRowsByOne)
        let t = x ^ y
        let u = y ^ t.map(rotateRowsByTwo)
        x = Slices(t.b7 ^ u.b0, t.b0 ^ t.b7 ^ u.b1, t.b1 ^ u.b2, t.b2 ^ t.b7 ^ u.b3,
                   t.b3 ^ t.b7 ^ u.b4, t.b4 ^ u.b5, t.b5 ^ u.b6, t.b6 ^ u.b7)
    }

    /// Row r + 1 of each column moved to row r: each nibble rotated right by one.
    @inline(__always)
    private static func rotateRowsByOne(_ v: UInt64) -> UInt64 {
        ((v >> 1) & 0x7777_7777_7777_7777) | ((v << 3) & 0x8888_8888_8888_8888)
    }

    /// Row r + 2 of each column moved to row r: each nibble rotated right by two.
    @inline(__always)
    private static func rotateRowsByTwo(_ v: UInt64) -> UInt64 {
        ((v >> 2) & 0x3333_3333_3333_3333) | ((v << 2) & 0xcccc_cccc_cccc_cccc)
    }
}
