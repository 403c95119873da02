@testable import Simulator
import Testing

@Suite("Ledger: which folded messages a copy may still reach")
struct ReachableMessagesTests {
    static let current: UInt32 = 0xabcd
    static let old: UInt32 = 0x1234

    /// Messages 0…4 folded at positions 1…5 of the current numbering.
    static func fiveFolded() -> ReachableMessages {
        var reach = ReachableMessages()
        reach.numberingHash = current
        for message: Int32 in 0..<5 { reach.folded(message, position: message + 1, numberingHash: current) }
        return reach
    }

    static func advance(_ reach: inout ReachableMessages, saved: Int32?, ranges: [(first: Int32, last: Int32)] = [],
                        ghostCopies: Int64 = 0, stayOpen: Bool = false, foldedBelow: Int = 5) {
        let open = ContiguousArray(ranges.enumerated().map {
            Ledger.OpenRange(invocation: Int32($0.offset), first: $0.element.first, last: $0.element.last)
        })
        reach.advance(savedPosition: saved, openRanges: open, ghostCopies: ghostCopies,
                      numberedStayOpen: stayOpen, foldedBelow: foldedBelow)
    }

    @Test("the frontier passes positions at or below the saved one and stops at the first above it")
    func savedPositionBounds() {
        var reach = Self.fiveFolded()
        Self.advance(&reach, saved: 3)
        #expect(reach.unreachableBelow == 3 && reach.count == 2)
        // The extension saves further on: the rest pass, up to what is folded.
        Self.advance(&reach, saved: 9)
        #expect(reach.unreachableBelow == 5 && reach.count == 0)
    }

    @Test("with nothing saved every folded message passes: the first position saved will be above them")
    func nothingSaved() {
        var reach = Self.fiveFolded()
        Self.advance(&reach, saved: nil)
        #expect(reach.unreachableBelow == 5)
    }

    @Test("an open re-request holds back its first position and every later one")
    func openRerequestHolds() {
        var reach = Self.fiveFolded()
        Self.advance(&reach, saved: 5, ranges: [(first: 4, last: 7), (first: 2, last: 3)])
        #expect(reach.unreachableBelow == 1)
        Self.advance(&reach, saved: 5, ranges: [(first: 4, last: 7)])
        #expect(reach.unreachableBelow == 3)
    }

    @Test("a folded message's re-send in flight, or a device id changed without its hash, holds everything")
    func ghostsAndSameHashHold() {
        var reach = Self.fiveFolded()
        Self.advance(&reach, saved: 9, ghostCopies: 1)
        #expect(reach.unreachableBelow == 0)
        Self.advance(&reach, saved: 9, stayOpen: true)
        #expect(reach.unreachableBelow == 0)
        Self.advance(&reach, saved: 9)
        #expect(reach.unreachableBelow == 5)
    }

    @Test("positions of an earlier numbering and unnumbered messages pass whatever is saved")
    func otherNumberingPasses() {
        var reach = ReachableMessages()
        reach.numberingHash = Self.old
        reach.folded(0, position: 7, numberingHash: Self.old)
        reach.folded(1, position: 0, numberingHash: 0)
        // The provider now numbers for a new device id, from 1.
        reach.numberingHash = Self.current
        reach.folded(2, position: 1, numberingHash: Self.current)
        reach.folded(3, position: 2, numberingHash: Self.current)
        Self.advance(&reach, saved: 1, foldedBelow: 4)
        #expect(reach.unreachableBelow == 3)
        // Without the new numbering, position 7 of the old one would be above the saved position.
        var same = ReachableMessages()
        same.numberingHash = Self.old
        same.folded(0, position: 7, numberingHash: Self.old)
        Self.advance(&same, saved: 1, foldedBelow: 1)
        #expect(same.unreachableBelow == 0)
    }
}
