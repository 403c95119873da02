@testable import TLSCrypto
import Testing

/// FIPS 197's examples (Appendix B, Appendix C.1), the computed S-box against one built here
/// from its definition, and the four-block path against single blocks.
@Suite("AES-128: FIPS 197 Appendix B and C.1, the computed S-box")
struct AES128Tests {
    @Test("C.1 (key 00…0f) and B (key 2b7e…3c)")
    func vectors() throws {
        let c1 = try #require(AES128(key: bytes(hex: "000102030405060708090a0b0c0d0e0f")))
        #expect(hex(c1.encrypt(block: bytes(hex: "00112233445566778899aabbccddeeff"))) == "69c4e0d86a7b0430d8cdb78070b4c55a")
        let b = try #require(AES128(key: bytes(hex: "2b7e151628aed2a6abf7158809cf4f3c")))
        #expect(hex(b.encrypt(block: bytes(hex: "3243f6a8885a308d313198a2e0370734"))) == "3925841d02dc09fbdc118597196a0b32")
        #expect(AES128(key: [UInt8](repeating: 0, count: 32)) == nil)
    }

    /// The S-box from its definition (FIPS 197 §5.1.1): the inverse in GF(2⁸) found by search,
    /// then the affine map. Slow and obviously right.
    static func referenceSBox(_ x: UInt8) -> UInt8 {
        func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var (a, b, product) = (a, b, UInt8(0))
            while b != 0 {
                if b & 1 == 1 { product ^= a }
                a = (a << 1) ^ (a & 0x80 != 0 ? 0x1b : 0)
                b >>= 1
            }
            return product
        }
        let inverse = x == 0 ? 0 : (1...255).map(UInt8.init).first { multiply(x, $0) == 1 }!
        var result: UInt8 = 0x63
        for shift in 0..<5 { result ^= inverse << shift | inverse >> ((8 - shift) & 7) }
        return result
    }

    @Test("the bitsliced S-box equals the definition on all 256 bytes (S(00) = 63, S(53) = ed)")
    func sBox() {
        var computed: [UInt8] = []
        for batch in 0..<4 {
            var words = Slices(repeating: 0)
            for index in 0..<64 { words[index >> 3] |= UInt64(batch * 64 + index) << (8 * UInt64(index & 7)) }
            AESBitslice.slice(&words)
            AESBitslice.substitute(&words)
            AESBitslice.unslice(&words)
            computed += (0..<64).map { UInt8(truncatingIfNeeded: words[$0 >> 3] >> (8 * UInt64($0 & 7))) }
        }
        #expect(computed == (0...255).map { Self.referenceSBox(UInt8($0)) })
        #expect(computed[0x00] == 0x63 && computed[0x53] == 0xed)
    }

    @Test("slicing and unslicing give the bytes back")
    func sliceRoundTrip() {
        var generator = SeededGenerator(state: 197)
        var original = Slices(repeating: 0)
        for index in 0..<8 { original[index] = generator.next() }
        var words = original
        AESBitslice.slice(&words)
        AESBitslice.unslice(&words)
        #expect((0..<8).allSatisfy { words[$0] == original[$0] })
    }

    @Test("four different blocks at once encrypt as each alone")
    func fourBlocks() throws {
        var generator = SeededGenerator(state: 4)
        let cipher = try #require(AES128(key: generator.bytes(16)))
        let blocks = (0..<4).map { _ in generator.bytes(16) }
        var words = Slices(repeating: 0)
        for (index, byte) in blocks.flatMap({ $0 }).enumerated() { words[index >> 3] |= UInt64(byte) << (8 * UInt64(index & 7)) }
        cipher.encrypt(&words)
        let together = (0..<64).map { UInt8(truncatingIfNeeded: words[$0 >> 3] >> (8 * UInt64($0 & 7))) }
        #expect(together == blocks.flatMap { cipher.encrypt(block: $0) })
    }
}
