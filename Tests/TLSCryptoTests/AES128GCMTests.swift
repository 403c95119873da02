@testable import TLSCrypto
import TestVectors
import Testing

/// McGrew and Viega's "The Galois/Counter Mode of Operation", Appendix B, test cases 1–4 (the
/// 128-bit keys), and RFC 8448 §3's AES-128-GCM records sealed and opened byte for byte.
@Suite("AES-128-GCM: GCM spec test cases 1–4, RFC 8448's records")
struct AES128GCMTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let number: Int, key: String, plaintext: String, aad: String, iv: String, ciphertext: String, tag: String
        var testDescription: String { "test case \(number)" }
    }

    static let p3 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525"
        + "b16aedf5aa0de657ba637b391aafd255"
    static let c3 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
        + "1ba30b396a0aac973d58e091473f5985"
    static let cases: [Case] = [
        Case(number: 1, key: "00000000000000000000000000000000", plaintext: "", aad: "", iv: "000000000000000000000000",
             ciphertext: "", tag: "58e2fccefa7e3061367f1d57a4e7455a"),
        Case(number: 2, key: "00000000000000000000000000000000", plaintext: "00000000000000000000000000000000", aad: "",
             iv: "000000000000000000000000", ciphertext: "0388dace60b6a392f328c2b971b2fe78", tag: "ab6e47d42cec13bdf53a67b21257bddf"),
        Case(number: 3, key: "feffe9928665731c6d6a8f9467308308", plaintext: p3, aad: "", iv: "cafebabefacedbaddecaf888",
             ciphertext: c3, tag: "4d5c2af327cd64a62cf35abd2ba6fab4"),
        Case(number: 4, key: "feffe9928665731c6d6a8f9467308308", plaintext: String(p3.dropLast(8)),
             aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2", iv: "cafebabefacedbaddecaf888",
             ciphertext: String(c3.dropLast(8)), tag: "5bc94fbc3221a5db94fae95ae7121a47"),
    ]

    @Test("sealed byte for byte, and opened", arguments: cases)
    func vector(_ test: Case) throws {
        let aead = try #require(AES128GCM(key: bytes(hex: test.key)))
        let sealed = aead.seal(nonce: nonce(hex: test.iv), additionalData: bytes(hex: test.aad), plaintext: bytes(hex: test.plaintext))
        #expect(hex(sealed) == test.ciphertext + test.tag)
        #expect(aead.open(nonce: nonce(hex: test.iv), additionalData: bytes(hex: test.aad), sealed: sealed) == bytes(hex: test.plaintext))
    }

    /// One RFC 8448 record: the key, IV and sequence number it was sealed under, its inner plaintext.
    struct Record: Sendable, CustomTestStringConvertible {
        let name: String, key: String, iv: String, sequence: UInt64, record: String, content: [UInt8]
        var testDescription: String { name }
    }

    static let payload = Array(UInt8(0)...0x31)
    static let records: [Record] = [
        Record(name: "client Finished (handshake key, sequence 0)", key: "dbfaa693d1762c5b666af5d950258d01", iv: "5bd3c71b836e0b76bb73265f",
               sequence: 0, record: RFC8448.clientFinishedRecord, content: bytes(hex: RFC8448.clientFinished) + [0x16]),
        Record(name: "server flight EncryptedExtensions…Finished (674 bytes)", key: "3fce516009c21727d0f2e4e86ee403bc",
               iv: "5d313eb2671276ee13000b30", sequence: 0, record: RFC8448.serverHandshakeRecord,
               content: bytes(hex: RFC8448.encryptedExtensions + RFC8448.certificate + RFC8448.certificateVerify + RFC8448.serverFinished) + [0x16]),
        Record(name: "client application data (sequence 0)", key: "17422dda596ed5d9acd890e3c63f5051", iv: "5b78923dee08579033e523d9",
               sequence: 0, record: RFC8448.clientApplicationRecord, content: payload + [0x17]),
        Record(name: "server application data (sequence 1)", key: "9f02283b6c9c07efc26bb9f2ac92e356", iv: "cf782b88dd83549aadf1e984",
               sequence: 1, record: RFC8448.serverApplicationRecord, content: payload + [0x17]),
    ]

    @Test("RFC 8448's records: sealed in place in a record buffer to the printed bytes, opened in place", arguments: records)
    func record(_ test: Record) throws {
        let aead = try #require(AES128GCM(key: bytes(hex: test.key)))
        let n = nonce(hex: test.iv).xoring(sequenceNumber: test.sequence)
        let expected = bytes(hex: test.record)
        // Header, inner plaintext, room for the tag: sealed where it lies.
        var record = Array(expected[0..<5]) + test.content + [UInt8](repeating: 0, count: 16)
        aead.seal(nonce: n, in: &record, additionalData: 0..<5, text: 5..<(5 + test.content.count))
        #expect(record == expected)
        #expect(aead.open(nonce: n, in: &record, additionalData: 0..<5, text: 5..<(5 + test.content.count)))
        #expect(Array(record[5..<(5 + test.content.count)]) == test.content)
        // At another sequence number the nonce differs and the record is refused, untouched.
        var again = expected
        #expect(!aead.open(nonce: nonce(hex: test.iv).xoring(sequenceNumber: test.sequence + 1), in: &again, additionalData: 0..<5,
                           text: 5..<(expected.count - 16)))
        #expect(again == expected)
    }

    @Test("GHASH's carry-less multiply agrees with a bit-by-bit one")
    func carryless() {
        var generator = SeededGenerator(state: 128)
        for _ in 0..<200 {
            let a = generator.next(), b = generator.next()
            var expected: UInt128 = 0
            for bit in 0..<64 where (b >> UInt64(bit)) & 1 == 1 { expected ^= UInt128(a) << bit }
            #expect(GHASH.carryless64(a, b) == expected)
        }
    }
}
