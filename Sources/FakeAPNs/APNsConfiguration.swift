import Base

/// Which notification survives when several arrive for an offline device.
public enum APNsStoragePolicy: Sendable, Equatable {
    /// The newest replaces the stored one (what APNs usually does).
    case latest
    /// When the newer one arrives within `closeTogether` of the stored one, either
    /// may survive, with even odds (Apple: the choice is not guaranteed when
    /// several arrive close together); further apart, the newest wins.
    case nondeterministic(closeTogether: SimDuration)
}

/// APNs' per-device throttle: at most `burst` requests to one token in a row,
/// refilled evenly over `window` (a generic cell rate algorithm). Past it: 429
/// `TooManyRequests`.
public struct APNsRateLimit: Sendable, Equatable {
    /// Requests one token may receive back to back.
    public let burst: Int32
    /// Time in which a full burst is refilled.
    public let window: SimDuration
    /// The GCRA's emission interval, window / burst (at least 1 µs): computed once,
    /// since a division per request costs more than the rest of the check.
    let interval: SimDuration
    /// How far ahead of now the theoretical arrival time may run: window − interval.
    let tolerance: SimDuration

    /// A limit of `burst` requests per `window`.
    /// - Complexity: O(1).
    public init(burst: Int32, window: SimDuration) {
        self.burst = burst
        self.window = window
        interval = max(1, window / SimDuration(max(1, burst)))
        tolerance = max(0, window - interval)
    }
}

/// How one FakeAPNs behaves; fixed for a run.
public struct APNsConfiguration: Sendable, Equatable {
    /// Which stored notification survives.
    public var storage: APNsStoragePolicy
    /// The per-device throttle; nil: none.
    public var rateLimit: APNsRateLimit?
    /// Hold priority 5 and 1 notifications for a connected device until the
    /// device's power allows ("power considerations"), then hand them out together.
    public var defersLowPriority: Bool
    /// Tell where each accepted notification waits (`APNsEffect.held`), as
    /// Apple's delivery log would. APNs's own behaviour does not depend on it: only a
    /// traced device's world asks, since it costs an effect per notification held.
    public var reportsHolding: Bool

    /// A configuration; the defaults are APNs as PushSim's core models it.
    /// - Complexity: O(1).
    public init(storage: APNsStoragePolicy = .latest, rateLimit: APNsRateLimit? = nil, defersLowPriority: Bool = false,
                reportsHolding: Bool = false) {
        self.storage = storage
        self.rateLimit = rateLimit
        self.defersLowPriority = defersLowPriority
        self.reportsHolding = reportsHolding
    }
}

/// What the Apple Push Notifications Console shows for an app, counted per request
/// or notification: one case per `apns.csv` column, in column order (the column is
/// the case's name in snake_case). Adding a counter is adding its case here and
/// counting it in `APNsServer`.
public enum APNsCounter: Int, Counter {
    /// Requests answered 200.
    case accepted
    /// Requests answered with an error other than 429 (400, 410, 413, 503).
    case rejected
    /// Requests answered 429 `TooManyRequests`.
    case tooManyRequests
    /// Notifications handed to a connected device straight away (after any power deferral).
    case delivered
    /// Notifications handed out when the device reconnected, from offline storage.
    case deliveredFromStorage
    /// Notifications handed out (either way above) that found the device gone
    /// before they arrived and came back to APNs: handed out again, stored or
    /// discarded, and counted there again. Handed out minus bounced is what reached
    /// a device (or was still on its way when the run ended).
    case bounced
    /// Notifications stored because the device was offline.
    case storedOffline
    /// Notifications held for the device's power considerations (priority 5 / 1).
    case storedPower
    /// Discarded: the token was no longer valid.
    case discardedUnregistered
    /// Discarded: `apns-expiration` passed (or was 0 for an offline device).
    case discardedExpired
    /// Discarded: the user disabled notifications for the app.
    case discardedDisabled
    /// Discarded: a newer notification replaced it in the one-per-app storage.
    case discardedReplaced
}

/// The Console's counters of one app (or summed over many).
public typealias APNsCounters = CounterSet<APNsCounter, 16>
