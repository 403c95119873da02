@testable import TLSCrypto
import Testing

/// Both AEADs on random keys, nonces and lengths around the block and batch sizes: what is
/// sealed opens to itself, through the array and in-place interfaces alike; a flipped bit of
/// the ciphertext, the tag or the additional data, another nonce or another key is refused,
/// and a refused text is left as it came.
@Suite("AEADs: seal and open round trips, tampering refused")
struct AEADPropertyTests {
    static let lengths = [0, 1, 15, 16, 17, 31, 47, 48, 49, 63, 64, 65, 111, 112, 113, 127, 128, 129, 191, 192, 193, 300, 1000]

    static func roundTrips<Cipher: AEAD>(_: Cipher.Type, seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        for length in lengths {
            let key = generator.bytes(Cipher.keyByteCount)
            let cipher = try #require(Cipher(key: key))
            let n = AEADNonce(generator.bytes(12))!
            let aad = generator.bytes(length % 37), plaintext = generator.bytes(length)
            let sealed = cipher.seal(nonce: n, additionalData: aad, plaintext: plaintext)
            #expect(sealed.count == length + 16)
            #expect(cipher.open(nonce: n, additionalData: aad, sealed: sealed) == plaintext, "length \(length)")

            // In place, with the additional data in the same buffer before the text (as a record's header).
            var buffer = aad + plaintext + [UInt8](repeating: 0, count: 16)
            cipher.seal(nonce: n, in: &buffer, additionalData: 0..<aad.count, text: aad.count..<(aad.count + length))
            #expect(Array(buffer[aad.count...]) == sealed)
            #expect(cipher.open(nonce: n, in: &buffer, additionalData: 0..<aad.count, text: aad.count..<(aad.count + length)))
            #expect(Array(buffer[aad.count..<(aad.count + length)]) == plaintext)

            // One flipped bit anywhere in the ciphertext or the tag (a sample of positions), or the additional data.
            for bit in Set((0..<8).map { _ in Int.random(in: 0..<(8 * sealed.count), using: &generator) } + [8 * sealed.count - 1]) {
                var tampered = sealed
                tampered[bit / 8] ^= 1 << UInt8(bit % 8)
                #expect(cipher.open(nonce: n, additionalData: aad, sealed: tampered) == nil, "length \(length), bit \(bit)")
            }
            if !aad.isEmpty {
                var tampered = aad
                tampered[tampered.count / 2] ^= 0x40
                #expect(cipher.open(nonce: n, additionalData: tampered, sealed: sealed) == nil)
            }
            #expect(cipher.open(nonce: n.xoring(sequenceNumber: 1), additionalData: aad, sealed: sealed) == nil)
            var otherKey = key
            otherKey[0] ^= 1
            #expect(try #require(Cipher(key: otherKey)).open(nonce: n, additionalData: aad, sealed: sealed) == nil)
            #expect(cipher.open(nonce: n, additionalData: aad, sealed: Array(sealed.prefix(15))) == nil)

            // A refused text is left as it came.
            var refused = sealed
            refused[refused.count - 1] ^= 1
            let before = refused
            #expect(!cipher.open(nonce: n, in: &refused, additionalData: 0..<0, text: 0..<length))
            #expect(refused == before)
        }
    }

    @Test("ChaCha20-Poly1305") func chaCha() throws { try Self.roundTrips(ChaCha20Poly1305.self, seed: 8439) }
    @Test("AES-128-GCM") func gcm() throws { try Self.roundTrips(AES128GCM.self, seed: 38_000) }

    @Test("a key of the wrong length is refused")
    func keyLengths() {
        #expect(ChaCha20Poly1305(key: [UInt8](repeating: 1, count: 16)) == nil)
        #expect(AES128GCM(key: [UInt8](repeating: 1, count: 32)) == nil)
        #expect(AEADNonce([1, 2, 3]) == nil)
    }

    @Test("the record nonce is the IV XOR the sequence number in its last 8 bytes (RFC 8446 §5.3)")
    func recordNonce() {
        let iv = nonce(hex: "5d313eb2671276ee13000b30")
        #expect(hex(iv.xoring(sequenceNumber: 0).bytes) == "5d313eb2671276ee13000b30")
        #expect(hex(iv.xoring(sequenceNumber: 1).bytes) == "5d313eb2671276ee13000b31")
        #expect(hex(iv.xoring(sequenceNumber: 0x0102_0304_0506_0708).bytes) == "5d313eb2661075ea16060c38")
        #expect(iv.xoring(sequenceNumber: 7).xoring(sequenceNumber: 7) == iv)
    }
}
