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
    var mail: MailProcess
    var launchProcess: MailProcess?
    var connectivity: ConnectivityProcess?
    var apnsEffects = ContiguousArray<APNsEffect>()
    var providerEffects = ContiguousArray<ProviderEffect>()
    var deviceEffects = ContiguousArray<DeviceEffect>()
    /// Pushes in transit, addressed by `PushSlot`; freed slots are reused.
    var pushPool = ContiguousArray<PushNotification>()
    /// The provider's attempt number of each parked request (0: first try).
    var pushAttempt = ContiguousArray<Int32>()
    var freeSlots = ContiguousArray<PushSlot>()
    /// Provider outages of the run (global, the same for every user).
    let outages: [OutageWindow]
    var launchLog = Ledger.LaunchLog()

    // Streams of the current lane.
    var mailRandom = SplitMix64(seed: 0)
    var connectivityRandom = SplitMix64(seed: 0)
    var providerLatencyRandom = SplitMix64(seed: 0)
    var apnsLatencyRandom = SplitMix64(seed: 0)
    var rerequestRandom = SplitMix64(seed: 0)
    var networkRandom = SplitMix64(seed: 0)
    var powerRandom = SplitMix64(seed: 0)
    var memoryRandom = SplitMix64(seed: 0)
    var rotationRandom = SplitMix64(seed: 0)
    var deviceIDRandom = SplitMix64(seed: 0)
    var subscriptionRandom = SplitMix64(seed: 0)
    var launchRandom = SplitMix64(seed: 0)
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
    /// Set while the provider handles a due retry: its `.send` continues a copy.
    var retryInProgress: Int32 = -1
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
        let weekday = scenario.start.weekday
        mail = MailProcess(model: scenario.mail, firstWeekday: weekday)
        launchProcess = scenario.chain.launches.map { MailProcess(model: $0.rhythm, firstWeekday: weekday) }
        connectivity = scenario.connectivity.map {
            ConnectivityProcess(model: $0, firstWeekday: weekday, horizon: scenario.duration)
        }
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
    /// same mail, connectivity and user behaviour.
    mutating func run(user: Int, plan: StrategyPlan, seed: UInt64,
                      into aggregate: inout StrategyAggregate) throws(AccountingError) {
        var traitsRandom = RandomStream.deviceTraits.generator(seed: seed, user: UInt64(user))
        // The device id is the first draw, as in the core model; the rest follow.
        let deviceID = traitsRandom.next()
        let traits = DeviceTraits(deviceID: deviceID,
                                  legacyIOS: traitsRandom.nextUnitInterval() <= chain.legacyIOSShare,
                                  olderIOS: traitsRandom.nextUnitInterval() <= (chain.memory?.olderIOSShare ?? 0),
                                  apps: chain.apps.count(for: traitsRandom.nextUnitInterval()))
        for lane in 0..<traits.apps {
            try runLane(lane, user: user, traits: traits, plan: plan, seed: seed, into: &aggregate)
        }
    }

    private mutating func runLane(_ lane: Int, user: Int, traits: DeviceTraits, plan: StrategyPlan, seed: UInt64,
                                  into aggregate: inout StrategyAggregate) throws(AccountingError) {
        let userKey = UInt64(user)
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: userKey, lane: lane) }
        mailRandom = stream(.mail)
        // The device's own processes replay the same draws for every app.
        connectivityRandom = RandomStream.connectivity.generator(seed: seed, user: userKey)
        deviceIDRandom = RandomStream.deviceIDChange.generator(seed: seed, user: userKey)
        providerLatencyRandom = stream(.providerLatency)
        apnsLatencyRandom = stream(.apnsLatency)
        rerequestRandom = stream(.rerequestLatency)
        networkRandom = stream(.providerNetwork)
        powerRandom = stream(.powerDeferral)
        memoryRandom = stream(.extensionMemory)
        rotationRandom = stream(.tokenRotation)
        subscriptionRandom = stream(.subscriptionChanges)
        launchRandom = stream(.launches)
        tapRandom = stream(.taps)
        var laneTraits = stream(.laneTraits)
        notificationsDisabled = laneTraits.nextUnitInterval() <= chain.notificationsDisabledShare
        let alertsNotAllowed = laneTraits.nextUnitInterval() <= chain.alertsNotAllowedShare
        let displayOff = laneTraits.nextUnitInterval() <= chain.displayOffShare
        let accounts = chain.accounts.count(for: laneTraits.nextUnitInterval())

        queue.reset()
        pushPool.removeAll(keepingCapacity: true)
        pushAttempt.removeAll(keepingCapacity: true)
        freeSlots.removeAll(keepingCapacity: true)
        var apnsSeed = stream(.apnsChoice)
        apns.reset(configuration: plan.apns, seed: apnsSeed.next())
        ledger.reset()
        launchLog.removeAll()
        uploadPending = false
        currentLane = lane
        launchLog.measured = !traits.legacyIOS
        mail.reset(multiplier: Double(accounts))
        launchProcess?.reset()
        nextTokenNumber = 1
        folderGeneration = 0
        retryInProgress = -1
        let token = DeviceToken(0)
        let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(traits.deviceID))
        provider.reset(configuration: plan.provider, deviceIDHash: hash)
        phone.serviceExtension = plan.serviceExtension
        phone.reset(token: token, deviceID: traits.deviceID, deviceIDHash: hash)
        phone.eligibility = ExtensionEligibility(alertsAllowed: !alertsNotAllowed, displayEnabled: !displayOff,
                                                 supportsServiceExtension: !traits.legacyIOS)
        phone.registrationPolicy = plan.strategy.registration
        phone.subscriptionSync = chain.subscriptions?.syncOn ?? .reconnect
        phone.memoryLimitKB = chain.memory.map { traits.olderIOS ? $0.olderLimitKB : $0.newerLimitKB } ?? .max

        // Installed and registered before the run starts.
        apns.register(token)
        apns.setNotificationsEnabled(token, !notificationsDisabled)
        provider.register(token, deviceIDHash: hash, at: 0)
        ledger.counts.registrations += 1
        let startsOnline = connectivity?.start(&connectivityRandom) ?? true
        isDeviceOnline = startsOnline
        phone.setOnline(startsOnline, into: &deviceEffects)
        routeDeviceEffects(at: 0)

        let end = scenario.duration
        if let first = mail.next(&mailRandom), first < end { queue.schedule(.mailArrives, at: first) }
        if let change = connectivity?.nextChange(&connectivityRandom), change < end {
            queue.schedule(.connectivityChanges, at: change)
        }
        if let launch = launchProcess?.next(&launchRandom), launch < end { queue.schedule(.appLaunches, at: launch) }
        scheduleRare(.subscriptionChanges, after: 0)
        scheduleRare(.tokenRotates, after: 0)
        scheduleRare(.deviceIDChanges, after: 0)
        for window in outages {
            queue.schedule(.outage(true), at: window.start)
            if window.start + window.duration < end { queue.schedule(.outage(false), at: window.start + window.duration) }
        }

        var events: Int64 = 0
        while let (now, event) = queue.popNext(notAfter: end - 1) {
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

    /// Schedules the next event of one of the rare Poisson processes (exponential
    /// gaps): subscription changes, token rotations, device id changes.
    mutating func scheduleRare(_ event: WorldEvent, after now: SimTime) {
        let perDay: Double
        let u: Double
        switch event {
        case .subscriptionChanges:
            perDay = chain.subscriptions?.changesPerDay ?? 0
            guard perDay > 0 else { return }
            u = subscriptionRandom.nextUnitInterval()
        case .tokenRotates:
            perDay = chain.tokenRotation?.perDay ?? 0
            guard perDay > 0 else { return }
            u = rotationRandom.nextUnitInterval()
        case .deviceIDChanges:
            perDay = chain.deviceIDChangesPerDay
            guard perDay > 0 else { return }
            u = deviceIDRandom.nextUnitInterval()
        default:
            preconditionFailure("not a rare process: \(event)")
        }
        let gap = -Foundation.log(u) * Double(TimeUnit.day) / perDay
        guard gap < Double(scenario.duration) else { return }
        let next = now + max(1, SimTime(gap.rounded(.up)))
        if next < scenario.duration { queue.schedule(event, at: next) }
    }

    /// Every copy the ledger thinks is in flight must be somewhere: in a queued
    /// message, held at APNs, or waiting in an extension invocation.
    private func checkInFlight(user: Int) throws(AccountingError) {
        var located = Int64(queue.countPending { event in
            switch event {
            case .pushReachesAPNs, .pushReachesDevice, .bounceReachesAPNs, .apnsErrorReachesProvider,
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
    }
}
