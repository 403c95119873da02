extension RSA.PublicKey {
    /// Whether `signature` is an RSASSA-PSS signature (RFC 8017 §8.1.2, EMSA-PSS-VERIFY §9.1.2)
    /// of `digest` with `hash`, MGF1 with the same hash and a salt as long as the digest: the
    /// parameters TLS 1.3's rsa_pss_rsae_* and rsa_pss_pss_* schemes fix (RFC 8446 §4.2.3).
    /// False for a digest of another length than `hash`'s.
    /// - Complexity: O(k² · bits of e), plus hashing n's length.
    public func isValidPSSSignature(_ signature: [UInt8], digest: [UInt8], hash: RSA.Hash) -> Bool {
        let hashLength = hash.byteCount, saltLength = hash.byteCount
        let emBits = modulusBitCount - 1
        let emLength = (emBits + 7) / 8
        guard digest.count == hashLength, emLength >= hashLength + saltLength + 2,
              let encoded = encodedMessage(signature, count: emLength), encoded.last == 0xbc else { return false }
        let maskedDB = encoded[..<(emLength - hashLength - 1)]
        let h = Array(encoded[(emLength - hashLength - 1)..<(emLength - 1)])
        // The bits above emBits in the first byte must be zero (step 6), and are cleared in DB (step 9).
        let topMask = UInt8(0xFF) >> UInt8(8 * emLength - emBits)
        guard maskedDB.first! & ~topMask == 0 else { return false }
        var db = zip(maskedDB, Self.mgf1(seed: h, count: maskedDB.count, hash: hash)).map { $0 ^ $1 }
        db[0] &= topMask
        // DB = PS (zeros) ‖ 0x01 ‖ salt (step 10).
        let separator = emLength - hashLength - saltLength - 2
        guard db[..<separator].allSatisfy({ $0 == 0 }), db[separator] == 0x01 else { return false }
        let salt = db[(separator + 1)...]
        let mPrime = [UInt8](repeating: 0, count: 8) + digest + salt
        return hash.hash(mPrime) == h
    }

    /// MGF1 (RFC 8017 §B.2.1): Hash(seed ‖ counter) for counters 0, 1, … , cut to `count` bytes.
    static func mgf1(seed: [UInt8], count: Int, hash: RSA.Hash) -> [UInt8] {
        var mask: [UInt8] = []
        mask.reserveCapacity(count + hash.byteCount)
        var counter: UInt32 = 0
        while mask.count < count {
            mask += hash.hash(seed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) })
            counter += 1
        }
        return Array(mask[..<count])
    }
}
