import Base
import FakeAPNs
import Provider

/// The omniscient bookkeeper of one user's world: it watches the effects the
/// actors emit (never their state) and decides each message's fate at the end.
///
/// Precedence of outcomes: its own notification shown → `delivered`; else
/// covered by a summary → `summarized`; else a copy still in flight →
/// `pending`; else lost, under the reason of its first loss (a re-send that
/// also fails does not rename the loss).
///
/// A long lane (`Folding`) does not keep a record per message to the end: a
/// message whose fate can no longer change is folded as soon as it is the
/// oldest one held, so what the ledger holds stays flat in the lane's volume
/// (Ledger+Fold.swift). The reports are the same bytes either way.
package struct Ledger {
    package struct Record: BitwiseCopyable {
        package var arrival: SimTime
        package var shownAt: SimTime = -1
        /// When the extension first logged "received" for it; -1: never.
        package var loggedAt: SimTime = -1
        package var inFlight: Int32 = 0
        /// Its position in the provider's numbering; 0: never numbered.
        package var position: Int32 = 0
        /// The device-id hash its position was numbered under.
        package var numberingHash: UInt32 = 0
        package var summarized = false
        /// Its first showing was of a copy the provider re-sent (a re-request's answer):
        /// a recovered message, counted apart in the latency (`StrategyAggregate.recoveredLatency`).
        package var shownByResend = false
        package var firstLoss: UInt8 = 0
        /// Funnel stages reached (`Stage` bits).
        package var stages: UInt8 = 0
    }

    /// Funnel stages a message reached, as bits of `Record.stages`.
    package enum Stage {
        package static let providerSent: UInt8 = 1
        package static let apnsAccepted: UInt8 = 2
        package static let reachedDevice: UInt8 = 4
        package static let opened: UInt8 = 8
    }

    /// Chain counters of this world; added to the aggregate as they are.
    package var counts = ChainCounts()
    /// What APNs's faults cost this world (`apns.faults`); added to the aggregate as they are.
    package var faults = APNsFaultCounts()
    /// What became of the background pushes (no messages of the ledger's); added as they are.
    package var background = BackgroundCounts()
    /// The app's launches and the extension log's uploads (the talk's measurement).
    package var launches = LaunchLog()
    /// Highest mail index among originals that reached the device (reordering).
    private var latestOriginalAtDevice: Int32 = -1

    /// Records of messages `recordsOffset…`; those before `liveFrom` are folded.
    /// In a buffer the world writes without a uniqueness check per write (`OwnedBuffer`):
    /// a ledger copied while a lane plays shares its records until the next `reset`.
    package private(set) var records = OwnedBuffer<Record>(capacity: 1024)
    package private(set) var recordsOffset = 0
    package private(set) var liveFrom = 0
    /// Message of each position from `positionsOffset + 1` on; filled as originals are sent.
    private var positionToMessage = OwnedBuffer<Int32>(capacity: 1024)
    private var positionsOffset = 0
    package private(set) var pushesSent: Int64 = 0
    package private(set) var rerequests: Int64 = 0
    package private(set) var duplicatesShown: Int64 = 0
    package private(set) var collapsed: Int64 = 0
    /// Set when an effect contradicts the books (a copy ending twice).
    package private(set) var inconsistency: String?

    /// How a long lane is folded as it plays; nil: every record is kept to the end.
    package var folding: Folding?
    /// What folding needs to know and keep (Ledger+Fold.swift).
    package var streaming = StreamingFold()

    /// Starts over for another lane; `folding`: fold settled messages as it plays.
    /// - Complexity: O(n) in what it held.
    package mutating func reset(folding: Folding? = nil) {
        records.removeAll()
        records.makeUnique()
        recordsOffset = 0
        liveFrom = 0
        foldedBelow = 0
        positionToMessage.removeAll()
        positionToMessage.makeUnique()
        positionsOffset = 0
        pushesSent = 0
        rerequests = 0
        duplicatesShown = 0
        collapsed = 0
        inconsistency = nil
        counts.reset()
        if !faults.isZero { faults.reset() }
        background = BackgroundCounts()
        launches.removeAll()
        latestOriginalAtDevice = -1
        self.folding = folding
        if let folding { streaming.reset(folding) }
    }

    /// Makes the records this ledger's own: a copy of a ledger in play shares them
    /// (`OwnedBuffer`) until it starts over; call this on a copy kept to resume from.
    /// - Complexity: O(n) in what it holds when shared.
    package mutating func ownStorage() {
        records.makeUnique()
        positionToMessage.makeUnique()
        launches.ownStorage()
    }

    /// Messages so far.
    package var messageCount: Int { recordsOffset + records.count }

    /// Messages below this index are folded (`recordsOffset + liveFrom`).
    package private(set) var foldedBelow = 0

    /// The record of message `message`, which is not folded. Wrapping: a message index (an
    /// `Int32`) less a count of records cannot overflow an `Int`.
    @inline(__always)
    private func slot(_ message: Int) -> Int { message &- recordsOffset }

    /// A mail arrived; returns its index (`newMessage(at:folding:)` folds first in a long lane).
    package mutating func newMessage(at time: SimTime) -> Int32 {
        records.append(Record(arrival: time))
        return Int32(messageCount - 1)
    }

    /// A request left for APNs. A retry is the same copy trying again: it is a
    /// request (`pushes_sent`) but not a new copy in flight.
    @inline(__always)
    package mutating func pushSent(_ push: PushNotification, isRetry: Bool = false) {
        pushesSent &+= 1
        let message = Int(push.payload.messageIndex)
        if isRetry { return }
        guard message >= foldedBelow else {
            // A re-send of a folded message: only its copy is counted (see `isSettled`).
            streaming.ghostCopies += 1
            return
        }
        guard !push.isResend else {
            records[slot(message)].inFlight += 1
            return
        }
        let numbered = push.payload.xiva != nil
        let position = push.payload.position, hash = push.payload.xiva?.deviceIDHash ?? 0
        // One access to the record: each is a uniqueness check of the array.
        Self.originalSent(&records[slot(message)], numbered: numbered, position: position, hash: hash)
        guard numbered else { return }
        let offset = Int(position) - 1 - positionsOffset
        if offset == positionToMessage.count {
            // The usual case: the next position.
            positionToMessage.append(push.payload.messageIndex)
        } else {
            if offset > positionToMessage.count {
                positionToMessage.append(repeating: -1, count: offset - positionToMessage.count)
            } else if offset < 0 {
                // Numbering restarted below what was forgotten (a new device id).
                positionToMessage.prepend(repeating: -1, count: -offset)
                positionsOffset += offset
            }
            positionToMessage[Int(position) - 1 - positionsOffset] = push.payload.messageIndex
        }
    }

    @inline(__always)
    private static func originalSent(_ record: inout Record, numbered: Bool, position: Int32, hash: UInt32) {
        record.inFlight += 1
        record.stages |= Stage.providerSent
        if numbered {
            record.position = position
            record.numberingHash = hash
        }
    }

    package mutating func rerequested() { rerequests += 1 }

    /// A funnel stage reached by one of the message's pushes.
    @inline(__always)
    package mutating func reached(_ stage: UInt8, messageIndex: Int32) {
        let message = Int(messageIndex)
        guard message >= foldedBelow else {
            // Only a tap reaches a folded message (a shown one): it was not opened when folded.
            if stage == Stage.opened { streaming.openedAfterFold += 1 }
            return
        }
        records[slot(message)].stages |= stage
    }

    /// A push of message `messageIndex` reached iOS on the device; counts
    /// reordering among originals (`isResend`: the provider re-sent it).
    @inline(__always)
    package mutating func reachedDevice(messageIndex: Int32, isResend: Bool) {
        let message = Int(messageIndex)
        if message >= foldedBelow { records[slot(message)].stages |= Stage.reachedDevice }
        originalReachedDevice(messageIndex, isResend: isResend)
    }

    /// A push of message `messageIndex` reached iOS on the device, and (`logged`) the
    /// extension logged "received" for it: `reachedDevice` and `logged` in one access to
    /// the record (the phone's `.received` effect says both).
    @inline(__always)
    package mutating func received(messageIndex: Int32, isResend: Bool, logged: Bool, at time: SimTime) {
        let message = Int(messageIndex)
        if message >= foldedBelow { Self.received(&records[slot(message)], logged: logged, at: time) }
        originalReachedDevice(messageIndex, isResend: isResend)
    }

    /// Counts an original (not `isResend`) reaching the device after a later one: reordering.
    @inline(__always)
    private mutating func originalReachedDevice(_ messageIndex: Int32, isResend: Bool) {
        guard !isResend else { return }
        if messageIndex < latestOriginalAtDevice {
            counts[.reordered] += 1
        } else {
            latestOriginalAtDevice = messageIndex
        }
    }

    @inline(__always)
    private static func received(_ record: inout Record, logged: Bool, at time: SimTime) {
        record.stages |= Stage.reachedDevice
        if logged, record.loggedAt < 0 { record.loggedAt = time }
    }

    /// The extension logged "received" for message `messageIndex`.
    @inline(__always)
    package mutating func logged(messageIndex: Int32, at time: SimTime) {
        let message = Int(messageIndex)
        guard message >= foldedBelow else { return }
        let index = slot(message)
        if records[index].loggedAt < 0 { records[index].loggedAt = time }
    }

    /// A copy of message `messageIndex` ended without being shown.
    @inline(__always)
    package mutating func lost(messageIndex: Int32, _ reason: LossReason) {
        let message = Int(messageIndex)
        guard message >= foldedBelow else {
            endFoldedCopy(message)
            return
        }
        if Self.lost(&records[slot(message)], reason: reason.rawValue) { noteOverEnded(message) }
    }

    /// Ends a copy and keeps the record's first loss, in one access; true when more
    /// copies ended than were sent.
    @inline(__always)
    private static func lost(_ record: inout Record, reason: UInt8) -> Bool {
        record.inFlight -= 1
        if record.firstLoss == 0 { record.firstLoss = reason }
        return record.inFlight < 0
    }

    /// The message never became a push.
    @inline(__always)
    package mutating func dropped(messageIndex: Int32, _ reason: LossReason) {
        let index = slot(Int(messageIndex))
        if records[index].firstLoss == 0 { records[index].firstLoss = reason.rawValue }
    }

    /// A push's own notification was shown (message `messageIndex`); returns true
    /// when it is the message's first (the one the user may tap).
    @discardableResult @inline(__always)
    package mutating func presented(messageIndex: Int32, isResend: Bool = false, replacedExisting: Bool, at time: SimTime) -> Bool {
        let message = Int(messageIndex)
        if replacedExisting { collapsed &+= 1 }
        guard message >= foldedBelow else {
            // A folded message was shown already.
            endFoldedCopy(message)
            if !replacedExisting { duplicatesShown &+= 1 }
            return false
        }
        let (first, overEnded) = Self.shown(&records[slot(message)], at: time, isResend: isResend)
        if overEnded { noteOverEnded(message) }
        if first { return true }
        if !replacedExisting { duplicatesShown &+= 1 }
        return false
    }

    /// Ends the copy that was shown and stamps the record's first showing, in one
    /// access (each is a uniqueness check of the array); `overEnded`: more copies
    /// ended than were sent.
    @inline(__always)
    private static func shown(_ record: inout Record, at time: SimTime, isResend: Bool) -> (first: Bool, overEnded: Bool) {
        record.inFlight -= 1
        let overEnded = record.inFlight < 0
        guard record.shownAt < 0 else { return (false, overEnded) }
        record.shownAt = time
        record.shownByResend = isResend
        return (true, overEnded)
    }

    /// A "you have missed messages" notification was shown for the push of message
    /// `messageIndex`, standing for positions `from … to`.
    package mutating func summaryShown(messageIndex: Int32, from: Int32, to: Int32, replacedExisting: Bool) {
        let message = Int(messageIndex)
        if endCopy(message) { records[slot(message)].summarized = true }
        if replacedExisting { collapsed += 1 }
        guard to >= 1 else { return }
        let last = min(Int(to), positionsOffset + positionToMessage.count)
        var position = max(1, Int(from), positionsOffset + 1)
        while position <= last {
            let covered = Int(positionToMessage[position - 1 - positionsOffset])
            if covered >= foldedBelow { records[slot(covered)].summarized = true }
            position += 1
        }
    }

    // The same, named by the push (the routes of APNs's and the provider's effects,
    // which carry whole requests, and the tests). The phone's effects name the message.

    @inline(__always)
    package mutating func reachedDevice(_ push: PushNotification) {
        reachedDevice(messageIndex: push.payload.messageIndex, isResend: push.isResend)
    }

    @inline(__always)
    package mutating func logged(_ push: PushNotification, at time: SimTime) {
        logged(messageIndex: push.payload.messageIndex, at: time)
    }

    @inline(__always)
    package mutating func lost(_ push: PushNotification, _ reason: LossReason) {
        lost(messageIndex: push.payload.messageIndex, reason)
    }

    @discardableResult @inline(__always)
    package mutating func presented(_ push: PushNotification, replacedExisting: Bool, at time: SimTime) -> Bool {
        presented(messageIndex: push.payload.messageIndex, isResend: push.isResend, replacedExisting: replacedExisting, at: time)
    }

    package mutating func summaryShown(_ push: PushNotification, from: Int32, to: Int32, replacedExisting: Bool) {
        summaryShown(messageIndex: push.payload.messageIndex, from: from, to: to, replacedExisting: replacedExisting)
    }

    /// Ends a copy of `message`; false when the message is folded.
    @inline(__always)
    private mutating func endCopy(_ message: Int) -> Bool {
        guard message >= foldedBelow else {
            endFoldedCopy(message)
            return false
        }
        records[slot(message)].inFlight -= 1
        if records[slot(message)].inFlight < 0 { noteOverEnded(message) }
        return true
    }

    /// Ends a copy of folded message `message` (a re-send of a shown one).
    @inline(__always)
    private mutating func endFoldedCopy(_ message: Int) {
        streaming.ghostCopies -= 1
        if streaming.ghostCopies < 0 { noteOverEnded(message) }
    }

    /// More copies of `message` ended than were sent: the books are broken.
    @inline(never)
    private mutating func noteOverEnded(_ message: Int) {
        if inconsistency == nil { inconsistency = "message \(message) had a copy end that was never sent" }
    }

    /// Copies still in flight, summed over messages. The records' sum wraps, with no check
    /// per record (the end of each lane reads it): each adds an `Int32`, and there are far
    /// fewer than 2^32 records.
    package var copiesInFlight: Int64 {
        let live = records.withUnsafeBufferPointer { records in
            var copies: Int64 = 0
            for record in records[liveFrom...] { copies &+= Int64(record.inFlight) }
            return copies
        }
        return streaming.ghostCopies + live
    }

    // MARK: Launches and uploads

    /// The user opened the app at `time`.
    package mutating func launched(at time: SimTime) {
        // The chain's count and the day's, in one place: a balance rule holds them equal.
        counts[.launches] += 1
        launches.launch(at: time)
    }

    /// The extension's log went up to analytics at `time`; `atReconnect`: the
    /// first reconnect after a launch offline.
    @inline(__always)
    package mutating func uploaded(at time: SimTime, atReconnect: Bool) {
        launches.upload(at: time, atReconnect: atReconnect)
        if folding != nil { streaming.upload(at: time) }
    }

    /// Drops folded records and positions no message can reach, once they are
    /// at least half of what is held.
    package mutating func forgetFolded() {
        if liveFrom > 0, liveFrom * 2 >= records.count {
            records.removeFirst(liveFrom)
            recordsOffset += liveFrom
            liveFrom = 0
        }
        // Positions of folded messages are only ever asked by summaries, which skip them.
        var forgettable = 0
        while forgettable < positionToMessage.count, Int(positionToMessage[forgettable]) < foldedBelow {
            forgettable += 1
        }
        if forgettable > 0, forgettable * 2 >= positionToMessage.count {
            positionToMessage.removeFirst(forgettable)
            positionsOffset += forgettable
        }
    }

    /// Keeps the first contradiction found.
    package mutating func noteInconsistency(_ description: String) {
        if inconsistency == nil { inconsistency = description }
    }

    /// Marks the first live record folded.
    package mutating func advanceLive() {
        liveFrom += 1
        foldedBelow += 1
    }

    /// The first record not folded, if any.
    package var firstLive: Record? { liveFrom < records.count ? records[liveFrom] : nil }
}
