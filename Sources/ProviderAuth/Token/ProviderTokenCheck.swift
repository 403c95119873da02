import Base

/// APNs' check of provider authentication tokens on one HTTP/2 connection: the keys it
/// accepts and what the connection has sent so far. One value per connection; the
/// caller passes the time, so the same requests at the same instants get the same answers.
///
/// Rules, in the order they are applied ("Establishing a token-based connection to APNs"):
/// 1. no `authorization` header, or `bearer` with nothing after it: `MissingProviderToken`;
/// 2. another scheme, a token that is not an ES256 JWT, an unknown `kid`, an `iss` other
///    than the key's team or than the team this connection's tokens came from (APNs takes
///    one developer account per connection), a signature that does not verify, or an
///    `iat` after now: `InvalidProviderToken`;
/// 3. an `iat` more than an hour before now: `ExpiredProviderToken`;
/// 4. a token the connection does not hold, when it already holds `providersPerConnection`
///    tokens first seen less than 20 minutes ago: 429 `TooManyProviderTokenUpdates`, and
///    those it holds stay;
/// 5. otherwise accepted; a new token is held until its hour ends.
///
/// Apple asks a provider to make a new token no more than once every 20 minutes. One
/// connection may carry several providers' requests (a proxy in front of serve multiplexes
/// every client over one HTTP/2 connection), each with its own token: so the connection
/// holds each accepted token until it expires, and the 20-minute rule counts the new tokens
/// of the last 20 minutes against the providers one connection may carry. A provider that
/// makes a token per request is refused from its fifth; one that makes a new token every
/// five minutes is not (Apple would refuse its second): docs/provider-auth.md says so.
///
/// A signature is verified once per token a connection sends: the tokens it holds and the
/// last other one judged (accepted or refused) are recognized by their bytes.
public struct ProviderTokenCheck: Sendable {
    /// How long after its `iat` a token is accepted.
    public static let lifetime: SimDuration = TimeUnit.hour
    /// How soon after a token its provider may bring the next one.
    public static let minimumUpdateInterval: SimDuration = 20 * TimeUnit.minute
    /// How many providers' tokens one connection carries: new tokens a connection may bring
    /// within `minimumUpdateInterval`. Held tokens number at most this many per 20 minutes
    /// of the hour a token lives, 4 × 4.
    public static let providersPerConnection = 4

    /// The accepted keys by key id (Apple's key ids are unique across teams).
    private let keys: [String: ProviderKey]
    /// The tokens this connection had accepted and still lives, oldest first, each with
    /// when it was first seen.
    private var held: [Held] = []
    /// The last token other than those held whose signature was judged, and the verdict
    /// that does not depend on time (its form, key, team and signature): the same bytes
    /// again get the same answer without a second verification, 0.35 ms of CPU each, so a
    /// client repeating a forged token costs a comparison a request.
    private var lastJudged: (token: String, judged: Judged)?
    /// Signature verifications this check made: a repeated token costs none.
    public private(set) var signatureVerifications = 0

    private enum Judged: Sendable {
        /// Its form, key, team and signature held.
        case signed(ProviderToken)
        case refused(ProviderTokenVerdict)
    }

    private struct Held: Sendable {
        let token: String
        let teamID: String
        let issuedAt: SimTime
        let firstSeen: SimTime
    }

    /// A new connection's check, accepting tokens signed by `keys`.
    /// - Complexity: O(keys).
    public init(keys: [ProviderKey]) throws(KeyError) {
        var byID: [String: ProviderKey] = [:]
        for key in keys {
            guard byID[key.keyID] == nil else { throw .duplicateKeyID(UserText.quote(key.keyID)) }
            byID[key.keyID] = key
        }
        self.keys = byID
    }

    /// The team whose tokens this connection carries, once one was accepted.
    /// - Complexity: O(1).
    public var teamID: String? { held.first?.teamID }

    /// The verdict on one request's `authorization` header value (nil: no such header) at
    /// `now`, in microseconds since the Unix epoch (serve passes the machine's clock: the
    /// provider signs its tokens with its own, whatever serve's simulated clock reads). A token this connection holds is not verified again,
    /// only its age: a provider sends the same one for up to an hour.
    /// A token refused for its form, key, team or signature is remembered too (the last
    /// one): sent again, it gets the same answer without a second verification.
    /// - Complexity: O(n) in the header's length, plus one signature verification for a
    ///   token other than those the connection holds and the last one judged.
    public mutating func check(authorization: String?, now: SimTime) -> ProviderTokenVerdict {
        let token: String
        switch Self.bearerToken(authorization) {
        case .missing(let why): return .refused(.missingProviderToken, detail: why)
        case .otherScheme(let why): return .refused(.invalidProviderToken, detail: why)
        case .token(let text): token = text
        }
        // The token as sent, byte for byte (not `String` equality, see below).
        if let known = held.first(where: { $0.token.utf8.elementsEqual(token.utf8) }) {
            return Self.freshness(issuedAt: known.issuedAt, now: now) ?? .accepted
        }

        let judged: Judged
        if let lastJudged, lastJudged.token.utf8.elementsEqual(token.utf8) {
            judged = lastJudged.judged
        } else {
            judged = judge(token)
            lastJudged = (token, judged)
        }
        let parsed: ProviderToken
        switch judged {
        case .signed(let signed): parsed = signed
        case .refused(let verdict): return verdict
        }
        if let team = teamID, !team.utf8.elementsEqual(parsed.teamID.utf8) {
            return .refused(.invalidProviderToken, detail: "this connection carries team \(UserText.quote(team))'s "
                            + "tokens, not \(UserText.quote(parsed.teamID))'s: one team per connection")
        }
        if let refusal = Self.freshness(issuedAt: parsed.issuedAt, now: now) { return refusal }
        held.removeAll { Self.freshness(issuedAt: $0.issuedAt, now: now) != nil }
        // A clock far enough out of range to overflow counts as recent only backwards.
        let recent = held.filter {
            let (elapsed, overflow) = now.subtractingReportingOverflow($0.firstSeen)
            return overflow ? now < $0.firstSeen : elapsed < Self.minimumUpdateInterval
        }
        if recent.count >= Self.providersPerConnection {
            let elapsed = now.subtractingReportingOverflow(recent[0].firstSeen)
            return .refused(.tooManyProviderTokenUpdates,
                            detail: "a new token \(elapsed.overflow ? "soon" : Self.seconds(elapsed.partialValue)) after "
                                + "\(recent.count) others on this connection; at most \(Self.providersPerConnection) each "
                                + "\(Self.seconds(Self.minimumUpdateInterval)), one a provider")
        }
        held.append(Held(token: token, teamID: parsed.teamID, issuedAt: parsed.issuedAt, firstSeen: now))
        return .accepted
    }

    /// What does not change with time or the connection's state: the token's form, its
    /// key, its team and its signature (the one verification).
    /// - Complexity: O(n) in the token's length, plus one signature verification when it parses.
    private mutating func judge(_ token: String) -> Judged {
        func refused(_ detail: String) -> Judged { .refused(.refused(.invalidProviderToken, detail: detail)) }
        let parsed: ProviderToken
        do {
            parsed = try ProviderToken(token)
        } catch {
            return refused(error.description)
        }
        // Identifiers compare as bytes: `String` equality is canonical equivalence, under
        // which a KELVIN SIGN (U+212A) would pass for a K that APNs would not accept.
        guard let key = keys[parsed.keyID], key.keyID.utf8.elementsEqual(parsed.keyID.utf8) else {
            return refused("no key has kid \(UserText.quote(parsed.keyID))")
        }
        guard parsed.teamID.utf8.elementsEqual(key.teamID.utf8) else {
            return refused("iss \(UserText.quote(parsed.teamID)) is not the team of key \(UserText.quote(key.keyID))")
        }
        signatureVerifications += 1
        guard parsed.isSigned(by: key.publicKey) else {
            return refused("the signature does not verify with key \(UserText.quote(key.keyID))")
        }
        return .signed(parsed)
    }

    /// What an `authorization` value holds.
    private enum Bearer {
        case missing(String)
        case otherScheme(String)
        case token(String)
    }

    /// The token of `bearer TOKEN` (the scheme in any case, RFC 9110 11.1); the value's
    /// surrounding spaces and tabs are not part of it.
    private static func bearerToken(_ value: String?) -> Bearer {
        guard let value else { return .missing("no authorization header") }
        let trimmed = value.trimmingSpacesAndTabs
        if trimmed.isEmpty { return .missing("an empty authorization header") }
        let scheme = trimmed.prefix { $0 != " " && $0 != "\t" }
        guard scheme.lowercased() == "bearer" else {
            return .otherScheme("the authorization scheme is \(UserText.quote(scheme)), not bearer")
        }
        let token = String(trimmed.dropFirst(scheme.count)).trimmingSpacesAndTabs
        return token.isEmpty ? .missing("bearer with no token") : .token(token)
    }

    /// The refusal for a token issued at `issuedAt` seen at `now` (both µs); nil when within
    /// the hour. Arithmetic that cannot overflow on any `iat`.
    private static func freshness(issuedAt: SimTime, now: SimTime) -> ProviderTokenVerdict? {
        let (age, overflow) = now.subtractingReportingOverflow(issuedAt)
        let iat = secondsText(issuedAt)
        if overflow || age < 0 {
            // iat is never negative, so out of range means a clock far in the past: the future.
            let (ahead, far) = issuedAt.subtractingReportingOverflow(now)
            return .refused(.invalidProviderToken, detail: far ? "iat \(iat) is in the future" : "iat \(iat) is \(seconds(ahead)) in the future")
        }
        if age > lifetime { return .refused(.expiredProviderToken, detail: "iat \(iat) is \(seconds(age)) old, more than 3600 s") }
        return nil
    }

    /// An instant as seconds since the epoch, with its fraction when it has one: "1795750587.553743".
    private static func secondsText(_ time: SimTime) -> String {
        let fraction = time % TimeUnit.second
        guard fraction != 0 else { return "\(time / TimeUnit.second)" }
        // The fraction's six digits (1 000 000 + f, without its leading 1), trailing zeros dropped.
        var digits = String(String(fraction + TimeUnit.second).dropFirst())
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(time / TimeUnit.second)." + digits
    }

    /// A duration as whole seconds, rounded down, e.g. "1200 s".
    private static func seconds(_ duration: SimDuration) -> String { "\(duration / TimeUnit.second) s" }
}

private extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
