import Base
import Foundation
import ScenarioFormat
import Simulator

/// `pushsim bench SCENARIO [--threads N] [--devices N] [--days N]`: runs a scenario
/// without writing reports and prints throughput and peak memory. Speed targets
/// are checked here, never in a timed test.
package enum BenchCommand {
    package static let help = """
    OVERVIEW: Measure simulation speed and memory on a scenario (writes no report).

    USAGE: pushsim bench <scenario.json> [--threads <n>] [--devices <n>] [--days <n>] [--allow-large]

    Prints devices, messages (summed over strategies), kernel events, wall time,
    messages/s, messages/s per thread, events/s and peak resident memory. --devices and
    --days override the scenario's, for scaling measurements. --threads defaults to the
    CPUs this process may use (affinity mask, cgroup CPU quota). Build with -c release.
    A run past the cost limits (README, "Limits") needs --allow-large, as for 'run'.

    EXAMPLES:
      swift run -c release pushsim bench scenarios/scale-1m.json
      swift run -c release pushsim bench scenarios/mail-january-february.json --threads 1

    """

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "bench", valued: ["--threads", "--devices", "--days"],
                                        flags: ["--allow-large"])
        } catch {
            return PushSimCommand.usage(error, command: "bench", console: console)
        }
        guard let path = scanner.positional.first, scanner.positional.count == 1 else {
            return PushSimCommand.usage(scanner.positional.isEmpty ? .missingArgument("the scenario file")
                                        : .unexpectedArgument(scanner.positional[1]), command: "bench", console: console)
        }
        func positive(_ option: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = scanner.value(option) else { return nil }
            guard let value: Int = ArgumentScanner.plainInteger(text), range.contains(value) else {
                throw .invalidValue(option: option, value: text, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        let threads: Int, devices: Int?, days: Int?
        do {
            threads = try positive("--threads", 1...1024) ?? CPUAllowance.available()
            devices = try positive("--devices", 1...100_000_000)
            days = try positive("--days", 1...3650)
        } catch {
            return PushSimCommand.usage(error, command: "bench", console: console)
        }
        var scenario: Scenario
        do {
            scenario = try ScenarioDecoder.load(path: path)
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        if let devices { scenario.devices = devices }
        if let days { scenario.duration = Int64(days) * 86_400_000_000 }
        if !scanner.flag("--allow-large"), let passed = RunCost(scenario, threads: threads).limitPassed {
            console.err("error: \(UserText.path(path)): the run is too large: \(passed) (README, \"Limits\"); "
                        + "pass --allow-large to run it anyway\n")
            return .dataError
        }
        let clock = ContinuousClock()
        let started = clock.now
        let result: SimulationResult
        do {
            result = try Simulation.run(scenario, threads: threads)
        } catch {
            console.err("error: the accounting identity broke: \(error)\n")
            return .failure
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let messages = result.aggregates.reduce(0) { $0 + $1.messages }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMB = Double(usage.ru_maxrss) / 1024   // Linux reports kilobytes
        func number(_ value: Double) -> String { String(Int64(value.rounded())) }
        console.out("""
        scenario          \(scenario.name)
        devices           \(scenario.devices)
        days              \(scenario.dayCount)
        strategies        \(scenario.strategies.count)
        threads           \(threads)
        messages          \(messages)  (summed over strategies)
        events            \(result.events)
        wall time s       \(String(format: "%.2f", seconds))
        messages/s        \(number(Double(messages) / seconds))
        messages/s/thread \(number(Double(messages) / seconds / Double(threads)))
        events/s          \(number(Double(result.events) / seconds))
        peak memory MB    \(String(format: "%.1f", peakMB))

        """)
        return .success
    }
}
