import Device
import FakeAPNs
import Provider

/// How one strategy is played, prepared once per run.
struct StrategyPlan {
    let strategy: Strategy
    let provider: ProviderConfiguration
    let serviceExtension: ServiceExtension
    let apns: APNsConfiguration

    init(strategy: Strategy, scenario: Scenario) {
        self.strategy = strategy
        let numbered = strategy.kind.numbersPushes
        // How the extension saves positions (moot without numbering).
        let positionSaving: PositionSaving
        switch strategy.kind {
        case .noQueue, .queue: positionSaving = .everyNewerPosition
        case .queueAsPublished: positionSaving = .onlyWhenGapFound
        }
        let chain = scenario.chain
        // A UUID-shaped device id: only its length matters for payload and collapse-id sizes.
        let template = PushTemplate(app: scenario.app, deviceID: String(repeating: "0", count: 36),
                                    alertBody: String(repeating: "x", count: scenario.alertBodyBytes),
                                    numbered: numbered)
        provider = ProviderConfiguration(template: template, numbering: numbered,
                                         sendsCollapseID: strategy.collapseID, payloadTTL: scenario.payloadTTL,
                                         expiration: scenario.expiration, priority: strategy.priority,
                                         retry: chain.provider.retry, expiredPositions: chain.provider.expiredPositions)
        serviceExtension = ServiceExtension(
            positionSaving: positionSaving,
            repeatMaxCount: strategy.repeatMaxCount)
        apns = APNsConfiguration(storage: chain.apns.storage, rateLimit: chain.apns.rateLimit,
                                 defersLowPriority: chain.apns.lowPriorityDeferral != nil)
    }
}
