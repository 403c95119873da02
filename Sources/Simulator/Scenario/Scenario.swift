import FakeAPNs
import Foundation
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

    /// True for `constant(0)`: draws nothing, so a hop with it costs no random numbers.
    public var isZero: Bool { self == .constant(0) }

    /// One draw, rounded to a whole microsecond.
    /// - Complexity: O(1).
    public func sample(_ rng: inout SplitMix64) -> SimDuration {
        switch self {
        case .constant(let value):
            return value
        case .exponential(let mean):
            return SimDuration((-Double(mean) * Foundation.log(rng.nextUnitInterval())).rounded())
        case .uniform(let low, let high):
            return low + SimDuration((Double(high - low) * (1 - rng.nextUnitInterval())).rounded())
        case .lognormal(let median, let sigma):
            // Box–Muller; one of the pair is enough, and keeps the stream simple.
            let u1 = rng.nextUnitInterval(), u2 = rng.nextUnitInterval()
            let normal = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
            return SimDuration((Double(median) * Foundation.exp(sigma * normal)).rounded())
        }
    }
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

/// The three strategies MODEL.md compares.
public enum StrategyKind: String, Sendable, CaseIterable {
    case noQueue = "no-queue"
    case queue
    case queueAsPublished = "queue-as-published"
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

    /// Number of calendar days the run touches.
    public var dayCount: Int { Int((duration + TimeUnit.day - 1) / TimeUnit.day) }
}
