import Base
import FakeAPNs
import Simulator

/// The checks `merge` runs on each part it reads: the engine's balance rules
/// (`BalanceRules`), the same the run ends with, so a damaged part is named with
/// the message the run would have given.
package enum PartialChecks {
    /// The first rule `aggregate` breaks, described; nil when a run could have produced it.
    /// - Complexity: O(days + counters).
    package static func violation(in aggregate: StrategyAggregate) -> String? {
        BalanceRules.violation(in: aggregate)
    }
}

extension SimulationResult {
    /// Adds a part `merge` read from `file` (each part already passed
    /// `PartialChecks`), every sum checked: a sum past `Int64.max` names the part and
    /// the count, and leaves `self` as it was.
    /// - Complexity: O(strategies × (days + buckets)).
    package mutating func merge(part other: SimulationResult, file: String) throws(PartialResult.DecodingError) {
        var sum = self
        for index in sum.aggregates.indices {
            if let overflow = sum.aggregates[index].merge(checking: other.aggregates[index]) {
                throw PartialResult.DecodingError(description: "\(UserText.path(file)): strategy \(UserText.escape(strategies[index].label)): "
                                                  + "\(overflow) summed over the parts passes \(Int64.max)")
            }
        }
        let (events, overflow) = sum.events.addingReportingOverflow(other.events)
        guard !overflow else {
            throw PartialResult.DecodingError(description: "\(UserText.path(file)): events summed over the parts pass \(Int64.max)")
        }
        sum.events = events
        sum.users += other.users
        self = sum
    }
}
