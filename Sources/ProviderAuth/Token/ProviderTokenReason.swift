import FakeAPNs

/// Why APNs refuses a provider's token. The answer's reason string and HTTP status are
/// APNs's, declared once in `APNsReason`.
public enum ProviderTokenReason: Sendable, CaseIterable {
    /// 403: no authorization header, or no token in it.
    case missingProviderToken
    /// 403: not a valid token, or its signature does not verify (also: issued in the future,
    /// unknown key, another team).
    case invalidProviderToken
    /// 403: issued more than an hour ago.
    case expiredProviderToken
    /// 429: a new token on the connection sooner than 20 minutes after the last one.
    case tooManyProviderTokenUpdates

    /// APNs's reason for the answer.
    /// - Complexity: O(1).
    public var apnsReason: APNsReason {
        switch self {
        case .missingProviderToken: .missingProviderToken
        case .invalidProviderToken: .invalidProviderToken
        case .expiredProviderToken: .expiredProviderToken
        case .tooManyProviderTokenUpdates: .tooManyProviderTokenUpdates
        }
    }

    /// The reason string APNs sends (`APNsReason.name`).
    /// - Complexity: O(1).
    public var name: String { apnsReason.name }

    /// The HTTP status APNs answers with.
    /// - Complexity: O(1).
    public var status: Int { Int(apnsReason.status) }
}

/// What `ProviderTokenCheck` says about one request.
public enum ProviderTokenVerdict: Equatable, Sendable {
    /// The request may go on.
    case accepted
    /// APNs' reason, and why in words for a log line (APNs itself tells the provider only
    /// the reason; the detail may repeat token text, escaped and cut).
    case refused(ProviderTokenReason, detail: String)

    /// The reason when refused; nil when accepted.
    /// - Complexity: O(1).
    public var reason: ProviderTokenReason? {
        switch self {
        case .accepted: nil
        case .refused(let reason, _): reason
        }
    }
}
