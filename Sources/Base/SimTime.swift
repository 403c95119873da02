/// Virtual time, in whole microseconds since the scenario's start.
///
/// An integer on purpose: the event queue compares times exactly, two runs of one
/// seed land on the same instants, and nothing depends on a wall clock or on
/// floating-point rounding. `Int64` microseconds cover ±292,000 years.
public typealias SimTime = Int64

/// A length of virtual time, in microseconds.
public typealias SimDuration = Int64

/// Named lengths of virtual time, so call sites read as units rather than zeros.
public enum TimeUnit {
    /// One millisecond in microseconds.
    public static let millisecond: SimDuration = 1_000
    /// One second in microseconds.
    public static let second: SimDuration = 1_000_000
    /// One minute in microseconds.
    public static let minute: SimDuration = 60 * second
    /// One hour in microseconds.
    public static let hour: SimDuration = 60 * minute
    /// One day in microseconds.
    public static let day: SimDuration = 24 * hour
}
