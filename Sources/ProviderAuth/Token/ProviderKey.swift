import Base

/// A key APNs accepts tokens from: the team that owns it, its key id, and its public key.
public struct ProviderKey: Sendable, Equatable {
    /// The team id, the tokens' `iss`.
    public let teamID: String
    /// The key id, the tokens' `kid`.
    public let keyID: String
    /// What the tokens' signatures are checked with.
    public let publicKey: P256PublicKey

    /// A key; both ids must be Apple's form, 10 characters of A–Z and 0–9, so a typo in
    /// `serve`'s options is caught when it starts rather than as refused tokens later.
    /// - Complexity: O(1).
    public init(teamID: String, keyID: String, publicKey: P256PublicKey) throws(KeyError) {
        for (kind, value) in [("team id", teamID), ("key id", keyID)] where !Self.isAppleIdentifier(value) {
            throw .badIdentifier(kind: kind, value: UserText.quote(value))
        }
        self.teamID = teamID
        self.keyID = keyID
        self.publicKey = publicKey
    }

    /// Whether `text` is 10 characters of A–Z and 0–9.
    static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }
}
