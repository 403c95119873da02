/// ECDSA over P-256 with a SHA-256 digest (SEC 1 v2 sections 4.1.3 and 4.1.4, FIPS 186-4
/// section 6): the algorithm JWS calls ES256.
enum ECDSA {
    /// The digest as the integer e (SEC 1 4.1.3 step 5: a 256-bit digest is taken whole),
    /// reduced modulo n, which it is below twice; nil unless 32 bytes.
    /// - Complexity: O(1).
    static func integer(digest: [UInt8]) -> UInt256? {
        guard let e = UInt256(bigEndian: digest) else { return nil }
        return e >= P256.n ? e.subtractingReportingBorrow(P256.n).difference : e
    }

    /// Whether (r, s) signs `digest` under public point `q` (valid: on the curve, not at
    /// infinity). Out-of-range r or s is refused before any arithmetic (step 1).
    /// - Complexity: O(256) point operations.
    static func verify(digest: [UInt8], r: UInt256, s: UInt256, publicKey q: JacobianPoint) -> Bool {
        guard !r.isZero, r < P256.n, !s.isZero, s < P256.n, let e = integer(digest: digest) else { return false }
        let n = P256.scalars
        // w = s⁻¹ in Montgomery form; a plain value times it gives a plain product.
        let w = n.inverse(n.enter(s))
        let u1 = n.multiply(e, w), u2 = n.multiply(r, w)
        guard let point = P256.affine(P256.multiplyGenerator(u1, adding: u2, times: q)) else { return false }
        // x is below p < 2n: one subtraction reduces it modulo n.
        let v = point.x >= P256.n ? point.x.subtractingReportingBorrow(P256.n).difference : point.x
        return v == r
    }

    /// The signature (r, s) of `digest` under private scalar `d` in [1, n − 1], with k from
    /// RFC 6979 (deterministic: the same key and digest give the same signature).
    /// - Complexity: O(256) point operations (more only in the rare retry).
    static func sign(digest: [UInt8], privateKey d: UInt256) -> (r: UInt256, s: UInt256) {
        let n = P256.scalars
        let e = integer(digest: digest) ?? .zero
        var nonces = DeterministicNonces(privateKey: d, digest: digest)
        while true {
            let k = nonces.next()
            guard let point = P256.affine(P256.multiply(k, P256.generator)) else { continue }
            let r = point.x >= P256.n ? point.x.subtractingReportingBorrow(P256.n).difference : point.x
            if r.isZero { continue }
            // s = k⁻¹(e + r·d) mod n.
            let sum = n.add(n.enter(e), n.multiply(n.enter(r), n.enter(d)))
            let s = n.leave(n.multiply(n.inverse(n.enter(k)), sum))
            if s.isZero { continue }
            return (r, s)
        }
    }
}
