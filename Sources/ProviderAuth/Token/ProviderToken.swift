import Base
import X509

/// A provider authentication token (a JWS in compact form, RFC 7515 and 7519), read the way
/// APNs reads it: header `{"alg":"ES256","kid":KEY}`, claims `{"iss":TEAM,"iat":SECONDS}`,
/// and an ES256 signature over `header.claims` as sent. Other header members and claims
/// are allowed and ignored, as in any JWT, except `crit`.
public struct ProviderToken: Sendable, Equatable {
    /// The header's `kid`: the 10-character id of the key that signed it.
    public let keyID: String
    /// The claims' `iss`: the 10-character team id.
    public let teamID: String
    /// The claims' `iat`: when the provider made it, in microseconds since the Unix epoch. APNs
    /// takes any non-negative number of seconds, whole or not (`1767225600`, and PyAPNs2's and
    /// apns2-up's `1795750587.5537436`); a fraction is kept to the microsecond, rounded down, and a
    /// value beyond `SimTime`'s range reads as its end (a far-future token).
    public let issuedAt: SimTime
    /// What the signature covers: the first two parts and the dot between, as sent.
    let signingInput: [UInt8]
    /// r ‖ s, 64 bytes.
    let signature: [UInt8]

    /// Reads `token`'s structure and fields; the signature is checked by `isSigned(by:)`.
    /// - Complexity: O(n) in the token's length.
    public init(_ token: String) throws(ProviderTokenError) {
        let bytes = Array(token.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .notThreeParts(parts.count) }
        guard let header = Base64.decodeURL(parts[0]) else { throw .badBase64URL(part: "header") }
        guard let claims = Base64.decodeURL(parts[1]) else { throw .badBase64URL(part: "claims") }
        guard let signature = Base64.decodeURL(parts[2]) else { throw .badBase64URL(part: "signature") }
        let headerObject = try Self.object(header, part: "header")
        let claimsObject = try Self.object(claims, part: "claims")

        switch headerObject["alg"]?.value {
        case .string("ES256"): break
        case .string(let other): throw .wrongAlgorithm(UserText.quote(other))
        case nil: throw .wrongAlgorithm("missing")
        case .some(let other): throw .wrongAlgorithm(other.kindName)
        }
        guard headerObject["crit"] == nil else { throw .criticalHeader }
        guard case .string(let keyID)? = headerObject["kid"]?.value else { throw .missingKeyID }
        guard case .string(let teamID)? = claimsObject["iss"]?.value else { throw .missingIssuer }
        guard case .number(let number)? = claimsObject["iat"]?.value, let issuedAt = Self.microseconds(number) else {
            throw .badIssuedAt
        }
        guard signature.count == 64 else { throw .badSignatureLength(signature.count) }
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        signingInput = Array(bytes[..<parts[1].endIndex])
        self.signature = signature
    }

    /// A number of seconds as microseconds: exact for a whole number, to the microsecond (rounded
    /// down) for a fraction; nil for a negative or infinite one (beyond `Double`'s range).
    static func microseconds(_ number: JSONNumber) -> SimTime? {
        if number.isInteger, let seconds = number.int64Value {
            guard seconds >= 0 else { return nil }
            let (microseconds, overflow) = seconds.multipliedReportingOverflow(by: TimeUnit.second)
            return overflow ? .max : microseconds
        }
        let seconds = number.doubleValue
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let microseconds = (seconds * Double(TimeUnit.second)).rounded(.down)
        // 2⁶³ is exactly a Double; anything from there on is past the end.
        return microseconds < 0x1p63 ? SimTime(microseconds) : .max
    }

    /// A part's JSON object (strict JSON: duplicate members are refused, so a token
    /// cannot mean one thing to APNs and another to a lax reader).
    private static func object(_ bytes: [UInt8], part: String) throws(ProviderTokenError) -> JSONObject {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            throw .badJSON(part: part, message: UserText.escape(error.description, limit: 200))
        }
        guard case .object(let object) = node.value else { throw .notAnObject(part: part) }
        return object
    }

    /// Whether the signature is `key`'s over the header and claims.
    /// - Complexity: O(n) hashing plus O(256) point operations.
    public func isSigned(by key: P256PublicKey) -> Bool {
        key.isValidSignature(signature, for: signingInput)
    }

    /// A token as a provider makes one: `{"alg":"ES256","kid":keyID}`,
    /// `{"iss":teamID,"iat":issuedAt}`, signed by `key` (deterministically: the same
    /// inputs give the same token). For tests and a simulated provider.
    /// - Complexity: O(256) point operations.
    public static func signed(teamID: String, keyID: String, issuedAt: Int64, by key: P256PrivateKey) -> String {
        let header = JSONText.object([("alg", JSONText.string("ES256")), ("kid", JSONText.string(keyID))])
        let claims = JSONText.object([("iss", JSONText.string(teamID)), ("iat", String(issuedAt))])
        let input = Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(Array(claims.utf8))
        return input + "." + Base64.encodeURL(key.signature(for: Array(input.utf8)))
    }
}
