@testable import Base
import Foundation
@testable import ProviderAuth
import X509
import Testing

/// Every answer APNs gives about a provider token, at the boundaries of its rules.
@Suite("Provider tokens: APNs' reasons")
struct ProviderTokenCheckTests {
    static let team = "TEAM123456", keyID = "KEY1234567"
    static let signingKey = try! P256PrivateKey(rawRepresentation: bytes(hex: ECDSAVectorTests.rfc6979Key))
    static let otherKey = try! P256PrivateKey(rawRepresentation: bytes(hex: "519b423d715f8b581f4fa8ee59f4771a5b44c8130b4e3eacca54a56dda72b464"))
    /// 2026-01-01T00:00:00Z in seconds, and the same instant on the caller's clock (µs).
    static let t0: Int64 = 1_767_225_600
    static let now0: SimTime = t0 * TimeUnit.second
    static let hour: SimDuration = 3600 * TimeUnit.second

    static func check() throws -> ProviderTokenCheck {
        try ProviderTokenCheck(keys: [ProviderKey(teamID: team, keyID: keyID, publicKey: signingKey.publicKey)])
    }

    static func token(team: String = team, keyID: String = keyID, issuedAt: Int64 = t0, key: P256PrivateKey = signingKey) -> String {
        ProviderToken.signed(teamID: team, keyID: keyID, issuedAt: issuedAt, by: key)
    }

    /// A token from hand-written header and claims JSON, signed (or given a signature).
    static func token(header: String, claims: String, signature: [UInt8]? = nil) -> String {
        let input = Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(Array(claims.utf8))
        return input + "." + Base64.encodeURL(signature ?? signingKey.signature(for: Array(input.utf8)))
    }

    func refusal(_ verdict: ProviderTokenVerdict) -> (ProviderTokenReason, String)? {
        guard case .refused(let reason, let detail) = verdict else { return nil }
        return (reason, detail)
    }

    @Test("a fresh, well-signed token is accepted, with Bearer in any case and blanks around")
    func accepted() throws {
        for header in ["bearer ", "Bearer ", "BEARER\t", "  bearer   "] {
            var check = try Self.check()
            #expect(check.check(authorization: header + Self.token() + " ", now: Self.now0) == .accepted)
            #expect(check.teamID == Self.team)
        }
        // iat exactly now is not in the future.
        var check = try Self.check()
        #expect(check.check(authorization: "bearer " + Self.token(issuedAt: Self.t0), now: Self.now0) == .accepted)
    }

    /// apns2-up (PyAPNs2's code path) signs `iat` as `time.time()`, a float.
    @Test("a fractional iat, as apns2-up signs it (1795750587.5537436), is accepted, kept to the µs, and judged to the µs")
    func fractionalIssuedAt() throws {
        let claims = #"{"iss":"TEAM123456","iat":1795750587.5537436}"#
        let text = Self.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: claims)
        #expect(try ProviderToken(text).issuedAt == 1_795_750_587_553_743)
        let issued: SimTime = 1_795_750_587_553_743
        var check = try Self.check()
        #expect(check.check(authorization: "bearer " + text, now: issued) == .accepted)
        #expect(check.check(authorization: "bearer " + text, now: issued + Self.hour) == .accepted)
        #expect(check.check(authorization: "bearer " + text, now: issued + Self.hour + 1).reason == .expiredProviderToken)
        var early = try Self.check()
        let refused = try #require(refusal(early.check(authorization: "bearer " + text, now: issued - 1)))
        #expect(refused.0 == .invalidProviderToken && refused.1.contains("iat 1795750587.553743 is 0 s in the future"), "\(refused.1)")
        // Other forms of a number of seconds: an exponent, a fraction of zeros, -0.
        for iat in ["1.7672256e9", "1767225600.000", "17672256e2"] {
            var check = try Self.check()
            let token = Self.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":"# + iat + "}")
            #expect(check.check(authorization: "bearer " + token, now: Self.now0) == .accepted, "\(iat)")
        }
        #expect(try ProviderToken(Self.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":-0}"#)).issuedAt == 0)
    }

    @Test("MissingProviderToken: no header, an empty one, bearer alone", arguments: [nil, "", "  ", "bearer", "bearer  ", "Bearer\t"])
    func missing(_ authorization: String?) throws {
        var check = try Self.check()
        #expect(check.check(authorization: authorization, now: Self.now0).reason == .missingProviderToken)
        #expect(ProviderTokenReason.missingProviderToken.name == "MissingProviderToken")
    }

    @Test("InvalidProviderToken: malformed tokens, each for its own reason", arguments: [
        ("Basic dXNlcjpwYXNz", "scheme"),
        ("bearer a.b", "2 dot-separated parts"),
        ("bearer a.b.c.d", "4 dot-separated parts"),
        ("bearer \(ProviderTokenCheckTests.token()).", "4 dot-separated parts"),
        ("bearer e30=.e30.AA", "header is not unpadded base64url"),
        ("bearer e30.e3+.AA", "claims is not unpadded base64url"),
        ("bearer e30.e30.A", "signature is not unpadded base64url"),
        ("bearer \(Base64.encodeURL(Array("{".utf8))).e30.AA", "header is not JSON"),
        ("bearer e30.\(Base64.encodeURL(Array("{\"iss\":1,}".utf8))).AA", "claims is not JSON"),
        ("bearer \(Base64.encodeURL(Array("[]".utf8))).e30.AA", "header is not a JSON object"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"HS256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         #"alg is "HS256""#),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"none","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         #"alg is "none""#),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         "alg is missing"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","alg":"none","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         "header is not JSON"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567","crit":["exp"]}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         "crit"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#),
         "no kid"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iat":1767225600}"#),
         "no iss"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":"1767225600"}"#),
         "iat"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":-1}"#),
         "iat"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":-0.5}"#),
         "iat"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1e400}"#),
         "iat"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":null}"#),
         "iat"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":99999999999999999999}"#),
         "in the future"),
        ("bearer " + ProviderTokenCheckTests.token(header: #"{"alg":"ES256","kid":"KEY1234567"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#,
                                                   signature: [UInt8](repeating: 1, count: 63)),
         "63 bytes"),
    ])
    func malformed(authorization: String, detail: String) throws {
        var check = try Self.check()
        let refused = try #require(refusal(check.check(authorization: authorization, now: Self.now0)))
        #expect(refused.0 == .invalidProviderToken)
        #expect(refused.1.contains(detail), "\(refused.1)")
        #expect(check.teamID == nil)
    }

    @Test("InvalidProviderToken: an unknown kid, another team's iss, and a signature of another key")
    func wrongKeyOrTeam() throws {
        var check = try Self.check()
        for (token, detail) in [(Self.token(keyID: "KEY7654321"), "no key has kid \"KEY7654321\""),
                                (Self.token(team: "TEAM654321"), "iss \"TEAM654321\" is not the team of key"),
                                (Self.token(key: Self.otherKey), "signature does not verify")] {
            let refused = try #require(refusal(check.check(authorization: "bearer " + token, now: Self.now0)))
            #expect(refused.0 == .invalidProviderToken && refused.1.contains(detail), "\(refused.1)")
        }
    }

    @Test("identifiers and tokens compare as bytes: a KELVIN SIGN is not a K")
    func bytesNotCanonicalEquivalence() throws {
        let kelvin = "\u{212A}"
        #expect(kelvin == "K", "Swift's String equality is canonical equivalence")
        let key = try ProviderKey(teamID: "TEAMK12345", keyID: "KEYK123456", publicKey: Self.signingKey.publicKey)
        var check = try ProviderTokenCheck(keys: [key])
        for (team, keyID) in [("TEAM\(kelvin)12345", "KEYK123456"), ("TEAMK12345", "KEY\(kelvin)123456")] {
            #expect(check.check(authorization: "bearer " + Self.token(team: team, keyID: keyID), now: Self.now0).reason
                == .invalidProviderToken)
        }
        let token = Self.token(team: "TEAMK12345", keyID: "KEYK123456")
        #expect(check.check(authorization: "bearer " + token, now: Self.now0) == .accepted)
        // base64url has K in its alphabet: the current token with a KELVIN SIGN for one K is not the current token.
        let index = try #require(token.firstIndex(of: "K"))
        let lookalike = token.replacingCharacters(in: index...index, with: kelvin)
        #expect(lookalike == token)
        #expect(check.check(authorization: "bearer " + lookalike, now: Self.now0).reason == .invalidProviderToken)
    }

    @Test("InvalidProviderToken: any one bit flipped in the signature, the header or the claims")
    func flippedBits() throws {
        let token = Self.token()
        let parts = token.split(separator: ".").map { Base64.decodeURL(Array($0.utf8))! }
        var generator = SplitMix64(seed: 7519)
        for part in 0..<3 {
            for _ in 0..<4 {
                var changed = parts
                changed[part] = flipping(parts[part], bit: Int(generator.next() % UInt64(parts[part].count * 8)))
                let text = changed.map(Base64.encodeURL).joined(separator: ".")
                var check = try Self.check()
                // A flip in the JSON may break it or change a field; it never passes.
                #expect(check.check(authorization: "bearer " + text, now: Self.now0).reason == .invalidProviderToken, "part \(part)")
            }
        }
        // The signature's last bit exactly: the JSON intact, only the signature wrong.
        var check = try Self.check()
        var signature = parts[2]
        signature[63] ^= 1
        let text = [parts[0], parts[1], signature].map(Base64.encodeURL).joined(separator: ".")
        let refused = try #require(refusal(check.check(authorization: "bearer " + text, now: Self.now0)))
        #expect(refused.0 == .invalidProviderToken && refused.1.contains("signature does not verify"))
    }

    @Test("InvalidProviderToken: iat one second ahead of now; a µs ahead is too")
    func future() throws {
        var check = try Self.check()
        let refused = try #require(refusal(check.check(authorization: "bearer " + Self.token(issuedAt: Self.t0 + 1), now: Self.now0)))
        #expect(refused.0 == .invalidProviderToken && refused.1.contains("1 s in the future"), "\(refused.1)")
        #expect(check.check(authorization: "bearer " + Self.token(issuedAt: Self.t0), now: Self.now0 - 1).reason == .invalidProviderToken)
    }

    @Test("ExpiredProviderToken: accepted 3600 s after iat, expired a µs later, a reused token too")
    func expired() throws {
        var fresh = try Self.check()
        #expect(fresh.check(authorization: "bearer " + Self.token(), now: Self.now0 + TimeUnit.hour) == .accepted)
        var stale = try Self.check()
        let refused = try #require(refusal(stale.check(authorization: "bearer " + Self.token(), now: Self.now0 + TimeUnit.hour + 1)))
        #expect(refused.0 == .expiredProviderToken && refused.1.contains("3600 s old"), "\(refused.1)")
        // The connection's own token: accepted all hour long, then expired.
        var reused = try Self.check()
        for minute: Int64 in [0, 1, 30, 59, 60] {
            #expect(reused.check(authorization: "bearer " + Self.token(), now: Self.now0 + minute * TimeUnit.minute) == .accepted)
        }
        #expect(reused.check(authorization: "bearer " + Self.token(), now: Self.now0 + TimeUnit.hour + TimeUnit.second).reason
            == .expiredProviderToken)
    }

    @Test("TooManyProviderTokenUpdates: a fifth new token within 20 minutes is 429 and the four held stay; at 20 minutes it is taken")
    func tooManyUpdates() throws {
        var check = try Self.check()
        let tokens = (0..<5).map { Self.token(issuedAt: Self.t0 + 60 * Int64($0)) }
        for (index, token) in tokens.prefix(4).enumerated() {
            #expect(check.check(authorization: "bearer " + token, now: Self.now0 + Int64(index) * TimeUnit.minute) == .accepted)
        }
        let almost = Self.now0 + 20 * TimeUnit.minute - 1
        let refused = try #require(refusal(check.check(authorization: "bearer " + tokens[4], now: almost)))
        #expect(refused.0 == .tooManyProviderTokenUpdates && refused.0.status == 429)
        #expect(refused.1.contains("1199 s after 4 others on this connection; at most 4 each 1200 s"), "\(refused.1)")
        for token in tokens.prefix(4) { #expect(check.check(authorization: "bearer " + token, now: almost) == .accepted) }
        // The first was seen 20 minutes ago: three recent ones, so the fifth is taken.
        #expect(check.check(authorization: "bearer " + tokens[4], now: Self.now0 + 20 * TimeUnit.minute) == .accepted)
        // Going back to a held token is no update.
        #expect(check.check(authorization: "bearer " + tokens[0], now: Self.now0 + 21 * TimeUnit.minute) == .accepted)
        // Refused tokens are not held: an invalid one takes no provider's place.
        #expect(check.check(authorization: "bearer " + Self.token(key: Self.otherKey), now: Self.now0 + 22 * TimeUnit.minute).reason
            == .invalidProviderToken)
        // A token is held for its hour only.
        #expect(check.check(authorization: "bearer " + tokens[0], now: Self.now0 + TimeUnit.hour + TimeUnit.second).reason
            == .expiredProviderToken)
    }

    @Test("Two providers behind one proxy connection, each with its own token, are both answered for the whole hour; one making a token a request is refused from its fifth")
    func providersBehindOneConnection() throws {
        var check = try Self.check()
        let first = Self.token(), second = Self.token(issuedAt: Self.t0 + 300)
        for minute: Int64 in stride(from: 0, through: 59, by: 1) {
            let now = Self.now0 + minute * TimeUnit.minute
            #expect(check.check(authorization: "bearer " + first, now: now) == .accepted, "minute \(minute)")
            if minute >= 5 { #expect(check.check(authorization: "bearer " + second, now: now + 1) == .accepted, "minute \(minute)") }
        }
        var minting = try Self.check()
        let verdicts = (0..<6).map { minting.check(authorization: "bearer " + Self.token(issuedAt: Self.t0 + Int64($0)),
                                                   now: Self.now0 + Int64($0) * TimeUnit.second).reason }
        #expect(verdicts == [nil, nil, nil, nil, .tooManyProviderTokenUpdates, .tooManyProviderTokenUpdates])
    }

    @Test("InvalidProviderToken: another team's token on a connection that carries one team's")
    func oneTeamPerConnection() throws {
        let otherTeam = try ProviderKey(teamID: "OTHER12345", keyID: "KEY0000001", publicKey: Self.otherKey.publicKey)
        var check = try ProviderTokenCheck(keys: [ProviderKey(teamID: Self.team, keyID: Self.keyID, publicKey: Self.signingKey.publicKey),
                                                  otherTeam])
        #expect(check.check(authorization: "bearer " + Self.token(), now: Self.now0) == .accepted)
        let other = Self.token(team: "OTHER12345", keyID: "KEY0000001", key: Self.otherKey)
        let refused = try #require(refusal(check.check(authorization: "bearer " + other, now: Self.now0 + TimeUnit.hour)))
        #expect(refused.0 == .invalidProviderToken && refused.1.contains("one team per connection"), "\(refused.1)")
        // On its own connection it is fine.
        var own = try ProviderTokenCheck(keys: [otherTeam])
        #expect(own.check(authorization: "bearer " + other, now: Self.now0) == .accepted)
    }

    @Test("iat at the ends of Int64 (negative: not a time) and clocks at the ends of SimTime answer without trapping")
    func extremes() throws {
        for (issuedAt, now, reason) in [(Int64.max, Self.now0, ProviderTokenReason.invalidProviderToken),
                                        (Int64.max, SimTime.max - 1, .invalidProviderToken),
                                        (0, SimTime.min, .invalidProviderToken),
                                        (Int64.min, Self.now0, .invalidProviderToken),
                                        (Self.t0, SimTime.max, .expiredProviderToken),
                                        (Self.t0, SimTime.min, .invalidProviderToken),
                                        (-1, Self.now0, .invalidProviderToken)] {
            var check = try Self.check()
            #expect(check.check(authorization: "bearer " + Self.token(issuedAt: issuedAt), now: now).reason == reason, "\(issuedAt) at \(now)")
        }
        var check = try Self.check()
        #expect(check.check(authorization: "bearer " + Self.token(), now: Self.now0) == .accepted)
        #expect(check.check(authorization: "bearer " + Self.token(issuedAt: Self.t0 - 1), now: SimTime.min).reason == .invalidProviderToken)
    }

    @Test("the reasons are Apple's strings, with Apple's statuses")
    func reasons() {
        #expect(ProviderTokenReason.allCases.map(\.name)
            == ["MissingProviderToken", "InvalidProviderToken", "ExpiredProviderToken", "TooManyProviderTokenUpdates"])
        #expect(ProviderTokenReason.allCases.map(\.status) == [403, 403, 403, 429])
    }

    @Test("keys: ids must be Apple's 10 characters, and a key id may be given once")
    func keys() throws {
        for (team, key) in [("TEAM12345", "KEY1234567"), ("TEAM123456", "key1234567"), ("TEAM12345\n", "KEY1234567"), ("TEAM123456", "")] {
            #expect(throws: KeyError.self) { try ProviderKey(teamID: team, keyID: key, publicKey: Self.signingKey.publicKey) }
        }
        let key = try ProviderKey(teamID: Self.team, keyID: Self.keyID, publicKey: Self.signingKey.publicKey)
        #expect(throws: KeyError.duplicateKeyID("\"KEY1234567\"")) { try ProviderTokenCheck(keys: [key, key]) }
        #expect("\(KeyError.badIdentifier(kind: "team id", value: "\"x\""))".contains("10 characters"))
    }

    @Test("the auth fuzz target's seeds: the token (signed by openssl) is accepted a minute after its iat, the key files read")
    func fuzzSeeds() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/auth")
        let token = try String(contentsOf: folder.appendingPathComponent("token.txt"), encoding: .utf8)
        var check = try Self.check()
        #expect(check.check(authorization: "bearer " + token, now: Self.now0 + TimeUnit.minute) == .accepted)
        for name in ["apple.p8", "openssl.p8", "public.pem"] {
            let file = try P256KeyFile(pem: Array(Data(contentsOf: folder.appendingPathComponent(name))))
            #expect(file.publicKey == Self.signingKey.publicKey, "\(name)")
        }
        let der = Array(try Data(contentsOf: folder.appendingPathComponent("pkcs8.der")))
        #expect(try P256KeyFile.privateKey(pkcs8: der[...]).publicKey == Self.signingKey.publicKey)
    }

    @Test("a token signed here reads back: its fields, and the header and claims as JSON")
    func signedToken() throws {
        let text = Self.token()
        let token = try ProviderToken(text)
        #expect(token.keyID == Self.keyID && token.teamID == Self.team && token.issuedAt == Self.now0)
        #expect(token.isSigned(by: Self.signingKey.publicKey) && !token.isSigned(by: Self.otherKey.publicKey))
        let header = Base64.decodeURL(Array(text.split(separator: ".")[0].utf8))!
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"KEY1234567"}"#)
        let claims = Base64.decodeURL(Array(text.split(separator: ".")[1].utf8))!
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iss":"TEAM123456","iat":1767225600}"#)
        // Deterministic: the same inputs give the same token.
        #expect(Self.token() == text)
    }

    @Test("a token sent again gets the same answer without a second signature verification: forged, accepted, or refused for its age")
    func repeatedTokensVerifiedOnce() throws {
        var check = try Self.check()
        let forged = "bearer " + Self.token(key: Self.otherKey)
        let first = check.check(authorization: forged, now: Self.now0)
        #expect(first.reason == .invalidProviderToken)
        for second in 1...1_000 {
            #expect(check.check(authorization: forged, now: Self.now0 + Int64(second) * TimeUnit.second) == first)
        }
        #expect(check.signatureVerifications == 1)

        // A token judged well signed but too old is answered by its age each time, verified once.
        let old = "bearer " + Self.token(issuedAt: Self.t0 - 7_200)
        #expect(check.check(authorization: old, now: Self.now0).reason == .expiredProviderToken)
        #expect(check.check(authorization: old, now: Self.now0).reason == .expiredProviderToken)
        #expect(check.signatureVerifications == 2)

        // The accepted token, then the forged one again: judged anew (only the last is remembered), once.
        let good = "bearer " + Self.token()
        #expect(check.check(authorization: good, now: Self.now0) == .accepted)
        #expect(check.check(authorization: good, now: Self.now0 + TimeUnit.second) == .accepted)
        #expect(check.signatureVerifications == 3)
        #expect(check.check(authorization: forged, now: Self.now0) == first)
        #expect(check.check(authorization: forged, now: Self.now0) == first)
        #expect(check.signatureVerifications == 4)
    }
}
