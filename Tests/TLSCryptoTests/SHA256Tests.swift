import Base
@testable import TLSCrypto
import Testing

/// FIPS 180-2 Appendix B's examples (one block, two blocks, a million "a"), the empty string,
/// every split of a message fed in pieces, and Base's SHA-256 as a second opinion.
@Suite("SHA-256: FIPS 180-2 examples, incremental hashing")
struct SHA256Tests {
    @Test("FIPS 180-2 B.1, B.2, B.3 and the empty string")
    func examples() {
        #expect(hex(TLSCrypto.SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(TLSCrypto.SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(TLSCrypto.SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var million = TLSCrypto.SHA256()
        let thousand = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { million.update(thousand) }
        #expect(hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a message fed in two pieces, split anywhere, hashes as a whole; finalize leaves the hash usable")
    func incremental() {
        var generator = SeededGenerator(state: 1)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200] {
            let message = generator.bytes(length)
            let whole = TLSCrypto.SHA256.hash(message)
            #expect(whole == Base.SHA256.digest(message), "length \(length)")
            for split in 0...length {
                var hash = TLSCrypto.SHA256()
                hash.update(message[0..<split])
                let early = hash.finalize()
                #expect(early == Base.SHA256.digest(Array(message[0..<split])))
                hash.update(message[split...])
                #expect(hash.finalize() == whole, "length \(length) split at \(split)")
            }
        }
    }
}
