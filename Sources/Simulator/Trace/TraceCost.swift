/// How large a trace will be, estimated before the run: the events are kept, then both
/// files are rendered whole in memory (about 200 bytes an event in each) before they are
/// written, so a trace past `maximumEvents` needs `--allow-large`, as a run past the cost
/// limits does.
public enum TraceCost {
    /// Trace events a run records without `--allow-large`: about 1 GB at the peak (measured:
    /// 570,783 events of `busy-device.json`'s device over 30 minutes, 610 MB resident, with
    /// 116 MB of trace.jsonl and 95 MB of trace.json; docs/trace.md).
    public static let maximumEvents = 1_000_000.0
    /// Trace events per message, over the shipped scenarios' devices (a message's mail,
    /// request, answer, delivery, receipt, display and outcome, with the connectivity,
    /// launches and extension steps around them), rounded up.
    public static let eventsPerMessage = 12.0

    /// The events expected when `devices` devices of `scenario` are traced, over every strategy.
    /// - Complexity: that of `RunCost.init`.
    public static func expectedEvents(_ scenario: Scenario, devices: Int) -> Double {
        RunCost(scenario, devices: 1, threads: 1).messages * eventsPerMessage * Double(devices)
    }
}
