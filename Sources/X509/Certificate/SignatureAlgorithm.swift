/// The hash a signature is made over.
public enum DigestAlgorithm: Equatable, Hashable, Sendable, CaseIterable {
    case sha256, sha384, sha512

    /// The OID in RSASSA-PSS parameters (NIST's hash arcs).
    /// - Complexity: O(1).
    public var oid: OID {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// `SHA256`, as algorithm names spell it.
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// The digest's length in bytes.
    /// - Complexity: O(1).
    public var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}

/// A certificate's signature algorithm (RFC 5280 §4.1.1.2), as far as this module tells
/// them apart; any other is kept by its OID, to be named when refused.
public enum SignatureAlgorithm: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// ecdsa-with-SHA256/384/512 (RFC 5758 §3.2), parameters absent.
    case ecdsa(DigestAlgorithm)
    /// sha256/384/512WithRSAEncryption (RFC 8017 §9.2, PKCS #1 v1.5), parameters NULL.
    case rsaPKCS1v15(DigestAlgorithm)
    /// RSASSA-PSS (RFC 4055 §3.1) with MGF1 over the same hash and trailer field 1.
    case rsaPSS(DigestAlgorithm, saltLength: Int)
    /// Any other algorithm, or one of these with parameters this module does not take.
    case unsupported(OID)

    /// The algorithm of an AlgorithmIdentifier's contents.
    /// - Complexity: O(n).
    static func read(_ reader: inout DERReader, _ what: String) throws(DERError) -> SignatureAlgorithm {
        var identifier = try reader.sequence(what)
        let oid = try identifier.objectIdentifier(what + "'s algorithm")
        let hashes: [OID: (DigestAlgorithm, ecdsa: Bool)] = [
            .ecdsaWithSHA256: (.sha256, true), .ecdsaWithSHA384: (.sha384, true), .ecdsaWithSHA512: (.sha512, true),
            .sha256WithRSAEncryption: (.sha256, false), .sha384WithRSAEncryption: (.sha384, false),
            .sha512WithRSAEncryption: (.sha512, false),
        ]
        let algorithm: SignatureAlgorithm
        if let (hash, ecdsa) = hashes[oid] {
            // RFC 5758 omits ECDSA's parameters; RFC 8017 writes NULL for RSA's (absent is seen too).
            if !ecdsa && identifier.next(is: .null) { try identifier.null(what + "'s parameters") }
            algorithm = ecdsa ? .ecdsa(hash) : .rsaPKCS1v15(hash)
        } else if oid == .rsassaPSS {
            algorithm = try pss(identifier.sequence(what + "'s RSASSA-PSS parameters"), what)
        } else {
            // Parameters of an algorithm not read here are skipped: it will be refused by name.
            if !identifier.isAtEnd { _ = try identifier.element(what + "'s parameters") }
            algorithm = .unsupported(oid)
        }
        try identifier.expectEnd(what)
        return algorithm
    }

    /// RSASSA-PSS-params: hash [0], MGF1 over the same hash [1], salt length [2], trailer [3]
    /// = 1. The defaults (SHA-1) are refused: RFC 8446 and Apple use SHA-256 and up.
    private static func pss(_ parameters: DERReader, _ what: String) throws(DERError) -> SignatureAlgorithm {
        var parameters = parameters
        let name = what + "'s RSASSA-PSS parameters"
        var hashReader = try parameters.constructed(.context(0, constructed: true), name + " hash")
        let hashOID = try hashIdentifier(&hashReader, name + " hash")
        guard let hash = DigestAlgorithm.allCases.first(where: { $0.oid == hashOID }) else { return .unsupported(.rsassaPSS) }
        var mgf = try parameters.constructed(.context(1, constructed: true), name + " mask generation")
        var mgfIdentifier = try mgf.sequence(name + " mask generation")
        guard try mgfIdentifier.objectIdentifier(name + " mask generation") == .mgf1,
              try hashIdentifier(&mgfIdentifier, name + " MGF1 hash") == hashOID else { return .unsupported(.rsassaPSS) }
        try mgfIdentifier.expectEnd(name + " mask generation")
        var saltLength = 20
        if parameters.next(is: .context(2, constructed: true)) {
            var salt = try parameters.constructed(.context(2, constructed: true), name + " salt length")
            saltLength = try salt.smallInteger(name + " salt length")
            try salt.expectEnd(name + " salt length")
        }
        if parameters.next(is: .context(3, constructed: true)) {
            var trailer = try parameters.constructed(.context(3, constructed: true), name + " trailer field")
            guard try trailer.smallInteger(name + " trailer field") == 1 else { return .unsupported(.rsassaPSS) }
            try trailer.expectEnd(name + " trailer field")
        }
        try parameters.expectEnd(name)
        return .rsaPSS(hash, saltLength: saltLength)
    }

    /// A hash's AlgorithmIdentifier inside PSS parameters: the OID, then NULL or nothing.
    private static func hashIdentifier(_ reader: inout DERReader, _ what: String) throws(DERError) -> OID {
        var identifier = try reader.sequence(what)
        let oid = try identifier.objectIdentifier(what)
        if identifier.next(is: .null) { try identifier.null(what + "'s parameters") }
        try identifier.expectEnd(what)
        return oid
    }

    /// The AlgorithmIdentifier this module writes: ecdsa-with-SHA256 and its kin.
    /// - Complexity: O(1).
    func write(_ writer: inout DERWriter) {
        writer.sequence { identifier in
            switch self {
            case .ecdsa(let hash):
                identifier.objectIdentifier([.sha256: OID.ecdsaWithSHA256, .sha384: .ecdsaWithSHA384, .sha512: .ecdsaWithSHA512][hash]!)
            case .rsaPKCS1v15(let hash):
                identifier.objectIdentifier([.sha256: OID.sha256WithRSAEncryption, .sha384: .sha384WithRSAEncryption,
                                             .sha512: .sha512WithRSAEncryption][hash]!)
                identifier.null()
            case .rsaPSS, .unsupported:
                preconditionFailure("this module signs with ECDSA only")
            }
        }
    }

    /// `ecdsa-with-SHA256`, `RSASSA-PSS with SHA-256`, or the OID of another.
    public var description: String {
        switch self {
        case .ecdsa(let hash): "ecdsa-with-\(hash.name)"
        case .rsaPKCS1v15(let hash): "\(hash)WithRSAEncryption"
        case .rsaPSS(let hash, let salt): "RSASSA-PSS with \(hash.name) (salt \(salt) bytes)"
        case .unsupported(let oid): "\(oid)"
        }
    }
}
