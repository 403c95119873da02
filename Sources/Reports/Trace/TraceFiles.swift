import Simulator

/// What `--trace` adds to a run's folder, written in the same all-or-nothing step as
/// the reports: `trace.jsonl` and `trace.json`.
package enum TraceFiles {
    /// The files' names, in the order `files` lists them.
    package static let fileNames = [TraceLines.fileName, ChromeTrace.fileName]

    /// The files for `trace` of a run of `scenario` whose strategies are `strategies`;
    /// none without a traced device.
    /// - Complexity: O(events × fields + spans × threads).
    package static func files(_ trace: SimulationTrace, scenario: Scenario,
                              strategies: [Strategy]) -> [(name: String, contents: String)] {
        guard !trace.devices.isEmpty else { return [] }
        return [(TraceLines.fileName, TraceLines.render(trace, scenario: scenario, strategies: strategies)),
                (ChromeTrace.fileName, ChromeTrace.render(trace, scenario: scenario, strategies: strategies))]
    }
}
