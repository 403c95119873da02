import FakeAPNs
import Foundation

/// What the user and the network do, whatever the strategy: the device's
/// connectivity and, per app, mail arrivals, launches and folder subscriptions.
/// None of it depends on pushes, so it is drawn once per user from its own
/// streams and replayed for every strategy (and connectivity for every app).
///
/// Replaying it from arrays instead of scheduling it on the heap is the kernel's
/// largest saving: these are most of a world's events. The draws are exactly the
/// ones the lazy processes make, in the same stream order.
struct UserTimeline {
    /// One app's own doings on the device.
    struct Lane {
        /// Mail arrivals, ascending, all before the horizon.
        var mail: ContiguousArray<SimTime> = []
        /// Per mail: the folder generation it goes to (0: a folder of the install).
        var mailFolder: ContiguousArray<Int32> = []
        /// App launches, ascending.
        var launches: ContiguousArray<SimTime> = []
        /// Instants the user subscribes to another folder, ascending.
        var subscriptionChanges: ContiguousArray<SimTime> = []
        var notificationsDisabled = false
        var alertsNotAllowed = false
        var displayOff = false
        var accounts = 1
        /// Which (seed, user) the arrays hold; nil: none yet.
        var drawnFor: (seed: UInt64, user: Int)?
    }

    private let horizon: SimTime
    private let chain: ChainModel
    private var mailProcess: MailProcess
    private var launchProcess: MailProcess?
    private var connectivityProcess: ConnectivityProcess?

    /// The device's state at time 0.
    private(set) var startsOnline = true
    /// Instants the device's connectivity flips, ascending: the state alternates
    /// from `startsOnline`.
    private(set) var connectivityChanges: ContiguousArray<SimTime> = []
    private var connectivityDrawnFor: (seed: UInt64, user: Int)?
    /// Lanes drawn so far (index: app), reused user after user.
    private(set) var lanes: [Lane] = []

    init(scenario: Scenario) {
        horizon = scenario.duration
        chain = scenario.chain
        let weekday = scenario.start.weekday
        mailProcess = MailProcess(model: scenario.mail, firstWeekday: weekday)
        launchProcess = scenario.chain.launches.map { MailProcess(model: $0.rhythm, firstWeekday: weekday) }
        connectivityProcess = scenario.connectivity.map {
            ConnectivityProcess(model: $0, firstWeekday: weekday, horizon: scenario.duration)
        }
    }

    /// Draws the device's connectivity for `user`, unless it already holds it.
    /// - Complexity: O(changes).
    mutating func drawConnectivity(seed: UInt64, user: Int) {
        if let drawn = connectivityDrawnFor, drawn == (seed, user) { return }
        connectivityDrawnFor = (seed, user)
        connectivityChanges.removeAll(keepingCapacity: true)
        guard var process = connectivityProcess else {
            startsOnline = true
            return
        }
        var random = RandomStream.connectivity.generator(seed: seed, user: UInt64(user))
        startsOnline = process.start(&random)
        while let change = process.nextChange(&random), change < horizon { connectivityChanges.append(change) }
    }

    /// Draws app `lane` of `user`, unless it already holds it.
    /// - Complexity: O(mail + launches + subscription changes).
    mutating func drawLane(_ lane: Int, seed: UInt64, user: Int) {
        while lanes.count <= lane { lanes.append(Lane()) }
        if let drawn = lanes[lane].drawnFor, drawn == (seed, user) { return }
        var drawn = lanes[lane]
        lanes[lane] = Lane()  // drawn is then the only owner of the buffers: no copy on write
        drawn.drawnFor = (seed, user)
        func stream(_ purpose: RandomStream) -> SplitMix64 {
            purpose.generator(seed: seed, user: UInt64(user), lane: lane)
        }
        var traits = stream(.laneTraits)
        drawn.notificationsDisabled = traits.nextUnitInterval() <= chain.notificationsDisabledShare
        drawn.alertsNotAllowed = traits.nextUnitInterval() <= chain.alertsNotAllowedShare
        drawn.displayOff = traits.nextUnitInterval() <= chain.displayOffShare
        drawn.accounts = chain.accounts.count(for: traits.nextUnitInterval())

        drawn.subscriptionChanges.removeAll(keepingCapacity: true)
        if let perDay = chain.subscriptions?.changesPerDay, perDay > 0 {
            var random = stream(.subscriptionChanges)
            var now: SimTime = 0
            while let next = Self.nextRare(after: now, perDay: perDay, horizon: horizon, &random) {
                drawn.subscriptionChanges.append(next)
                now = next
            }
        }

        // The folder draw shares the mail stream, between arrivals, as the mail is
        // handled: a mail after a subscription change may go to the newest folder.
        drawn.mail.removeAll(keepingCapacity: true)
        drawn.mailFolder.removeAll(keepingCapacity: true)
        var random = stream(.mail)
        mailProcess.reset(multiplier: Double(drawn.accounts))
        var generation: Int32 = 0
        var changes = 0
        while let arrival = mailProcess.next(&random), arrival < horizon {
            // Same-instant order: a subscription change is handled before a mail.
            while changes < drawn.subscriptionChanges.count, drawn.subscriptionChanges[changes] <= arrival {
                changes += 1
                generation += 1
            }
            var folder: Int32 = 0
            if let subscriptions = chain.subscriptions, generation > 0,
               random.nextUnitInterval() <= subscriptions.mailShare {
                folder = generation
            }
            drawn.mail.append(arrival)
            drawn.mailFolder.append(folder)
        }

        drawn.launches.removeAll(keepingCapacity: true)
        if var process = launchProcess {
            var random = stream(.launches)
            process.reset()
            while let launch = process.next(&random), launch < horizon { drawn.launches.append(launch) }
        }
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
