@testable import TLSCrypto
import Testing

/// RFC 5869 Appendix A's SHA-256 cases (A.1–A.3): the PRK and the OKM byte for byte.
@Suite("HKDF-SHA-256: RFC 5869 A.1–A.3")
struct HKDFTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String, ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int, prk: String, okm: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "A.1 basic", ikm: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c), info: Array(0xf0...0xf9), length: 42,
             prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
             okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Case(name: "A.2 longer inputs and outputs", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff), length: 82,
             prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
             okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        Case(name: "A.3 empty salt and info", ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42,
             prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
             okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test("Extract gives the PRK, Expand the OKM", arguments: cases)
    func vector(_ test: Case) {
        let prk = HKDF.extract(salt: test.salt, inputKeyMaterial: test.ikm)
        #expect(hex(prk) == test.prk)
        #expect(hex(HKDF.expand(pseudorandomKey: prk, info: test.info, byteCount: test.length)) == test.okm)
    }

    @Test("a shorter output is a prefix of a longer one; zero bytes is nothing")
    func prefixes() {
        let prk = bytes(hex: Self.cases[1].prk)
        let long = HKDF.expand(pseudorandomKey: prk, info: [1, 2], byteCount: 255 * 32)
        #expect(long.count == 8_160)
        for length in [0, 1, 31, 32, 33, 64, 100] {
            #expect(HKDF.expand(pseudorandomKey: prk, info: [1, 2], byteCount: length) == Array(long.prefix(length)))
        }
    }
}
