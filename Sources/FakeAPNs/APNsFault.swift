/// A way APNs fails a provider, as a scenario's `apns.faults` and serve's `POST /faults`
/// name it: the one list both read, so a kind added here is a kind both offer. Each is
/// what Apple's servers (and the connections to them) are seen to do, not a reason Apple
/// documents for a bad request: the request itself was fine.
public enum APNsFaultKind: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    /// 500 `InternalServerError`: APNs answers an error; the request may succeed later.
    case internalServerError
    /// 503 `ServiceUnavailable`: APNs answers the service is unavailable.
    case serviceUnavailable
    /// 503 `Shutdown`, then GOAWAY on the connection: the server is shutting down and the
    /// provider reconnects.
    case shutdown
    /// The connection is dropped with a GOAWAY whose last stream id is below the request's:
    /// APNs did not process it, and the provider may send it again on a new connection.
    case goaway
    /// The connection is closed without a GOAWAY while the request waits for its answer.
    case connectionClosed
    /// The answer comes late: the scenario's latency distribution is added to it. Past the
    /// provider's timeout it is no answer at all.
    case slow
    /// APNs closes connections that are idle: the provider must open another (a new TCP and
    /// TLS handshake) before it sends.
    case idleClosed

    /// The kind's name in scenario files, `POST /faults` and the reports' columns.
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .internalServerError: "internalServerError"
        case .serviceUnavailable: "serviceUnavailable"
        case .shutdown: "shutdown"
        case .goaway: "goaway"
        case .connectionClosed: "connectionClosed"
        case .slow: "slow"
        case .idleClosed: "idleClosed"
        }
    }

    /// The kind named `name`, or nil.
    /// - Complexity: O(kinds).
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// The error APNs answers (status and reason), for the kinds that answer one; nil for
    /// the kinds that act on the connection or the answer's time.
    /// - Complexity: O(1).
    public var answer: APNsReason? {
        switch self {
        case .internalServerError: .internalServerError
        case .serviceUnavailable: .serviceUnavailable
        case .shutdown: .shutdown
        case .goaway, .connectionClosed, .slow, .idleClosed: nil
        }
    }

    /// Whether the kind takes a latency distribution (`slow`: added to the answer;
    /// `idleClosed`: the time to open a new connection).
    /// - Complexity: O(1).
    public var takesLatency: Bool {
        switch self {
        case .slow, .idleClosed: true
        case .internalServerError, .serviceUnavailable, .shutdown, .goaway, .connectionClosed: false
        }
    }
}
