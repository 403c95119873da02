import Base
import FakeAPNs

/// What the provider answers when some re-requested positions are past the payload TTL.
public enum ExpiredPositionsAnswer: Sendable, Equatable {
    /// Re-send the positions still held; answer an error only when none is.
    case resendRest
    /// Answer an error as soon as one requested position has expired, re-sending nothing.
    case error
}

/// How the provider retries a request that got no answer (network failure) or a
/// 429 / 503: up to `maxRetries` more attempts, the first after `backoff`, each
/// next one after twice the previous wait.
public struct RetryPolicy: Sendable, Equatable {
    /// Extra attempts after the first; 0: never retry.
    public var maxRetries: Int32
    /// Wait before the first retry; doubles for each further one.
    public var backoff: SimDuration

    /// A policy.
    /// - Complexity: O(1).
    public init(maxRetries: Int32 = 0, backoff: SimDuration = TimeUnit.second) {
        self.maxRetries = maxRetries
        self.backoff = backoff
    }

    /// The wait before attempt `attempt` (1 = the first retry): backoff × 2^(attempt − 1).
    /// - Complexity: O(1).
    public func delay(beforeAttempt attempt: Int32) -> SimDuration {
        backoff << SimDuration(min(max(attempt - 1, 0), 30))
    }
}

/// Why the provider gave up on a request.
public enum ProviderFailure: Sendable, Equatable, BitwiseCopyable {
    /// APNs answered an error and no retry is left (or the error is not retried).
    case rejected(APNsResponse)
    /// The request never got an answer (connection reset, timeout) and no retry is left.
    case network
    /// The provider was down when the request (or its retry) was due.
    case outage
}
