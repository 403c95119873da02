@testable import HTTP2
import Testing

/// The checks of field octets done eight at a time, against the same checks one octet
/// at a time, for every octet value at every position of short strings (the word loop,
/// the tail, and both), and the Huffman coder's 32-bit writes against a bit-by-bit coder.
@Suite("Field octets")
struct OctetsTests {
    static func naiveVisible(_ octets: [UInt8]) -> Bool { octets.allSatisfy { $0 > 0x20 && $0 < 0x7f } }
    static func naiveNULCRLF(_ octets: [UInt8]) -> Bool { octets.contains { $0 == 0 || $0 == 0x0a || $0 == 0x0d } }

    @Test("visible ASCII and NUL/CR/LF: every octet value at every position of strings of 0–19 octets")
    func everyOctetEverywhere() {
        var mismatches: [[UInt8]] = []
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for value in 0...255 {
                    var octets = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { octets[position] = UInt8(value) }
                    octets.withUnsafeBufferPointer { buffer in
                        if Octets.allVisibleASCII(buffer) != Self.naiveVisible(octets)
                            || Octets.containsNULCRLF(buffer) != Self.naiveNULCRLF(octets) {
                            mismatches.append(octets)
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test("the field name check accepts exactly the octets RFC 9113 §8.2.1 allows")
    func nameOctets() {
        for value in 0...255 {
            let octet = UInt8(value)
            let allowed = !(octet <= 0x20 || (0x41...0x5a).contains(octet) || octet >= 0x7f || octet == UInt8(ascii: ":"))
            #expect(FieldValidation.isNameOctet(octet) == allowed, "\(value)")
        }
    }

    /// Appendix B's code written one bit at a time.
    static func bitByBit(_ bytes: [UInt8]) -> [UInt8] {
        var bits: [Bool] = []
        for byte in bytes {
            let row = HuffmanCode.rows[Int(byte)]
            for shift in stride(from: Int(row.length) - 1, through: 0, by: -1) { bits.append(row.code >> UInt32(shift) & 1 == 1) }
        }
        while bits.count % 8 != 0 { bits.append(true) }
        return stride(from: 0, to: bits.count, by: 8).map { start in bits[start..<(start + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
    }

    @Test("the Huffman coder writes what a bit-by-bit coder writes, for random strings of 0–200 octets, and decodes back")
    func huffmanAgainstBitByBit() throws {
        var generator = SplitMix(seed: 7)
        for length in 0...200 {
            // Mostly the short codes of text, now and then any octet (codes up to 30 bits).
            let bytes = (0..<length).map { _ in
                generator.next() % 8 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : UInt8(ascii: "a") + UInt8(generator.next() % 26)
            }
            var coded: [UInt8] = [0x55]
            Huffman.encode(bytes, into: &coded)
            #expect(Array(coded.dropFirst()) == Self.bitByBit(bytes) && coded.count - 1 == Huffman.encodedLength(bytes))
            #expect(try Huffman.decode(Array(coded.dropFirst())) == bytes)
        }
    }
}
