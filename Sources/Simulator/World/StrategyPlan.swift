import Base
import Device
import FakeAPNs
import Provider

/// How one strategy is played, prepared once per run.
package struct StrategyPlan {
    package let strategy: Strategy
    package let provider: ProviderConfiguration
    /// The extension devices start with: the strategy's, or under a rollout the old app's.
    package let serviceExtension: ServiceExtension
    /// Under a rollout, the extension of the updated app.
    package let updatedExtension: ServiceExtension?
    /// Under a rollout, when the provider starts numbering: the update's earliest instant.
    package let rolloutFrom: SimTime
    package let apns: APNsConfiguration
    /// `apns` telling where it holds each notification, for a traced device's world.
    package let reportingAPNs: APNsConfiguration
    /// What every phone of the strategy shares; `phoneConfiguration` adds the device app's own.
    private let extensionTimeLimit: SimDuration
    private let subscriptionSync: SubscriptionSync
    private let memory: ExtensionMemoryModel?
    /// The scenario's background pushes; nil: none.
    private let background: BackgroundStreamModel?

    package init(strategy: Strategy, scenario: Scenario) {
        self.strategy = strategy
        let chain = scenario.chain
        // A UUID-shaped device id: only its length matters for payload and collapse-id sizes.
        let template = PushTemplate(app: scenario.app, deviceID: String(repeating: "0", count: 36),
                                    alertBody: String(repeating: "x", count: scenario.alertBodyBytes),
                                    numbered: strategy.kind.numbersPushes)
        let own = Self.serviceExtension(strategy.kind, repeatMaxCount: strategy.repeatMaxCount)
        if let rollout = strategy.rollout {
            rolloutFrom = SimTime(rollout.from.daysSinceEpoch - scenario.start.daysSinceEpoch) * TimeUnit.day
            serviceExtension = Self.serviceExtension(rollout.before, repeatMaxCount: strategy.repeatMaxCount)
            updatedExtension = own
        } else {
            rolloutFrom = 0
            serviceExtension = own
            updatedExtension = nil
        }
        // Numbering starts with the rollout, unless the old strategy numbered already.
        let numberingFrom: SimTime = if let rollout = strategy.rollout, !rollout.before.numbersPushes { rolloutFrom } else { 0 }
        provider = ProviderConfiguration(template: template, numbering: strategy.kind.numbersPushes,
                                         numberingFrom: numberingFrom,
                                         sendsCollapseID: strategy.collapseID, payloadTTL: scenario.payloadTTL,
                                         expiration: scenario.expiration, priority: strategy.priority,
                                         retry: chain.provider.retry, expiredPositions: chain.provider.expiredPositions)
        apns = APNsConfiguration(storage: chain.apns.storage, rateLimit: chain.apns.rateLimit,
                                 defersLowPriority: chain.apns.lowPriorityDeferral != nil)
        var reporting = apns
        reporting.reportsHolding = true
        reportingAPNs = reporting
        extensionTimeLimit = scenario.extensionTimeLimit
        subscriptionSync = chain.provider.subscriptions?.syncOn ?? .reconnect
        memory = chain.device.memory
        background = chain.background
    }

    /// The one construction site of a phone's configuration, for `run`'s world and `serve`'s
    /// population alike: the strategy's extension and policies, the scenario's limits, and the
    /// device app's own traits. Every input is a parameter without a default, so a field
    /// wired in one place cannot silently take its default in another.
    /// - Parameters:
    ///   - device: the device's traits (iOS version, memory limit).
    ///   - alertsNotAllowed, displayOff: the app's notification settings, as drawn.
    ///   - reportsSavedPosition: tell every save of the extension's position (a long lane's or a traced world's ledger).
    ///   - copyBounds: how long copies can take (a long lane's phone drops the collapse ids no copy can match); nil: keep all.
    /// - Complexity: O(1).
    package func phoneConfiguration(device: World.DeviceTraits, alertsNotAllowed: Bool, displayOff: Bool,
                                    reportsSavedPosition: Bool, copyBounds: CopyBounds?) -> PhoneConfiguration {
        PhoneConfiguration(
            serviceExtension: serviceExtension, updatedExtension: updatedExtension,
            eligibility: ExtensionEligibility(alertsAllowed: !alertsNotAllowed, displayEnabled: !displayOff,
                                              supportsServiceExtension: !device.legacyIOS),
            extensionTimeLimit: extensionTimeLimit, registrationPolicy: strategy.registration, subscriptionSync: subscriptionSync,
            memoryLimitKB: memory.map { device.olderIOS ? $0.olderLimitKB : $0.newerLimitKB } ?? .max,
            reportsSavedPosition: reportsSavedPosition, copyBounds: copyBounds,
            background: background?.budget ?? BackgroundBudget())
    }

    /// Whether a world under this plan, a rollout, plays exactly as one under `other`
    /// until `rolloutFrom`, where it first can differ: the same APNs and registration, the
    /// phone's app before its update deciding as `other`'s app does, and a provider that
    /// sends the same pushes (numbering nothing before `rolloutFrom` as `other` numbers
    /// nothing, or numbering from the start as `other` does). A run of `other` can then
    /// hand its lanes at `rolloutFrom` to this plan (`World.resume`).
    /// - Complexity: O(1) (the templates' text compared).
    package func playsLike(_ other: StrategyPlan) -> Bool {
        guard strategy.rollout != nil, other.strategy.rollout == nil, other.updatedExtension == nil,
              apns == other.apns, strategy.registration == other.strategy.registration,
              serviceExtension.decidesLike(other.serviceExtension) else { return false }
        var mine = provider
        if provider.numbering && provider.numberingFrom > 0 {
            // Unnumbered until then: a push of position 0 is sized by the template's text only.
            guard !other.provider.numbering else { return false }
            let (a, b) = (provider.template, other.provider.template)
            guard a.app == b.app, a.deviceID == b.deviceID, a.alertTitle == b.alertTitle, a.alertBody == b.alertBody
            else { return false }
            mine.numbering = false
            mine.numberingFrom = other.provider.numberingFrom
            mine.sendsCollapseID = other.provider.sendsCollapseID
            mine.template = other.provider.template
        }
        return mine == other.provider
    }

    /// The extension an app of strategy `kind` ships.
    package static func serviceExtension(_ kind: StrategyKind, repeatMaxCount: Int32) -> ServiceExtension {
        switch kind {
        case .noQueue:
            ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: repeatMaxCount, readsNumbering: false)
        case .queue:
            ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: repeatMaxCount)
        case .queueAsPublished:
            ServiceExtension(positionSaving: .onlyWhenGapFound, repeatMaxCount: repeatMaxCount)
        }
    }
}
