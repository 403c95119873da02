import Base
import FoundationEssentials
import Glibc
import Kernel

/// Something that happens whatever the strategy does: the user, the device or the
/// provider's schedule acting on its own.
package enum TimelineEvent {
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
    /// A test makes the device app do `action` (a scenario's dated `events`, serve's control API).
    case steered(SteeringAction)
    /// The backend sends the app its background push number `serial` (`background`).
    case backgroundPush(serial: Int32)
}

/// One entry of a timeline: what happens, and when.
package typealias TimelineEntry = Timed<TimelineEvent>

/// What the user and the network do, whatever the strategy: the device's
/// connectivity and id changes, the provider's outages and, per app, mail
/// arrivals, launches, folder subscriptions and token rotations. None of it
/// depends on pushes, so it is drawn from its own streams and replayed for every
/// strategy (the device's part for every app too).
///
/// Replaying it from one sorted array beside the event queue, instead of
/// scheduling it on the queue, is the kernel's largest saving: these are most of
/// a world's events, and the queue is left with the few messages in flight.
/// The draws are exactly the ones the lazy processes make, in stream order.
///
/// A lane of at most `window` entries is drawn once per user and replayed whole.
/// A longer one (a million mails a day) is never held at once: the agenda reads
/// it `window` entries at a time from a `LaneDraw`, which every strategy starts
/// afresh from the lane's first draw state, so memory stays flat in the lane's
/// volume and every strategy still sees the same draws.
package struct UserTimeline {
    /// One app's timeline on the device.
    package struct Lane {
        /// The whole timeline when `longDraw` is nil; else the first window only.
        package var entries: ContiguousArray<TimelineEntry> = []
        /// The lane's draw from its start, when it is longer than one window.
        package var longDraw: LaneDraw?
        /// `longDraw != nil`, readable without copying the draw.
        package var isLong = false
        package var notificationsDisabled = false
        package var alertsNotAllowed = false
        package var displayOff = false
        package var accounts = 1
        /// Which (seed, user) it holds; nil: none yet.
        package var drawnFor: (seed: UInt64, user: Int)?
    }

    /// Entries of a lane held at once, at most (about 1.5 MB).
    package static let window = 1 << 16

    private let sources: LaneDraw.Sources
    private let chain: ChainModel
    /// Entries held at once: a longer lane is read through a window of this many.
    package let windowSize: Int

    /// The device's state at time 0.
    package private(set) var startsOnline = true
    private var deviceDrawnFor: (seed: UInt64, user: Int)?
    /// Lanes drawn so far (index: app), reused user after user.
    package private(set) var lanes: [Lane] = []

    /// - Parameter window: entries held at once (tests shrink it to exercise windows).
    package init(scenario: Scenario, outages: [[OutageWindow]], window: Int = UserTimeline.window) {
        sources = LaneDraw.Sources(scenario: scenario, outages: outages)
        chain = scenario.chain
        windowSize = max(1, window)
    }

    /// Settles the device's part for `user` (its state at time 0), unless it already holds it.
    /// - Complexity: O(windows that hold the device offline at 0).
    package mutating func drawDevice(seed: UInt64, user: Int) {
        if let drawn = deviceDrawnFor, drawn == (seed, user) { return }
        deviceDrawnFor = (seed, user)
        startsOnline = sources.startsOnline(seed: seed, user: user)
    }

    /// Draws app `lane` of `user` (after `drawDevice` for the same user), unless
    /// it already holds it: the whole timeline, or its first window and the draw
    /// state to play it from.
    /// - Complexity: O(n × k) for n entries (at most `window`) from k sources.
    package mutating func drawLane(_ lane: Int, seed: UInt64, user: Int) {
        precondition(deviceDrawnFor.map { $0 == (seed, user) } ?? false, "the device's part is drawn first")
        while lanes.count <= lane { lanes.append(Lane()) }
        if let drawn = lanes[lane].drawnFor, drawn == (seed, user) { return }
        var drawn = lanes[lane]
        lanes[lane] = Lane()  // `drawn` is then the only owner of the buffer: no copy on write
        drawn.drawnFor = (seed, user)
        let traits = Self.laneTraits(chain: chain, seed: seed, user: user, lane: lane)
        drawn.notificationsDisabled = traits.notificationsDisabled
        drawn.alertsNotAllowed = traits.alertsNotAllowed
        drawn.displayOff = traits.displayOff
        drawn.accounts = traits.accounts

        var draw = LaneDraw(sources: sources, seed: seed, user: user, lane: lane, accounts: drawn.accounts)
        drawn.entries.removeAll(keepingCapacity: true)
        draw.fill(&drawn.entries, upTo: windowSize)
        // A long lane keeps its start (drawn again: rarer than copying it for every lane).
        drawn.isLong = !draw.isFinished
        drawn.longDraw = drawn.isLong
            ? LaneDraw(sources: sources, seed: seed, user: user, lane: lane, accounts: drawn.accounts) : nil
        lanes[lane] = drawn
    }

    /// What is drawn once per app on the device, before its timeline: the same for every strategy.
    package struct LaneTraits {
        package var notificationsDisabled: Bool
        package var alertsNotAllowed: Bool
        package var displayOff: Bool
        package var accounts: Int
    }

    /// App `lane` of `user`'s traits, from their own stream.
    /// - Complexity: O(1).
    package static func laneTraits(chain: ChainModel, seed: UInt64, user: Int, lane: Int) -> LaneTraits {
        var random = RandomStream.laneTraits.generator(seed: seed, user: UInt64(user), lane: lane)
        // In this order: it is the stream's.
        let notificationsDisabled = random.nextUnitInterval() <= chain.device.notificationsDisabledShare
        let alertsNotAllowed = random.nextUnitInterval() <= chain.device.alertsNotAllowedShare
        let displayOff = random.nextUnitInterval() <= chain.device.displayOffShare
        return LaneTraits(notificationsDisabled: notificationsDisabled, alertsNotAllowed: alertsNotAllowed,
                          displayOff: displayOff, accounts: chain.device.accounts.count(for: random.nextUnitInterval()))
    }

    /// The next event of a rare Poisson process (exponential gaps of mean
    /// 1/`perDay` days) after `now`, or nil past the horizon.
    /// - Complexity: O(1).
    package static func nextRare(after now: SimTime, perDay: Double, horizon: SimTime,
                         _ random: inout SplitMix64) -> SimTime? {
        let gap = -Glibc.log(random.nextUnitInterval()) * Double(TimeUnit.day) / perDay
        guard gap < Double(horizon) else { return nil }
        let next = now + max(1, SimTime(gap.rounded(.up)))
        return next < horizon ? next : nil
    }
}
