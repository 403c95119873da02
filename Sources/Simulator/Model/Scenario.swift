import Base
import Device
import FoundationEssentials
import Provider

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
    package init(start: SimDuration, duration: Distribution, probability: Double, days: DaySet) {
        self.start = start
        self.duration = duration
        self.probability = probability
        self.days = days
    }
}

/// How a device's connection to APNs comes and goes.
public struct ConnectivityModel: Sendable, Equatable {
    /// Length of online periods; nil with `offline` nil: always online apart from windows.
    public var online: Distribution?
    /// Length of offline periods.
    public var offline: Distribution?
    /// Daily offline windows, laid over the on/off alternation (offline wins).
    public var offlineWindows: [OfflineWindow]
    package init(online: Distribution? = nil, offline: Distribution? = nil, offlineWindows: [OfflineWindow]) {
        self.online = online
        self.offline = offline
        self.offlineWindows = offlineWindows
    }
}

/// Network delays between the actors.
public struct LatencyModel: Sendable, Equatable {
    /// Provider → APNs, per request.
    public var providerToAPNs: Distribution = .constant(0)
    /// APNs → device, per delivery (jitter here can reorder pushes).
    public var apnsToDevice: Distribution = .constant(0)
    /// Extension → provider → extension, per re-request (half each way).
    public var rerequestRoundTrip: Distribution = .constant(0)
    package init(providerToAPNs: Distribution = .constant(0), apnsToDevice: Distribution = .constant(0), rerequestRoundTrip: Distribution = .constant(0)) {
        self.providerToAPNs = providerToAPNs
        self.apnsToDevice = apnsToDevice
        self.rerequestRoundTrip = rerequestRoundTrip
    }
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
    package init(label: String, kind: StrategyKind, repeatMaxCount: Int32, collapseID: Bool, registration: RegistrationPolicy = .everyLaunch, priority: UInt8 = 10, rollout: Rollout? = nil) {
        self.label = label
        self.kind = kind
        self.repeatMaxCount = repeatMaxCount
        self.collapseID = collapseID
        self.registration = registration
        self.priority = priority
        self.rollout = rollout
    }
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
    /// Mail in bursts (`mailBursts`); nil: every mail on its own (Poisson).
    public var mailBursts: MailBurstModel?
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
    /// Dated steering actions (`events`), in file order; empty by default.
    public var events: [SteeringEvent] = []
    /// The mail replayed from a send log (`sendLog`) instead of drawn from `mail`; nil: drawn.
    public var sendLog: SendLogInput?

    package init(name: String, description: String, seed: UInt64, start: CivilDate, duration: SimDuration,
                 devices: Int, mail: MailModel, connectivity: ConnectivityModel?, latency: LatencyModel,
                 payloadTTL: SimDuration?, expiration: ExpirationPolicy, app: String, alertBodyBytes: Int,
                 extensionTimeLimit: SimDuration, strategies: [Strategy], chain: ChainModel = ChainModel(),
                 expectations: [Expectation] = [], events: [SteeringEvent] = [], mailBursts: MailBurstModel? = nil) {
        self.name = name
        self.description = description
        self.seed = seed
        self.start = start
        self.duration = duration
        self.devices = devices
        self.mail = mail
        self.mailBursts = mailBursts
        self.connectivity = connectivity
        self.latency = latency
        self.payloadTTL = payloadTTL
        self.expiration = expiration
        self.app = app
        self.alertBodyBytes = alertBodyBytes
        self.extensionTimeLimit = extensionTimeLimit
        self.strategies = strategies
        self.chain = chain
        self.expectations = expectations
        self.events = events
    }

    /// Number of calendar days the run touches.
    public var dayCount: Int { Int((duration + TimeUnit.day - 1) / TimeUnit.day) }
}
