import Base
import FakeAPNs
import Provider

/// What a world knows of APNs's faults (`apns.faults`): the run's schedule, the segments of
/// the current user's block, the stream the slow answers and reconnections draw from, and
/// the fault whose answer the provider is handling now (so its retries and give-ups are
/// counted against it).
package struct APNsFaultLane {
    /// Whether the scenario names faults at all: without, nothing here is looked at.
    package let isNamed: Bool
    private let schedule: APNsFaultSchedule
    private var segments: [APNsFaultSchedule.Segment] = []
    private let slowLatency: Sampler
    private let reconnect: Sampler
    /// How long the provider waits for an answer (`provider.network.timeout`, 10 s without).
    package let timeout: SimDuration

    /// The stream's state: kept with a lane a rollout goes on from.
    package struct Position {
        package var random = SplitMix64(seed: 0)
    }
    package var position = Position()

    /// The fault whose answer the provider handles now; nil otherwise.
    package var routing: APNsFaultKind?

    /// The faults of `scenario`, drawn from its seed.
    /// - Complexity: O(K × w log w) for K blocks and w windows each.
    package init(scenario: Scenario) {
        let model = scenario.chain.apns.faults
        isNamed = model != nil
        schedule = APNsFaultSchedule(model, seed: scenario.seed, horizon: scenario.duration)
        slowLatency = Sampler(model?.slowLatency ?? .constant(0))
        reconnect = Sampler(model?.reconnect ?? .constant(0))
        timeout = scenario.chain.provider.network?.timeout ?? 10 * TimeUnit.second
    }

    /// Starts lane `lane` of user `user`, who counts in block `block`.
    /// - Complexity: O(1).
    package mutating func start(block: Int, seed: UInt64, user: Int, lane: Int) {
        guard isNamed else { return }
        segments = schedule.segments(block: block)
        position.random = RandomStream.apnsFaultLatency.generator(seed: seed, user: UInt64(user), lane: lane)
    }

    /// The kind in force at `time`, or nil.
    /// - Complexity: O(log s) in the block's segments.
    package func kind(at time: SimTime) -> APNsFaultKind? {
        APNsFaultSchedule.kind(at: time, in: segments)
    }

    /// A slow answer's added time.
    /// - Complexity: O(1).
    mutating func drawSlowLatency() -> SimDuration { slowLatency.sample(&position.random) }

    /// The time to open a new connection.
    /// - Complexity: O(1).
    mutating func drawReconnect() -> SimDuration { reconnect.sample(&position.random) }
}

extension World {
    /// A request leaves the provider while APNs fails as `kind` says: an error answer, a
    /// dropped connection (the provider learns of it after the one-way latency, as it would
    /// an answer), an answer late by a drawn time (past the provider's timeout: none), or a
    /// new connection opened first.
    /// - Complexity: O(1).
    mutating func sendIntoFault(_ slot: PushSlot, _ kind: APNsFaultKind, at now: SimTime) {
        ledger.faults[kind, .requests] += 1
        let latency = providerLatencyRandom.next()
        switch kind {
        case .internalServerError, .serviceUnavailable, .shutdown, .goaway, .connectionClosed:
            send(.faultReachesProvider(slot, kind), arrivingAt: now + latency)
        case .slow:
            let extra = faultLane.drawSlowLatency()
            if extra >= faultLane.timeout {
                send(.faultReachesProvider(slot, kind), arrivingAt: now + faultLane.timeout)
            } else {
                send(.pushReachesAPNs(slot), arrivingAt: now + latency + extra)
            }
        case .idleClosed:
            send(.pushReachesAPNs(slot), arrivingAt: now + latency + faultLane.drawReconnect())
        }
    }

    /// A fault's answer (or its absence) reaches the provider, which retries or gives up as
    /// its policy says; what it does is counted against `kind`.
    /// - Complexity: O(1), plus the effects routed.
    mutating func faultReachesProvider<Observer: WorldObserver>(_ slot: PushSlot, _ kind: APNsFaultKind, at now: SimTime,
                                                                observer: Observer.Type) {
        let (push, attempt) = pushPool.take(slot)
        faultLane.routing = kind
        if let reason = kind.answer {
            provider.receiveResponse(.failure(reason), for: push, attempt: attempt, into: &providerEffects)
        } else {
            provider.sendFailed(push, attempt: attempt, into: &providerEffects)
        }
        routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        faultLane.routing = nil
    }
}
