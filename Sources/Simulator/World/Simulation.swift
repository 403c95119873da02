import Base
import Dispatch
import Synchronization

/// What a run produced: one aggregate per strategy, in the scenario's order.
public struct SimulationResult: Sendable, Equatable {
    /// The strategies, in report order.
    public var strategies: [Strategy]
    /// Their aggregates, same order.
    public var aggregates: [StrategyAggregate]
    /// Users simulated.
    public var users: Int64
    /// Kernel events processed over all users and strategies (for the benchmark).
    public var events: Int64

    /// Adds another partial result over other users of the same scenario.
    /// - Complexity: O(strategies × (days + buckets)).
    public mutating func merge(_ other: SimulationResult) {
        precondition(strategies == other.strategies, "merging results of different strategies")
        for index in aggregates.indices { aggregates[index].merge(other.aggregates[index]) }
        users += other.users
        events += other.events
    }

    /// The accounting identity for every strategy; nil when everything adds up.
    public func checkIdentity() -> AccountingError? {
        for (strategy, aggregate) in zip(strategies, aggregates) {
            if let broken = aggregate.checkIdentity() {
                return AccountingError(description: "strategy \(strategy.label): \(broken)")
            }
        }
        return nil
    }
    package init(strategies: [Strategy], aggregates: [StrategyAggregate], users: Int64, events: Int64) {
        self.strategies = strategies
        self.aggregates = aggregates
        self.users = users
        self.events = events
    }
}

/// Runs a scenario: users are independent, so each is simulated on its own clock,
/// in blocks handed to threads as they free up, and folded into per-thread
/// aggregates that are summed at the end. Integer sums do not care about order:
/// the result is the same bytes for any number of threads.
public enum Simulation {
    /// Users handed to a thread at a time.
    package static let blockSize = 64

    /// Which plans go on from another's lanes (`from[r]`: the plan a rollout `r` plays like
    /// until its first day, `StrategyPlan.playsLike`), and when each such plan keeps them
    /// (`keepAt[p]`). A plan keeps its lanes at one instant: rollouts starting on another
    /// day are played whole. The lanes' start is then played once, not once a strategy.
    /// - Complexity: O(plans²).
    package static func resumes(_ plans: [StrategyPlan], duration: SimDuration) -> (from: [Int?], keepAt: [SimTime?]) {
        var from = [Int?](repeating: nil, count: plans.count)
        var keepAt = [SimTime?](repeating: nil, count: plans.count)
        for (index, plan) in plans.enumerated() where plan.strategy.rollout != nil {
            let first = plan.rolloutFrom
            guard first > 0, first < duration,
                  let source = plans.indices.first(where: { plan.playsLike(plans[$0]) && (keepAt[$0] ?? first) == first })
            else { continue }
            from[index] = source
            keepAt[source] = first
        }
        return (from, keepAt)
    }

    /// Devices of shard `index` (1-based) of `count`: contiguous, sizes differ by at most one.
    /// - Complexity: O(1).
    package static func shardRange(index: Int, count: Int, devices: Int) -> Range<Int> {
        let lower = devices * (index - 1) / count
        let upper = devices * index / count
        return lower..<upper
    }

    /// Simulates `users` (a range of user indices, for shards) of `scenario` with
    /// the strategies in `strategies` (default: all of the scenario's).
    /// - Complexity: O(users × strategies × events per user).
    public static func run(_ scenario: Scenario, strategies: [Strategy]? = nil, users: Range<Int>? = nil,
                           threads: Int = 1, progress: (@Sendable (Int) -> Void)? = nil) throws(AccountingError) -> SimulationResult {
        try run(scenario, strategies: strategies, users: users, threads: threads, memory: .standard, progress: progress)
    }

    /// How much of a lane a world holds at once (`World.init`); tests shrink it so
    /// that every lane is played window by window and folded as it goes.
    package struct Memory: Sendable {
        package var timelineWindow: Int
        package var recordsHeld: Int
        package static let standard = Memory(timelineWindow: UserTimeline.window, recordsHeld: World.recordsHeld)
    }

    /// `run(_:strategies:users:threads:progress:)` with worlds holding `memory`.
    /// - Complexity: O(users × strategies × events per user).
    package static func run(_ scenario: Scenario, strategies: [Strategy]? = nil, users: Range<Int>? = nil,
                    threads: Int = 1, memory: Memory,
                    progress: (@Sendable (Int) -> Void)? = nil) throws(AccountingError) -> SimulationResult {
        try run(scenario, strategies: strategies, users: users, threads: threads, memory: memory, tracing: [],
                progress: progress).result
    }

    /// `run(_:strategies:users:threads:progress:)` that also records the story of every
    /// device in `tracing` (user indices; those outside `users` are not simulated, so
    /// not traced), each watched by a `TraceRecorder` while it is simulated with
    /// the others. The result is the same as without tracing.
    /// - Complexity: O(users × strategies × events per user), plus the traced events.
    public static func run(_ scenario: Scenario, strategies: [Strategy]? = nil, users: Range<Int>? = nil,
                           threads: Int = 1, tracing: [Int],
                           progress: (@Sendable (Int) -> Void)? = nil) throws(AccountingError)
        -> (result: SimulationResult, trace: SimulationTrace) {
        try run(scenario, strategies: strategies, users: users, threads: threads, memory: .standard, tracing: tracing,
                progress: progress)
    }

    /// The run itself: `run(_:strategies:users:threads:tracing:progress:)` with worlds holding `memory`.
    /// - Complexity: O(users × strategies × events per user), plus the traced events.
    package static func run(_ scenario: Scenario, strategies: [Strategy]? = nil, users: Range<Int>? = nil,
                            threads: Int = 1, memory: Memory, tracing: [Int],
                            progress: (@Sendable (Int) -> Void)? = nil) throws(AccountingError)
        -> (result: SimulationResult, trace: SimulationTrace) {
        let strategies = strategies ?? scenario.strategies
        let users = users ?? 0..<scenario.devices
        let traced = Array(Set(tracing.filter { users.contains($0) })).sorted()
        let plans = strategies.map { StrategyPlan(strategy: $0, scenario: scenario) }
        let resumes = Self.resumes(plans, duration: scenario.duration)
        // The outage schedules first: each block of users (in every thread and shard) has its own.
        let outages = OutageSchedule.draw(scenario.chain.provider.outages, seed: scenario.seed, horizon: scenario.duration)
        let empty = SimulationResult(strategies: strategies,
                                     aggregates: strategies.map { _ in StrategyAggregate(days: scenario.dayCount) },
                                     users: 0, events: 0)
        let threadCount = max(1, min(threads, (users.count + blockSize - 1) / blockSize))
        let nextBlock = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let partials = Mutex<[SimulationResult]>([])
        let stories = Mutex<[DeviceStory]>([])
        let failure = Mutex<AccountingError?>(nil)

        DispatchQueue.concurrentPerform(iterations: threadCount) { _ in
            var world = World(scenario: scenario, outages: outages, timelineWindow: memory.timelineWindow,
                              recordsHeld: memory.recordsHeld)
            var partial = empty
            var told: [DeviceStory] = []
            while failure.withLock({ $0 == nil }) {
                let block = nextBlock.add(1, ordering: .relaxed).oldValue
                let first = users.lowerBound + block * blockSize
                guard first < users.upperBound else { break }
                let last = min(first + blockSize, users.upperBound)
                do throws(AccountingError) {
                    for user in first..<last {
                        // One check a user: the untraced ones play the world without hooks.
                        let isTraced = !traced.isEmpty && traced.contains(user)
                        for (index, plan) in plans.enumerated() {
                            if isTraced {
                                world.recorder = TraceRecorder(device: user, strategy: index)
                                try world.run(user: user, plan: plan, seed: scenario.seed, into: &partial.aggregates[index],
                                              observing: Recording.self)
                                told.append(world.recorder.story)
                                world.recorder = TraceRecorder(device: -1, strategy: -1)
                            } else if resumes.from[index] == nil {
                                try world.run(user: user, plan: plan, seed: scenario.seed, into: &partial.aggregates[index],
                                              keepingLanesAt: resumes.keepAt[index])
                                // The rollouts that play like this strategy until their first day go on from there.
                                for later in plans.indices where resumes.from[later] == index {
                                    try world.resume(user: user, plan: plans[later], seed: scenario.seed,
                                                     into: &partial.aggregates[later])
                                }
                            }
                        }
                    }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    break
                }
                partial.users += Int64(last - first)
                let finished = done.add(last - first, ordering: .relaxed).newValue
                progress?(finished)
            }
            partial.events = world.eventsProcessed
            partials.withLock { $0.append(partial) }
            if !told.isEmpty { stories.withLock { $0 += told } }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        // The first partial is the sum so far: merging it into an empty result (every day
        // and block of every strategy) would only copy it.
        let finished = partials.withLock { $0 }
        var result = finished.first ?? empty
        for partial in finished.dropFirst() { result.merge(partial) }
        if let broken = result.checkIdentity() { throw broken }
        return (result, SimulationTrace(devices: traced, stories: stories.withLock { $0 }))
    }
}
