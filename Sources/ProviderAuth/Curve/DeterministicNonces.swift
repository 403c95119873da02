/// The nonces k of a deterministic ECDSA signature (RFC 6979 section 3.2) for P-256 with
/// HMAC-SHA256: one private key and one digest always give the same k, so signing needs
/// no random source and cannot leak the key through a repeated or biased one.
///
/// qlen = hlen = 256, so each candidate is exactly one HMAC output, taken whole.
struct DeterministicNonces {
    private var key: [UInt8]
    private var value: [UInt8]
    /// Whether a candidate was handed out: the next one first moves the state on (step h.3).
    private var started = false

    /// The state after steps a–g for private scalar `d` (in [1, n − 1]) and a 32-byte digest.
    /// - Complexity: O(1): four HMACs.
    init(privateKey d: UInt256, digest: [UInt8]) {
        // bits2octets(h1): the digest as an integer reduced once modulo n (it is below 2n).
        var reduced = UInt256(bigEndian: digest) ?? .zero
        if reduced >= P256.n { reduced = reduced.subtractingReportingBorrow(P256.n).difference }
        let material = d.bigEndianBytes + reduced.bigEndianBytes
        value = [UInt8](repeating: 0x01, count: 32)
        key = [UInt8](repeating: 0x00, count: 32)
        key = HMACSHA256.code(key: key, message: value + [0x00] + material)
        value = HMACSHA256.code(key: key, message: value)
        key = HMACSHA256.code(key: key, message: value + [0x01] + material)
        value = HMACSHA256.code(key: key, message: value)
    }

    /// The next candidate in [1, n − 1] (step h). Call again when the signature it gave
    /// had r = 0 or s = 0.
    /// - Complexity: O(1) HMACs expected; a candidate ≥ n has probability about 2⁻³².
    mutating func next() -> UInt256 {
        while true {
            if started {
                key = HMACSHA256.code(key: key, message: value + [0x00])
                value = HMACSHA256.code(key: key, message: value)
            }
            started = true
            value = HMACSHA256.code(key: key, message: value)
            let k = UInt256(bigEndian: value) ?? .zero
            if !k.isZero && k < P256.n { return k }
        }
    }
}
