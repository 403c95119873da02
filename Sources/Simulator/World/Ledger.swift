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
        var inFlight: Int32 = 0
        var summarized = false
        var firstLoss: UInt8 = 0
    }

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
    }

    /// A mail arrived; returns its index.
    mutating func newMessage(at time: SimTime) -> Int32 {
        records.append(Record(arrival: time))
        return Int32(records.count - 1)
    }

    mutating func pushSent(_ push: PushNotification) {
        pushesSent += 1
        let message = Int(push.payload.messageIndex)
        records[message].inFlight += 1
        if !push.isResend, let position = push.payload.xiva?.position {
            if Int(position) > positionToMessage.count {
                positionToMessage.append(contentsOf: repeatElement(-1, count: Int(position) - positionToMessage.count))
            }
            positionToMessage[Int(position) - 1] = push.payload.messageIndex
        }
    }

    mutating func rerequested() { rerequests += 1 }

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

    mutating func presented(_ push: PushNotification, replacedExisting: Bool, at time: SimTime) {
        let message = Int(push.payload.messageIndex)
        endCopy(message)
        if replacedExisting { collapsed += 1 }
        if records[message].shownAt < 0 {
            records[message].shownAt = time
        } else if !replacedExisting {
            duplicatesShown += 1
        }
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

    /// Folds this world's messages into `aggregate`; returns a description of the
    /// first message that fits no bucket (the identity broken), else nil.
    func fold(into aggregate: inout StrategyAggregate) -> String? {
        if let inconsistency { return inconsistency }
        aggregate.pushesSent += pushesSent
        aggregate.rerequests += rerequests
        aggregate.duplicatesShown += duplicatesShown
        aggregate.collapsed += collapsed
        aggregate.messages += Int64(records.count)
        for (index, record) in records.enumerated() {
            let day = Int(record.arrival / TimeUnit.day)
            aggregate.daily[day].messages += 1
            if record.shownAt >= 0 {
                aggregate.delivered += 1
                aggregate.daily[day].delivered += 1
                aggregate.latency.record(record.shownAt - record.arrival)
            } else if record.summarized {
                aggregate.summarized += 1
                aggregate.daily[day].summarized += 1
            } else if record.inFlight > 0 {
                aggregate.pending += 1
                aggregate.daily[day].pending += 1
            } else if record.firstLoss != 0 {
                aggregate.lostByReason[Int(record.firstLoss)] += 1
                aggregate.daily[day].lost += 1
            } else {
                return "message \(index) (mail at \(record.arrival) µs) was neither shown, summarized, lost nor in flight"
            }
        }
        return nil
    }
}
