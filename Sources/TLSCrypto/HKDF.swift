/// HKDF with SHA-256 (RFC 5869): Extract concentrates input keying material into a
/// pseudorandom key; Expand stretches that key into as many bytes as asked, bound to `info`.
/// TLS 1.3's key schedule is made of these two (`ExpandLabel.swift`, `KeySchedule.swift`).
public enum HKDF {
    /// HKDF-Extract(salt, IKM) = HMAC(salt, IKM): a 32-byte pseudorandom key. An empty salt is
    /// HMAC's all-zero key, as §2.2 says.
    /// - Complexity: O(salt + input) bytes.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: salt, message: inputKeyMaterial)
    }

    /// HKDF-Expand(PRK, info, L): T(1) ‖ T(2) ‖ … cut to `byteCount`, where
    /// T(i) = HMAC(PRK, T(i − 1) ‖ info ‖ i). At most 255 × 32 = 8,160 bytes (§2.3): more
    /// traps, as a programming error (TLS asks for 12 to 32).
    /// - Complexity: O(byteCount + info) bytes hashed.
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], byteCount: Int) -> [UInt8] {
        precondition(byteCount >= 0 && byteCount <= 255 * HMACSHA256.byteCount, "HKDF-Expand gives at most 8,160 bytes")
        let keyed = HMACSHA256(key: pseudorandomKey)
        var output: [UInt8] = []
        output.reserveCapacity(byteCount + HMACSHA256.byteCount)
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < byteCount {
            var code = keyed
            code.update(previous)
            code.update(info)
            code.update([counter])
            previous = code.finalize()
            output += previous
            counter &+= 1
        }
        return Array(output.prefix(byteCount))
    }
}
