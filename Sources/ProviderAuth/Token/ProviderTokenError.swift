/// Why a provider token is not a well-formed ES256 JWT as APNs reads it. APNs answers each
/// of these `InvalidProviderToken`; the case says which, for a log line and for tests.
/// Associated strings are already escaped and cut (they may repeat token text).
public enum ProviderTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not header.claims.signature: how many dot-separated parts there were.
    case notThreeParts(Int)
    /// A part that is not strict unpadded base64url: which ("header", "claims", "signature").
    case badBase64URL(part: String)
    /// A part that is not JSON: which, and the parser's message.
    case badJSON(part: String, message: String)
    /// A part that is JSON but not an object: which.
    case notAnObject(part: String)
    /// `alg` is not "ES256": what it was (quoted), or "missing".
    case wrongAlgorithm(String)
    /// A `crit` header: it names extensions that must be understood, and none are.
    case criticalHeader
    /// No `kid` string in the header.
    case missingKeyID
    /// No `iss` string in the claims.
    case missingIssuer
    /// No `iat`, or not a number, or a negative one, or one beyond `Double`'s range.
    case badIssuedAt
    /// A signature of this many bytes, not ES256's 64 (r ‖ s).
    case badSignatureLength(Int)

    /// One line naming what is wrong.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .notThreeParts(let count): "\(count) dot-separated parts, expected 3 (header.claims.signature)"
        case .badBase64URL(let part): "the \(part) is not unpadded base64url"
        case .badJSON(let part, let message): "the \(part) is not JSON: \(message)"
        case .notAnObject(let part): "the \(part) is not a JSON object"
        case .wrongAlgorithm(let found): "alg is \(found), expected \"ES256\""
        case .criticalHeader: "the header has crit: no JWS extension is understood"
        case .missingKeyID: "the header has no kid string"
        case .missingIssuer: "the claims have no iss string"
        case .badIssuedAt: "iat is missing or not a non-negative number of seconds since the epoch"
        case .badSignatureLength(let count): "the signature is \(count) bytes, expected 64 (r ‖ s)"
        }
    }
}
