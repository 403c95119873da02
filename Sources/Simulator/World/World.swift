import Base
import Device
import FakeAPNs
import FoundationEssentials
import Kernel
import Provider

/// One user's world: for each app on the device, provider, APNs and phone on their
/// own clock. A value reused for user after user (every buffer keeps its capacity),
/// so the hot loop allocates nothing per event and nothing survives a user but
/// the aggregate.
///
/// Apps on one device share nothing but the device (its connectivity, its device id
/// and iOS), so each app is played as its own *lane*, one after the other, with the
/// device's streams replayed identically for each.
package struct World {
    package let scenario: Scenario
    package let chain: ChainModel
    /// What happens next: the one place that orders this world's events.
    package var agenda = Agenda<WorldEvent, LaneDraw>()
    package var apns = APNsServer()
    package var provider: XivaProvider
    package var phone: Phone
    package var ledger = Ledger()
    /// What happens whatever the strategy (mail, connectivity, launches, outages, …):
    /// drawn once per user, replayed for each strategy.
    package var timeline: UserTimeline
    package var apnsEffects = OwnedBuffer<APNsEffect>()
    package var providerEffects = OwnedBuffer<ProviderEffect>()
    package var deviceEffects = OwnedBuffer<DeviceEffect>()
    /// Effects already routed, per array. The arrays are emptied only every
    /// `effectsKept` effects: emptying one costs more than routing a few.
    package var providerRouted = 0, apnsRouted = 0, deviceRouted = 0
    package static let effectsKept = 256
    /// Pushes in transit, addressed by `PushSlot`, with the provider's attempt numbers.
    package var pushPool = PushPool()
    /// Records the ledger holds in a long lane before it folds what has settled.
    package let recordsHeld: Int
    package static let recordsHeld = 1 << 12

    // Streams of the current lane. Those that feed one sampler each are read from the
    // lane's tapes (`SampleTape`), drawn by the first strategy played and kept in
    // `laneTapes` between lanes (swapped in while the lane plays: no copy).
    package var providerLatencyRandom = SampleTape()
    package var apnsLatencyRandom = SampleTape()
    package var rerequestRandom = SampleTape()
    package var networkRandom = SplitMix64(seed: 0)
    package var powerRandom = SampleTape()
    package var memoryRandom = SampleTape()
    package var tapRandom = SplitMix64(seed: 0)
    /// Each app's tapes, with the (seed, user) they hold draws for.
    private var laneTapes: [LaneTapes] = []

    private struct LaneTapes {
        var providerLatency = SampleTape(), apnsLatency = SampleTape(), rerequest = SampleTape()
        var power = SampleTape(), memory = SampleTape()
        var drawnFor: (seed: UInt64, user: Int)?
    }

    /// What the router draws delays, footprints and taps from.
    package let draws: ChainDraws
    /// The round trip still to come back with the provider's answer to the re-request being
    /// handled (the rest of the one drawn when it left).
    package var returnDelay: SimDuration = 0
    /// How long a copy can take (`CopyBounds`), told to a long lane's phone.
    package let copyBounds: CopyBounds

    // State of the current lane that belongs to no actor: the user's own doings.
    /// The token number the next rotation hands out.
    package var nextTokenNumber: Int32 = 0
    /// Folders the user subscribed to so far (0: those of the install).
    package var folderGeneration: Int32 = 0
    /// The app being played (0: the first; device-level counts are kept there only).
    package var currentLane = 0
    /// The lane's draw of which background pushes find the app force-quit (`BackgroundBudget.isForceQuit`).
    package var backgroundForceQuitBase: UInt64 = 0

    /// What a traced device's world was shown (`Recording`); untouched otherwise.
    package var recorder = TraceRecorder(device: -1, strategy: -1)

    /// Whether a zero-time message that the agenda would hand out next is handled as soon as
    /// the phone's effects are routed, without a trip through the agenda (`sendNow`): the
    /// same order, one event's dispatch less. Off for an observer, which sees every message
    /// in the agenda's order among the effects.
    package var handlesNowAtOnce = false
    /// The zero-time message to handle once the phone's effects are routed (`handlesNowAtOnce`).
    package var pendingNow: WorldEvent?
    /// Messages handled that way since the lane's last count, counted as events.
    package var eventsAtOnce: Int64 = 0

    /// Whether this lane leaves a disconnection untold until something meets the device
    /// (World+Connectivity.swift): only the timeline moves the device's connectivity (no
    /// steered `online`/`offline`: the phone is then online whenever the timeline says it goes
    /// offline), nothing observes the world (an observer is shown every message), and the
    /// phone keeps no copy bounds (the one thing that reads when it came back online).
    package var defersOffline = false
    /// When the device went offline, not yet told to the phone and APNs (-1: nothing untold).
    package var offlineUntold: SimTime = -1
    /// The scenario steers some device's connectivity (`events`): no lane defers.
    package let steersConnectivity: Bool

    /// APNs's faults (`apns.faults`) and where this lane stands in them (APNsFaultLane.swift).
    package var faultLane: APNsFaultLane

    /// Events processed, for the benchmark's events/s.
    package private(set) var eventsProcessed: Int64 = 0

    /// - Parameters:
    ///   - outages: the run's provider outages, per block of users (`OutageSchedule.draw`).
    ///   - timelineWindow: timeline entries held at once; a longer lane is long.
    ///   - recordsHeld: records a long lane's ledger holds before it folds.
    package init(scenario: Scenario, outages: [[OutageWindow]] = [[]], timelineWindow: Int = UserTimeline.window,
         recordsHeld: Int = World.recordsHeld) {
        self.recordsHeld = max(1, recordsHeld)
        self.scenario = scenario
        chain = scenario.chain
        let placeholder = StrategyPlan(strategy: scenario.strategies[0], scenario: scenario)
        provider = XivaProvider(configuration: placeholder.provider)
        // Every lane resets the phone with its own configuration (`runLane`).
        let noDevice = DeviceTraits(deviceID: 0, legacyIOS: false, olderIOS: false, apps: 1)
        phone = Phone(configuration: placeholder.phoneConfiguration(device: noDevice, alertsNotAllowed: false, displayOff: false,
                                                                    reportsSavedPosition: false, copyBounds: nil),
                      token: DeviceToken(0), deviceID: 0, deviceIDHash: 0)
        draws = ChainDraws(scenario)
        copyBounds = Self.copyBounds(scenario)
        timeline = UserTimeline(scenario: scenario, outages: outages, window: timelineWindow)
        faultLane = APNsFaultLane(scenario: scenario)
        steersConnectivity = scenario.events.contains { $0.action.isDeviceWide }
    }

    /// What is drawn once per device, before any app: the same for every strategy.
    package struct DeviceTraits {
        package var deviceID: UInt64
        package var legacyIOS: Bool
        package var olderIOS: Bool
        package var apps: Int
    }

    /// User `user`'s device traits, from their own stream.
    /// - Complexity: O(1).
    package static func deviceTraits(chain: ChainModel, seed: UInt64, user: Int) -> DeviceTraits {
        var random = RandomStream.deviceTraits.generator(seed: seed, user: UInt64(user))
        // The device id is the first draw, as in the core model; the rest follow, in this order.
        let deviceID = random.next()
        let legacyIOS = random.nextUnitInterval() <= chain.device.legacyIOSShare
        let olderIOS = random.nextUnitInterval() <= (chain.device.memory?.olderIOSShare ?? 0)
        return DeviceTraits(deviceID: deviceID, legacyIOS: legacyIOS, olderIOS: olderIOS,
                            apps: chain.device.apps.count(for: random.nextUnitInterval()))
    }

    /// Simulates user `user` under `plan` and adds the outcome to `aggregate`.
    /// Every stream is derived from (seed, user, app), so each strategy sees the
    /// same mail, connectivity and user behaviour; those are drawn on the first
    /// strategy played for the user and replayed for the next ones.
    /// `keepingLanesAt`: each lane's state at that instant is kept, for a strategy
    /// that plays like this one until then to go on from (`resume`).
    /// - Complexity: O(events of the user's lanes × log of the messages in flight).
    package mutating func run(user: Int, plan: StrategyPlan, seed: UInt64, into aggregate: inout StrategyAggregate,
                              keepingLanesAt fork: SimTime? = nil) throws(AccountingError) {
        try run(user: user, plan: plan, seed: seed, into: &aggregate, observing: Unobserved.self, keepingLanesAt: fork)
    }

    /// `run(user:plan:seed:into:)` with `Observer` shown every message, occurrence and
    /// effect of the user's lanes (`Recording`: a traced device, told to `recorder`);
    /// the outcome is the same.
    /// - Complexity: that of `run(user:plan:seed:into:)`, plus the observer's.
    package mutating func run<Observer: WorldObserver>(user: Int, plan: StrategyPlan, seed: UInt64,
                                                       into aggregate: inout StrategyAggregate,
                                                       observing observer: Observer.Type,
                                                       keepingLanesAt fork: SimTime? = nil) throws(AccountingError) {
        let traits = Self.deviceTraits(chain: chain, seed: seed, user: user)
        timeline.drawDevice(seed: seed, user: user)
        for lane in 0..<traits.apps {
            timeline.drawLane(lane, seed: seed, user: user)
            try runLane(lane, user: user, traits: traits, plan: plan, seed: seed, into: &aggregate, observer: Observer.self,
                        keepingAt: fork)
        }
    }

    /// Simulates user `user` under `plan`, a rollout, from the lanes a run of a strategy it
    /// plays like kept at `rolloutFrom` (`run(user:plan:seed:into:keepingLanesAt:)`, just
    /// before for the same user, `StrategyPlan.playsLike`), and adds the outcome to
    /// `aggregate`: the same as `run(user:plan:seed:into:)`, with the lanes' start played once.
    /// - Complexity: O(events of the user's lanes from `rolloutFrom` × log of the messages in flight).
    package mutating func resume(user: Int, plan: StrategyPlan, seed: UInt64,
                                 into aggregate: inout StrategyAggregate) throws(AccountingError) {
        let traits = Self.deviceTraits(chain: chain, seed: seed, user: user)
        timeline.drawDevice(seed: seed, user: user)
        for lane in 0..<traits.apps {
            timeline.drawLane(lane, seed: seed, user: user)
            // Taken, not copied: its buffers become the world's without a copy. (A second
            // rollout resuming from the same lane plays it whole.) Bound once, straight from
            // `take()`: an optional bound first and unwrapped after stayed alive beside the
            // unwrapped copy, so the buffers were shared and each `ownStorage` copied them.
            guard lane < keptLanes.count, let kept = keptLanes[lane].take(), kept.drawnFor == (seed, user) else {
                // The lane could not be kept (a long lane): it is played whole.
                try runLane(lane, user: user, traits: traits, plan: plan, seed: seed, into: &aggregate, observer: Unobserved.self,
                            keepingAt: nil)
                continue
            }
            try resumeLane(lane, from: consume kept, user: user, traits: traits, plan: plan, seed: seed, into: &aggregate)
        }
    }

    /// What a lane's play carries besides the world: the Console's days and the events counted.
    private struct LanePlay {
        var console: ConsoleDays
        var events: Int64 = 0
    }

    /// A lane's state at an instant, kept for another strategy to go on from (`resume`).
    private struct KeptLane {
        var drawnFor: (seed: UInt64, user: Int)
        var agenda: Agenda<WorldEvent, LaneDraw>
        var apns: APNsServer
        var provider: XivaProvider
        var phone: Phone
        var ledger: Ledger
        var pushPool: PushPool
        var apnsEffects: OwnedBuffer<APNsEffect>
        var providerEffects: OwnedBuffer<ProviderEffect>
        var deviceEffects: OwnedBuffer<DeviceEffect>
        var routed: (provider: Int, apns: Int, device: Int)
        var tapes: (provider: SampleTape.Position, apns: SampleTape.Position, rerequest: SampleTape.Position,
                    power: SampleTape.Position, memory: SampleTape.Position)
        var networkRandom: SplitMix64
        var tapRandom: SplitMix64
        var faultLane: APNsFaultLane.Position
        var nextTokenNumber: Int32
        var folderGeneration: Int32
        var play: LanePlay
    }

    /// Lanes kept by the last run asked to keep them, by app.
    private var keptLanes: [KeptLane?] = []

    private mutating func runLane<Observer: WorldObserver>(_ lane: Int, user: Int, traits: DeviceTraits, plan: StrategyPlan,
                                                           seed: UInt64, into aggregate: inout StrategyAggregate,
                                                           observer: Observer.Type, keepingAt fork: SimTime?) throws(AccountingError) {
        let userKey = UInt64(user)
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: userKey, lane: lane) }
        openTapes(lane, seed: seed, user: user)
        defer { swapTapes(lane) }
        networkRandom = stream(.providerNetwork)
        tapRandom = stream(.taps)
        faultLane.start(block: UserBlocks.block(of: user), seed: seed, user: user, lane: lane)
        backgroundForceQuitBase = Self.backgroundForceQuitBase(seed: seed, user: user, lane: lane)
        // Fields, not the lane: a long lane's draw state is large to copy.
        let long = timeline.lanes[lane].isLong
        // An observer that wants everything gets every record to the lane's end: the
        // reports are the same bytes folded or not (Ledger).
        let folds = long && !Observer.wantsEverything

        if long, let draw = timeline.lanes[lane].longDraw {
            agenda.start(drawing: draw, window: timeline.windowSize)
        } else {
            agenda.start(timeline: timeline.lanes[lane].entries)
        }
        pushPool.removeAll()
        providerEffects.removeAll()
        apnsEffects.removeAll()
        deviceEffects.removeAll()
        providerEffects.makeUnique()
        apnsEffects.makeUnique()
        deviceEffects.makeUnique()
        (providerRouted, apnsRouted, deviceRouted) = (0, 0, 0)
        var apnsSeed = stream(.apnsChoice)
        apns.reset(configuration: Observer.wantsEverything ? plan.reportingAPNs : plan.apns, seed: apnsSeed.next())
        let token = DeviceToken(0)
        let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(traits.deviceID))
        // A long lane is never held whole: the ledger folds what has settled as it plays.
        ledger.reset(folding: folds ? Ledger.Folding(recordsHeld: recordsHeld, block: UserBlocks.block(of: user),
                                                   days: scenario.dayCount, deviceIDHash: hash) : nil)
        currentLane = lane
        handlesNowAtOnce = Observer.self == Unobserved.self
        ledger.launches.measured = !traits.legacyIOS
        nextTokenNumber = 1
        folderGeneration = 0
        provider.reset(configuration: plan.provider, deviceIDHash: hash)
        let configuration = phoneConfiguration(lane, traits: traits, plan: plan, folds: folds, observer: Observer.self)
        phone.reset(configuration: configuration, token: token, deviceID: traits.deviceID, deviceIDHash: hash)
        defersOffline = handlesNowAtOnce && !steersConnectivity && configuration.copyBounds == nil
        offlineUntold = -1

        // Installed and registered before the run starts.
        apns.register(token)
        apns.setNotificationsEnabled(token, !timeline.lanes[lane].notificationsDisabled)
        provider.register(token, deviceIDHash: hash, at: 0)
        ledger.counts[.registrations] += 1
        Observer.laneStarts(lane, in: &self)
        phone.setOnline(timeline.startsOnline, at: 0, into: &deviceEffects)
        routeDeviceEffects(at: 0, observer: Observer.self)

        let end = scenario.duration
        // A rollout's update reaches this device app `adoption` after the rollout starts.
        if let update = Self.appUpdate(lane, user: user, plan: plan, seed: seed), update < end {
            send(.appUpdateReachesDevice, arrivingAt: update)
        }
        var play = LanePlay(console: ConsoleDays(days: aggregate.daily.count))
        // A lane kept for another strategy: played to that instant, kept, then played on.
        let keeps = fork.map { $0 > 0 && $0 < end } ?? false && !long && !Observer.wantsEverything
        if keeps, let fork {
            playEvents(until: fork, &play, user: user, into: &aggregate, observer: Observer.self)
            // The lane kept holds no untold disconnection: the phone and APNs it keeps know it.
            tellOfflineIfUntold(observer: Observer.self, counting: &play)
            keep(lane, seed: seed, user: user, play: play)
        }
        playEvents(until: end, &play, user: user, into: &aggregate, observer: Observer.self)
        try endLane(user: user, plan: plan, play: &play, into: &aggregate, observer: Observer.self)
    }

    /// The app's phone configuration in lane `lane` under `plan`.
    private func phoneConfiguration<Observer: WorldObserver>(_ lane: Int, traits: DeviceTraits, plan: StrategyPlan, folds: Bool,
                                                             observer: Observer.Type) -> PhoneConfiguration {
        let long = timeline.lanes[lane].isLong
        return plan.phoneConfiguration(
            device: traits, alertsNotAllowed: timeline.lanes[lane].alertsNotAllowed, displayOff: timeline.lanes[lane].displayOff,
            reportsSavedPosition: folds || Observer.wantsEverything, copyBounds: long && plan.provider.sendsCollapseID ? copyBounds : nil)
    }

    /// When a rollout's update reaches lane `lane`'s app: `adoption` after the rollout starts; nil without a rollout.
    private static func appUpdate(_ lane: Int, user: Int, plan: StrategyPlan, seed: UInt64) -> SimTime? {
        guard let rollout = plan.strategy.rollout else { return nil }
        var random = RandomStream.appUpdate.generator(seed: seed, user: UInt64(user), lane: lane)
        return plan.rolloutFrom + rollout.adoption.sample(&random)
    }

    /// Plays the lane's events before `end`.
    private mutating func playEvents<Observer: WorldObserver>(until end: SimTime, _ play: inout LanePlay, user: Int,
                                                        into aggregate: inout StrategyAggregate, observer: Observer.Type) {
        var events: Int64 = 0
        while let item = agenda.next(before: end) {
            // At most one an item handed out: far below `Int64.max`.
            events &+= 1
            // The Console's days: cut before the first event past a midnight.
            if agenda.now >= play.console.dayEnd {
                play.console.cut(at: agenda.now, counters: apns.counters)
            }
            switch item {
            case .message(let message):
                // Every message meets the device or its provider: an untold disconnection is told first.
                tellOfflineIfUntold(observer: Observer.self)
                handleInLoop(message, at: agenda.now, observer: Observer.self)
            case .occurrence(let occurrence): handle(occurrence, at: agenda.now, folding: &aggregate, observer: Observer.self)
            }
        }
        play.events += events + eventsAtOnce
        eventsAtOnce = 0
    }

    /// `handle(_:at:observer:)`, with the messages most played (a request reaching APNs, a
    /// notification reaching the phone, a tap, a re-request's steps) handled in the play loop
    /// itself, without the call and dispatch of `handle`.
    @inline(__always)
    private mutating func handleInLoop<Observer: WorldObserver>(_ message: WorldEvent, at now: SimTime, observer: Observer.Type) {
        switch message {
        case .pushReachesAPNs(let slot):
            Observer.handling(message, at: now, in: &self)
            pushReachesAPNs(slot, at: now, observer: Observer.self)
        case .pushReachesDevice(let slot):
            Observer.handling(message, at: now, in: &self)
            pushReachesDevice(slot, at: now, observer: Observer.self)
        case .tapped(let tappedMessage):
            // A tap opens the app: after the two above, the commonest message in flight.
            Observer.handling(message, at: now, in: &self)
            tapped(tappedMessage, at: now, observer: Observer.self)
        // A re-request's three steps: the next commonest.
        case .rerequestReachesProvider(let position, let gap, let invocation, let returnDelay):
            Observer.handling(message, at: now, in: &self)
            serveRerequest(position: position, gap: gap, invocation: invocation, returnDelay: returnDelay, at: now,
                           observer: Observer.self)
        case .answerReachesDevice(let invocation, let ok):
            Observer.handling(message, at: now, in: &self)
            rerequestAnswerArrives(invocation: invocation, ok: ok, at: now, observer: Observer.self)
        case .extensionDeadline(let invocation):
            Observer.handling(message, at: now, in: &self)
            extensionDeadlinePasses(invocation: invocation, at: now, observer: Observer.self)
        case .connectionReachesAPNs, .disconnectionReachesAPNs, .bounceReachesAPNs, .tokenChangeReachesAPNs,
             .registrationReachesProvider, .subscriptionSyncReachesProvider, .apnsErrorReachesProvider,
             .sendFailureReachesProvider, .retryDue, .powerWindowOpens, .appUpdateReachesDevice, .faultReachesProvider:
            handle(message, at: now, observer: Observer.self)
        }
    }

    /// `tellOfflineIfUntold` between plays of the lane's events, counted in `play`.
    private mutating func tellOfflineIfUntold<Observer: WorldObserver>(observer: Observer.Type, counting play: inout LanePlay) {
        tellOfflineIfUntold(observer: Observer.self)
        play.events += eventsAtOnce
        eventsAtOnce = 0
    }

    /// The lane's end: the last day's Console, what the run's end does, the checks and the fold.
    private mutating func endLane<Observer: WorldObserver>(user: Int, plan: StrategyPlan, play: inout LanePlay,
                                                           into aggregate: inout StrategyAggregate,
                                                           observer: Observer.Type) throws(AccountingError) {
        // The run's end meets the device: it ends as told.
        tellOfflineIfUntold(observer: Observer.self, counting: &play)
        eventsProcessed += play.events
        let end = scenario.duration
        let block = UserBlocks.block(of: user)
        // The last day's events, then what the run's end does (on its last day).
        play.console.cut(at: end - 1, counters: apns.counters)
        apns.expireAll(at: end, into: &apnsEffects)
        routeAPNsEffects(at: end, observer: Observer.self)
        play.console.cut(at: end - 1, counters: apns.counters)
        // The lane's Console days, a kept lane's start among them (`resumeLane`).
        play.console.add(into: &aggregate, block: block)
        settleBackground(at: end, observer: Observer.self)
        Observer.laneEnds(at: end, in: &self)
        try checkInFlight(user: user)
        if let broken = ledger.fold(into: &aggregate, block: block) {
            throw AccountingError(description: "user \(user), strategy \(plan.strategy.label): \(broken)")
        }
        aggregate.apns += apns.counters
        aggregate.background += ledger.background
    }

    /// Keeps lane `lane`'s state now, for `resume`.
    private mutating func keep(_ lane: Int, seed: UInt64, user: Int, play: LanePlay) {
        while keptLanes.count <= lane { keptLanes.append(nil) }
        var kept = KeptLane(
            drawnFor: (seed, user), agenda: agenda, apns: apns, provider: provider, phone: phone, ledger: ledger,
            pushPool: pushPool, apnsEffects: apnsEffects, providerEffects: providerEffects, deviceEffects: deviceEffects,
            routed: (providerRouted, apnsRouted, deviceRouted),
            tapes: (providerLatencyRandom.position, apnsLatencyRandom.position, rerequestRandom.position,
                    powerRandom.position, memoryRandom.position),
            networkRandom: networkRandom, tapRandom: tapRandom, faultLane: faultLane.position, nextTokenNumber: nextTokenNumber,
            folderGeneration: folderGeneration, play: play)
        // The world plays on with these buffers: the kept copies get their own.
        kept.agenda.ownStorage()
        kept.provider.ownStorage()
        kept.phone.ownStorage()
        kept.ledger.ownStorage()
        kept.pushPool.ownStorage()
        kept.apnsEffects.makeUnique()
        kept.providerEffects.makeUnique()
        kept.deviceEffects.makeUnique()
        keptLanes[lane] = kept
    }

    /// Plays lane `lane` under `plan` from `kept`: its state, under `plan`'s configurations.
    private mutating func resumeLane(_ lane: Int, from kept: consuming KeptLane, user: Int, traits: DeviceTraits, plan: StrategyPlan,
                                     seed: UInt64, into aggregate: inout StrategyAggregate) throws(AccountingError) {
        openTapes(lane, seed: seed, user: user)
        defer { swapTapes(lane) }
        providerLatencyRandom.seek(kept.tapes.provider)
        apnsLatencyRandom.seek(kept.tapes.apns)
        rerequestRandom.seek(kept.tapes.rerequest)
        powerRandom.seek(kept.tapes.power)
        memoryRandom.seek(kept.tapes.memory)
        // Moved in, not copied: the kept lane is this resume's (`take`).
        swap(&agenda, &kept.agenda)
        apns = kept.apns
        provider = kept.provider
        provider.reconfigure(plan.provider)
        phone = kept.phone
        // The user's settings as steered so far (`events`) are the phone's, not the plan's.
        var configuration = phoneConfiguration(lane, traits: traits, plan: plan, folds: false, observer: Unobserved.self)
        configuration.eligibility.alertsAllowed = phone.configuration.eligibility.alertsAllowed
        configuration.eligibility.displayEnabled = phone.configuration.eligibility.displayEnabled
        phone.reconfigure(configuration)
        swap(&ledger, &kept.ledger)
        swap(&pushPool, &kept.pushPool)
        agenda.ownStorage()
        ledger.ownStorage()
        pushPool.ownStorage()
        (apnsEffects, providerEffects, deviceEffects) = (kept.apnsEffects, kept.providerEffects, kept.deviceEffects)
        apnsEffects.makeUnique()
        providerEffects.makeUnique()
        deviceEffects.makeUnique()
        (providerRouted, apnsRouted, deviceRouted) = kept.routed
        (networkRandom, tapRandom) = (kept.networkRandom, kept.tapRandom)
        faultLane.position = kept.faultLane
        (nextTokenNumber, folderGeneration) = (kept.nextTokenNumber, kept.folderGeneration)
        currentLane = lane
        backgroundForceQuitBase = Self.backgroundForceQuitBase(seed: seed, user: user, lane: lane)
        handlesNowAtOnce = true
        // A kept lane is never long: its phone keeps no copy bounds.
        defersOffline = !steersConnectivity
        offlineUntold = -1
        // The Console's days cut so far: the kept lane's strategy counts them at its end, this one at this lane's.
        var play = kept.play
        let end = scenario.duration
        // Sent at this plan's start, before everything the kept lane sent.
        if let update = Self.appUpdate(lane, user: user, plan: plan, seed: seed), update < end {
            agenda.sendAsFirstSent(.appUpdateReachesDevice, arrivingAt: update)
        }
        playEvents(until: end, &play, user: user, into: &aggregate, observer: Unobserved.self)
        try endLane(user: user, plan: plan, play: &play, into: &aggregate, observer: Unobserved.self)
    }

    /// Swaps lane `lane`'s tapes in for `seed` and `user`: started afresh for a new user,
    /// rewound for the next strategy. `swapTapes` puts them back.
    private mutating func openTapes(_ lane: Int, seed: UInt64, user: Int) {
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: UInt64(user), lane: lane) }
        while laneTapes.count <= lane { laneTapes.append(LaneTapes()) }
        if let drawn = laneTapes[lane].drawnFor, drawn == (seed, user) {
            laneTapes[lane].providerLatency.rewind()
            laneTapes[lane].apnsLatency.rewind()
            laneTapes[lane].rerequest.rewind()
            laneTapes[lane].power.rewind()
            laneTapes[lane].memory.rewind()
        } else {
            laneTapes[lane].drawnFor = (seed, user)
            // Each tape keeps the sampler of `draws` that reads its stream (none: a constant 0,
            // as `ChainDraws.powerDelay` and `footprintKB` answer).
            laneTapes[lane].providerLatency.start(stream(.providerLatency), drawnBy: draws.providerToAPNs)
            laneTapes[lane].apnsLatency.start(stream(.apnsLatency), drawnBy: draws.apnsToDevice)
            laneTapes[lane].rerequest.start(stream(.rerequestLatency), drawnBy: draws.rerequestRoundTrip)
            laneTapes[lane].power.start(stream(.powerDeferral), drawnBy: draws.powerDeferral ?? Sampler(.constant(0)))
            laneTapes[lane].memory.start(stream(.extensionMemory), drawnBy: draws.footprint ?? Sampler(.constant(0)))
        }
        swapTapes(lane)
    }

    /// Moves lane `lane`'s tapes into the world's streams, or back (an exchange: no copy).
    private mutating func swapTapes(_ lane: Int) {
        swap(&providerLatencyRandom, &laneTapes[lane].providerLatency)
        swap(&apnsLatencyRandom, &laneTapes[lane].apnsLatency)
        swap(&rerequestRandom, &laneTapes[lane].rerequest)
        swap(&powerRandom, &laneTapes[lane].power)
        swap(&memoryRandom, &laneTapes[lane].memory)
    }

    /// Every copy the ledger thinks is in flight must be somewhere: in a queued
    /// message, held at APNs, or waiting in an extension invocation; and APNs's
    /// counters must account for every notification it took in. Mutating only in name: called
    /// on a mutating world, a non-mutating method is handed a copy of it (8 KB a lane).
    private mutating func checkInFlight(user: Int) throws(AccountingError) {
        var located = Int64(agenda.countMessages { message in
            switch message {
            case .pushReachesAPNs, .pushReachesDevice, .apnsErrorReachesProvider, .sendFailureReachesProvider,
                 .faultReachesProvider, .retryDue, .bounceReachesAPNs:
                true
            case .connectionReachesAPNs, .disconnectionReachesAPNs, .tokenChangeReachesAPNs,
                 .registrationReachesProvider, .subscriptionSyncReachesProvider, .powerWindowOpens,
                 .rerequestReachesProvider, .answerReachesDevice, .extensionDeadline, .tapped, .appUpdateReachesDevice:
                false
            }
        })
        located += Int64(apns.heldNotifications)
        located += Int64(phone.waitingInvocations)
        // Background pushes are no mail: the ledger does not count them.
        if scenario.chain.background != nil { located -= backgroundCopiesLocated() }
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

extension World {
    /// The longest a copy can take on each leg, from the longest draw of every
    /// latency, timeout, backoff and deferral on it (saturating: a bound past any
    /// run's length only makes the phone keep its ids).
    package static func copyBounds(_ scenario: Scenario) -> CopyBounds {
        func plus(_ a: SimDuration, _ b: SimDuration) -> SimDuration {
            min(a + b, 4 * Distribution.longestDraw)
        }
        let chain = scenario.chain
        // One attempt ends when APNs has the request or the provider's timeout fires.
        let attempt = max(scenario.latency.providerToAPNs.longestPossibleDraw, chain.provider.network?.timeout ?? 0)
        var toAPNs = attempt
        var retry: Int32 = 1
        while retry <= chain.provider.retry.maxRetries, toAPNs < 4 * Distribution.longestDraw {
            toAPNs = plus(plus(toAPNs, chain.provider.retry.delay(beforeAttempt: retry)), attempt)
            retry += 1
        }
        let toDevice = plus(chain.apns.lowPriorityDeferral?.longestPossibleDraw ?? 0,
                            scenario.latency.apnsToDevice.longestPossibleDraw)
        // The world sends a re-request on its way for half a drawn round trip.
        let rerequest = scenario.latency.rerequestRoundTrip.longestPossibleDraw / 2 + 1
        return CopyBounds(toAPNs: toAPNs, toDevice: toDevice, rerequestToProvider: rerequest)
    }
}
