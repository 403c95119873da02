/// AES's round functions on four blocks at once, bitsliced: the 64 bytes of four blocks become
/// eight 64-bit words, word b holding bit b of every byte (byte j of block k at bit 16k + j, the
/// column-major order FIPS 197 reads a block in). Each round is then a fixed sequence of AND,
/// XOR and shifts over the eight words: no table, so no index and no branch depends on the key or
/// the data (the cache-timing attacks on table AES have nothing to measure).
///
/// SubBytes is computed, not looked up: the inverse in GF(2⁸) as x²⁵⁴ (four multiplications and
/// seven squarings, each a circuit over the slices), then FIPS 197 §5.1.1's affine map.
typealias Slices = InlineArray<8, UInt64>

enum AESBitslice {
    /// The eight little-endian words of 64 bytes (four blocks) to slices, and back with
    /// `unslice`. Each is the transpose of a bit matrix, done as two: the 8×8 bits inside each
    /// word, then the 8×8 bytes across the words.
    @inline(__always)
    static func slice(_ words: inout Slices) {
        for index in 0..<8 { words[index] = transposeBits(words[index]) }
        transposeBytes(&words)
    }

    /// The inverse of `slice` (both transposes are their own inverses).
    @inline(__always)
    static func unslice(_ slices: inout Slices) {
        transposeBytes(&slices)
        for index in 0..<8 { slices[index] = transposeBits(slices[index]) }
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
    static func transposeBytes(_ w: inout Slices) {
        for i in 0..<4 {
            let (a, c) = (w[i], w[i + 4])
            w[i] = (a & 0x0000_0000_ffff_ffff) | (c << 32)
            w[i + 4] = (a >> 32) | (c & 0xffff_ffff_0000_0000)
        }
        for i in [0, 1, 4, 5] {
            let (a, c) = (w[i], w[i + 2])
            w[i] = (a & 0x0000_ffff_0000_ffff) | ((c & 0x0000_ffff_0000_ffff) << 16)
            w[i + 2] = ((a >> 16) & 0x0000_ffff_0000_ffff) | (c & 0xffff_0000_ffff_0000)
        }
        for i in stride(from: 0, to: 8, by: 2) {
            let (a, c) = (w[i], w[i + 1])
            w[i] = (a & 0x00ff_00ff_00ff_00ff) | ((c & 0x00ff_00ff_00ff_00ff) << 8)
            w[i + 1] = ((a >> 8) & 0x00ff_00ff_00ff_00ff) | (c & 0xff00_ff00_ff00_ff00)
        }
    }

    /// a·b in GF(2⁸) modulo x⁸ + x⁴ + x³ + x + 1, on every byte of the slices at once: the 64
    /// partial products, then x⁸ folded back as x⁴ + x³ + x + 1 from the top down.
    @inline(__always)
    static func multiply(_ a: Slices, _ b: Slices) -> Slices {
        var p = InlineArray<15, UInt64>(repeating: 0)
        for i in 0..<8 {
            for j in 0..<8 { p[i + j] ^= a[i] & b[j] }
        }
        for k in stride(from: 14, through: 8, by: -1) {
            p[k - 8] ^= p[k]; p[k - 7] ^= p[k]; p[k - 5] ^= p[k]; p[k - 4] ^= p[k]
        }
        return [p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]]
    }

    /// a² in GF(2⁸): linear (a² = Σ aᵢx²ⁱ), so a few XORs (the reduction of x⁸…x¹⁴ worked out).
    @inline(__always)
    static func square(_ a: Slices) -> Slices {
        [a[0] ^ a[4] ^ a[6], a[4] ^ a[6] ^ a[7], a[1] ^ a[5], a[4] ^ a[5] ^ a[6] ^ a[7],
         a[2] ^ a[4] ^ a[7], a[5] ^ a[6], a[3] ^ a[5], a[6] ^ a[7]]
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
        x[0] = ~(b[0] ^ b[4] ^ b[5] ^ b[6] ^ b[7])
        x[1] = ~(b[1] ^ b[5] ^ b[6] ^ b[7] ^ b[0])
        x[2] = b[2] ^ b[6] ^ b[7] ^ b[0] ^ b[1]
        x[3] = b[3] ^ b[7] ^ b[0] ^ b[1] ^ b[2]
        x[4] = b[4] ^ b[0] ^ b[1] ^ b[2] ^ b[3]
        x[5] = ~(b[5] ^ b[1] ^ b[2] ^ b[3] ^ b[4])
        x[6] = ~(b[6] ^ b[2] ^ b[3] ^ b[4] ^ b[5])
        x[7] = b[7] ^ b[3] ^ b[4] ^ b[5] ^ b[6]
    }

    /// ShiftRows: row r of each block (bits r, r + 4, r + 8, r + 12 of its 16-bit lane) rotated
    /// left by r columns, which moves its bits down by 4r within the lane.
    @inline(__always)
    static func shiftRows(_ x: inout Slices) {
        for b in 0..<8 {
            let v = x[b]
            let row1 = v & 0x2222_2222_2222_2222, row2 = v & 0x4444_4444_4444_4444, row3 = v & 0x8888_8888_8888_8888
            x[b] = (v & 0x1111_1111_1111_1111)
                | ((row1 >> 4) & 0x0fff_0fff_0fff_0fff) | ((row1 << 12) & 0xf000_f000_f000_f000)
                | ((row2 >> 8) & 0x00ff_00ff_00ff_00ff) | ((row2 << 8) & 0xff00_ff00_ff00_ff00)
                | ((row3 >> 12) & 0x000f_000f_000f_000f) | ((row3 << 4) & 0xfff0_fff0_fff0_fff0)
        }
    }

    /// MixColumns: s′ᵣ = 2(sᵣ ⊕ sᵣ₊₁) ⊕ sᵣ₊₁ ⊕ sᵣ₊₂ ⊕ sᵣ₊₃ in each column (a nibble of the
    /// lane); rows rotate inside the nibble, and doubling is a shift across the slices.
    @inline(__always)
    static func mixColumns(_ x: inout Slices) {
        var y = Slices(repeating: 0), t = Slices(repeating: 0), u = Slices(repeating: 0)
        for b in 0..<8 {
            y[b] = rotateRows(x[b], by: 1)
            t[b] = x[b] ^ y[b]
            u[b] = y[b] ^ rotateRows(t[b], by: 2)
        }
        x[0] = t[7] ^ u[0]
        x[1] = t[0] ^ t[7] ^ u[1]
        x[2] = t[1] ^ u[2]
        x[3] = t[2] ^ t[7] ^ u[3]
        x[4] = t[3] ^ t[7] ^ u[4]
        x[5] = t[4] ^ u[5]
        x[6] = t[5] ^ u[6]
        x[7] = t[6] ^ u[7]
    }

    /// Row r + `by` of each column moved to row r: each nibble rotated right by `by`.
    @inline(__always)
    private static func rotateRows(_ v: UInt64, by count: UInt64) -> UInt64 {
        count == 1 ? ((v >> 1) & 0x7777_7777_7777_7777) | ((v << 3) & 0x8888_8888_8888_8888)
            : ((v >> 2) & 0x3333_3333_3333_3333) | ((v << 2) & 0xcccc_cccc_cccc_cccc)
    }
}
