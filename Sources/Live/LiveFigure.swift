import Base

/// A rate a live run reports (`live.json`'s `figures`), with the count of `pushsim run`'s
/// reports it is compared with. Declared once: `live.json`, docs/provider.md's table and
/// the agreement test all follow this list.
public enum LiveFigure: CaseIterable, Sendable {
    /// Distinct mails whose own push was drawn on the phone (serve's `mails_shown`) per mail.
    case deliverability
    /// Requests the provider sent (first tries, re-sends, retries) per mail.
    case pushesPerMessage
    /// Pushes APNs dropped for a newer one while the device was offline (serve's `coalesced`) per mail.
    case coalescedPerMessage
    /// Re-requests the extensions sent (serve's `rerequests`) per mail.
    case rerequestsPerMessage
    /// Re-requests that failed (serve's `rerequest_errors`) per mail.
    case rerequestErrorsPerMessage

    /// Its key in `live.json`.
    public var name: String {
        switch self {
        case .deliverability: "deliverability"
        case .pushesPerMessage: "pushes_per_message"
        case .coalescedPerMessage: "coalesced_per_message"
        case .rerequestsPerMessage: "rerequests_per_message"
        case .rerequestErrorsPerMessage: "rerequest_errors_per_message"
        }
    }

    /// What `pushsim run` reports for it: a `summary.csv` rate column, or a count
    /// (`summary.csv`'s or `apns.csv`'s) divided by `summary.csv`'s `messages`.
    public var simulated: String {
        switch self {
        case .deliverability: "summary.csv deliverability"
        case .pushesPerMessage: "summary.csv pushes_per_message"
        case .coalescedPerMessage: "apns.csv discarded_replaced / messages"
        case .rerequestsPerMessage: "summary.csv rerequests / messages"
        case .rerequestErrorsPerMessage: "summary.csv rerequest_errors / messages"
        }
    }

    /// The numerator for one device app: the provider's counts and serve's (by column name).
    func numerator(provider: ProviderLaneCounts, serve: [String: Int64]) -> Int64 {
        switch self {
        case .deliverability: serve[DeviceAppCount.mailsShown.columnName] ?? 0
        case .pushesPerMessage: provider[.sent] + provider[.resent] + provider[.retried]
        case .coalescedPerMessage: serve[DeviceAppCount.coalesced.columnName] ?? 0
        case .rerequestsPerMessage: serve[DeviceAppCount.rerequests.columnName] ?? 0
        case .rerequestErrorsPerMessage: serve[DeviceAppCount.rerequestErrors.columnName] ?? 0
        }
    }

    /// The ratio over blocks of devices and its standard error, as `pushsim run` computes
    /// its own: devices fall in `UserBlocks` (device mod 64), each block with its own draw of
    /// the provider's random outages, and the ratio estimator's linearized variance over
    /// blocks, `n/(n−1) · Σ (y_b − r·x_b)² / (Σ x)²`, covers what varies between runs, the
    /// shared outages too, not only between devices.
    /// - Complexity: O(b).
    static func ratio(_ pairs: [(y: Int64, x: Int64)]) -> (value: Double, se: Double) {
        let y = pairs.reduce(0) { $0 + Double($1.y) }, x = pairs.reduce(0) { $0 + Double($1.x) }
        guard x > 0 else { return (.nan, .nan) }
        let r = y / x
        guard pairs.count > 1 else { return (r, .nan) }
        let n = Double(pairs.count)
        let squares = pairs.reduce(0) { $0 + (Double($1.y) - r * Double($1.x)) * (Double($1.y) - r * Double($1.x)) }
        return (r, (n / (n - 1) * squares).squareRoot() / x)
    }
}
