import Device
import FakeAPNs
import Provider

/// Where a push waits while it travels: an index into the world's push pool. Events
/// carry this 4-byte handle instead of the whole request, so queue entries stay small.
typealias PushSlot = Int32

/// The messages the kernel carries between the actors of one app's world.
/// Plain values, not closures: the queue stores them inline. What the user and
/// the network do on their own (mail, connectivity, launches, outages, …) is
/// not here: `UserTimeline` replays it beside the queue. Nor are messages that
/// take no time (a connection reaching APNs, a bounce, a registration, a
/// subscription sync): the wiring delivers those at once, in effect order.
enum WorldEvent {
    /// A request reaches APNs.
    case pushReachesAPNs(PushSlot)
    /// APNs answered a request with an error; the answer reaches the provider.
    case apnsErrorReachesProvider(PushSlot, APNsReason, timestamp: SimTime)
    /// A request got no answer: the provider's timeout fires.
    case sendFailureReachesProvider(PushSlot)
    /// The provider's back-off for a retry is over.
    case retryDue(PushSlot)
    /// The device's power allows APNs to hand out the held low-priority pushes.
    case powerWindowOpens(DeviceToken)
    /// A notification reaches the device.
    case pushReachesDevice(PushSlot)
    /// A re-request reaches the provider; its answer takes `returnDelay` back.
    case rerequestReachesProvider(position: Int32, gap: Int32, invocation: Int32, returnDelay: SimDuration)
    /// The provider's answer reaches the extension.
    case answerReachesDevice(invocation: Int32, ok: Bool)
    /// An extension invocation's time is up.
    case extensionDeadline(invocation: Int32)
    /// The user taps the notification of this mail (and so opens the app).
    case tapped(messageIndex: Int32)
}

/// How one strategy is played, prepared once per run.
struct StrategyPlan {
    let strategy: Strategy
    let provider: ProviderConfiguration
    let serviceExtension: ServiceExtension
    let apns: APNsConfiguration

    init(strategy: Strategy, scenario: Scenario) {
        self.strategy = strategy
        let numbered = strategy.kind != .noQueue
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
            positionSaving: strategy.kind == .queueAsPublished ? .onlyWhenGapFound : .everyNewerPosition,
            repeatMaxCount: strategy.repeatMaxCount)
        apns = APNsConfiguration(storage: chain.apns.storage, rateLimit: chain.apns.rateLimit,
                                 defersLowPriority: chain.apns.lowPriorityDeferral != nil)
    }
}

/// A broken accounting identity: the run is wrong and nothing may be reported.
public struct AccountingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What did not add up, and where.
    public var description: String
}
