import Base

/// The `reason` of an APNs error answer, as Apple documents it.
public enum APNsReason: UInt8, Sendable, CaseIterable {
    case badCollapseId, badDeviceToken, badExpirationDate, badPriority, missingPushType
    case payloadTooLarge, unregistered, tooManyRequests, serviceUnavailable

    /// The reason string APNs sends in its JSON body.
    public var name: String {
        switch self {
        case .badCollapseId: "BadCollapseId"
        case .badDeviceToken: "BadDeviceToken"
        case .badExpirationDate: "BadExpirationDate"
        case .badPriority: "BadPriority"
        case .missingPushType: "MissingPushType"
        case .payloadTooLarge: "PayloadTooLarge"
        case .unregistered: "Unregistered"
        case .tooManyRequests: "TooManyRequests"
        case .serviceUnavailable: "ServiceUnavailable"
        }
    }

    /// The HTTP status that goes with this reason.
    public var status: UInt16 {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badPriority, .missingPushType: 400
        case .unregistered: 410
        case .payloadTooLarge: 413
        case .tooManyRequests: 429
        case .serviceUnavailable: 503
        }
    }
}

/// APNs' answer to one request: 200, or a status with its reason.
public struct APNsResponse: Equatable, Sendable, CustomStringConvertible {
    /// HTTP status: 200 on success.
    public var status: UInt16
    /// Why the request failed; nil on 200.
    public var reason: APNsReason?
    /// For 410: when APNs last confirmed the token was no longer valid.
    public var timestamp: SimTime?

    /// The success answer.
    public static let ok = APNsResponse(status: 200, reason: nil, timestamp: nil)

    /// An error answer with the status Apple documents for `reason`.
    /// - Complexity: O(1).
    public static func failure(_ reason: APNsReason, timestamp: SimTime? = nil) -> APNsResponse {
        APNsResponse(status: reason.status, reason: reason, timestamp: timestamp)
    }

    /// True for 200.
    public var isSuccess: Bool { status == 200 }

    public var description: String {
        guard let reason else { return "\(status)" }
        return "\(status) \(reason.name)"
    }
}
