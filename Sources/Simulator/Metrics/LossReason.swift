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

    /// The CSV column's suffix.
    public var columnName: String {
        switch self {
        case .apnsCoalesced: "apns_coalesced"
        case .apnsExpired: "apns_expired"
        case .apnsRejected: "apns_rejected"
        case .unregistered: "unregistered"
        }
    }

    /// Number of counters an aggregate keeps (index 0 unused).
    static let slots = allCases.count + 1
}
