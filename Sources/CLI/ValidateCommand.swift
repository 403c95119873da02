import Base
import FoundationEssentials
import ScenarioFormat
import Simulator

/// `pushsim validate SCENARIO`.
package enum ValidateCommand {
    package static let help = """
    OVERVIEW: Check a scenario file without running it.

    USAGE: pushsim validate <scenario.json | ->

    On success prints "ok" with a one-line description, then what a run will cost:
    the expected number of messages and a rough wall time on the default thread
    count, then the kernel events and memory, and whether a run needs --allow-large. On a bad file prints every error it finds (up to \(ScenarioError.listLimit)), one a line
    in file order, each naming the file, line:column and field path, and exits 65.

    EXAMPLES:
      pushsim validate scenarios/two-states.json

    """

    /// Messages one worker thread simulates a second on the machine kind of docs/development.md's
    /// "Recorded figures" (2.8–2.9 million measured), rounded down for scenarios that
    /// do more per message and for a shared machine.
    package static let messagesPerSecondPerThread = 2_500_000.0

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "validate", options: [])
        } catch {
            return PushSimCommand.usage(error, command: "validate", console: console)
        }
        guard let path = scanner.positional.first else {
            return PushSimCommand.usage(.missingArgument("the scenario file"), command: "validate", console: console)
        }
        if scanner.positional.count > 1 {
            return PushSimCommand.usage(.unexpectedArgument(scanner.positional[1]), command: "validate", console: console)
        }
        do {
            let scenario = try ScenarioDecoder.load(path: path)
            // Under the file's own seed, as `run` without --seed checks it.
            if let problem = scenario.steeringProblem(seed: scenario.seed) {
                console.err("error: \(path): \(problem)\n")
                return .dataError
            }
            console.out("ok: \(scenario.name): \(Counted.phrase(scenario.devices, "device")), "
                        + "\(Counted.phrase(scenario.dayCount, "day")), "
                        + "\(Counted.phrase(scenario.strategies.count, "strategy", plural: "strategies")) ("
                        + scenario.strategies.map(\.label).joined(separator: ", ") + ")\n")
            let threads = ProcessInfo.processInfo.activeProcessorCount
            console.out(costLine(scenario, threads: threads) + "\n")
            console.out(estimateLine(RunCost(scenario, threads: threads)) + "\n")
            return .success
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
    }

    /// `cost: about M messages (P per device and strategy); about T on N threads (at 2.5
    /// million messages a second per thread)`. Only as many threads as devices work.
    /// - Complexity: O(days) in the run's length.
    package static func costLine(_ scenario: Scenario, threads: Int) -> String {
        let messages = scenario.expectedMessages
        let perDeviceAndStrategy = messages / Double(scenario.devices) / Double(scenario.strategies.count)
        let working = max(1, min(threads, scenario.devices))
        let seconds = messages / (messagesPerSecondPerThread * Double(working))
        return "cost: about \(Counted.phrase(count(messages), "message")) (\(count(perDeviceAndStrategy)) per device and strategy); "
            + "\(wallTime(seconds)) on \(Counted.phrase(working, "thread")) "
            + "(at \(format(messagesPerSecondPerThread / 1e6)) million messages a second per thread)"
    }

    /// `estimate: about E kernel events, about M MB of memory (N messages and T timeline
    /// entries per device app; K MB of them kept by the model[, R MB a thread by APNs for X
    /// token rotations per device app]); within the limits`, or which limit it passes and
    /// that `run` then needs `--allow-large`.
    /// - Complexity: O(1).
    package static func estimateLine(_ cost: RunCost) -> String {
        "estimate: about \(Counted.phrase(RunCost.count(cost.events), "kernel event")), about \(RunCost.megabytes(cost.memoryBytes)) of memory "
            + "(\(Counted.phrase(RunCost.count(cost.messagesPerLane), "message")) and "
            + "\(Counted.phrase(RunCost.count(cost.timelineEntriesPerLane), "timeline entry", plural: "timeline entries")) "
            + "per device app; \(RunCost.megabytes(cost.modelBytesPerLane)) of them kept by the model"
            + (cost.rotationsPerLane > 0 ? ", \(RunCost.megabytes(cost.tokenBytesPerThread)) a thread by APNs for "
                + Counted.phrase(RunCost.count(cost.rotationsPerLane), "token rotation") + " per device app" : "")
            + "); "
            + (cost.limitPassed.map { "\($0): run and check need --allow-large" } ?? "within the limits")
    }

    /// A count for people: whole with thousands separators from 100 up (below 10¹⁸),
    /// else three significant digits.
    /// - Complexity: O(1).
    package static func count(_ value: Double) -> String {
        value >= 100 ? RunCost.count(value) : DecimalText.significant(value, digits: 3)
    }

    /// A rough length of time: under a second, or about so many seconds, minutes, hours or days.
    /// - Complexity: O(1).
    package static func wallTime(_ seconds: Double) -> String {
        switch seconds {
        case ..<1: "under a second"
        case ..<90: "about \(Int(seconds.rounded())) s"
        case ..<(90 * 60): "about \(Int((seconds / 60).rounded())) min"
        case ..<(48 * 3600): "about \(DecimalText.fixed(seconds / 3600, digits: 1)) h"
        default: "about \(DecimalText.fixed(seconds / 86_400, digits: 0)) days"
        }
    }
}
