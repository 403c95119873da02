/// APNs' answers about a provider token, raw values exactly Apple's `reason` strings
/// ("Handling notification responses from APNs").
public enum ProviderTokenReason: String, Sendable, CaseIterable {
    /// 403: no authorization header, or no token in it.
    case missingProviderToken = "MissingProviderToken"
    /// 403: not a valid token, or its signature does not verify (also: issued in the future,
    /// unknown key, another team).
    case invalidProviderToken = "InvalidProviderToken"
    /// 403: issued more than an hour ago.
    case expiredProviderToken = "ExpiredProviderToken"
    /// 429: a new token on the connection sooner than 20 minutes after the last one.
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"

    /// The HTTP status APNs answers with.
    /// - Complexity: O(1).
    public var status: Int {
        switch self {
        case .missingProviderToken, .invalidProviderToken, .expiredProviderToken: 403
        case .tooManyProviderTokenUpdates: 429
        }
    }
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
