import Base
import FoundationEssentials
import Glibc
import ScenarioFormat
import Simulator

/// `pushsim bench SCENARIO [--threads N] [--devices N] [--days N]`: runs a scenario
/// without writing reports and prints throughput and peak memory. Speed targets
/// are checked here, never in a timed test.
package enum BenchCommand {
    package static let help = """
    OVERVIEW: Measure simulation speed and memory on a scenario (writes no report).

    """ + "\n" + usageHelp.text + """

    Prints devices, messages (summed over strategies), kernel events, wall time,
    messages/s, messages/s per thread, events/s and peak resident memory. --devices and
    --days override the scenario's, for scaling measurements. --threads defaults to the
    CPUs this process may use (affinity mask, cgroup CPU quota). Build with -c release.
    A run past the cost limits (docs/scenarios.md, "Limits") needs --allow-large, as for 'run'.

    EXAMPLES:
      swift run -c release pushsim bench scenarios/scale-1m.json
      swift run -c release pushsim bench scenarios/mail-january-february.json --threads 1

    """

    /// `--devices <n>`: the scenario's device count, overridden for scaling.
    package static let devices = Option<Int>("--devices", "<n>", .integer(in: 1...100_000_000),
                                             help: "Override the scenario's device count")
    /// `--days <n>`: the scenario's duration, overridden for scaling.
    package static let days = Option<Int>("--days", "<n>", .integer(in: 1...3650), help: "Override the scenario's duration, in days")

    /// The options `bench` takes: `run`'s `--threads` and `--allow-large`, and the two
    /// overrides. Its help has no OPTIONS section: the USAGE line and text explain them.
    package static let options = [RunCommand.Options.threads.spec, devices.spec, days.spec, RunCommand.Options.allowLarge.spec]

    /// `bench`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "bench", [.text("<scenario.json>"), .optional(RunCommand.Options.threads.spec), .optional(devices.spec),
                  .optional(days.spec), .optional(RunCommand.Options.allowLarge.spec)])

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "bench", options: Self.options)
        } catch {
            return PushSimCommand.usage(error, command: "bench", console: console)
        }
        let path: String
        do {
            path = try scanner.positionals("the scenario file")[0]
        } catch {
            return PushSimCommand.usage(error, command: "bench", console: console)
        }
        let threads: Int, devices: Int?, days: Int?
        do {
            threads = try scanner.value(RunCommand.Options.threads) ?? CPUAllowance.available()
            devices = try scanner.value(Self.devices)
            days = try scanner.value(Self.days)
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
        if !scanner.flag(RunCommand.Options.allowLarge), let passed = RunCost(scenario, threads: threads).limitPassed {
            console.err("error: \(UserText.path(path)): the run is too large: \(passed) (docs/scenarios.md, \"Limits\"); "
                        + "pass --allow-large to run it anyway\n")
            return .dataError
        }
        // A send log is prepared before the clock starts: bench times the simulation (peak memory counts both).
        do {
            scenario = try scenario.preparingSendLog()
        } catch {
            console.err("error: \(error)\n")
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
        let messages = result.aggregates.reduce(0) { $0 + $1[.messages] }
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
        wall time s       \(DecimalText.fixed(seconds, digits: 2))
        messages/s        \(number(Double(messages) / seconds))
        messages/s/thread \(number(Double(messages) / seconds / Double(threads)))
        events/s          \(number(Double(result.events) / seconds))
        peak memory MB    \(DecimalText.fixed(peakMB, digits: 1))

        """)
        return .success
    }
}
