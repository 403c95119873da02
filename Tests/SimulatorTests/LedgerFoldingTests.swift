import FakeAPNs
import Testing
@testable import Simulator

/// The ledger of a long lane folds each message once its fate can no longer change,
/// branch by branch of `Ledger.isSettled`; every script is also played on a ledger
/// that keeps every record, and both must fold to the same aggregate.
@Suite("Ledger: folding a long lane as it plays")
struct LedgerFoldingTests {
    static let hour = TimeUnit.hour
    static let day = TimeUnit.day
    static let folding = Ledger.Folding(recordsHeld: 1, block: 0, days: 4, deviceIDHash: 7)

    static func push(_ message: Int32, position: Int32? = nil, hash: UInt32 = 7, resend: Bool = false) -> PushNotification {
        PushNotification(token: DeviceToken(0),
                         payload: PushPayload(messageIndex: message,
                                              xiva: position.map { XivaInfo(position: $0, deviceIDHash: hash) },
                                              byteCount: 100),
                         isResend: resend)
    }

    /// A mail at `arrival` sent (numbered at `position`), accepted, logged and shown at `shownAt`.
    @discardableResult
    static func deliver(_ ledger: inout Ledger, arrival: SimTime, shownAt: SimTime, position: Int32? = nil) -> Int32 {
        let message = ledger.newMessage(at: arrival)
        let original = push(message, position: position)
        ledger.pushSent(original)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: message)
        ledger.reachedDevice(original)
        ledger.logged(original, at: shownAt)
        ledger.presented(original, replacedExisting: false, at: shownAt)
        return message
    }

    /// A mail at `arrival` sent at `position` and coalesced away at APNs.
    @discardableResult
    static func lose(_ ledger: inout Ledger, arrival: SimTime, position: Int32? = nil) -> Int32 {
        let message = ledger.newMessage(at: arrival)
        let original = push(message, position: position)
        ledger.pushSent(original)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: message)
        ledger.lost(original, .apnsCoalesced)
        return message
    }

    /// Plays `script` on a folding ledger and on one that keeps every record; both
    /// must fold to the same aggregate. Returns the folding one.
    @discardableResult
    static func twins(_ script: (inout Ledger) -> Void) -> Ledger {
        var folding = Ledger()
        folding.reset(folding: Self.folding)
        var whole = Ledger()
        script(&folding)
        script(&whole)
        #expect(whole.foldedBelow == 0)
        var folded = StrategyAggregate(days: 4), kept = StrategyAggregate(days: 4)
        #expect(folding.fold(into: &folded) == nil)
        #expect(whole.fold(into: &kept) == nil)
        #expect(folded == kept)
        #expect(folded.checkIdentity() == nil)
        return folding
    }

    @Test("an unnumbered message folds at the next mail once its copy ended and its log is older")
    func unnumberedMessageFolds() {
        let ledger = Self.twins { ledger in
            Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1)
            // The next mail at the instant of the log: not yet (an upload then could miss it).
            _ = ledger.newMessage(at: Self.hour + 1)
            #expect(ledger.foldedBelow == 0)
            ledger.dropped(messageIndex: 1, .providerOutage)
            _ = ledger.newMessage(at: 2 * Self.hour)
            #expect(ledger.foldedBelow == 2 || ledger.folding == nil)
            ledger.dropped(messageIndex: 2, .providerOutage)
        }
        #expect(ledger.records.count <= 2)
    }

    @Test("a copy in flight keeps its message, and every later one, held")
    func copyInFlightBlocks() {
        Self.twins { ledger in
            let first = ledger.newMessage(at: Self.hour)
            ledger.pushSent(Self.push(first))
            Self.deliver(&ledger, arrival: 2 * Self.hour, shownAt: 2 * Self.hour + 1)
            _ = ledger.newMessage(at: 3 * Self.hour)
            #expect(ledger.foldedBelow == 0)
            ledger.dropped(messageIndex: 2, .providerOutage)
            // The copy ends: both fold at the next mail.
            ledger.lost(Self.push(first), .apnsExpired)
            _ = ledger.newMessage(at: 4 * Self.hour)
            #expect(ledger.foldedBelow == 3 || ledger.folding == nil)
            ledger.dropped(messageIndex: 3, .providerOutage)
        }
    }

    @Test("a lost numbered message stays while the extension can reach it, and folds once its saved position passes it")
    func lostNumberedMessageWaitsForTheSavedPosition() {
        Self.twins { ledger in
            Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1, position: 1)
            ledger.positionSaved(1)
            Self.lose(&ledger, arrival: 2 * Self.hour, position: 2)
            Self.deliver(&ledger, arrival: 3 * Self.hour, shownAt: 3 * Self.hour + 1, position: 3)
            _ = ledger.newMessage(at: 4 * Self.hour)
            // Position 2 is above the saved 1: a gap the extension finds may still summarize it.
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            ledger.dropped(messageIndex: 3, .providerOutage)
            ledger.positionSaved(3)
            _ = ledger.newMessage(at: 5 * Self.hour)
            #expect(ledger.foldedBelow == 4 || ledger.folding == nil)
            ledger.dropped(messageIndex: 4, .providerOutage)
        }
    }

    @Test("with nothing saved, the oldest numbered message folds: the first position saved will be above it")
    func nothingSavedFolds() {
        Self.twins { ledger in
            Self.lose(&ledger, arrival: Self.hour, position: 1)
            _ = ledger.newMessage(at: 2 * Self.hour)
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            ledger.dropped(messageIndex: 1, .providerOutage)
        }
    }

    @Test("an open re-request keeps its positions until the provider served it and the invocation ended")
    func openRerequestKeepsItsPositions() {
        Self.twins { ledger in
            Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1, position: 1)
            ledger.positionSaved(1)
            Self.lose(&ledger, arrival: 2 * Self.hour, position: 2)
            // Position 3 arrives: the extension saves it and re-requests 2.
            let third = ledger.newMessage(at: 3 * Self.hour)
            let push3 = Self.push(third, position: 3)
            ledger.pushSent(push3)
            ledger.positionSaved(3)
            ledger.rerequested()
            ledger.rerequestOpened(position: 3, gap: 1, invocation: 0)
            _ = ledger.newMessage(at: 4 * Self.hour)
            ledger.dropped(messageIndex: 3, .providerOutage)
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            ledger.rerequestServed(invocation: 0)
            _ = ledger.newMessage(at: 5 * Self.hour)
            ledger.dropped(messageIndex: 4, .providerOutage)
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            // The answer was an error: "you have missed messages" covers 2 and 3.
            ledger.rerequestEnded(invocation: 0)
            ledger.summaryShown(push3, from: 2, to: 3, replacedExisting: false)
            _ = ledger.newMessage(at: 6 * Self.hour)
            ledger.dropped(messageIndex: 5, .providerOutage)
            #expect(ledger.foldedBelow == 5 || ledger.folding == nil)
        }
    }

    @Test("numbering under the old device id hash folds once the id changed")
    func oldHashFolds() {
        Self.twins { ledger in
            Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1, position: 1)
            ledger.positionSaved(1)
            Self.lose(&ledger, arrival: 2 * Self.hour, position: 2)
            _ = ledger.newMessage(at: 3 * Self.hour)
            ledger.dropped(messageIndex: 2, .providerOutage)
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            ledger.deviceIDChanged(hash: 8)
            _ = ledger.newMessage(at: 4 * Self.hour)
            ledger.dropped(messageIndex: 3, .providerOutage)
            #expect(ledger.foldedBelow == 3 || ledger.folding == nil)
        }
    }

    @Test("a re-send of a folded shown message counts its copy, then a duplicate, as if it were held")
    func resendOfAFoldedMessage() {
        Self.twins { ledger in
            Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1, position: 1)
            _ = ledger.newMessage(at: 2 * Self.hour)
            ledger.dropped(messageIndex: 1, .providerOutage)
            #expect(ledger.foldedBelow == 1 || ledger.folding == nil)
            let resend = Self.push(0, position: 1, resend: true)
            ledger.pushSent(resend)
            #expect(ledger.copiesInFlight == 1)
            ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: 0)
            ledger.reachedDevice(resend)
            ledger.logged(resend, at: 3 * Self.hour)
            ledger.presented(resend, replacedExisting: false, at: 3 * Self.hour)
            #expect(ledger.copiesInFlight == 0)
            #expect(ledger.duplicatesShown == 1)
            // A tap on it after it was folded is still one opened message.
            ledger.reached(Ledger.Stage.opened, messageIndex: 0)
        }
    }

    @Test("a copy of a folded message ending twice is an inconsistency, as for a held one")
    func ghostCopyEndingTwice() {
        var ledger = Ledger()
        ledger.reset(folding: Self.folding)
        Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour + 1)
        _ = ledger.newMessage(at: 2 * Self.hour)
        ledger.lost(Self.push(0), .apnsExpired)
        var aggregate = StrategyAggregate(days: 4)
        #expect(ledger.fold(into: &aggregate) == "message 0 had a copy end that was never sent")
    }

    /// The talk's measurement for one mail folded an hour after its log, with
    /// launches and uploads coming after: (launch, uploads) instants.
    static let measurementCases: [(launches: [SimTime], uploads: [SimTime])] = [
        ([12 * hour], [12 * hour]),
        ([day + 12 * hour], [day + 12 * hour]),
        ([2 * day + hour], [2 * day + hour]),
        ([12 * hour], [day + 3 * hour]),
        ([12 * hour], [2 * day + hour]),
        ([12 * hour], []),
        ([], []),
    ]

    @Test("measurement of a folded mail: launches and uploads after the fold count as for a held one",
          arguments: measurementCases.indices)
    func measurementAfterTheFold(_ index: Int) {
        let (launches, uploads) = Self.measurementCases[index]
        let ledger = Self.twins { ledger in
            Self.deliver(&ledger, arrival: 10 * Self.hour, shownAt: 10 * Self.hour + 1)
            _ = ledger.newMessage(at: 11 * Self.hour)
            ledger.dropped(messageIndex: 1, .providerOutage)
            let instants = Set(launches + uploads).sorted()
            for time in instants {
                if launches.contains(time) { ledger.launched(at: time) }
                if uploads.contains(time) { ledger.uploaded(at: time, atReconnect: !launches.contains(time)) }
            }
        }
        #expect(ledger.foldedBelow == 1)
    }
}
