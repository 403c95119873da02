import Simulator

/// Which strategies each point of a sweep simulates, and which it takes from an earlier
/// point. A strategy's figures depend only on the scenario less the other strategies
/// (every strategy sees the same users, drawn from the same streams: common random
/// numbers) and on the strategy itself; so where a point leaves both as an earlier point
/// had them (the swept field is another strategy's, `strategies[i].…`), the earlier run's
/// aggregate is that strategy's, to the byte, and the point does not simulate it again.
/// A chain or population field changes the rest of the scenario, so every strategy runs.
package struct SweepPlan: Sendable {
    /// One strategy of one point: the point's index and the strategy's in its scenario.
    package struct Run: Sendable, Equatable, Hashable {
        package var point: Int
        package var strategy: Int
        package init(point: Int, strategy: Int) {
            self.point = point
            self.strategy = strategy
        }
    }

    /// For each point and each of its strategies, the run that simulates it: itself, or
    /// the same strategy under the same scenario at an earlier point.
    package let sources: [[Run]]

    /// The plan for `scenarios`, the points in order (each as it runs: overrides applied,
    /// `--seed` and `--strategy` too); `reusing` false: every point simulates every strategy.
    /// - Complexity: O(points × (scenario size + strategies × distinct strategies)).
    package init(_ scenarios: [Scenario], reusing: Bool = true) {
        guard reusing else {
            sources = scenarios.enumerated().map { point, scenario in
                scenario.strategies.indices.map { Run(point: point, strategy: $0) }
            }
            return
        }
        // The rest of each point's scenario, bucketed by its description and confirmed by
        // ==, so that equal rests share a class without comparing every pair.
        var classes: [String: [(rest: Scenario, id: Int)]] = [:]
        var classCount = 0
        // Per class, the strategies simulated so far and where.
        var simulated: [Int: [(strategy: Strategy, run: Run)]] = [:]
        var sources: [[Run]] = []
        for (point, scenario) in scenarios.enumerated() {
            let rest = Self.rest(of: scenario)
            let key = String(describing: rest)
            let id: Int
            if let found = classes[key]?.first(where: { $0.rest == rest }) {
                id = found.id
            } else {
                id = classCount
                classCount += 1
                classes[key, default: []].append((rest, id))
            }
            sources.append(scenario.strategies.enumerated().map { index, strategy in
                if let earlier = simulated[id]?.first(where: { $0.strategy == strategy }) { return earlier.run }
                let run = Run(point: point, strategy: index)
                simulated[id, default: []].append((strategy, run))
                return run
            })
        }
        self.sources = sources
    }

    /// What a strategy's figures depend on besides the strategy itself: the scenario with
    /// no strategies and no expectations (`check`'s bounds, which no run reads).
    /// - Complexity: O(1) (copy on write).
    package static func rest(of scenario: Scenario) -> Scenario {
        var rest = scenario
        rest.strategies = []
        rest.expectations = []
        return rest
    }

    /// The indices of the strategies point `point` simulates itself, in its order.
    /// - Complexity: O(strategies).
    package func simulated(_ point: Int) -> [Int] {
        sources[point].indices.filter { sources[point][$0] == Run(point: point, strategy: $0) }
    }

    /// Strategy runs the sweep simulates.
    /// - Complexity: O(points × strategies).
    package var runs: Int { sources.indices.reduce(0) { $0 + simulated($1).count } }

    /// Strategy runs a sweep simulating every strategy at every point would take.
    /// - Complexity: O(points).
    package var runsWithoutReuse: Int { sources.reduce(0) { $0 + $1.count } }

    /// The scenario point `point` simulates: its own, with only the strategies it does not
    /// take from an earlier point (none: nothing to simulate).
    /// - Complexity: O(strategies).
    package func scenarioToSimulate(_ scenario: Scenario, point: Int) -> Scenario? {
        let indices = simulated(point)
        guard !indices.isEmpty else { return nil }
        var subset = scenario
        subset.strategies = indices.map { scenario.strategies[$0] }
        return subset
    }

    /// Point `point`'s result: each strategy's aggregate from the run that simulated it.
    /// `results[p]` is what point p simulated (its `scenarioToSimulate`; nil for none),
    /// for every p up to `point`. Users are the point's devices; events only those its own
    /// run processed.
    /// - Complexity: O(strategies × (days + buckets)).
    package func result(_ point: Int, strategies: [Strategy], results: [SimulationResult?]) -> SimulationResult {
        let aggregates = sources[point].map { run -> StrategyAggregate in
            let simulated = simulated(run.point)
            // The run's strategy sits at its place among what that point simulated.
            let index = simulated.firstIndex(of: run.strategy)!
            return results[run.point]!.aggregates[index]
        }
        let own = results[point]
        let users = own?.users ?? sources[point].first.flatMap { results[$0.point]?.users } ?? 0
        return SimulationResult(strategies: strategies, aggregates: aggregates, users: users, events: own?.events ?? 0)
    }
}
