@testable import Base
@testable import FakeAPNs
@testable import Provider
@testable import Simulator
import Testing

/// The ledger of a long lane folds each message once its fate can no longer change,
/// branch by branch of `Ledger.isSettled`; every script is also played on a ledger
/// that keeps every record, and both must fold to the same aggregate.
@Suite("Ledger: folding a long lane as it plays")
struct LedgerFoldingTests {
    static let hour = TimeUnit.hour
    static let day = TimeUnit.day
    static let folding = Ledger.Folding(recordsHeld: 1, block: 0, days: 4, deviceIDHash: 0)

    static func push(_ message: Int32, position: Int32? = nil, resend: Bool = false) -> PushNotification {
        LedgerTests.push(message, position: position, resend: resend)
    }

    /// A ledger and the aggregate of its lane, which a folding ledger folds into as it plays.
    struct Book {
        var ledger = Ledger()
        var aggregate = StrategyAggregate(days: 4)

        /// A mail at `time` (folding first, for a folding ledger).
        mutating func mail(at time: SimTime) -> Int32 { ledger.newMessage(at: time, folding: &aggregate) }

        /// A mail at `time` that the provider dropped: only a trigger for folding.
        mutating func droppedMail(at time: SimTime) {
            ledger.dropped(messageIndex: mail(at: time), .providerOutage)
        }

        /// For a folding ledger: messages below `index` are folded, the others held.
        func expectFolded(below index: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            if ledger.folding != nil { #expect(ledger.foldedBelow == index, sourceLocation: sourceLocation) }
        }
    }

    /// Position 1 delivered and saved by the extension, position 2 lost (at 1 h and 2 h).
    static func savedOneLostTwo(_ book: inout Book) {
        deliver(&book, arrival: hour, shownAt: hour + 1, position: 1)
        book.ledger.positionSaved(1)
        lose(&book, arrival: 2 * hour, position: 2)
    }

    /// A mail at `arrival` whose original is sent (numbered at `position`), logged and shown at `shownAt`.
    static func deliver(_ book: inout Book, arrival: SimTime, shownAt: SimTime, position: Int32? = nil) {
        let message = book.mail(at: arrival)
        let original = push(message, position: position)
        book.ledger.pushSent(original)
        book.ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: message)
        book.ledger.reachedDevice(original)
        book.ledger.logged(original, at: shownAt)
        book.ledger.presented(original, replacedExisting: false, at: shownAt)
    }

    /// A mail at `arrival` sent at `position` and coalesced away at APNs.
    @discardableResult
    static func lose(_ book: inout Book, arrival: SimTime, position: Int32? = nil) -> Int32 {
        let message = book.mail(at: arrival)
        let original = push(message, position: position)
        book.ledger.pushSent(original)
        book.ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: message)
        book.ledger.lost(original, .apnsCoalesced)
        return message
    }

    /// Plays `script` on a folding ledger and on one that keeps every record; both
    /// must fold to the same aggregate. Returns the folding one.
    @discardableResult
    static func twins(_ script: (inout Book) -> Void) -> Ledger {
        var folding = Book()
        folding.ledger.reset(folding: Self.folding)
        var whole = Book()
        script(&folding)
        script(&whole)
        #expect(whole.ledger.foldedBelow == 0)
        #expect(folding.ledger.fold(into: &folding.aggregate) == nil)
        #expect(whole.ledger.fold(into: &whole.aggregate) == nil)
        #expect(folding.aggregate == whole.aggregate)
        #expect(LedgerTests.withAPNsCounts(folding.aggregate).checkIdentity() == nil)
        return folding.ledger
    }

    @Test("an unnumbered message folds at the next mail once its copy ended and its log is older")
    func unnumberedMessageFolds() {
        let ledger = Self.twins { book in
            Self.deliver(&book, arrival: Self.hour, shownAt: Self.hour + 1)
            // The next mail at the instant of the log: not yet (an upload then could miss it).
            book.droppedMail(at: Self.hour + 1)
            book.expectFolded(below: 0)
            book.droppedMail(at: 2 * Self.hour)
            book.expectFolded(below: 2)
        }
        #expect(ledger.records.count <= 2)
    }

    @Test("a copy in flight keeps its message, and every later one, held")
    func copyInFlightBlocks() {
        Self.twins { book in
            let first = book.mail(at: Self.hour)
            book.ledger.pushSent(Self.push(first))
            Self.deliver(&book, arrival: 2 * Self.hour, shownAt: 2 * Self.hour + 1)
            book.droppedMail(at: 3 * Self.hour)
            book.expectFolded(below: 0)
            // The copy ends: both fold at the next mail.
            book.ledger.lost(Self.push(first), .apnsExpired)
            book.droppedMail(at: 4 * Self.hour)
            book.expectFolded(below: 3)
        }
    }

    @Test("a lost numbered message stays while the extension can reach it, and folds once its saved position passes it")
    func lostNumberedMessageWaitsForTheSavedPosition() {
        Self.twins { book in
            Self.savedOneLostTwo(&book)
            Self.deliver(&book, arrival: 3 * Self.hour, shownAt: 3 * Self.hour + 1, position: 3)
            book.droppedMail(at: 4 * Self.hour)
            // Position 2 is above the saved 1: a gap the extension finds may still summarize it.
            book.expectFolded(below: 1)
            book.ledger.positionSaved(3)
            book.droppedMail(at: 5 * Self.hour)
            book.expectFolded(below: 4)
        }
    }

    @Test("with nothing saved, the oldest numbered message folds: the first position saved will be above it")
    func nothingSavedFolds() {
        Self.twins { book in
            Self.lose(&book, arrival: Self.hour, position: 1)
            book.droppedMail(at: 2 * Self.hour)
            book.expectFolded(below: 1)
        }
    }

    @Test("an open re-request keeps its positions until the provider served it and the invocation ended")
    func openRerequestKeepsItsPositions() {
        Self.twins { book in
            Self.savedOneLostTwo(&book)
            // Position 3 arrives: the extension saves it and re-requests 2.
            let third = book.mail(at: 3 * Self.hour)
            let push3 = Self.push(third, position: 3)
            book.ledger.pushSent(push3)
            book.ledger.positionSaved(3)
            book.ledger.rerequested()
            book.ledger.rerequestOpened(position: 3, gap: 1, invocation: 0)
            book.droppedMail(at: 4 * Self.hour)
            book.expectFolded(below: 1)
            book.ledger.rerequestServed(invocation: 0)
            book.droppedMail(at: 5 * Self.hour)
            book.expectFolded(below: 1)
            // The answer was an error: "you have missed messages" covers 2 and 3.
            book.ledger.rerequestEnded(invocation: 0)
            book.ledger.summaryShown(push3, from: 2, to: 3, replacedExisting: false)
            book.droppedMail(at: 6 * Self.hour)
            book.expectFolded(below: 5)
        }
    }

    @Test("numbering under the old device id hash folds once the id changed")
    func oldHashFolds() {
        Self.twins { book in
            Self.savedOneLostTwo(&book)
            book.droppedMail(at: 3 * Self.hour)
            book.expectFolded(below: 1)
            book.ledger.deviceIDChanged(hash: 8)
            book.droppedMail(at: 4 * Self.hour)
            book.expectFolded(below: 3)
        }
    }

    @Test("a re-send of a folded shown message counts its copy, then a duplicate, as if it were held")
    func resendOfAFoldedMessage() {
        Self.twins { book in
            Self.deliver(&book, arrival: Self.hour, shownAt: Self.hour + 1, position: 1)
            book.droppedMail(at: 2 * Self.hour)
            book.expectFolded(below: 1)
            let resend = Self.push(0, position: 1, resend: true)
            book.ledger.pushSent(resend)
            #expect(book.ledger.copiesInFlight == 1)
            book.ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: 0)
            book.ledger.reachedDevice(resend)
            book.ledger.logged(resend, at: 3 * Self.hour)
            book.ledger.presented(resend, replacedExisting: false, at: 3 * Self.hour)
            #expect(book.ledger.copiesInFlight == 0)
            #expect(book.ledger.duplicatesShown == 1)
            // A tap on it after it was folded is still one opened message.
            book.ledger.reached(Ledger.Stage.opened, messageIndex: 0)
        }
    }

    @Test("a copy of a folded message ending twice is an inconsistency, as for a held one")
    func ghostCopyEndingTwice() {
        var book = Book()
        book.ledger.reset(folding: Self.folding)
        Self.deliver(&book, arrival: Self.hour, shownAt: Self.hour + 1)
        _ = book.mail(at: 2 * Self.hour)
        #expect(book.ledger.foldedBelow == 1)
        book.ledger.lost(Self.push(0), .apnsExpired)
        #expect(book.ledger.fold(into: &book.aggregate) == "message 0 had a copy end that was never sent")
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
        let ledger = Self.twins { book in
            Self.deliver(&book, arrival: 10 * Self.hour, shownAt: 10 * Self.hour + 1)
            book.droppedMail(at: 11 * Self.hour)
            let instants = Set(launches + uploads).sorted()
            for time in instants {
                if launches.contains(time) { book.ledger.launched(at: time) }
                if uploads.contains(time) { book.ledger.uploaded(at: time, atReconnect: !launches.contains(time)) }
            }
        }
        #expect(ledger.foldedBelow == 1)
    }
}
