import Base

/// A device's connection to APNs over time: an alternating on/off renewal process
/// with daily offline windows laid over it (the device is online only when the
/// alternation says online and no window holds it offline). Drawn one change at
/// a time, into the user's timeline (`UserTimeline`), whose buffers are reused
/// user after user.
package struct ConnectivityProcess {
    private let model: ConnectivityModel
    /// The alternation's periods (`alternates`: both given), drawn by reference to them,
    /// never copied out of an optional (a copy retains the log-normal's table).
    private let online: Sampler
    private let offline: Sampler
    private let alternates: Bool
    private let firstWeekday: Int
    private let lastDay: Int

    private var baseOnline = true
    private var baseFlipAt = SimTime.max
    private var forcedUntil: SimTime = .min
    private var nextWindowStart = SimTime.max
    private var nextWindowEnd = SimTime.max
    private var cursorDay = -1
    private var cursorIndex = 0
    private var time: SimTime = 0

    /// Whether the device is online at the last change handed out.
    package private(set) var isOnline = true

    package init(model: ConnectivityModel, firstWeekday: Int, horizon: SimDuration) {
        self.model = model
        alternates = model.online != nil && model.offline != nil
        online = Sampler(model.online ?? .constant(0))
        offline = Sampler(model.offline ?? .constant(0))
        self.firstWeekday = firstWeekday
        lastDay = Int(horizon / TimeUnit.day) + 1
    }

    /// Draws the state at time 0. For the alternation it is the stationary one:
    /// online with probability E[on] / (E[on] + E[off]), then what is left of that
    /// period drawn from its equilibrium residual (`Distribution.equilibriumResidual`),
    /// so the run starts as if the alternation had been going on forever, whatever
    /// the laws of the periods. Later periods are drawn whole, from the samplers.
    /// - Complexity: O(windows that hold the device offline at 0).
    package mutating func start(_ rng: inout SplitMix64) -> Bool {
        time = 0
        forcedUntil = .min
        cursorDay = -1
        cursorIndex = 0
        if alternates {
            let onMean = online.distribution.mean, offMean = offline.distribution.mean
            baseOnline = rng.nextUnitInterval() * (onMean + offMean) <= onMean
            baseFlipAt = (baseOnline ? online : offline).distribution.equilibriumResidual(&rng)
        } else {
            baseOnline = true
            baseFlipAt = .max
        }
        advanceWindow(&rng)
        // Windows of the day before may still hold the device offline at 0.
        while nextWindowStart <= 0 {
            forcedUntil = max(forcedUntil, nextWindowEnd)
            advanceWindow(&rng)
        }
        isOnline = baseOnline && forcedUntil <= 0
        return isOnline
    }

    /// The time of the next change of `isOnline` (which it then holds), or nil if none comes.
    package mutating func nextChange(_ rng: inout SplitMix64) -> SimTime? {
        while true {
            let forcedEnd = forcedUntil > time ? forcedUntil : SimTime.max
            let next = min(baseFlipAt, nextWindowStart, forcedEnd)
            guard next != .max else { return nil }
            time = next
            if next == baseFlipAt, alternates {
                baseOnline.toggle()
                baseFlipAt = next + (baseOnline ? online.sample(&rng) : offline.sample(&rng))
            } else if next == nextWindowStart {
                forcedUntil = max(forcedUntil, nextWindowEnd)
                advanceWindow(&rng)
            }
            let online = baseOnline && forcedUntil <= time
            if online != isOnline {
                isOnline = online
                return time
            }
        }
    }

    /// Moves to the next window that this device takes, drawing day by day.
    private mutating func advanceWindow(_ rng: inout SplitMix64) {
        let windows = model.offlineWindows
        nextWindowStart = .max
        nextWindowEnd = .max
        guard !windows.isEmpty else { return }
        while cursorDay <= lastDay {
            if cursorIndex >= windows.count {
                cursorIndex = 0
                cursorDay += 1
                continue
            }
            let window = windows[cursorIndex]
            cursorIndex += 1
            let weekday = ((firstWeekday + cursorDay) % 7 + 7) % 7
            guard window.days.contains(weekday: weekday) else { continue }
            // Draw both numbers whatever the outcome, so one window's draw never
            // shifts the next one's (stable streams across probability tweaks).
            let taken = rng.nextUnitInterval() <= window.probability
            let length = window.duration.sample(&rng)
            guard taken, length > 0 else { continue }
            nextWindowStart = SimTime(cursorDay) * TimeUnit.day + window.start
            nextWindowEnd = nextWindowStart + length
            return
        }
    }
}
