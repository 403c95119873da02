import Device
import FakeAPNs
import Provider

/// Where a push waits while it travels: an index into the world's push pool. Events
/// carry this 4-byte handle instead of the whole request, so queue entries stay small.
typealias PushSlot = Int32

/// The messages the kernel carries between the actors of one user's world.
/// Plain values, not closures: the queue stores them inline.
enum WorldEvent {
    /// The next mail reaches the provider from the backend.
    case mailArrives
    /// The device's connectivity changes (the state is the process's).
    case connectivityChanges
    /// A request reaches APNs.
    case pushReachesAPNs(PushSlot)
    /// APNs answered a request with an error; the answer reaches the provider.
    case apnsErrorReachesProvider(PushSlot, APNsReason, timestamp: SimTime)
    /// APNs learns the device connected (true) or disconnected.
    case connectionReachesAPNs(DeviceToken, Bool)
    /// A delivery bounced off a device that had gone offline.
    case bounceReachesAPNs(PushSlot)
    /// A notification reaches the device.
    case pushReachesDevice(PushSlot)
    /// A re-request reaches the provider; its answer takes `returnDelay` back.
    case rerequestReachesProvider(position: Int32, gap: Int32, invocation: Int32, returnDelay: SimDuration)
    /// The provider's answer reaches the extension.
    case answerReachesDevice(invocation: Int32, ok: Bool)
    /// An extension invocation's time is up.
    case extensionDeadline(invocation: Int32)
}

/// How one strategy is played, prepared once per run.
struct StrategyPlan {
    let strategy: Strategy
    let provider: ProviderConfiguration
    let serviceExtension: ServiceExtension

    init(strategy: Strategy, scenario: Scenario) {
        self.strategy = strategy
        let numbered = strategy.kind != .noQueue
        // A UUID-shaped device id: only its length matters for payload and collapse-id sizes.
        let template = PushTemplate(app: scenario.app, deviceID: String(repeating: "0", count: 36),
                                    alertBody: String(repeating: "x", count: scenario.alertBodyBytes),
                                    numbered: numbered)
        provider = ProviderConfiguration(template: template, numbering: numbered,
                                         sendsCollapseID: strategy.collapseID, payloadTTL: scenario.payloadTTL,
                                         expiration: scenario.expiration)
        serviceExtension = ServiceExtension(
            positionSaving: strategy.kind == .queueAsPublished ? .onlyWhenGapFound : .everyNewerPosition,
            repeatMaxCount: strategy.repeatMaxCount)
    }
}

/// A broken accounting identity: the run is wrong and nothing may be reported.
public struct AccountingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What did not add up, and where.
    public var description: String
}

/// One user's world: provider, APNs and phone on their own clock. A value reused
/// for user after user (every buffer keeps its capacity), so the hot loop allocates
/// nothing per event and nothing survives a user but the aggregate.
struct World {
    private let scenario: Scenario
    private var queue = EventQueue<WorldEvent>()
    private var apns = APNsServer()
    private var provider: XivaProvider
    private var phone: Phone
    private var ledger = Ledger()
    private var mail: MailProcess
    private var connectivity: ConnectivityProcess?
    private var apnsEffects = ContiguousArray<APNsEffect>()
    private var providerEffects = ContiguousArray<ProviderEffect>()
    private var deviceEffects = ContiguousArray<DeviceEffect>()
    /// Pushes in transit, addressed by `PushSlot`; freed slots are reused.
    private var pushPool = ContiguousArray<PushNotification>()
    private var freeSlots = ContiguousArray<PushSlot>()
    private var mailRandom = SplitMix64(seed: 0)
    private var connectivityRandom = SplitMix64(seed: 0)
    private var providerLatencyRandom = SplitMix64(seed: 0)
    private var apnsLatencyRandom = SplitMix64(seed: 0)
    private var rerequestRandom = SplitMix64(seed: 0)
    private let token = DeviceToken(0)
    private let providerToAPNs: Sampler
    private let apnsToDevice: Sampler
    private let rerequestRoundTrip: Sampler
    /// Events processed, for the benchmark's events/s.
    private(set) var eventsProcessed: Int64 = 0

    init(scenario: Scenario) {
        self.scenario = scenario
        let placeholder = StrategyPlan(strategy: scenario.strategies[0], scenario: scenario)
        provider = XivaProvider(configuration: placeholder.provider)
        phone = Phone(token: token, deviceID: 0, deviceIDHash: 0, serviceExtension: placeholder.serviceExtension,
                      extensionTimeLimit: scenario.extensionTimeLimit)
        providerToAPNs = Sampler(scenario.latency.providerToAPNs)
        apnsToDevice = Sampler(scenario.latency.apnsToDevice)
        rerequestRoundTrip = Sampler(scenario.latency.rerequestRoundTrip)
        let weekday = scenario.start.weekday
        mail = MailProcess(model: scenario.mail, firstWeekday: weekday)
        connectivity = scenario.connectivity.map {
            ConnectivityProcess(model: $0, firstWeekday: weekday, horizon: scenario.duration)
        }
    }

    /// Simulates user `user` under `plan` and adds the outcome to `aggregate`.
    /// Every stream is derived from (seed, user), so each strategy sees the same
    /// mail and the same connectivity.
    mutating func run(user: Int, plan: StrategyPlan, seed: UInt64,
                      into aggregate: inout StrategyAggregate) throws(AccountingError) {
        let userKey = UInt64(user)
        mailRandom = RandomStream.mail.generator(seed: seed, user: userKey)
        connectivityRandom = RandomStream.connectivity.generator(seed: seed, user: userKey)
        providerLatencyRandom = RandomStream.providerLatency.generator(seed: seed, user: userKey)
        apnsLatencyRandom = RandomStream.apnsLatency.generator(seed: seed, user: userKey)
        rerequestRandom = RandomStream.rerequestLatency.generator(seed: seed, user: userKey)
        var traits = RandomStream.deviceTraits.generator(seed: seed, user: userKey)
        let deviceID = traits.next()

        queue.reset()
        pushPool.removeAll(keepingCapacity: true)
        freeSlots.removeAll(keepingCapacity: true)
        apns.reset()
        ledger.reset()
        mail.reset()
        let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(deviceID))
        provider.reset(configuration: plan.provider, deviceIDHash: hash)
        phone.serviceExtension = plan.serviceExtension
        phone.reset(token: token, deviceID: deviceID, deviceIDHash: hash)

        apns.register(token)
        provider.register(token)
        let startsOnline = connectivity?.start(&connectivityRandom) ?? true
        phone.setOnline(startsOnline, into: &deviceEffects)
        routeDeviceEffects(at: 0)
        if let first = mail.next(&mailRandom) { queue.schedule(.mailArrives, at: first) }
        if let change = connectivity?.nextChange(&connectivityRandom) { queue.schedule(.connectivityChanges, at: change) }

        let end = scenario.duration
        var events: Int64 = 0
        while let (now, event) = queue.popNext(notAfter: end - 1) {
            events += 1
            handle(event, at: now)
        }
        eventsProcessed += events

        apns.expireStored(for: token, at: end, into: &apnsEffects)
        routeAPNsEffects(at: end)
        try checkInFlight(user: user)
        if let broken = ledger.fold(into: &aggregate) {
            throw AccountingError(description: "user \(user), strategy \(plan.strategy.label): \(broken)")
        }
    }

    private mutating func handle(_ event: WorldEvent, at now: SimTime) {
        switch event {
        case .mailArrives:
            let message = ledger.newMessage(at: now)
            provider.receiveMail(messageIndex: message, at: now, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0)
            if let next = mail.next(&mailRandom), next < scenario.duration { queue.schedule(.mailArrives, at: next) }
        case .connectivityChanges:
            phone.setOnline(connectivity!.isOnline, into: &deviceEffects)
            routeDeviceEffects(at: now)
            if let next = connectivity!.nextChange(&connectivityRandom), next < scenario.duration {
                queue.schedule(.connectivityChanges, at: next)
            }
        case .pushReachesAPNs(let slot):
            let response = apns.receive(pushPool[Int(slot)], at: now, into: &apnsEffects)
            if let reason = response.reason {
                queue.schedule(.apnsErrorReachesProvider(slot, reason, timestamp: response.timestamp ?? now), at: now)
            } else {
                freeSlots.append(slot)
            }
            routeAPNsEffects(at: now)
        case .apnsErrorReachesProvider(let slot, let reason, let timestamp):
            provider.receiveResponse(.failure(reason, timestamp: timestamp), for: take(slot), into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0)
        case .connectionReachesAPNs(let token, let connected):
            if connected {
                apns.deviceConnected(token, at: now, into: &apnsEffects)
                routeAPNsEffects(at: now)
            } else {
                apns.deviceDisconnected(token)
            }
        case .bounceReachesAPNs(let slot):
            apns.deliveryFailed(take(slot), at: now, into: &apnsEffects)
            routeAPNsEffects(at: now)
        case .pushReachesDevice(let slot):
            phone.receive(take(slot), into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .rerequestReachesProvider(let position, let gap, let invocation, let returnDelay):
            provider.receiveRerequest(lastPosition: position, gap: gap, invocation: invocation, at: now,
                                      into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: returnDelay)
        case .answerReachesDevice(let invocation, let ok):
            phone.receiveRerequestAnswer(invocation: invocation, ok: ok, into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .extensionDeadline(let invocation):
            phone.extensionDeadline(invocation: invocation, into: &deviceEffects)
            routeDeviceEffects(at: now)
        }
    }

    private mutating func routeProviderEffects(at now: SimTime, returnDelay: SimDuration) {
        // By index: iterating the array itself would retain it on every call.
        var index = 0
        while index < providerEffects.count {
            let effect = providerEffects[index]
            index += 1
            switch effect {
            case .send(let push):
                ledger.pushSent(push)
                let delay = providerToAPNs.sample(&providerLatencyRandom)
                queue.schedule(.pushReachesAPNs(park(push)), at: now + delay)
            case .answer(let invocation, let ok):
                queue.schedule(.answerReachesDevice(invocation: invocation, ok: ok), at: now + returnDelay)
            case .failed(let push, let failure):
                switch failure {
                case .rejected(let response):
                    ledger.lost(push, response.reason == .unregistered ? .unregistered : .apnsRejected)
                case .network: ledger.lost(push, .providerNetwork)
                case .outage: ledger.lost(push, .providerOutage)
                }
            case .retry, .positionsExpired:
                // Not produced by today's wiring (no retries configured); the issue-3 wiring routes them.
                break
            case .dropped(let message, _):
                ledger.dropped(messageIndex: message, .unregistered)
            }
        }
        providerEffects.removeAll(keepingCapacity: true)
    }

    private mutating func routeAPNsEffects(at now: SimTime) {
        var index = 0
        while index < apnsEffects.count {
            let effect = apnsEffects[index]
            index += 1
            switch effect {
            case .deliver(let push):
                let delay = apnsToDevice.sample(&apnsLatencyRandom)
                queue.schedule(.pushReachesDevice(park(push)), at: now + delay)
            case .discard(let push, .replaced):
                ledger.lost(push, .apnsCoalesced)
            case .discard(let push, .expired):
                ledger.lost(push, .apnsExpired)
            case .discard(let push, .unregistered):
                ledger.lost(push, .unregistered)
            case .discard(let push, .disabled):
                ledger.lost(push, .disabled)
            case .deferForPower:
                break   // not produced until the wiring enables `defersLowPriority`
            }
        }
        apnsEffects.removeAll(keepingCapacity: true)
    }

    private mutating func routeDeviceEffects(at now: SimTime) {
        var index = 0
        while index < deviceEffects.count {
            let effect = deviceEffects[index]
            index += 1
            switch effect {
            case .connected(let token):
                queue.schedule(.connectionReachesAPNs(token, true), at: now)
            case .disconnected(let token):
                queue.schedule(.connectionReachesAPNs(token, false), at: now)
            case .deliveryFailed(let push):
                queue.schedule(.bounceReachesAPNs(park(push)), at: now)
            case .rerequest(let position, let gap, let invocation):
                ledger.rerequested()
                let roundTrip = rerequestRoundTrip.sample(&rerequestRandom)
                queue.schedule(.rerequestReachesProvider(position: position, gap: gap, invocation: invocation,
                                                         returnDelay: roundTrip - roundTrip / 2),
                               at: now + roundTrip / 2)
            case .startDeadline(let invocation, let after):
                queue.schedule(.extensionDeadline(invocation: invocation), at: now + after)
            case .presented(let push, let replacedExisting, _):
                ledger.presented(push, replacedExisting: replacedExisting, at: now)
            case .summaryShown(let push, let from, let to, let replacedExisting):
                ledger.summaryShown(push, from: from, to: to, replacedExisting: replacedExisting)
            case .logged, .notShown, .tokenChanged, .registered, .subscriptionsSynced:
                break
            }
        }
        deviceEffects.removeAll(keepingCapacity: true)
    }

    /// Puts a push in the pool for its trip; returns its slot.
    private mutating func park(_ push: PushNotification) -> PushSlot {
        if let slot = freeSlots.popLast() {
            pushPool[Int(slot)] = push
            return slot
        }
        pushPool.append(push)
        return PushSlot(pushPool.count - 1)
    }

    /// Takes a push out of the pool at the end of its trip.
    private mutating func take(_ slot: PushSlot) -> PushNotification {
        freeSlots.append(slot)
        return pushPool[Int(slot)]
    }

    /// Every copy the ledger thinks is in flight must be somewhere: in a queued
    /// message, stored at APNs, or waiting in an extension invocation.
    private func checkInFlight(user: Int) throws(AccountingError) {
        var located: Int64 = 0
        for event in queue.pendingEvents {
            switch event {
            case .pushReachesAPNs, .pushReachesDevice, .bounceReachesAPNs, .apnsErrorReachesProvider: located += 1
            default: break
            }
        }
        if apns.storedNotification(for: token) != nil { located += 1 }
        located += Int64(phone.waitingInvocations)
        let counted = ledger.copiesInFlight
        guard counted == located else {
            throw AccountingError(description: "user \(user): the ledger has \(counted) copies in flight, the world holds \(located)")
        }
    }
}
