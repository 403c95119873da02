import Base
@testable import CLI
import Foundation
@testable import ScenarioFormat
@testable import Simulator
@testable import Studies
import Testing
import TestThreads

/// `pushsim fit` on figures whose truth is known: the talk's measurement of a scenario at
/// known values of two fields (Tests/Fixtures/fit-truth.json), by a team of 600 devices
/// with its own seed, fitted with another seed on 150 devices, as a team would fit its
/// real figures. tools/fit-coverage.sh runs the same at a larger size (docs/fit.md).
@Suite("Fit coverage", .ownThread(.computing))
struct FitCoverageTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fit-truth.json").path
    static let truth = (offline: 3600.0, launches: 0.5)
    static let varies = ["connectivity.offline.mean=30m..2h", "device.launches.perDay=0.25..1"]

    /// The fixture with `overrides`, its first strategy only (the measured one: the test
    /// checks what it predicts for it).
    static func scenario(_ overrides: [String], seed: UInt64) throws -> Scenario {
        var scenario = try ScenarioDecoder.decode(try FileBytes.read(path: fixture), file: "fit-truth.json",
                                                  overrides: try overrides.map { try ScenarioOverride($0) })
        scenario.seed = seed
        scenario.strategies = [scenario.strategies[0]]
        return scenario
    }

    /// Six teams, each fitted once with its own seed. Each field's 95% interval and the
    /// predicted true deliverability's must hold the truth for at least 5 of the 6 (with
    /// a true coverage of 95%, fewer than 5 of 6 has probability 0.2%; at 90%, 11%). The
    /// truth's deliverability is a run of 3,000 devices at the true values (its SE, 0.0008,
    /// is a tenth of the intervals' half-width).
    @Test("the fit's 95% intervals hold the true fields and true deliverability about 95% of the time")
    func coverage() throws {
        let truthScenario = try Self.scenario(["devices=3000"], seed: 999)
        let trueDeliverability = try Simulation.run(truthScenario, users: 0..<3000, threads: 2)
            .estimate(.deliverability, strategy: 0).value
        let bytes = try FileBytes.read(path: Self.fixture)
        var covered = (offline: 0, launches: 0, deliverability: 0)
        var lines: [String] = []
        for team in 0..<6 {
            let measured = try Self.scenario(["devices=600"], seed: 1000 + UInt64(team))
            let series = MeasureCommand.series(measured, try Simulation.run(measured, users: 0..<600, threads: 2))
            let study = FitStudy(scenarioBytes: bytes, file: "fit-truth.json", series: series, ranges: try Self.varies.map { try FitRange($0) },
                                 sets: [try ScenarioOverride("devices=150")], seed: 7 + UInt64(team), measuredLabel: nil, nodesPerAxis: 5)
            var design = try study.design()
            for index in design.scenarios.indices { design.scenarios[index].strategies = [design.scenarios[index].strategies[0]] }
            let nodes = try FitStudy.nodes(design) { try Simulation.run($0, users: 0..<$0.devices, threads: 2) }
            let posterior = FitPosterior(entries: design.entries, nodes: nodes, axes: 2, nodesPerAxis: 5)
            #expect(FitStudy.refusal(posterior) == nil)
            let ranges = study.ranges
            func interval(_ axis: Int) -> ClosedRange<Double> {
                ranges[axis].value(at: posterior.marginals[axis].low)...ranges[axis].value(at: posterior.marginals[axis].high)
            }
            if interval(0).contains(Self.truth.offline) { covered.offline += 1 }
            if interval(1).contains(Self.truth.launches) { covered.launches += 1 }
            let predicted = posterior.deliverability[0]
            if predicted.low <= trueDeliverability && trueDeliverability <= predicted.high { covered.deliverability += 1 }
            lines.append("team \(team): offline \(interval(0)), launches \(interval(1)), deliverability \(predicted.low)...\(predicted.high)")
        }
        let summary = lines.joined(separator: "\n") + "\ntrue deliverability \(trueDeliverability)"
        #expect(covered.offline >= 5, "offline mean covered \(covered.offline) of 6\n\(summary)")
        #expect(covered.launches >= 5, "launches covered \(covered.launches) of 6\n\(summary)")
        #expect(covered.deliverability >= 5, "deliverability covered \(covered.deliverability) of 6\n\(summary)")
    }
}
