@testable import TLSCrypto
import Testing

/// SHA-384 and SHA-512 (one compression, two initial states): FIPS 180-2's examples (Appendix C
/// for SHA-512, D for SHA-384: one block, two blocks, a million "a"), the empty string, messages
/// around the padding's boundaries, and every split of a message fed in two pieces.
@Suite("SHA-384 and SHA-512: FIPS 180-2 examples, incremental hashing")
struct SHA512Tests {
    static let twoBlocks = Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8)

    /// A million "a", fed a thousand at a time.
    static func million<Hash>(_ hash: Hash, update: (inout Hash, [UInt8]) -> Void, finalize: (Hash) -> [UInt8]) -> String {
        var hash = hash
        let thousand = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { update(&hash, thousand) }
        return hex(finalize(hash))
    }

    @Test("FIPS 180-2 C.1, C.2, C.3 (SHA-512) and the empty string")
    func sha512Examples() {
        #expect(hex(SHA512.hash(Array("abc".utf8))) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(hex(SHA512.hash(Self.twoBlocks)) == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
            + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        #expect(Self.million(SHA512(), update: { $0.update($1) }, finalize: { $0.finalize() })
            == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
        #expect(hex(SHA512.hash([])) == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
    }

    @Test("FIPS 180-2 D.1, D.2, D.3 (SHA-384) and the empty string")
    func sha384Examples() {
        #expect(hex(SHA384.hash(Array("abc".utf8)))
            == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(hex(SHA384.hash(Self.twoBlocks))
            == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
        #expect(Self.million(SHA384(), update: { $0.update($1) }, finalize: { $0.finalize() })
            == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985")
        #expect(hex(SHA384.hash([])) == "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")
    }

    /// Bytes i mod 251 of lengths around the padding's boundaries (112 bytes leave no room for the
    /// 16-byte length) and the block's; the digests' first 16 bytes, from Python's hashlib.
    @Test("messages around the padding and block boundaries", arguments: [
        (111, "f5f9fe110d809d34029de262a01b2083", "a1a111449b198d9b1f538bad7f3fc102"),
        (112, "33ba080ec0ccb378e4e95fed3b26c23a", "c5fbd731d19d2ae1180f001be72c2c1a"),
        (127, "d5fcfe2fcf6b3ef375ede37c8123d9b7", "eab89674feaa34e27aebeeff3c0a4d70"),
        (128, "ca2385773319124534111a36d0581fc3", "1dffd5e3adb71d45d2245939665521ae"),
        (129, "ef49ae5b9ad51433d00323528d81ea8d", "1d9da57fbbdab09afb3506ab2d223d06"),
        (239, "2556cf077a788c49bb6d600f4a3cee63", "cb4c7fd522756d5781ad3a4f590a1d86"),
        (240, "d64769ad58f5a338669b935f3431e5be", "6c48466c9f6c07e4ab762c696b7eeb35"),
    ])
    func boundaries(length: Int, sha384: String, sha512: String) {
        let message = (0..<length).map { UInt8($0 % 251) }
        #expect(hex(SHA384.hash(message)).hasPrefix(sha384))
        #expect(hex(SHA512.hash(message)).hasPrefix(sha512))
    }

    @Test("a message fed in two pieces, split anywhere, hashes as a whole; finalize leaves the hash usable")
    func incremental() {
        var generator = SeededGenerator(state: 512)
        for length in [0, 1, 111, 112, 127, 128, 129, 250] {
            let message = generator.bytes(length)
            let whole512 = SHA512.hash(message), whole384 = SHA384.hash(message)
            #expect(whole384.count == 48 && whole512.count == 64)
            for split in stride(from: 0, through: length, by: 7) {
                var hash512 = SHA512(), hash384 = SHA384()
                hash512.update(Array(message[0..<split]))
                hash384.update(Array(message[0..<split]))
                #expect(hash512.finalize() == SHA512.hash(Array(message[0..<split])))
                hash512.update(Array(message[split...]))
                hash384.update(Array(message[split...]))
                #expect(hash512.finalize() == whole512 && hash384.finalize() == whole384, "length \(length) split at \(split)")
            }
        }
    }
}
