import Base
import Device
import FakeAPNs
import Provider

/// A count that differs between devices: the share of devices with 1, 2, 3 … of it
/// (accounts in the app, mail apps on the phone). Written as an integer (every
/// device the same) or as `{"1": 0.7, "2": 0.3}`.
public struct CountShares: Sendable, Equatable {
    /// `shares[k]` is the share of devices with `k + 1`; they sum to 1.
    public var shares: [Double]

    /// Every device has exactly one.
    public static let one = CountShares(shares: [1])

    /// Shares of 1, 2, 3 …
    /// - Complexity: O(1).
    public init(shares: [Double]) { self.shares = shares }

    /// Every device has `count`.
    /// - Complexity: O(count).
    public init(exactly count: Int) {
        shares = Array(repeating: 0, count: count - 1) + [1]
    }

    /// The count for a device whose uniform draw is `u` in (0, 1].
    /// - Complexity: O(k) in the largest count.
    public func count(for u: Double) -> Int {
        var cumulative = 0.0
        for (index, share) in shares.enumerated() {
            cumulative += share
            if u <= cumulative { return index + 1 }
        }
        return shares.count
    }

    /// The mean count.
    public var mean: Double { shares.enumerated().reduce(0) { $0 + Double($1.offset + 1) * $1.element } }
}

/// Folder subscriptions the user changes in the app. A change made offline reaches
/// the provider only when it syncs; until then the provider drops the mail of the
/// newly subscribed folder (`lost_stale_subscription`).
public struct SubscriptionModel: Sendable, Equatable {
    /// Mean changes a day per device app (a Poisson process).
    public var changesPerDay: Double
    /// Share of the user's mail that goes to the folder subscribed last.
    public var mailShare: Double
    /// When an offline change reaches the provider.
    public var syncOn: SubscriptionSync
    package init(changesPerDay: Double, mailShare: Double, syncOn: SubscriptionSync) {
        self.changesPerDay = changesPerDay
        self.mailShare = mailShare
        self.syncOn = syncOn
    }
}

/// Provider → APNs network failures: each request is lost on the way with this
/// probability; the provider notices after `timeout` and retries per `retry`.
public struct ProviderNetworkModel: Sendable, Equatable {
    /// Chance that one request gets no answer.
    public var failureProbability: Double
    /// How long the provider waits for an answer before calling it failed.
    public var timeout: SimDuration
    package init(failureProbability: Double, timeout: SimDuration) {
        self.failureProbability = failureProbability
        self.timeout = timeout
    }
}

/// One provider outage, from the run's start.
public struct OutageWindow: Sendable, Equatable {
    /// When it begins, from the scenario's start.
    public var start: SimTime
    /// How long it lasts.
    public var duration: SimDuration
    package init(start: SimTime, duration: SimDuration) {
        self.start = start
        self.duration = duration
    }
}

/// Provider outages: scheduled windows plus random ones drawn from the seed once
/// per block of users (`OutageSchedule`), so their spread is in the standard errors.
public struct OutageModel: Sendable, Equatable {
    /// Windows at fixed times.
    public var scheduled: [OutageWindow]
    /// Time from the end of one random outage to the start of the next; nil: no random outages.
    public var between: Distribution?
    /// Length of a random outage.
    public var duration: Distribution?
    package init(scheduled: [OutageWindow], between: Distribution? = nil, duration: Distribution? = nil) {
        self.scheduled = scheduled
        self.between = between
        self.duration = duration
    }
}

/// The extension's memory: footprint per invocation against the limit of the device's iOS.
public struct ExtensionMemoryModel: Sendable, Equatable {
    /// Footprint of one invocation, in kilobytes (the distribution's values are KB).
    public var footprintKB: Distribution
    /// Share of devices on older iOS with the lower limit.
    public var olderIOSShare: Double
    /// Limit on older iOS, KB (12 MB by default).
    public var olderLimitKB: Int64
    /// Limit on newer iOS, KB (24 MB by default).
    public var newerLimitKB: Int64
    package init(footprintKB: Distribution, olderIOSShare: Double, olderLimitKB: Int64, newerLimitKB: Int64) {
        self.footprintKB = footprintKB
        self.olderIOSShare = olderIOSShare
        self.olderLimitKB = olderLimitKB
        self.newerLimitKB = newerLimitKB
    }
}

/// APNs token rotation (restore from backup, reinstall, OS reinstall).
public struct TokenRotationModel: Sendable, Equatable {
    /// Mean rotations a day per device app (a Poisson process).
    public var perDay: Double
    /// Share of rotations that are reinstalls, which show the permission prompt again.
    public var withPromptShare: Double
    package init(perDay: Double, withPromptShare: Double) {
        self.perDay = perDay
        self.withPromptShare = withPromptShare
    }
}

/// When the user opens the app: a Poisson process with a daily rhythm.
public struct LaunchModel: Sendable, Equatable {
    /// Mean launches a weekday, with the hourly shape and weekend factor of `MailModel`.
    public var rhythm: MailModel
    package init(rhythm: MailModel) {
        self.rhythm = rhythm
    }
}

/// Whether and when the user taps a notification it saw (each tap launches the app).
public struct TapModel: Sendable, Equatable {
    /// Chance that a shown notification is tapped.
    public var probability: Double
    /// Time from showing to the tap.
    public var delay: Distribution
    package init(probability: Double, delay: Distribution) {
        self.probability = probability
        self.delay = delay
    }
}

/// The provider's side of the chain (the file's `provider` object, beside `payloadTTL`).
public struct ProviderBehaviour: Sendable, Equatable {
    /// Stale subscriptions (`provider.subscriptions`).
    public var subscriptions: SubscriptionModel?
    /// Provider → APNs failures (`provider.network`).
    public var network: ProviderNetworkModel?
    /// Retries for network failures, 429 and 503 (`provider.retries`, `provider.backoff`).
    public var retry = RetryPolicy()
    /// Provider outages (`provider.outages`).
    public var outages: OutageModel?
    /// Re-request answer when positions are past the TTL (`provider.expiredPositions`).
    public var expiredPositions = ExpiredPositionsAnswer.resendRest

    /// A provider that never fails, retries or changes subscriptions.
    /// - Complexity: O(1).
    public init() {}
}

/// APNs's side of the chain (the file's `apns` object, beside `expiration`).
public struct APNsBehaviour: Sendable, Equatable {
    /// Which stored push survives (`apns.storage`, `apns.closeTogether`).
    public var storage = APNsStoragePolicy.latest
    /// Per-device throttle (`apns.rateLimit`).
    public var rateLimit: APNsRateLimit?
    /// How long APNs holds priority 5 pushes for a connected device (`apns.priority5Deferral`).
    public var lowPriorityDeferral: Distribution?
    /// APNs's errors, dropped connections and slow answers (`apns.faults`); nil: none.
    public var faults: APNsFaultModel?

    /// APNs keeping the latest push, with no throttle and no deferral.
    /// - Complexity: O(1).
    public init() {}
}

/// The device's side of the chain (the file's `device` object, beside `extensionTimeLimit`).
public struct DeviceBehaviour: Sendable, Equatable {
    /// Share of device apps with notifications disabled: APNs discards (`device.notificationsDisabled`).
    public var notificationsDisabledShare = 0.0
    /// Share of device apps whose user does not allow alerts (`device.alertsNotAllowed`).
    public var alertsNotAllowedShare = 0.0
    /// Share of device apps with notification display switched off (`device.displayOff`).
    public var displayOffShare = 0.0
    /// Share of devices on iOS < 10: no extension (`device.legacyIOS`).
    public var legacyIOSShare = 0.0
    /// The extension's memory (`device.extensionMemory`).
    public var memory: ExtensionMemoryModel?
    /// Token rotation (`device.tokenRotation`).
    public var tokenRotation: TokenRotationModel?
    /// Mean device id changes a day (`device.deviceIDChangesPerDay`); 0: never.
    public var deviceIDChangesPerDay = 0.0
    /// Accounts in the app (`device.accounts`): each its own mail stream into the one queue.
    public var accounts = CountShares.one
    /// Apps on the device (`device.apps`): each its own token, APNs slot and queue.
    public var apps = CountShares.one
    /// App launches (`device.launches`).
    public var launches: LaunchModel?
    /// Taps on notifications (`device.taps`).
    public var taps: TapModel?

    /// One app with one account, every setting on, never launched or tapped.
    /// - Complexity: O(1).
    public init() {}
}

/// A stream of background pushes (`apns-push-type: background`, `apns-priority: 5`,
/// `content-available: 1`) the backend sends each device app beside its mail: badge
/// updates, a sync. They go straight to APNs (not through the provider's numbering),
/// share APNs's one offline slot per app with the mail's alerts, are never drawn, and
/// reach the app within iOS's budget (`BackgroundBudget`).
public struct BackgroundStreamModel: Sendable, Equatable {
    /// When the backend sends one: a Poisson process with a daily rhythm (`background.rhythm`).
    public var rhythm: MailModel
    /// iOS's hourly budget and how often the app is force-quit (`background.budgetPerHour`, `background.forceQuit`).
    public var budget: BackgroundBudget
    package init(rhythm: MailModel, budget: BackgroundBudget) {
        self.rhythm = rhythm
        self.budget = budget
    }
}

/// Every loss, limit and measurement along the delivery chain that a scenario may
/// name, grouped as the file groups them (`provider`, `apns`, `device`); each part nil
/// (or its neutral value) when the file does not name it, so the core model is unchanged.
public struct ChainModel: Sendable, Equatable {
    /// The provider's failures, retries, outages and subscriptions (`provider`).
    public var provider = ProviderBehaviour()
    /// APNs's storage, throttle and deferral (`apns`).
    public var apns = APNsBehaviour()
    /// The device's settings, limits, identity, apps, launches and taps (`device`).
    public var device = DeviceBehaviour()
    /// Background pushes beside the mail (`background`); nil: none.
    public var background: BackgroundStreamModel?

    /// Nothing of the chain: the core model.
    /// - Complexity: O(1).
    public init() {}
}
