@testable import TLSCrypto
import Testing

/// RFC 8439 §2.5.2's example, the edge cases of the final reduction, and feeding in pieces.
@Suite("Poly1305: RFC 8439 §2.5.2")
struct Poly1305Tests {
    @Test("§2.5.2: \"Cryptographic Forum Research Group\"")
    func example() throws {
        var poly = try #require(Poly1305(key: bytes(hex: "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")))
        poly.update(Array("Cryptographic Forum Research Group".utf8))
        #expect(hex(poly.finalize()) == "a8061dc1305136c6c22b8baf0c0127a9")
    }

    @Test("h ≥ p reduced: r = 1, s = 0 and the message 2¹³⁰ − 5 + 1 (a block of 0xff…, then 0x03) tags as 1")
    func finalReduction() throws {
        // With r = 1 the tag is (Σ blocks) mod p, plus s. m = ff×16 (plus 2¹²⁸) = 2¹²⁹ − 1,
        // then 03…00 as a partial block with its 1: (2¹²⁹ − 1)·1 + … taken mod 2¹³⁰ − 5.
        var key = [UInt8](repeating: 0, count: 32)
        key[0] = 1
        var poly = try #require(Poly1305(key: key))
        poly.update([UInt8](repeating: 0xff, count: 16) + [UInt8](repeating: 0xff, count: 16))
        // h = 2·(2¹²⁹ − 1) = 2¹³⁰ − 2 ≡ 3 (mod 2¹³⁰ − 5).
        #expect(hex(poly.finalize()) == "03000000000000000000000000000000")
    }

    @Test("fed in pieces of every size, the same tag")
    func incremental() throws {
        var generator = SeededGenerator(state: 1305)
        let key = generator.bytes(32), message = generator.bytes(100)
        var whole = try #require(Poly1305(key: key))
        whole.update(message)
        for size in 1...33 {
            var poly = try #require(Poly1305(key: key))
            for start in stride(from: 0, to: message.count, by: size) {
                message[start..<min(start + size, message.count)].withUnsafeBytes { poly.update($0) }
            }
            #expect(poly.finalize() == whole.finalize(), "pieces of \(size)")
        }
    }
}

extension Poly1305 {
    mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }
}
