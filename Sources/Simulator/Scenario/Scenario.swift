import FakeAPNs
import Foundation
import Device
import Provider

/// A random length of time, as scenario files describe one.
public enum Distribution: Sendable, Equatable {
    /// Always `value`.
    case constant(SimDuration)
    /// Exponential with this mean (memoryless on/off periods, Poisson gaps).
    case exponential(mean: SimDuration)
    /// Uniform between `min` and `max`.
    case uniform(min: SimDuration, max: SimDuration)
    /// Log-normal: `median` = e^μ, `sigma` = σ of the underlying normal.
    case lognormal(median: SimDuration, sigma: Double)

    /// The distribution's mean, in microseconds.
    /// - Complexity: O(1).
    public var mean: Double {
        switch self {
        case .constant(let value): Double(value)
        case .exponential(let mean): Double(mean)
        case .uniform(let low, let high): (Double(low) + Double(high)) / 2
        case .lognormal(let median, let sigma): Double(median) * Foundation.exp(sigma * sigma / 2)
        }
    }

    /// The longest draw: 1,000 years. A heavy tail (a log-normal with a large
    /// median and σ near 5 reaches 10^27 µs) would overflow the clock; anything
    /// this long falls past every run's horizon (at most 100 years) anyway, so
    /// capping it changes no outcome.
    public static let longestDraw: SimDuration = 1000 * 365 * TimeUnit.day

    /// A drawn length in microseconds, rounded to a whole microsecond and capped
    /// at `longestDraw`.
    /// - Complexity: O(1).
    @inline(__always)
    static func rounded(_ microseconds: Double) -> SimDuration {
        SimDuration(Swift.min(microseconds + 0.5, Double(longestDraw)))
    }

    /// One draw, rounded to a whole microsecond, at most `longestDraw`.
    /// - Complexity: O(1).
    public func sample(_ rng: inout SplitMix64) -> SimDuration {
        switch self {
        case .constant(let value):
            return value
        case .exponential(let mean):
            return Self.rounded(-Double(mean) * Foundation.log(rng.nextUnitInterval()))
        case .uniform(let low, let high):
            return low + SimDuration(Double(high - low) * (1 - rng.nextUnitInterval()) + 0.5)
        case .lognormal(let median, let sigma):
            // Inversion needs one uniform and, away from the tails, no log or cos: the
            // latency hops draw this per push, so it is the simulator's hottest math.
            let normal = standardNormalQuantile(rng.nextUnitInterval())
            return Self.rounded(Double(median) * Foundation.exp(sigma * normal))
        }
    }
}

/// Φ⁻¹(p), the standard normal quantile, by Acklam's rational approximation
/// (relative error below 1.15e-9 over (0, 1)); p = 1 is clamped to 1 − 2⁻⁵³ (≈ 8.2).
/// - Complexity: O(1).
func standardNormalQuantile(_ p: Double) -> Double {
    let a = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
    let b = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
    let c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
    let d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00)
    let low = 0.02425
    if p < low {
        let q = (-2 * Foundation.log(p)).squareRoot()
        return (((((c.0 * q + c.1) * q + c.2) * q + c.3) * q + c.4) * q + c.5)
            / ((((d.0 * q + d.1) * q + d.2) * q + d.3) * q + 1)
    }
    if p > 1 - low {
        // p = 1 exactly (the uniform's top) would be +∞: clamp to the next double below 1.
        let q = (-2 * Foundation.log(max(1 - p, 0x1.0p-53))).squareRoot()
        return -(((((c.0 * q + c.1) * q + c.2) * q + c.3) * q + c.4) * q + c.5)
            / ((((d.0 * q + d.1) * q + d.2) * q + d.3) * q + 1)
    }
    let q = p - 0.5
    let r = q * q
    return (((((a.0 * r + a.1) * r + a.2) * r + a.3) * r + a.4) * r + a.5) * q
        / (((((b.0 * r + b.1) * r + b.2) * r + b.3) * r + b.4) * r + 1)
}

/// Mail for one user: Poisson arrivals whose rate follows the hour of day and
/// the weekday.
public struct MailModel: Sendable, Equatable {
    /// Mean mails a weekday for one device + app.
    public var perDay: Double
    /// Relative weights of the 24 hours (local time), normalised to mean 1.
    public var diurnal: [Double]
    /// Multiplier on Saturdays and Sundays.
    public var weekendFactor: Double

    /// A mail model; `diurnal` is normalised here.
    public init(perDay: Double, diurnal: [Double]? = nil, weekendFactor: Double = 1) {
        self.perDay = perDay
        let weights = diurnal ?? Array(repeating: 1, count: 24)
        let mean = weights.reduce(0, +) / 24
        self.diurnal = weights.map { mean > 0 ? $0 / mean : 0 }
        self.weekendFactor = weekendFactor
    }
}

/// Which days a daily offline window applies to.
public enum DaySet: String, Sendable, CaseIterable {
    case all, weekdays, weekends

    /// Whether `weekday` (0 = Monday … 6 = Sunday) is in the set.
    public func contains(weekday: Int) -> Bool {
        switch self {
        case .all: true
        case .weekdays: weekday < 5
        case .weekends: weekday >= 5
        }
    }
}

/// A recurring stretch when a share of devices is offline: the night with the phone
/// off, the commute in the metro.
public struct OfflineWindow: Sendable, Equatable {
    /// Local start time, from midnight.
    public var start: SimDuration
    /// How long the device stays offline once the window starts.
    public var duration: Distribution
    /// Chance that a given device is offline in this window on a given day.
    public var probability: Double
    /// Days it applies to.
    public var days: DaySet
}

/// How a device's connection to APNs comes and goes.
public struct ConnectivityModel: Sendable, Equatable {
    /// Length of online periods; nil with `offline` nil: always online apart from windows.
    public var online: Distribution?
    /// Length of offline periods.
    public var offline: Distribution?
    /// Daily offline windows, laid over the on/off alternation (offline wins).
    public var offlineWindows: [OfflineWindow]
}

/// Network delays between the actors.
public struct LatencyModel: Sendable, Equatable {
    /// Provider → APNs, per request.
    public var providerToAPNs: Distribution = .constant(0)
    /// APNs → device, per delivery (jitter here can reorder pushes).
    public var apnsToDevice: Distribution = .constant(0)
    /// Extension → provider → extension, per re-request (half each way).
    public var rerequestRoundTrip: Distribution = .constant(0)
}

/// The three strategies docs/model.md compares.
public enum StrategyKind: String, Sendable, CaseIterable {
    case noQueue = "no-queue"
    case queue
    case queueAsPublished = "queue-as-published"

    /// Whether the provider numbers this strategy's pushes (and its knobs
    /// `repeatMaxCount` and `collapseID` mean anything).
    public var numbersPushes: Bool {
        switch self {
        case .noQueue: false
        case .queue, .queueAsPublished: true
        }
    }
}

/// A strategy that reaches users the way an app update does: the provider starts
/// numbering on `from`, and each device keeps running the app of strategy `before`
/// until its update, `adoption` after `from`. Until then the old app ignores the
/// numbering and shows pushes as they come.
public struct Rollout: Sendable, Equatable {
    /// The day the provider switches (local midnight), inside the run.
    public var from: CivilDate
    /// The strategy devices run before their update.
    public var before: StrategyKind
    /// The delay from `from` until a device runs the new app version (drawn per device app).
    public var adoption: Distribution

    /// A rollout.
    /// - Complexity: O(1).
    public init(from: CivilDate, before: StrategyKind = .noQueue, adoption: Distribution = .constant(0)) {
        self.from = from
        self.before = before
        self.adoption = adoption
    }
}

/// One column of the comparison: a strategy and its knobs.
public struct Strategy: Sendable, Equatable {
    /// How it is named in reports (the `label`, or the strategy's name).
    public var label: String
    /// Which strategy.
    public var kind: StrategyKind
    /// Gaps above this are summarised (queue strategies); `Int32.max`: never.
    public var repeatMaxCount: Int32
    /// Send `apns-collapse-id` (queue strategies).
    public var collapseID: Bool
    /// When the app registers for remote notifications.
    public var registration: RegistrationPolicy = .everyLaunch
    /// `apns-priority` of mail pushes: 10 (immediately) or 5 (power considerations).
    public var priority: UInt8 = 10
    /// The strategy reaches devices from a date, as an app update; nil: from the start.
    public var rollout: Rollout?
}

/// A whole scenario file, validated.
public struct Scenario: Sendable, Equatable {
    /// Name; the default report folder is `reports/<name>/`.
    public var name: String
    /// Free text: assumptions and sources.
    public var description: String
    /// Seed of every random stream.
    public var seed: UInt64
    /// First day (local midnight); weekdays count from it.
    public var start: CivilDate
    /// Length of the run.
    public var duration: SimDuration
    /// Number of devices (one user, one device, one mail app each).
    public var devices: Int
    /// Mail arrivals.
    public var mail: MailModel
    /// Connectivity; nil: always online.
    public var connectivity: ConnectivityModel?
    /// Network delays.
    public var latency: LatencyModel
    /// How long the provider holds numbered payloads; nil: the whole run.
    public var payloadTTL: SimDuration?
    /// `apns-expiration` the provider sets.
    public var expiration: ExpirationPolicy
    /// The app's bundle id.
    public var app: String
    /// Length of the alert body in bytes (payload size).
    public var alertBodyBytes: Int
    /// The extension's time limit.
    public var extensionTimeLimit: SimDuration
    /// The strategies to compare, in report order.
    public var strategies: [Strategy]
    /// The losses, limits and measurement along the delivery chain, grouped as the file groups them; empty by default.
    public var chain = ChainModel()
    /// The bounds `pushsim check` holds the run to (`expect`), in file order; empty by default.
    public var expectations: [Expectation] = []

    /// Number of calendar days the run touches.
    public var dayCount: Int { Int((duration + TimeUnit.day - 1) / TimeUnit.day) }
}
