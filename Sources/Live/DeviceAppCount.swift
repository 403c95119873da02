import Base
import FakeAPNs

/// What the live population counts for each device app: one case per column of
/// `devices.csv` and per key of the API's `counts` objects (the case's name in snake_case,
/// `Counter.columnName`). Adding a count is adding its case here, and its line in docs/serve.md.
public enum DeviceAppCount: Int, Counter {
    /// Requests with well-formed headers addressed to one of the app's tokens (current or
    /// old), whatever the answer. (A request whose headers APNs refuses before it looks at
    /// the token is counted only in serve.json's `answers`.)
    case requests
    /// Requests APNs accepted (200).
    case accepted
    /// Of `requests`, those refused: credentials (403), topic (400), token no longer valid
    /// (410), throttled (429); `rejections.csv` has them by reason.
    case rejected
    /// Of `requests`, those whose `apns-expiration` was already past on the simulated clock
    /// when they arrived (answered as APNs answers them; a provider that writes wall-clock
    /// expirations against a clock that starts elsewhere sees them here: `serve --start now`).
    case expiredOnArrival
    /// Notifications that reached the phone (iOS received them; online).
    case delivered
    /// Notifications drawn in Notification Center: the push's own or a "missed messages" summary.
    case shown
    /// Of `shown`: entries that replaced one with the same collapse id instead of adding one.
    case replacedOnDevice
    /// Notifications that reached iOS but were not drawn (alerts not allowed, display off).
    case notShown
    /// Notifications APNs dropped for a newer one while the device was offline (one kept per app).
    case coalesced
    /// Notifications whose `apns-expiration` passed (or that were sent with 0 to an offline device).
    case expired
    /// Notifications APNs dropped because the token stopped being valid while it held them.
    case discardedUnregistered
    /// Notifications APNs accepted and dropped because the user disabled notifications for the app.
    case discardedDisabled
    /// Deliveries that found the device gone and went back to APNs.
    case bounced
    /// Times the user opened the app (launches and taps).
    case launches
    /// Times the app's token changed.
    case tokenRotations
    /// Times the app registered its token (at launch, by the strategy's policy).
    case registrations
    // With `--provider` (docs/provider-api.md): the phone's calls and what they brought.
    /// Registrations the provider did not take (not 2xx, no answer in time, no connection).
    case registrationFailures
    /// Re-requests the extension sent to the provider (with `--provider`; without it the
    /// extension's re-request fails at once and is counted only in `rerequestErrors`).
    case rerequests
    /// Re-requests that failed: an answer other than 2xx, a connection refused or lost, no
    /// answer within `--provider-timeout`, or no provider to ask.
    case rerequestErrors
    /// Re-requests still unanswered when the extension's time ran out: iOS showed the push as it came.
    case rerequestTimeouts
    /// "You have missed messages" notifications drawn: a gap over `repeatMaxCount`, or a
    /// re-request that failed.
    case summariesShown
    /// Distinct mails (the payload's mail id, `--payload-message`) whose own push was drawn.
    case mailsShown
}

extension DeviceAppCount {
    /// The column that counts a notification APNs discarded for `reason`.
    /// - Complexity: O(1).
    package static func discarded(_ reason: APNsDiscardReason) -> DeviceAppCount {
        switch reason {
        case .replaced: .coalesced
        case .expired: .expired
        case .unregistered: .discardedUnregistered
        case .disabled: .discardedDisabled
        }
    }
}

/// One device app's counts.
public typealias DeviceAppCounts = CounterSet<DeviceAppCount, 24>
