/// Bounds on every number of a scenario that drives work or memory, declared once:
/// the decoder refuses a value past one (naming the field and the bound), docs/scenarios.md's
/// "Limits" table lists them. Each is far above any realistic scenario (a few
/// strategies, a few offline windows, weights and factors near 1) and far below
/// what would exhaust a machine or overflow a sum.
public enum ScenarioLimits {
    /// Largest scenario file read, in bytes (16 MiB): the shipped ones are a few KB;
    /// a bigger file (or `/dev/zero`) is refused after reading this much, not read whole.
    public static let fileBytes = 16 << 20
    /// Largest partial result (`partial.json`, `result.json`) read, in bytes (1 GiB):
    /// one carries the scenario and per-day counts of every strategy.
    public static let partialBytes = 1 << 30
    /// Most strategies a scenario compares.
    public static let strategies = 100
    /// Most strategies × days of the run: each strategy keeps per-day counts on every thread.
    public static let strategyDays = 400_000
    /// Most daily offline windows.
    public static let offlineWindows = 100
    /// Most scheduled provider outages.
    public static let scheduledOutages = 10_000
    /// Most random provider outages a run expects (its length / (mean `between` + mean
    /// `duration`)): every outage is an event in every device's timeline.
    public static let randomOutages = 100_000.0
    /// Largest `diurnal` weight (they are relative: the 24 are normalised to mean 1); 24 of
    /// them sum far from overflow.
    public static let diurnalWeight = 1_000_000.0
    /// Largest `weekendFactor`.
    public static let weekendFactor = 100.0
    /// Largest `mailBursts.meanSize`: a burst's mails are drawn one by one.
    public static let burstMeanSize = 10_000.0
    /// Most `expect` entries.
    public static let expectations = 1_000
    /// Most dated steering events (`events`): each is an entry in its device's timelines.
    public static let steeringEvents = 100_000

    /// Most messages a run may simulate (the cost estimate, over the run's strategies and
    /// devices, or a shard's) without `--allow-large`: 50 times `scale-1m.json`, about
    /// an hour on two threads.
    public static let messages = 1e10
    /// Most kernel events a run may process without `--allow-large`.
    public static let events = 5e10
    /// Most memory (bytes) a run's estimate may reach without `--allow-large` (4 GiB).
    public static let memoryBytes = 4.0 * 1024 * 1024 * 1024
}
