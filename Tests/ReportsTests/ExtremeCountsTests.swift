import FakeAPNs
@testable import Reports
@testable import Simulator
import TestSupport
import Testing

/// A part or result.json that passes every check can still hold counts near 2^63 − 1
/// (`merge` and `report` read them from files): the CSVs, the table and the page are
/// drawn from them without a trap.
@Suite("Reports: extreme counts read back")
struct ExtremeCountsTests {
    /// A fresh aggregate of `messages` messages, all delivered on the first day, each
    /// with latency `latency`, every count in one block of users: it passes every check.
    static func allDelivered(_ messages: Int64, latency: Int64 = 1_000) -> StrategyAggregate {
        var aggregate = StrategyAggregate(days: 2)
        aggregate[.messages] = messages
        aggregate[.delivered] = messages
        aggregate.daily[0][.messages] = messages
        aggregate.daily[0][.delivered] = messages
        aggregate.latency.add(bucket: LatencyHistogram.bucket(of: latency), count: UInt64(messages))
        aggregate.countAllInBlock()
        return aggregate
    }

    /// The hand-built aggregate with `change` applied, every count in one block of users.
    static func handBuilt(_ change: (inout StrategyAggregate) -> Void) -> StrategyAggregate {
        var aggregate = HandBuilt.aggregate(1)
        change(&aggregate)
        aggregate.countAllInBlock()
        return aggregate
    }

    static let variants: [(String, StrategyAggregate)] = [
        ("2^63 − 1 pushes for 100 messages", handBuilt { $0[.pushesSent] = .max }),
        ("2^63 − 1 messages, all delivered", allDelivered(.max)),
        ("2^63 − 1 re-requests, duplicates and collapsed", handBuilt { $0.rerequests = .max; $0.duplicatesShown = .max; $0.collapsed = .max }),
        ("one message delivered after 2^63 − 1 µs", allDelivered(1, latency: .max)),
    ]

    @Test("counts that pass every check but sit near 2^63 − 1: the CSVs, the table and the page render", arguments: 0..<4)
    func extremeCountsRender(variant: Int) throws {
        let (name, aggregate) = Self.variants[variant]
        try #require(PartialChecks.violation(in: aggregate) == nil, "\(name): \(PartialChecks.violation(in: aggregate) ?? "")")
        let scenario = HandBuilt.scenario
        let result = SimulationResult(strategies: scenario.strategies, aggregates: [aggregate, HandBuilt.aggregate(1), aggregate],
                                      users: 10, events: 1)
        let reports = Reports(scenario: scenario, result: result)
        #expect(!reports.table.isEmpty, "\(name)")
        #expect(reports.files.count == Reports.fileNames.count, "\(name)")
        let page = ReportPage.render(scenario: scenario, result: result, commandLine: "pushsim run x")
        #expect(page.hasSuffix("</html>\n"), "\(name)")
    }
}
