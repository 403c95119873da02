import Base
import FakeAPNs

/// How iOS hands an app its background pushes (`apns-push-type: background`,
/// `content-available: 1`): never drawn, never through the Notification Service
/// Extension, but to the app itself, within a budget. Apple ("Pushing background
/// updates to your App") treats them as low priority, may throttle them "if the total
/// number becomes excessive" and advises "don't try to send more than two or three per
/// hour"; it does not say how it counts. PushSim counts in clock hours: at most
/// `perHour` reach the app in each hour of the simulated clock; past it, the push is
/// deferred, and only the newest deferred one is held (a newer one throttles it). The
/// held push reaches the app at the start of the next hour, taking one of that hour's
/// slots. A push that finds the app force-quit is discarded: iOS does not launch an app
/// the user force-quit for a background push.
public struct BackgroundBudget: Sendable, Equatable {
    /// The default budget: Apple's "two or three per hour", at its upper end.
    public static let defaultPerHour: Int32 = 3
    /// One budget hour.
    public static let hour: SimDuration = TimeUnit.hour

    /// Background pushes that may reach the app in one clock hour (at least 1).
    public var perHour: Int32
    /// The share of the time the user has the app force-quit (0…1): a background push
    /// finds it so with this probability, drawn for each push (`isForceQuit`).
    public var forceQuitShare: Double

    /// A budget of `perHour` a clock hour, with the app force-quit `forceQuitShare` of the time.
    /// - Complexity: O(1).
    public init(perHour: Int32 = BackgroundBudget.defaultPerHour, forceQuitShare: Double = 0) {
        self.perHour = max(1, perHour)
        self.forceQuitShare = forceQuitShare
    }

    /// Whether background push number `serial` of a device app finds the app force-quit:
    /// a draw from `base` (the device app's own) and the serial alone, so `run` and
    /// `serve` draw the same for the same push without keeping a stream.
    /// - Complexity: O(1).
    @inlinable
    public func isForceQuit(base: UInt64, serial: Int64) -> Bool {
        guard forceQuitShare > 0 else { return false }
        let bits = SplitMix64.mix(base ^ (UInt64(bitPattern: serial) &* 0x9e37_79b9_7f4a_7c15))
        return Double(bits >> 11) * 0x1p-53 < forceQuitShare
    }
}

/// What became of a background push on the device.
public enum BackgroundFate: UInt8, Sendable, Equatable, BitwiseCopyable, CaseIterable {
    /// It reached the app at once, within the hour's budget.
    case deliveredToApp
    /// The hour's budget was spent: it is held (the newest only) for the next hour.
    case deferred
    /// Held since its hour's budget was spent, it reached the app when the next hour began.
    case deliveredAfterDeferral
    /// Held, it was dropped for a newer one (iOS holds only the newest).
    case throttled
    /// The app was force-quit: iOS does not launch it for a background push.
    case discardedForceQuit

    /// The fate as files and the API name it: the case's name in snake_case (`delivered_to_app`).
    /// - Complexity: O(name length).
    public var name: String { SnakeCase.of(String(describing: self)) }
}

/// The app's background-push state on one phone: the hour being counted, how much of
/// its budget is spent, and the one push held past it.
public struct BackgroundUpdates: Sendable, Equatable {
    /// The clock hour counted (`now / hour`).
    public private(set) var hourIndex: Int64 = 0
    /// Pushes that reached the app in `hourIndex`.
    public private(set) var usedThisHour: Int32 = 0
    /// The message index of the push held for the next hour; nil: none.
    public private(set) var held: Int32?
    /// Background pushes that reached the phone so far (the serial of the next).
    public private(set) var arrivals: Int64 = 0

    /// Nothing counted, nothing held.
    /// - Complexity: O(1).
    public init() {}

    /// Moves the budget to `now`: a push held from an earlier hour reaches the app at the
    /// start of the hour after the one it was deferred in (`.deliveredAfterDeferral`,
    /// counted against that hour), and a new hour starts with its whole budget.
    /// - Complexity: O(1).
    public mutating func settle(at now: SimTime, into effects: inout OwnedBuffer<DeviceEffect>) {
        let current = now / BackgroundBudget.hour
        guard current > hourIndex else { return }
        if let message = held {
            held = nil
            hourIndex += 1
            usedThisHour = 1
            effects.append(.background(messageIndex: message, .deliveredAfterDeferral))
            guard current > hourIndex else { return }
        }
        hourIndex = current
        usedThisHour = 0
    }

    /// A background push of message `messageIndex` reached the phone (online) at `now`;
    /// `appForceQuit`: the app is force-quit then. Tells its fate (and a held push's,
    /// when this one throttles it or the hour moved on).
    /// - Complexity: O(1).
    public mutating func arrive(messageIndex: Int32, appForceQuit: Bool, budget: BackgroundBudget, at now: SimTime,
                                into effects: inout OwnedBuffer<DeviceEffect>) {
        arrivals += 1
        settle(at: now, into: &effects)
        if appForceQuit {
            effects.append(.background(messageIndex: messageIndex, .discardedForceQuit))
        } else if usedThisHour < budget.perHour {
            usedThisHour += 1
            effects.append(.background(messageIndex: messageIndex, .deliveredToApp))
        } else {
            if let older = held { effects.append(.background(messageIndex: older, .throttled)) }
            held = messageIndex
            effects.append(.background(messageIndex: messageIndex, .deferred))
        }
    }
}
