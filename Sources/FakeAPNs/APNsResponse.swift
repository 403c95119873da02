import Base

/// APNs' answer to one request: 200, or a status with its reason.
public struct APNsResponse: Equatable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// For 410: when APNs last confirmed the token was no longer valid. (First: the
    /// optional word, then the small fields in its padding, 16 bytes a response where
    /// the declared order made 24; a failure travels inside the provider's effects.)
    public var timestamp: SimTime?
    /// HTTP status: 200 on success.
    public var status: UInt16
    /// Why the request failed; nil on 200.
    public var reason: APNsReason?

    /// A response.
    /// - Complexity: O(1).
    @inlinable
    public init(status: UInt16, reason: APNsReason?, timestamp: SimTime?) {
        self.timestamp = timestamp
        self.status = status
        self.reason = reason
    }

    /// The success answer.
    public static let ok = APNsResponse(status: 200, reason: nil, timestamp: nil)

    /// An error answer with the status Apple documents for `reason`.
    /// - Complexity: O(1).
    public static func failure(_ reason: APNsReason, timestamp: SimTime? = nil) -> APNsResponse {
        APNsResponse(status: reason.status, reason: reason, timestamp: timestamp)
    }

    /// An error answer whose body names no reason Apple documents (a proxy's, a mock's): the
    /// status alone, which no remedy reads, so a provider gives the request up.
    /// - Complexity: O(1).
    public static func unexplained(status: UInt16) -> APNsResponse {
        APNsResponse(status: status, reason: nil, timestamp: nil)
    }

    /// True for 200.
    @inlinable public var isSuccess: Bool { status == 200 }

    public var description: String {
        guard let reason else { return "\(status)" }
        return "\(status) \(reason.name)"
    }
}
