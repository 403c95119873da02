import Device
import FakeAPNs
import Foundation
import Provider

/// One user's world: for each app on the device, provider, APNs and phone on their
/// own clock. A value reused for user after user (every buffer keeps its capacity),
/// so the hot loop allocates nothing per event and nothing survives a user but
/// the aggregate.
///
/// Apps on one device share nothing but the device (its connectivity, its device id
/// and iOS), so each app is played as its own *lane*, one after the other, with the
/// device's streams replayed identically for each.
struct World {
    let scenario: Scenario
    let chain: ChainModel
    var queue = EventQueue<WorldEvent>()
    var apns = APNsServer()
    var provider: XivaProvider
    var phone: Phone
    var ledger = Ledger()
    /// What happens whatever the strategy (mail, connectivity, launches, outages, …):
    /// drawn once per user, replayed for each strategy.
    var timeline: UserTimeline
    var apnsEffects = ContiguousArray<APNsEffect>()
    var providerEffects = ContiguousArray<ProviderEffect>()
    var deviceEffects = ContiguousArray<DeviceEffect>()
    /// Effects already routed, per array. The arrays are emptied only every
    /// `effectsKept` effects: emptying one costs more than routing a few.
    var providerRouted = 0, apnsRouted = 0, deviceRouted = 0
    static let effectsKept = 256
    /// Pushes in transit, addressed by `PushSlot`, with the provider's attempt numbers.
    var pushPool = PushPool()
    /// Provider outages of the run (global, the same for every user).
    let outages: [OutageWindow]
    var launchLog = Ledger.LaunchLog()

    // Streams of the current lane.
    var providerLatencyRandom = SplitMix64(seed: 0)
    var apnsLatencyRandom = SplitMix64(seed: 0)
    var rerequestRandom = SplitMix64(seed: 0)
    var networkRandom = SplitMix64(seed: 0)
    var powerRandom = SplitMix64(seed: 0)
    var memoryRandom = SplitMix64(seed: 0)
    var tapRandom = SplitMix64(seed: 0)

    let providerToAPNs: Sampler
    let apnsToDevice: Sampler
    let rerequestRoundTrip: Sampler
    let powerDeferral: Sampler?
    let footprint: Sampler?
    let tapDelay: Sampler?

    // State of the current lane that belongs to no actor: the user's own doings.
    /// The token number the next rotation hands out.
    var nextTokenNumber: Int32 = 0
    /// Folders the user subscribed to so far (0: those of the install).
    var folderGeneration: Int32 = 0
    var isDeviceOnline = false
    /// The user disabled notifications for this app (APNs discards).
    var notificationsDisabled = false
    /// A launch happened offline: the extension's log goes up at the next reconnect.
    var uploadPending = false
    /// The app being played (0: the first; device-level counts are kept there only).
    var currentLane = 0

    /// Events processed, for the benchmark's events/s.
    private(set) var eventsProcessed: Int64 = 0

    init(scenario: Scenario, outages: [OutageWindow] = []) {
        self.scenario = scenario
        chain = scenario.chain
        self.outages = outages
        let placeholder = StrategyPlan(strategy: scenario.strategies[0], scenario: scenario)
        provider = XivaProvider(configuration: placeholder.provider)
        phone = Phone(token: DeviceToken(0), deviceID: 0, deviceIDHash: 0, serviceExtension: placeholder.serviceExtension,
                      extensionTimeLimit: scenario.extensionTimeLimit)
        providerToAPNs = Sampler(scenario.latency.providerToAPNs)
        apnsToDevice = Sampler(scenario.latency.apnsToDevice)
        rerequestRoundTrip = Sampler(scenario.latency.rerequestRoundTrip)
        powerDeferral = scenario.chain.lowPriorityDeferral.map(Sampler.init)
        footprint = scenario.chain.memory.map { Sampler($0.footprintKB) }
        tapDelay = scenario.chain.taps.map { Sampler($0.delay) }
        timeline = UserTimeline(scenario: scenario, outages: outages)
    }

    /// What is drawn once per device, before any app: the same for every strategy.
    struct DeviceTraits {
        var deviceID: UInt64
        var legacyIOS: Bool
        var olderIOS: Bool
        var apps: Int
    }

    /// Simulates user `user` under `plan` and adds the outcome to `aggregate`.
    /// Every stream is derived from (seed, user, app), so each strategy sees the
    /// same mail, connectivity and user behaviour; those are drawn on the first
    /// strategy played for the user and replayed for the next ones.
    mutating func run(user: Int, plan: StrategyPlan, seed: UInt64,
                      into aggregate: inout StrategyAggregate) throws(AccountingError) {
        var traitsRandom = RandomStream.deviceTraits.generator(seed: seed, user: UInt64(user))
        // The device id is the first draw, as in the core model; the rest follow.
        let deviceID = traitsRandom.next()
        let traits = DeviceTraits(deviceID: deviceID,
                                  legacyIOS: traitsRandom.nextUnitInterval() <= chain.legacyIOSShare,
                                  olderIOS: traitsRandom.nextUnitInterval() <= (chain.memory?.olderIOSShare ?? 0),
                                  apps: chain.apps.count(for: traitsRandom.nextUnitInterval()))
        timeline.drawDevice(seed: seed, user: user)
        for lane in 0..<traits.apps {
            timeline.drawLane(lane, seed: seed, user: user)
            try runLane(lane, user: user, traits: traits, plan: plan, seed: seed, into: &aggregate)
        }
    }

    private mutating func runLane(_ lane: Int, user: Int, traits: DeviceTraits, plan: StrategyPlan, seed: UInt64,
                                  into aggregate: inout StrategyAggregate) throws(AccountingError) {
        let userKey = UInt64(user)
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: userKey, lane: lane) }
        providerLatencyRandom = stream(.providerLatency)
        apnsLatencyRandom = stream(.apnsLatency)
        rerequestRandom = stream(.rerequestLatency)
        networkRandom = stream(.providerNetwork)
        powerRandom = stream(.powerDeferral)
        memoryRandom = stream(.extensionMemory)
        tapRandom = stream(.taps)
        let own = timeline.lanes[lane]
        notificationsDisabled = own.notificationsDisabled

        queue.reset()
        pushPool.removeAll()
        providerEffects.removeAll(keepingCapacity: true)
        apnsEffects.removeAll(keepingCapacity: true)
        deviceEffects.removeAll(keepingCapacity: true)
        (providerRouted, apnsRouted, deviceRouted) = (0, 0, 0)
        var apnsSeed = stream(.apnsChoice)
        apns.reset(configuration: plan.apns, seed: apnsSeed.next())
        ledger.reset()
        launchLog.removeAll()
        uploadPending = false
        currentLane = lane
        launchLog.measured = !traits.legacyIOS
        nextTokenNumber = 1
        folderGeneration = 0
        let token = DeviceToken(0)
        let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(traits.deviceID))
        provider.reset(configuration: plan.provider, deviceIDHash: hash)
        phone.serviceExtension = plan.serviceExtension
        phone.reset(token: token, deviceID: traits.deviceID, deviceIDHash: hash)
        phone.eligibility = ExtensionEligibility(alertsAllowed: !own.alertsNotAllowed, displayEnabled: !own.displayOff,
                                                 supportsServiceExtension: !traits.legacyIOS)
        phone.registrationPolicy = plan.strategy.registration
        phone.subscriptionSync = chain.subscriptions?.syncOn ?? .reconnect
        phone.memoryLimitKB = chain.memory.map { traits.olderIOS ? $0.olderLimitKB : $0.newerLimitKB } ?? .max

        // Installed and registered before the run starts.
        apns.register(token)
        apns.setNotificationsEnabled(token, !notificationsDisabled)
        provider.register(token, deviceIDHash: hash, at: 0)
        ledger.counts[.registrations] += 1
        isDeviceOnline = timeline.startsOnline
        phone.setOnline(isDeviceOnline, into: &deviceEffects)
        routeDeviceEffects(at: 0)

        // The user's timeline is merged with the queue: at one instant its events
        // come first (they were due before anything the instant itself caused).
        let end = scenario.duration
        let entries = own.entries
        var next = 0
        var timelineAt = entries.isEmpty ? SimTime.max : entries[0].time
        var events: Int64 = 0
        while true {
            if timelineAt <= queue.nextTime {
                guard timelineAt < end else { break }
                queue.advance(to: timelineAt)
                events += 1
                handle(entries[next].event, at: timelineAt)
                next += 1
                timelineAt = next < entries.count ? entries[next].time : .max
                continue
            }
            guard let (now, event) = queue.popNext(notAfter: end - 1) else { break }
            events += 1
            handle(event, at: now)
        }
        eventsProcessed += events

        apns.expireAll(at: end, into: &apnsEffects)
        routeAPNsEffects(at: end)
        try checkInFlight(user: user)
        if let broken = ledger.fold(into: &aggregate, launches: launchLog) {
            throw AccountingError(description: "user \(user), strategy \(plan.strategy.label): \(broken)")
        }
        aggregate.apns += apns.counters
    }

    /// Every copy the ledger thinks is in flight must be somewhere: in a queued
    /// message, held at APNs, or waiting in an extension invocation; and APNs's
    /// counters must account for every notification it took in.
    private func checkInFlight(user: Int) throws(AccountingError) {
        var located = Int64(queue.countPending { event in
            switch event {
            case .pushReachesAPNs, .pushReachesDevice, .apnsErrorReachesProvider,
                 .sendFailureReachesProvider, .retryDue:
                true
            default:
                false
            }
        })
        located += Int64(apns.heldNotifications)
        located += Int64(phone.waitingInvocations)
        let counted = ledger.copiesInFlight
        guard counted == located else {
            throw AccountingError(description: "user \(user): the ledger has \(counted) copies in flight, the world holds \(located)")
        }
        // APNs's own books: every notification it accepted or took back from a
        // bounce was handed out, discarded, or is still held, exactly once.
        let apnsCounts = apns.counters
        let entered = apnsCounts[.accepted] + apnsCounts[.bounced]
        let left = apnsCounts[.delivered] + apnsCounts[.deliveredFromStorage] + apnsCounts[.discardedUnregistered]
            + apnsCounts[.discardedExpired] + apnsCounts[.discardedDisabled] + apnsCounts[.discardedReplaced]
            + Int64(apns.heldNotifications)
        guard entered == left else {
            throw AccountingError(description: "user \(user): APNs accepted \(apnsCounts[.accepted]) and took back "
                                  + "\(apnsCounts[.bounced]) bounces, but handed out, discarded or holds \(left)")
        }
    }
}
