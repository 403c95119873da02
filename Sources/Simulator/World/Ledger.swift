import FakeAPNs

/// The omniscient bookkeeper of one user's world: it watches the effects the
/// actors emit (never their state) and decides each message's fate at the end.
///
/// Precedence of outcomes: its own notification shown → `delivered`; else
/// covered by a summary → `summarized`; else a copy still in flight →
/// `pending`; else lost, under the reason of its first loss (a re-send that
/// also fails does not rename the loss).
struct Ledger {
    struct Record {
        var arrival: SimTime
        var shownAt: SimTime = -1
        /// When the extension first logged "received" for it; -1: never.
        var loggedAt: SimTime = -1
        var inFlight: Int32 = 0
        var summarized = false
        var firstLoss: UInt8 = 0
        /// Funnel stages reached (`Stage` bits).
        var stages: UInt8 = 0
    }

    /// Funnel stages a message reached, as bits of `Record.stages`.
    enum Stage {
        static let providerSent: UInt8 = 1
        static let apnsAccepted: UInt8 = 2
        static let reachedDevice: UInt8 = 4
        static let opened: UInt8 = 8
    }

    /// What the fold needs to know about the app's launches (the talk's measurement).
    struct LaunchLog {
        /// Launch instants, ascending: who counts for a day.
        var times: ContiguousArray<SimTime> = []
        /// Instants the extension's log went up to analytics, ascending: a launch
        /// while online, or the first reconnect after a launch offline.
        var uploads: ContiguousArray<SimTime> = []
        /// Per upload: made at a reconnect. Such an upload carries only logs written
        /// before it: a notification APNs hands over at that same instant is logged
        /// after the app's upload went out.
        var uploadAtReconnect: ContiguousArray<Bool> = []

        /// Records an upload (in time order).
        mutating func upload(at time: SimTime, atReconnect: Bool) {
            uploads.append(time)
            uploadAtReconnect.append(atReconnect)
        }

        /// Forgets every launch and upload, keeping capacity.
        mutating func removeAll() {
            times.removeAll(keepingCapacity: true)
            uploads.removeAll(keepingCapacity: true)
            uploadAtReconnect.removeAll(keepingCapacity: true)
        }
        /// Whether the device's logs count at all (iOS < 10 users are dropped, as the talk says).
        var measured = true

        /// The first launch at or after `time`, or nil.
        /// - Complexity: O(log n).
        func firstLaunch(notBefore time: SimTime) -> SimTime? { Self.first(in: times, notBefore: time) }

        /// The first upload that carries a log written at `time`: at or after it, but
        /// a reconnect's upload only strictly after it. Nil when none does.
        /// - Complexity: O(log n).
        func firstUpload(notBefore time: SimTime) -> SimTime? {
            upload(from: Self.firstIndex(in: uploads, notBefore: time), carrying: time)
        }

        /// `firstUpload(notBefore:)`, searching from `hint`, the index an earlier
        /// lookup left there (updated): log times mostly rise with the mail, so the
        /// answer is usually at the hint or a step after it.
        /// - Complexity: O(1) when the answer is near the hint, else O(log n).
        func firstUpload(notBefore time: SimTime, hint: inout Int) -> SimTime? {
            var index = min(hint, uploads.count)
            if index > 0 && uploads[index - 1] >= time {
                index = Self.firstIndex(in: uploads, notBefore: time)
            } else {
                var steps = 0
                while index < uploads.count && uploads[index] < time {
                    steps += 1
                    if steps > 8 {
                        index = Self.firstIndex(in: uploads, notBefore: time)
                        break
                    }
                    index += 1
                }
            }
            hint = index
            return upload(from: index, carrying: time)
        }

        /// From the first upload at or after `time`, the first that carries a log
        /// written at `time` (a reconnect's upload at that same instant does not).
        private func upload(from index: Int, carrying time: SimTime) -> SimTime? {
            var index = index
            while index < uploads.count, uploads[index] == time, index < uploadAtReconnect.count,
                  uploadAtReconnect[index] {
                index += 1
            }
            return index < uploads.count ? uploads[index] : nil
        }

        /// Whether some launch falls in `start..<end`.
        func launched(from start: SimTime, before end: SimTime) -> Bool {
            guard let first = firstLaunch(notBefore: start) else { return false }
            return first < end
        }

        private static func first(in instants: ContiguousArray<SimTime>, notBefore time: SimTime) -> SimTime? {
            let index = firstIndex(in: instants, notBefore: time)
            return index < instants.count ? instants[index] : nil
        }

        private static func firstIndex(in instants: ContiguousArray<SimTime>, notBefore time: SimTime) -> Int {
            var low = 0, high = instants.count
            while low < high {
                let middle = (low + high) / 2
                if instants[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Chain counters of this world; added to the aggregate as they are.
    var counts = ChainCounts()
    /// Highest mail index among originals that reached the device (reordering).
    private var latestOriginalAtDevice: Int32 = -1

    private(set) var records: ContiguousArray<Record> = []
    /// Message of each position (index position - 1); filled as originals are sent.
    private var positionToMessage: ContiguousArray<Int32> = []
    private(set) var pushesSent: Int64 = 0
    private(set) var rerequests: Int64 = 0
    private(set) var duplicatesShown: Int64 = 0
    private(set) var collapsed: Int64 = 0
    /// Set when an effect contradicts the books (a copy ending twice).
    private(set) var inconsistency: String?

    mutating func reset() {
        records.removeAll(keepingCapacity: true)
        positionToMessage.removeAll(keepingCapacity: true)
        pushesSent = 0
        rerequests = 0
        duplicatesShown = 0
        collapsed = 0
        inconsistency = nil
        counts.reset()
        latestOriginalAtDevice = -1
    }

    /// A mail arrived; returns its index.
    mutating func newMessage(at time: SimTime) -> Int32 {
        records.append(Record(arrival: time))
        return Int32(records.count - 1)
    }

    /// A request left for APNs. A retry is the same copy trying again: it is a
    /// request (`pushes_sent`) but not a new copy in flight.
    mutating func pushSent(_ push: PushNotification, isRetry: Bool = false) {
        pushesSent += 1
        let message = Int(push.payload.messageIndex)
        if isRetry { return }
        records[message].inFlight += 1
        if !push.isResend { records[message].stages |= Stage.providerSent }
        if !push.isResend, let position = push.payload.xiva?.position {
            if Int(position) == positionToMessage.count + 1 {
                // The usual case: the next position.
                positionToMessage.append(push.payload.messageIndex)
            } else {
                if Int(position) > positionToMessage.count {
                    positionToMessage.append(contentsOf: repeatElement(-1, count: Int(position) - positionToMessage.count))
                }
                positionToMessage[Int(position) - 1] = push.payload.messageIndex
            }
        }
    }

    mutating func rerequested() { rerequests += 1 }

    /// A funnel stage reached by one of the message's pushes.
    mutating func reached(_ stage: UInt8, messageIndex: Int32) {
        records[Int(messageIndex)].stages |= stage
    }

    /// A push reached iOS on the device; counts reordering among originals.
    mutating func reachedDevice(_ push: PushNotification) {
        records[Int(push.payload.messageIndex)].stages |= Stage.reachedDevice
        guard !push.isResend else { return }
        if push.payload.messageIndex < latestOriginalAtDevice {
            counts[.reordered] += 1
        } else {
            latestOriginalAtDevice = push.payload.messageIndex
        }
    }

    /// The extension logged "received" for the push's message.
    mutating func logged(_ push: PushNotification, at time: SimTime) {
        let message = Int(push.payload.messageIndex)
        if records[message].loggedAt < 0 { records[message].loggedAt = time }
    }

    /// A copy of the message ended without being shown.
    mutating func lost(_ push: PushNotification, _ reason: LossReason) {
        let message = Int(push.payload.messageIndex)
        endCopy(message)
        if records[message].firstLoss == 0 { records[message].firstLoss = reason.rawValue }
    }

    /// The message never became a push.
    mutating func dropped(messageIndex: Int32, _ reason: LossReason) {
        if records[Int(messageIndex)].firstLoss == 0 { records[Int(messageIndex)].firstLoss = reason.rawValue }
    }

    /// The push's own notification was shown; returns true when it is the
    /// message's first (the one the user may tap).
    @discardableResult
    mutating func presented(_ push: PushNotification, replacedExisting: Bool, at time: SimTime) -> Bool {
        let message = Int(push.payload.messageIndex)
        endCopy(message)
        if replacedExisting { collapsed += 1 }
        if records[message].shownAt < 0 {
            records[message].shownAt = time
            return true
        } else if !replacedExisting {
            duplicatesShown += 1
        }
        return false
    }

    mutating func summaryShown(_ push: PushNotification, from: Int32, to: Int32, replacedExisting: Bool) {
        endCopy(Int(push.payload.messageIndex))
        if replacedExisting { collapsed += 1 }
        records[Int(push.payload.messageIndex)].summarized = true
        guard to >= 1 else { return }
        for position in max(1, from)...to where Int(position) <= positionToMessage.count {
            let message = positionToMessage[Int(position) - 1]
            if message >= 0 { records[Int(message)].summarized = true }
        }
    }

    private mutating func endCopy(_ message: Int) {
        records[message].inFlight -= 1
        if records[message].inFlight < 0 && inconsistency == nil {
            inconsistency = "message \(message) had a copy end that was never sent"
        }
    }

    /// Copies still in flight, summed over messages.
    var copiesInFlight: Int64 { records.reduce(0) { $0 + Int64($1.inFlight) } }

    /// Folds this world's messages into `aggregate`, and into its counts of block
    /// `block` (the user's, `UserBlocks`); returns a description of the first message
    /// that fits no bucket (the identity broken), else nil.
    func fold(into aggregate: inout StrategyAggregate, block: Int = 0, launches: LaunchLog = LaunchLog()) -> String? {
        if let inconsistency { return inconsistency }
        aggregate.pushesSent += pushesSent
        aggregate.add(pushesSent, to: .pushesSent, block: block)
        aggregate.rerequests += rerequests
        aggregate.duplicatesShown += duplicatesShown
        aggregate.collapsed += collapsed
        aggregate.chain += counts
        // Records are in arrival order, so days come one after the other: count a
        // day locally and add it once, and look its launches up once.
        var day = -1
        var today = DayCounts()
        var launchedToday = false
        var nextDayEnd: SimTime = 0
        var providerSent: Int64 = 0, apnsAccepted: Int64 = 0, reachedDevice: Int64 = 0, opened: Int64 = 0
        var logged: Int64 = 0, uploaded: Int64 = 0
        var uploadHint = 0
        for index in records.indices {
            let record = records[index]
            let recordDay = Int(record.arrival / TimeUnit.day)
            if recordDay != day {
                if day >= 0 { aggregate.add(today, day: day, block: block) }
                day = recordDay
                today = DayCounts()
                let dayStart = SimTime(day) * TimeUnit.day
                nextDayEnd = dayStart + 2 * TimeUnit.day
                // Only users who launched the app the same or the next day count.
                launchedToday = launches.measured && launches.launched(from: dayStart, before: nextDayEnd)
            }
            today.messages += 1
            let sent = record.stages & Stage.providerSent != 0
            if sent { providerSent += 1 }
            if record.stages & Stage.apnsAccepted != 0 { apnsAccepted += 1 }
            if record.stages & Stage.reachedDevice != 0 { reachedDevice += 1 }
            if record.stages & Stage.opened != 0 { opened += 1 }
            // The talk's measurement: XIVA's log of what it sent is the base; the
            // extension's log counts only once a launch has uploaded it.
            var uploadedAt: SimTime?
            if record.loggedAt >= 0 {
                logged += 1
                uploadedAt = launches.firstUpload(notBefore: record.loggedAt, hint: &uploadHint)
                if uploadedAt != nil { uploaded += 1 }
            }
            if sent && launchedToday {
                today.measuredSent += 1
                if let uploadedAt, uploadedAt < nextDayEnd { today.measuredReceived += 1 }
            }
            if record.shownAt >= 0 {
                today.delivered += 1
                aggregate.latency.record(record.shownAt - record.arrival)
            } else if record.summarized {
                today.summarized += 1
            } else if record.inFlight > 0 {
                today.pending += 1
            } else if record.firstLoss != 0 {
                aggregate.lostByReason[Int(record.firstLoss)] += 1
                aggregate.blocks[block * RateCount.allCases.count + RateCount.firstLostIndex + Int(record.firstLoss) - 1] += 1
                aggregate.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: day, reasonRawValue: Int(record.firstLoss))] += 1
                today.lost += 1
            } else {
                return "message \(index) (mail at \(record.arrival) µs) was neither shown, summarized, lost nor in flight"
            }
        }
        if day >= 0 { aggregate.add(today, day: day, block: block) }
        aggregate.providerSent += providerSent
        aggregate.apnsAccepted += apnsAccepted
        aggregate.reachedDevice += reachedDevice
        aggregate.opened += opened
        aggregate.logged += logged
        aggregate.uploaded += uploaded
        // The funnel's shares carry standard errors too: their counts go to the user's block.
        aggregate.add(providerSent, to: .providerSent, block: block)
        aggregate.add(apnsAccepted, to: .apnsAccepted, block: block)
        aggregate.add(reachedDevice, to: .reachedDevice, block: block)
        aggregate.add(opened, to: .opened, block: block)
        aggregate.add(logged, to: .logged, block: block)
        aggregate.add(uploaded, to: .uploaded, block: block)
        return nil
    }
}
