/// ECDSA over P-256 (SEC 1 v2 §4.1.3 and §4.1.4, FIPS 186-4 §6): TLS 1.3's
/// ecdsa_secp256r1_sha256 and JWS's ES256.
enum ECDSA {
    /// The digest as the integer e (SEC 1 §4.1.3 step 5: its leftmost 256 bits; a shorter digest
    /// whole), reduced modulo n, which it is below twice. The digest is public.
    /// - Complexity: O(1).
    static func integer(digest: [UInt8]) -> UInt256 {
        let leftmost = digest.count >= 32 ? Array(digest[..<32]) : [UInt8](repeating: 0, count: 32 - digest.count) + digest
        return P256Curve.scalars.reduce(UInt256(bigEndian: leftmost)!)
    }

    /// Whether (r, s) signs `digest` under public point `q` (valid: on the curve, not at
    /// infinity). Out-of-range r or s is refused before any arithmetic (§4.1.4 step 1). Every
    /// input is public: variable time.
    /// - Complexity: O(256) point operations.
    static func verify(digest: [UInt8], r: UInt256, s: UInt256, publicKey q: ProjectivePoint) -> Bool {
        guard !r.isZero, r < P256Curve.n, !s.isZero, s < P256Curve.n else { return false }
        let n = P256Curve.scalars
        // w = s⁻¹ in Montgomery form; a plain value times it gives a plain product.
        let w = n.inverse(n.enter(s))
        let u1 = n.multiply(integer(digest: digest), w), u2 = n.multiply(r, w)
        guard let point = P256Curve.affine(P256Curve.multiplyGenerator(u1, adding: u2, times: q)) else { return false }
        // x is below p < 2n: one subtraction reduces it modulo n.
        return n.reduce(point.x) == r
    }

    /// The signature (r, s) of `digest` under private scalar `d` in [1, n − 1], with k from
    /// RFC 6979 (deterministic: the same key and digest give the same signature). Constant time
    /// in d and k: k·G by `P256Curve.multiply`, k⁻¹ by Fermat's fixed chain, the rest Montgomery
    /// products and masked reductions. r and s are the output, public: the retry on a zero one
    /// (probability about 2⁻²⁵⁶) may branch.
    /// - Complexity: O(256) point operations.
    static func sign(digest: [UInt8], privateKey d: UInt256) -> (r: UInt256, s: UInt256) {
        let n = P256Curve.scalars
        let e = integer(digest: digest)
        var nonces = DeterministicNonces(privateKey: d, reducedDigest: e)
        while true {
            let k = nonces.next()
            // k in [1, n − 1] and G of order n: k·G is never infinity.
            let point = P256Curve.affine(P256Curve.multiply(k, P256Curve.generator))!
            let r = n.reduce(point.x)
            if r.isZero { continue }
            // s = k⁻¹(e + r·d) mod n.
            let sum = n.add(n.enter(e), n.multiply(n.enter(r), n.enter(d)))
            let s = n.leave(n.multiply(n.inverse(n.enter(k)), sum))
            if s.isZero { continue }
            return (r, s)
        }
    }
}
