/// Why a request cannot be served, as the status code the protocol answers it with:
/// 400 (malformed), 413 (body too large), 414 (request line too long), 431 (header section
/// too large), 501 (a transfer coding not implemented) or 505 (an HTTP version other than 1.x).
/// The connection closes after the answer: what follows the bad request cannot be framed.
public struct RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var status: Int
    /// Our own words, never the peer's octets: it may be logged or sent back as is.
    public var reason: String

    /// - Complexity: O(1).
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    static func badRequest(_ reason: String) -> RequestError { RequestError(status: 400, reason: reason) }
    static func contentTooLarge(_ reason: String) -> RequestError { RequestError(status: 413, reason: reason) }
    static func uriTooLong(_ reason: String) -> RequestError { RequestError(status: 414, reason: reason) }
    static func fieldsTooLarge(_ reason: String) -> RequestError { RequestError(status: 431, reason: reason) }
    static func notImplemented(_ reason: String) -> RequestError { RequestError(status: 501, reason: reason) }
    static func versionNotSupported(_ reason: String) -> RequestError { RequestError(status: 505, reason: reason) }

    public var description: String { "\(status) \(ReasonPhrase.of(status)): \(reason)" }
}
