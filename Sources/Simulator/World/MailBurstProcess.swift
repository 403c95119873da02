import Base

/// One device app's mail under `mailBursts`, in time order: bursts start as a weekly
/// Poisson process (the mail's rhythm at `perDay / meanSize`), and each goes on mail by
/// mail, `gap` apart, with the model's continue probability (a geometric size). Bursts may
/// overlap; the next mail is the earliest of the next start and the open bursts' next mails.
///
/// The starts draw from the mail stream, as the Poisson mail does; sizes and gaps from
/// their own (`RandomStream.mailBursts`), so the starts are the same whatever the sizes.
package struct MailBurstProcess {
    private var starts: WeeklyPoissonProcess
    private let continueProbability: Double
    private let gap: Distribution
    /// The next burst's start, drawn ahead; nil: not drawn yet; `.max`: no more bursts.
    private var nextStart: SimTime?
    /// The next mail of each burst under way (few: the bursts a gap's span overlaps).
    private var open: [SimTime] = []

    /// - Parameter mail: the mail's rhythm (`perDay`: mails a weekday, bursts' mails included).
    /// - Complexity: O(1) (the week's 168 hourly rates).
    package init(mail: MailModel, bursts: MailBurstModel, firstWeekday: Int) {
        var startRhythm = mail
        startRhythm.perDay = mail.perDay / max(1, bursts.meanSize)
        starts = WeeklyPoissonProcess(model: startRhythm, firstWeekday: firstWeekday)
        continueProbability = bursts.continueProbability
        gap = bursts.gap
    }

    /// Starts over at time 0, with the bursts' rate multiplied by `multiplier` (several
    /// accounts: merged compound Poisson streams are one of the summed rate).
    /// - Complexity: O(1).
    package mutating func reset(multiplier: Double = 1) {
        starts.reset(multiplier: multiplier)
        nextStart = nil
        open.removeAll(keepingCapacity: true)
    }

    /// The next mail after the previous one, or nil when no mail ever comes.
    /// - Complexity: O(open bursts).
    package mutating func next(starts startRandom: inout SplitMix64, bursts burstRandom: inout SplitMix64) -> SimTime? {
        if nextStart == nil { nextStart = starts.next(&startRandom) ?? .max }
        var earliest = -1
        for index in open.indices where open[index] < (earliest < 0 ? nextStart! : open[earliest]) {
            earliest = index
        }
        let time: SimTime
        if earliest < 0 {
            // A start at the same instant as a burst's mail comes after it: `<` above.
            guard nextStart! != .max else { return nil }
            time = nextStart!
            nextStart = nil
            if burstRandom.nextUnitInterval() <= continueProbability { open.append(after(time, &burstRandom)) }
        } else {
            time = open[earliest]
            if burstRandom.nextUnitInterval() <= continueProbability {
                open[earliest] = after(time, &burstRandom)
            } else {
                open.swapAt(earliest, open.count - 1)
                open.removeLast()
            }
        }
        return time
    }

    /// The burst's next mail, a gap after `time` (at least 1 µs, capped far past any horizon).
    private func after(_ time: SimTime, _ random: inout SplitMix64) -> SimTime {
        let drawn = gap.sample(&random)
        return time <= SimTime.max - drawn - 1 ? time + max(1, drawn) : .max - 1
    }
}
