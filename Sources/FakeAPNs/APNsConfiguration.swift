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

    /// A configuration; the defaults are APNs as PushSim's core models it.
    /// - Complexity: O(1).
    public init(storage: APNsStoragePolicy = .latest, rateLimit: APNsRateLimit? = nil, defersLowPriority: Bool = false) {
        self.storage = storage
        self.rateLimit = rateLimit
        self.defersLowPriority = defersLowPriority
    }
}

/// What the Apple Push Notifications Console shows for an app, counted per request.
/// Integers only, so counters of many worlds add up in any order.
public struct APNsCounters: Sendable, Equatable {
    /// Requests answered 200.
    public var accepted: Int64 = 0
    /// Requests answered with an error other than 429 (400, 410, 413, 503).
    public var rejected: Int64 = 0
    /// Requests answered 429 `TooManyRequests`.
    public var tooManyRequests: Int64 = 0
    /// Notifications handed to a connected device straight away (after any power deferral).
    public var delivered: Int64 = 0
    /// Notifications handed out when the device reconnected, from offline storage.
    public var deliveredFromStorage: Int64 = 0
    /// Notifications handed out (either way above) that found the device gone
    /// before they arrived and came back to APNs: handed out again, stored or
    /// discarded, and counted there again. Handed out minus bounced is what reached
    /// a device (or was still on its way when the run ended).
    public var bounced: Int64 = 0
    /// Notifications stored because the device was offline.
    public var storedOffline: Int64 = 0
    /// Notifications held for the device's power considerations (priority 5 / 1).
    public var storedPower: Int64 = 0
    /// Discarded: the token was no longer valid.
    public var discardedUnregistered: Int64 = 0
    /// Discarded: `apns-expiration` passed (or was 0 for an offline device).
    public var discardedExpired: Int64 = 0
    /// Discarded: the user disabled notifications for the app.
    public var discardedDisabled: Int64 = 0
    /// Discarded: a newer notification replaced it in the one-per-app storage.
    public var discardedReplaced: Int64 = 0

    /// All zeros.
    /// - Complexity: O(1).
    public init() {}

    /// Adds another world's counters.
    /// - Complexity: O(1).
    public static func += (lhs: inout APNsCounters, rhs: APNsCounters) {
        lhs.accepted += rhs.accepted
        lhs.rejected += rhs.rejected
        lhs.tooManyRequests += rhs.tooManyRequests
        lhs.delivered += rhs.delivered
        lhs.deliveredFromStorage += rhs.deliveredFromStorage
        lhs.bounced += rhs.bounced
        lhs.storedOffline += rhs.storedOffline
        lhs.storedPower += rhs.storedPower
        lhs.discardedUnregistered += rhs.discardedUnregistered
        lhs.discardedExpired += rhs.discardedExpired
        lhs.discardedDisabled += rhs.discardedDisabled
        lhs.discardedReplaced += rhs.discardedReplaced
    }

    /// The counters in `apns.csv` column order (README documents each).
    /// - Complexity: O(1).
    public var values: [Int64] {
        [accepted, rejected, tooManyRequests, delivered, deliveredFromStorage, bounced, storedOffline, storedPower,
         discardedUnregistered, discardedExpired, discardedDisabled, discardedReplaced]
    }

    /// The `apns.csv` column names, same order as `values`.
    public static let columnNames = ["accepted", "rejected", "too_many_requests", "delivered", "delivered_from_storage",
                                     "bounced", "stored_offline", "stored_power", "discarded_unregistered",
                                     "discarded_expired", "discarded_disabled", "discarded_replaced"]

    /// Counters from `values` (for partial results); nil when the count is wrong.
    /// - Complexity: O(1).
    public init?(values: [Int64]) {
        guard values.count == Self.columnNames.count else { return nil }
        (accepted, rejected, tooManyRequests, delivered, deliveredFromStorage, bounced, storedOffline, storedPower,
         discardedUnregistered, discardedExpired, discardedDisabled, discardedReplaced)
            = (values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7], values[8],
               values[9], values[10], values[11])
    }
}
