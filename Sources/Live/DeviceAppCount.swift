/// What the live population counts for each device app: one case per column of
/// `devices.csv` (the column is the case's name in snake_case) and per key of the API's
/// `counts` objects. Adding a count is adding its case here with its description.
public enum DeviceAppCount: Int, CaseIterable, Sendable {
    /// Requests addressed to one of the app's tokens (current or old), whatever the answer.
    case requests
    /// Requests APNs accepted (200).
    case accepted
    /// Requests APNs refused after finding the token (410, 429, 400s for the headers);
    /// `rejections.csv` has them by reason.
    case rejected
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

    /// The column and JSON key.
    /// - Complexity: O(n) in the name's length.
    public var name: String {
        switch self {
        case .requests: "requests"
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .delivered: "delivered"
        case .shown: "shown"
        case .replacedOnDevice: "replaced_on_device"
        case .notShown: "not_shown"
        case .coalesced: "coalesced"
        case .expired: "expired"
        case .discardedUnregistered: "discarded_unregistered"
        case .discardedDisabled: "discarded_disabled"
        case .bounced: "bounced"
        case .launches: "launches"
        case .tokenRotations: "token_rotations"
        case .registrations: "registrations"
        }
    }
}

/// One device app's counts, indexed by `DeviceAppCount`.
public struct DeviceAppCounts: Sendable, Equatable {
    private var values = [Int64](repeating: 0, count: DeviceAppCount.allCases.count)

    /// All zero.
    /// - Complexity: O(k) in the counts.
    public init() {}

    public subscript(count: DeviceAppCount) -> Int64 {
        get { values[count.rawValue] }
        set { values[count.rawValue] = newValue }
    }

    /// Adds another's counts.
    /// - Complexity: O(k).
    public static func += (lhs: inout DeviceAppCounts, rhs: DeviceAppCounts) {
        for index in lhs.values.indices { lhs.values[index] += rhs.values[index] }
    }
}
