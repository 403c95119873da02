@testable import HTTP2
import Testing

/// The checks of field octets done eight at a time, against the same checks one octet
/// at a time, for every octet value at every position of short strings (the word loop,
/// the tail, and both), and the Huffman coder's 32-bit writes against a bit-by-bit coder.
@Suite("Field octets")
struct OctetsTests {
    static func naiveVisible(_ octets: [UInt8]) -> Bool { octets.allSatisfy { $0 > 0x20 && $0 < 0x7f } }
    static func naiveNULCRLF(_ octets: [UInt8]) -> Bool { octets.contains { $0 == 0 || $0 == 0x0a || $0 == 0x0d } }
    static func naiveName(_ octets: [UInt8]) -> Bool {
        octets.allSatisfy { !($0 <= 0x20 || (0x41...0x5a).contains($0) || $0 >= 0x7f || $0 == UInt8(ascii: ":")) }
    }

    @Test("visible ASCII, NUL/CR/LF and name octets: every octet value at every position of strings of 0–19 octets")
    func everyOctetEverywhere() {
        var mismatches: [[UInt8]] = []
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for value in 0...255 {
                    var octets = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { octets[position] = UInt8(value) }
                    octets.withUnsafeBufferPointer { buffer in
                        if Octets.allVisibleASCII(buffer) != Self.naiveVisible(octets)
                            || Octets.containsNULCRLF(buffer) != Self.naiveNULCRLF(octets)
                            || Octets.allNameOctets(buffer) != Self.naiveName(octets) {
                            mismatches.append(octets)
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test("octet strings compared by words: equal, or differing in one octet at every position, of 0–24 octets")
    func equalByWords() {
        var mismatches: [(Int, Int)] = []
        for length in 0...24 {
            let a = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) }
            for position in -1..<length {
                var b = a
                if position >= 0 { b[position] ^= 0x20 }
                let equal = a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in Octets.equal(x, y) } }
                if equal != (position < 0) { mismatches.append((length, position)) }
            }
            // Counts differ: never equal.
            let shorter = Array(a.dropLast())
            if length > 0, a.withUnsafeBufferPointer({ x in shorter.withUnsafeBufferPointer { y in Octets.equal(x, y) } }) {
                mismatches.append((length, -2))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
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

    @Test("the octet-at-a-time Huffman decoder answers as the nibble one does: 20,000 strings, coded and changed at random")
    func huffmanOctetsAgainstNibbles() {
        var generator = SplitMix(seed: 11)
        for round in 0..<20_000 {
            let length = Int(generator.next() % 48)
            var code: [UInt8]
            if round % 4 == 0 {
                // Any octets: mostly invalid code (EOS, long or zero padding).
                code = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                let text = (0..<length).map { _ in
                    generator.next() % 6 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : UInt8(ascii: "0") + UInt8(generator.next() % 75)
                }
                code = []
                Huffman.encode(text, into: &code)
                // Now and then an octet changed, dropped or added.
                if !code.isEmpty && round % 3 == 0 {
                    let at = Int(generator.next() % UInt64(code.count))
                    switch generator.next() % 3 {
                    case 0: code[at] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: code.remove(at: at)
                    default: code.append(UInt8(truncatingIfNeeded: generator.next()))
                    }
                }
            }
            let room = Huffman.maximumDecodedLength(code.count)
            var byOctets = [UInt8](repeating: 0, count: room), byNibbles = [UInt8](repeating: 0, count: room)
            let octetCount = code.withUnsafeBufferPointer { bytes in
                byOctets.withUnsafeMutableBufferPointer { Huffman.decode(bytes, into: $0) }
            }
            let nibbleCount = code.withUnsafeBufferPointer { bytes in
                byNibbles.withUnsafeMutableBufferPointer { Huffman.decodeByNibbles(bytes, into: $0) }
            }
            #expect(octetCount == nibbleCount, "\(code)")
            if let octetCount, octetCount == nibbleCount {
                #expect(byOctets[..<octetCount] == byNibbles[..<octetCount], "\(code)")
            }
            if octetCount != nibbleCount { return }
        }
    }
}
