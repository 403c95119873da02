import Base
import FakeAPNs

/// One window in which APNs fails every request in one way, from the run's start.
public struct APNsFaultWindow: Sendable, Equatable {
    /// How APNs fails.
    public var kind: APNsFaultKind
    /// When it begins, from the scenario's start.
    public var start: SimTime
    /// How long it lasts.
    public var duration: SimDuration

    /// A window.
    /// - Complexity: O(1).
    public init(kind: APNsFaultKind, start: SimTime, duration: SimDuration) {
        self.kind = kind
        self.start = start
        self.duration = duration
    }

    /// When it ends (excluded).
    public var end: SimTime { start + duration }
}

/// Random faults of one kind: alternating quiet and faulty times, as random provider outages are.
public struct RandomAPNsFaults: Sendable, Equatable {
    /// How APNs fails.
    public var kind: APNsFaultKind
    /// From the end of one fault to the start of the next.
    public var between: Distribution
    /// Length of one fault.
    public var duration: Distribution

    /// Random faults.
    /// - Complexity: O(1).
    public init(kind: APNsFaultKind, between: Distribution, duration: Distribution) {
        self.kind = kind
        self.between = between
        self.duration = duration
    }
}

/// APNs's faults (`apns.faults`): scheduled windows and random ones, each of one kind,
/// drawn once per block of users like provider outages (`APNsFaultSchedule`), and what the
/// kinds that take time take.
public struct APNsFaultModel: Sendable, Equatable {
    /// Windows at fixed times.
    public var scheduled: [APNsFaultWindow]
    /// Random faults, one entry per kind named.
    public var random: [RandomAPNsFaults]
    /// Added to an answer in a `slow` window (`apns.faults.slowLatency`).
    public var slowLatency: Distribution
    /// Time to open a new connection in an `idleClosed` window (`apns.faults.reconnect`).
    public var reconnect: Distribution

    /// A model; the latencies default to none.
    /// - Complexity: O(1).
    public init(scheduled: [APNsFaultWindow] = [], random: [RandomAPNsFaults] = [], slowLatency: Distribution = .constant(0),
                reconnect: Distribution = .constant(0)) {
        self.scheduled = scheduled
        self.random = random
        self.slowLatency = slowLatency
        self.reconnect = reconnect
    }

    /// Random faults a run of length `horizon` expects, over every kind.
    /// - Complexity: O(kinds).
    public func expectedRandomFaults(horizon: SimDuration) -> Double {
        random.reduce(0) { $0 + OutageModel.expectedRandomOutages(between: $1.between, duration: $1.duration, horizon: horizon) }
    }
}
