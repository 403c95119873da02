/// A certificate's public key (RFC 5280 §4.1.2.7), as far as this module reads them. The
/// bytes are as the certificate holds them: a P-256 point is checked on the curve when a
/// signature is verified with it (`TLSCrypto`'s `P256.PublicKey`), an RSA key likewise.
public enum SubjectPublicKey: Equatable, Sendable, CustomStringConvertible {
    /// id-ecPublicKey on prime256v1 (RFC 5480): the uncompressed point, 0x04 ‖ X ‖ Y.
    case p256(x963: [UInt8])
    /// rsaEncryption (RFC 8017 A.1.1): modulus and public exponent, big-endian magnitudes.
    case rsa(modulus: [UInt8], exponent: [UInt8])
    /// Another algorithm, or EC on another curve (its OID as `parameter`).
    case unsupported(algorithm: OID, parameter: OID?)

    /// The key of a SubjectPublicKeyInfo.
    /// - Complexity: O(n).
    static func read(_ reader: inout DERReader, _ what: String) throws(DERError) -> SubjectPublicKey {
        var info = try reader.sequence(what)
        var identifier = try info.sequence(what + "'s algorithm")
        let algorithm = try identifier.objectIdentifier(what + "'s algorithm")
        let key: SubjectPublicKey
        switch algorithm {
        case .ecPublicKey:
            guard identifier.next(is: .objectIdentifier) else {
                throw DERError(what, .unexpectedValue("explicit curve parameters, not a named curve"))
            }
            let curve = try identifier.objectIdentifier(what + "'s curve")
            let point = try info.byteAlignedBitString(what + "'s point")
            guard curve == .prime256v1 else {
                key = .unsupported(algorithm: algorithm, parameter: curve)
                break
            }
            guard point.count == 65, point.first == 0x04 else {
                throw DERError(what, .unexpectedValue("a P-256 point not in the uncompressed 65-byte form"))
            }
            key = .p256(x963: Array(point))
        case .rsaEncryption:
            try identifier.null(what + "'s parameters")
            var bits = DERReader(try info.byteAlignedBitString(what + "'s RSAPublicKey"), depth: info.depth + 1)
            var rsa = try bits.sequence(what + "'s RSAPublicKey")
            let modulus = try rsa.positiveInteger(what + "'s modulus")
            let exponent = try rsa.positiveInteger(what + "'s public exponent")
            try rsa.expectEnd(what + "'s RSAPublicKey")
            try bits.expectEnd(what + "'s RSAPublicKey")
            key = .rsa(modulus: Array(modulus), exponent: Array(exponent))
        default:
            let parameter = identifier.next(is: .objectIdentifier) ? try identifier.objectIdentifier(what + "'s parameters") : nil
            if !identifier.isAtEnd { _ = try identifier.element(what + "'s parameters") }
            _ = try info.bitString(what + "'s key")
            key = .unsupported(algorithm: algorithm, parameter: parameter)
        }
        try identifier.expectEnd(what + "'s algorithm")
        try info.expectEnd(what)
        return key
    }

    /// The SubjectPublicKeyInfo of a P-256 point (what this module's certificates carry).
    /// - Complexity: O(1).
    static func writeP256(_ point: [UInt8], to writer: inout DERWriter) {
        writer.sequence { info in
            info.sequence { identifier in
                identifier.objectIdentifier(.ecPublicKey)
                identifier.objectIdentifier(.prime256v1)
            }
            info.bitString(point)
        }
    }

    /// `P-256`, `RSA 2048 bits`, or the algorithm's OID.
    public var description: String {
        switch self {
        case .p256: "P-256"
        case .rsa(let modulus, _): "RSA \(modulus.count * 8 - (modulus.first?.leadingZeroBitCount ?? 0)) bits"
        case .unsupported(let algorithm, let parameter): parameter.map { "\(algorithm) on \($0)" } ?? "\(algorithm)"
        }
    }
}
