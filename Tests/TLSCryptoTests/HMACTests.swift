@testable import TLSCrypto
import Testing

/// RFC 4231 §4's test cases 1–7 for HMAC-SHA-256 (case 5 truncated to 128 bits, as printed).
@Suite("HMAC-SHA-256: RFC 4231")
struct HMACTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let number: Int, key: [UInt8], data: [UInt8], code: String
        var testDescription: String { "RFC 4231 test case \(number)" }
    }

    static let cases: [Case] = [
        Case(number: 1, key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
             code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Case(number: 2, key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
             code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Case(number: 3, key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
             code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Case(number: 4, key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
             code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Case(number: 5, key: [UInt8](repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8),
             code: "a3b6167473100ee06e0c796c2955552b"),
        Case(number: 6, key: [UInt8](repeating: 0xaa, count: 131), data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Case(number: 7, key: [UInt8](repeating: 0xaa, count: 131),
             data: Array(("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
                 + "hashed before being used by the HMAC algorithm.").utf8),
             code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("the code, whole or cut as the RFC prints it", arguments: cases)
    func vector(_ test: Case) {
        let code = hex(HMACSHA256.authenticationCode(key: test.key, message: test.data))
        #expect(code.prefix(test.code.count) == test.code)
    }

    @Test("fed in pieces, the same code")
    func incremental() {
        let test = Self.cases[6]
        var code = HMACSHA256(key: test.key)
        for chunk in stride(from: 0, to: test.data.count, by: 7) { code.update(Array(test.data[chunk..<min(chunk + 7, test.data.count)])) }
        #expect(hex(code.finalize()) == test.code)
    }
}
