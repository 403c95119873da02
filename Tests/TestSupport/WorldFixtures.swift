import Foundation
import ScenarioFormat
import Simulator

/// Scenarios for whole-world tests, written as scenario files are.
package enum WorldFixtures {
    /// Decodes a scenario from JSON text; a broken fixture is a test bug, so it traps.
    package static func scenario(_ json: String) -> Scenario {
        do {
            return try ScenarioDecoder.decode(Array(json.utf8), file: "fixture.json")
        } catch {
            fatalError("fixture does not decode: \(error)")
        }
    }

    /// Every file in scenarios/, read from the folder so a new one is covered without a list.
    package static let shippedFiles: [String] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// Loads a shipped scenario from `scenarios/`, its send log (if any) prepared.
    package static func shipped(_ name: String) -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        do {
            return try ScenarioDecoder.load(path: root.appendingPathComponent("scenarios/\(name)").path).preparingSendLog()
        } catch {
            fatalError("shipped scenario does not load: \(error)")
        }
    }

    /// Poisson mail at `perDay` with exponential on/off periods and nothing else.
    package static func twoStates(perDay: Double, onMean: String, offMean: String, devices: Int, days: Int,
                          seed: Int = 1, extra: String = "", strategies: String) -> Scenario {
        scenario("""
        {
          "name": "theory", "seed": \(seed), "start": "2026-01-05", "duration": "\(days)d", "devices": \(devices),
          "mail": { "perDay": \(perDay) },
          "connectivity": {
            "online": { "distribution": "exponential", "mean": "\(onMean)" },
            "offline": { "distribution": "exponential", "mean": "\(offMean)" }
          },
          \(extra)
          "strategies": [\(strategies)]
        }
        """)
    }
}

extension SimulationResult {
    /// The aggregate of the strategy labelled `label`.
    package subscript(label: String) -> StrategyAggregate {
        aggregates[strategies.firstIndex { $0.label == label }!]
    }
}

extension StrategyAggregate {
    /// Counts every rate count of the totals and of each day in block `block`, as if
    /// every user had been in it: a hand-built aggregate then obeys the block rules
    /// (`checkBlocks`) and stays linear in its counts.
    package mutating func countAllInBlock(_ block: Int = 0) {
        blocks = ContiguousArray(repeating: 0, count: blocks.count)
        dailyBlocks = ContiguousArray(repeating: 0, count: dailyBlocks.count)
        for count in RateCount.allCases { add(count.total(in: self), to: count, block: block) }
        for day in daily.indices {
            let base = (day * UserBlocks.count + block) * RateCount.daily.count
            for count in OutcomeCounter.daily { dailyBlocks[base + count.rawValue] = DayCounter(count).map { daily[day][$0] } ?? 0 }
        }
    }
}
