import FakeAPNs
import Foundation

/// Something that happens whatever the strategy does: the user, the device or the
/// provider's schedule acting on its own.
enum TimelineEvent {
    /// The provider goes down (true) or comes back (the run's global schedule).
    case outage(down: Bool)
    /// The device id changes to `newID`.
    case deviceIDChange(newID: UInt64)
    /// The app's APNs token rotates; a reinstall shows the permission prompt again.
    case tokenRotation(promptShown: Bool)
    /// The user subscribes to another folder in the app.
    case subscriptionChange
    /// The device goes online (true) or offline.
    case connectivity(online: Bool)
    /// A mail reaches the provider, for folder generation `folder` (0: a folder of the install).
    case mail(folder: Int32)
    /// The user opens the app.
    case launch
}

/// One entry of a timeline: what happens, and when.
struct TimelineEntry {
    var time: SimTime
    var event: TimelineEvent
}

/// What the user and the network do, whatever the strategy: the device's
/// connectivity and id changes, the provider's outages and, per app, mail
/// arrivals, launches, folder subscriptions and token rotations. None of it
/// depends on pushes, so it is drawn once per user from its own streams and
/// replayed for every strategy (the device's part for every app too).
///
/// Replaying it from one sorted array beside the event queue, instead of
/// scheduling it on the queue, is the kernel's largest saving: these are most of
/// a world's events, and the queue is left with the few messages in flight.
/// The draws are exactly the ones the lazy processes make, in stream order.
///
/// Entries are sorted in the agenda's order (`AgendaPhase`), which decides
/// what comes first at one instant.
struct UserTimeline {
    /// One app's timeline on the device.
    struct Lane {
        /// Everything that happens, in order, all before the horizon.
        var entries: ContiguousArray<TimelineEntry> = []
        var notificationsDisabled = false
        var alertsNotAllowed = false
        var displayOff = false
        var accounts = 1
        /// Which (seed, user) it holds; nil: none yet.
        var drawnFor: (seed: UInt64, user: Int)?
    }

    private let horizon: SimTime
    private let chain: ChainModel
    private let outages: [OutageWindow]
    private var mailProcess: WeeklyPoissonProcess
    private var launchProcess: WeeklyPoissonProcess?
    private var connectivityProcess: ConnectivityProcess?

    /// The device's state at time 0.
    private(set) var startsOnline = true
    /// The device's own part (connectivity, id changes) and the outages, sorted.
    private var deviceEntries: ContiguousArray<TimelineEntry> = []
    private var deviceDrawnFor: (seed: UInt64, user: Int)?
    /// Lanes drawn so far (index: app), reused user after user.
    private(set) var lanes: [Lane] = []

    init(scenario: Scenario, outages: [OutageWindow]) {
        horizon = scenario.duration
        chain = scenario.chain
        self.outages = outages
        let weekday = scenario.start.weekday
        mailProcess = WeeklyPoissonProcess(model: scenario.mail, firstWeekday: weekday)
        launchProcess = scenario.chain.device.launches.map { WeeklyPoissonProcess(model: $0.rhythm, firstWeekday: weekday) }
        connectivityProcess = scenario.connectivity.map {
            ConnectivityProcess(model: $0, firstWeekday: weekday, horizon: scenario.duration)
        }
    }

    /// Draws the device's part for `user` (connectivity, device id changes),
    /// unless it already holds it.
    /// - Complexity: O(changes).
    mutating func drawDevice(seed: UInt64, user: Int) {
        if let drawn = deviceDrawnFor, drawn == (seed, user) { return }
        deviceDrawnFor = (seed, user)
        deviceEntries.removeAll(keepingCapacity: true)
        for window in outages {
            deviceEntries.append(TimelineEntry(time: window.start, event: .outage(down: true)))
            deviceEntries.append(TimelineEntry(time: window.start + window.duration, event: .outage(down: false)))
        }
        if chain.device.deviceIDChangesPerDay > 0 {
            var random = RandomStream.deviceIDChange.generator(seed: seed, user: UInt64(user))
            var now: SimTime = 0
            while let next = Self.nextRare(after: now, perDay: chain.device.deviceIDChangesPerDay, horizon: horizon, &random) {
                deviceEntries.append(TimelineEntry(time: next, event: .deviceIDChange(newID: random.next())))
                now = next
            }
        }
        startsOnline = true
        if var process = connectivityProcess {
            var random = RandomStream.connectivity.generator(seed: seed, user: UInt64(user))
            startsOnline = process.start(&random)
            var online = startsOnline
            while let change = process.nextChange(&random), change < horizon {
                online.toggle()
                deviceEntries.append(TimelineEntry(time: change, event: .connectivity(online: online)))
            }
        }
    }

    /// Draws app `lane` of `user` (after `drawDevice` for the same user), unless
    /// it already holds it.
    /// - Complexity: O(n log k) for n entries from k sources.
    mutating func drawLane(_ lane: Int, seed: UInt64, user: Int) {
        precondition(deviceDrawnFor.map { $0 == (seed, user) } ?? false, "the device's part is drawn first")
        while lanes.count <= lane { lanes.append(Lane()) }
        if let drawn = lanes[lane].drawnFor, drawn == (seed, user) { return }
        var drawn = lanes[lane]
        lanes[lane] = Lane()  // `drawn` is then the only owner of the buffer: no copy on write
        drawn.drawnFor = (seed, user)
        func stream(_ purpose: RandomStream) -> SplitMix64 {
            purpose.generator(seed: seed, user: UInt64(user), lane: lane)
        }
        var traits = stream(.laneTraits)
        drawn.notificationsDisabled = traits.nextUnitInterval() <= chain.device.notificationsDisabledShare
        drawn.alertsNotAllowed = traits.nextUnitInterval() <= chain.device.alertsNotAllowedShare
        drawn.displayOff = traits.nextUnitInterval() <= chain.device.displayOffShare
        drawn.accounts = chain.device.accounts.count(for: traits.nextUnitInterval())

        drawn.entries.removeAll(keepingCapacity: true)
        drawn.entries.append(contentsOf: deviceEntries)
        if let rotation = chain.device.tokenRotation, rotation.perDay > 0 {
            var random = stream(.tokenRotation)
            var now: SimTime = 0
            while let next = Self.nextRare(after: now, perDay: rotation.perDay, horizon: horizon, &random) {
                drawn.entries.append(TimelineEntry(time: next,
                                             event: .tokenRotation(promptShown: random.nextUnitInterval() <= rotation.withPromptShare)))
                now = next
            }
        }
        let subscriptionsStart = drawn.entries.count
        if let perDay = chain.provider.subscriptions?.changesPerDay, perDay > 0 {
            var random = stream(.subscriptionChanges)
            var now: SimTime = 0
            while let next = Self.nextRare(after: now, perDay: perDay, horizon: horizon, &random) {
                drawn.entries.append(TimelineEntry(time: next, event: .subscriptionChange))
                now = next
            }
        }
        let subscriptionsEnd = drawn.entries.count

        // The folder draw shares the mail stream, between arrivals, as the mail is
        // handled: a mail after a subscription change may go to the newest folder.
        var random = stream(.mail)
        mailProcess.reset(multiplier: Double(drawn.accounts))
        var generation: Int32 = 0
        var change = subscriptionsStart
        while let arrival = mailProcess.next(&random), arrival < horizon {
            while change < subscriptionsEnd, drawn.entries[change].time <= arrival {
                change += 1
                generation += 1
            }
            var folder: Int32 = 0
            if let subscriptions = chain.provider.subscriptions, generation > 0,
               random.nextUnitInterval() <= subscriptions.mailShare {
                folder = generation
            }
            drawn.entries.append(TimelineEntry(time: arrival, event: .mail(folder: folder)))
        }

        if var process = launchProcess {
            var random = stream(.launches)
            process.reset()
            while let launch = process.next(&random), launch < horizon {
                drawn.entries.append(TimelineEntry(time: launch, event: .launch))
            }
        }
        // Sorted runs, one per source: the (stable) sort merges them in the agenda's order.
        drawn.entries.sort(by: TimelineEntry.agendaOrder)
        lanes[lane] = drawn
    }

    /// The next event of a rare Poisson process (exponential gaps of mean
    /// 1/`perDay` days) after `now`, or nil past the horizon.
    /// - Complexity: O(1).
    static func nextRare(after now: SimTime, perDay: Double, horizon: SimTime,
                         _ random: inout SplitMix64) -> SimTime? {
        let gap = -Foundation.log(random.nextUnitInterval()) * Double(TimeUnit.day) / perDay
        guard gap < Double(horizon) else { return nil }
        let next = now + max(1, SimTime(gap.rounded(.up)))
        return next < horizon ? next : nil
    }
}
