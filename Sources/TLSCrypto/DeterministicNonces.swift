/// The nonces k of a deterministic ECDSA signature (RFC 6979 §3.2) for P-256 with HMAC-SHA-256:
/// one private key and one digest always give the same k, so signing needs no random source and
/// cannot leak the key through a repeated or biased one.
///
/// qlen = hlen = 256, so each candidate is exactly one HMAC output, taken whole. The key enters
/// only HMAC (constant time); a candidate is tested against n by a borrow, and one refused (≥ n,
/// probability about 2⁻³²) is dropped, so nothing about the kept k shows in the time.
struct DeterministicNonces {
    private var key: [UInt8]
    private var value: [UInt8]
    /// Whether a candidate was handed out: the next one first moves the state on (step h.3).
    private var started = false

    /// The state after steps a–g for private scalar `d` (in [1, n − 1]) and the digest as the
    /// integer e reduced modulo n (bits2octets(h1)).
    init(privateKey d: UInt256, reducedDigest e: UInt256) {
        let material = d.bigEndianBytes + e.bigEndianBytes
        value = [UInt8](repeating: 0x01, count: 32)
        key = [UInt8](repeating: 0x00, count: 32)
        key = HMACSHA256.authenticationCode(key: key, message: value + [0x00] + material)
        value = HMACSHA256.authenticationCode(key: key, message: value)
        key = HMACSHA256.authenticationCode(key: key, message: value + [0x01] + material)
        value = HMACSHA256.authenticationCode(key: key, message: value)
    }

    /// The next candidate in [1, n − 1] (step h). Call again when the signature it gave had
    /// r = 0 or s = 0.
    /// - Complexity: O(1) HMACs expected.
    mutating func next() -> UInt256 {
        while true {
            if started {
                key = HMACSHA256.authenticationCode(key: key, message: value + [0x00])
                value = HMACSHA256.authenticationCode(key: key, message: value)
            }
            started = true
            value = HMACSHA256.authenticationCode(key: key, message: value)
            let k = UInt256(bigEndian: value) ?? .zero
            if ~k.isZeroMask & k.belowMask(P256Curve.n) != 0 { return k }
        }
    }
}
