/// A stream identifier (RFC 9113 §5.1.1): 31 bits; 0 names the connection itself.
/// Clients open odd-numbered streams, servers even-numbered ones (we never do: no push).
public struct StreamID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The identifier, the reserved high bit already cleared.
    public let rawValue: UInt32

    /// The reserved bit is dropped, as a receiver must (RFC 9113 §4.1).
    /// - Complexity: O(1).
    @inlinable
    public init(_ value: UInt32) { rawValue = value & 0x7fff_ffff }

    /// - Complexity: O(1).
    @inlinable
    public init(integerLiteral value: UInt32) { self.init(value) }

    /// Stream 0: frames about the whole connection (SETTINGS, PING, GOAWAY, …).
    public static let connection = StreamID(0)
    /// The largest identifier, 2³¹−1: what a first, graceful GOAWAY announces.
    public static let max = StreamID(0x7fff_ffff)

    /// Whether a client opens this stream (odd, not 0).
    /// - Complexity: O(1).
    @inlinable
    public var isClientInitiated: Bool { rawValue & 1 == 1 }

    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: StreamID, rhs: StreamID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "stream \(rawValue)" }
}
