/// Where a message was lost, one `lost_<reason>` column each. Raw values index
/// the aggregate's counters; 0 is "not lost".
public enum LossReason: UInt8, Sendable, CaseIterable {
    /// APNs kept a newer notification for the offline device instead (one per app).
    case apnsCoalesced = 1
    /// Stored at APNs past its `apns-expiration`, or `apns-expiration: 0` while offline.
    case apnsExpired
    /// APNs refused the request (400 / 413: bad collapse id, payload too large, …).
    case apnsRejected
    /// APNs answered 410 `Unregistered`, or the provider had no valid token left.
    case unregistered
    /// The provider dropped it: the folder was subscribed offline and had not synced yet.
    case staleSubscription
    /// Provider → APNs requests got no answer, retries included.
    case providerNetwork
    /// The provider was down when it arrived or when its retry was due.
    case providerOutage
    /// APNs answered 429 `TooManyRequests`, retries included.
    case rateLimited
    /// APNs discarded it: the user disabled notifications for the app.
    case disabled
    /// It reached the device, but the user does not allow alerts for the app.
    case alertsNotAllowed
    /// It reached the device, but the app's notification display is switched off.
    case displayOff

    /// The CSV column's suffix.
    public var columnName: String {
        switch self {
        case .apnsCoalesced: "apns_coalesced"
        case .apnsExpired: "apns_expired"
        case .apnsRejected: "apns_rejected"
        case .unregistered: "unregistered"
        case .staleSubscription: "stale_subscription"
        case .providerNetwork: "provider_network"
        case .providerOutage: "provider_outage"
        case .rateLimited: "rate_limited"
        case .disabled: "disabled"
        case .alertsNotAllowed: "alerts_not_allowed"
        case .displayOff: "display_off"
        }
    }

    /// Number of counters an aggregate keeps (index 0 unused).
    package static let slots = allCases.count + 1
}
