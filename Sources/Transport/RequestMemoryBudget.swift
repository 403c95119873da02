/// What requests not yet whole may hold in memory: HTTP/2 header lists after HPACK
/// expansion and request bodies on their way, HTTP/1.1 requests in the parser. Each
/// connection may hold `reservedPerConnection` whatever the others do; beyond it, it draws
/// on `shared`, up to `perConnection`. A request past the budget is refused (HTTP/2:
/// RST_STREAM REFUSED_STREAM, which a client may retry; HTTP/1.1: 503 and the connection
/// closes), so the most held at once is `shared` plus the reserve of every connection the
/// listeners allow.
public struct RequestMemoryBudget: Hashable, Sendable {
    /// The most one connection may hold: at least one request of the largest body
    /// (`maxRequestBodyBytes`) and header list.
    public var perConnection = 2 << 20
    /// What each connection may hold even when `shared` is used up: room for APNs
    /// requests (4 KiB payloads, small header lists) on every connection.
    public var reservedPerConnection = 32 << 10
    /// What all connections share beyond their reserve.
    public var shared = 64 << 20

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}
}

/// The books of `RequestMemoryBudget`: what each connection holds (its own counter,
/// passed in) and what they all draw from the shared part. One per server, used on the
/// loop's thread only.
final class RequestMemory {
    let budget: RequestMemoryBudget
    /// Octets drawn from `budget.shared`.
    private(set) var sharedInUse = 0
    /// Octets held by all connections.
    private(set) var held = 0
    /// The most held at once.
    private(set) var peakHeld = 0

    init(budget: RequestMemoryBudget) {
        self.budget = budget
    }

    /// Takes `octets` more for a connection that holds `holding`: false, and nothing
    /// taken, when the connection's limit or the shared part would be passed.
    /// - Complexity: O(1).
    func take(_ octets: Int, holding: inout Int) -> Bool {
        guard octets > 0 else { return true }
        let after = holding + octets
        guard after <= budget.perConnection else { return false }
        let drawn = drawnFromShared(after) - drawnFromShared(holding)
        guard sharedInUse + drawn <= budget.shared else { return false }
        sharedInUse += drawn
        holding = after
        held += octets
        peakHeld = Swift.max(peakHeld, held)
        return true
    }

    /// Gives back `octets` of what a connection holds (at most all of it).
    /// - Complexity: O(1).
    func give(_ octets: Int, holding: inout Int) {
        let after = Swift.max(0, holding - Swift.max(0, octets))
        sharedInUse -= drawnFromShared(holding) - drawnFromShared(after)
        held -= holding - after
        holding = after
    }

    private func drawnFromShared(_ holding: Int) -> Int { Swift.max(0, holding - budget.reservedPerConnection) }
}
