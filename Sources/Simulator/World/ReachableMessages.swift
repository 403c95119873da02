/// Which folded messages a copy may still reach the device for, in a long lane
/// that keeps collapse ids: below `unreachableBelow` none can, so Notification
/// Center may drop their ids (`Phone.forgetNotifications(before:)`) and a device's
/// memory stays flat in its volume.
///
/// A copy of a folded message can only be a re-send, and the provider re-sends
/// only positions of its current numbering that a re-request covers. The extension
/// asks for the positions between the one it saved and a newer one, and a position
/// it saves is that of a copy that reached it. So with no copy of a folded message
/// in flight, no gap the extension will ever find reaches a folded position at or
/// below both the saved one and every open re-request's first: copies still in
/// flight are of messages not folded, numbered above every folded one. Positions of
/// an earlier numbering (another device id) are never re-sent.
package struct ReachableMessages {
    package struct Folded {
        package var message: Int32
        package var position: Int32
        package var numberingHash: UInt32
    }

    /// No copy of a message before this one can reach the device again.
    package private(set) var unreachableBelow: Int32 = 0
    /// Folded numbered messages not known unreachable yet, oldest first from `start`.
    private var folded: ContiguousArray<Folded> = []
    private var start = 0
    /// The hash of the provider's current numbering (that of its newest numbered push).
    package var numberingHash: UInt32 = 0

    /// Numbered messages folded and not known unreachable.
    package var count: Int { folded.count - start }

    /// Starts over for another lane.
    /// - Complexity: O(n) in what it held.
    package mutating func reset() {
        unreachableBelow = 0
        folded.removeAll(keepingCapacity: true)
        start = 0
        numberingHash = 0
    }

    /// Message `message` was folded (the oldest not yet folded).
    /// - Complexity: amortized O(1).
    @inline(__always)
    package mutating func folded(_ message: Int32, position: Int32, numberingHash: UInt32) {
        folded.append(Folded(message: message, position: position, numberingHash: numberingHash))
    }

    /// Moves the frontier over folded messages no re-request can reach any more.
    /// `foldedBelow`: messages before it are folded.
    /// - Complexity: O(k) in the messages passed, plus O(r) in the open re-requests.
    package mutating func advance(savedPosition: Int32?, openRanges: ContiguousArray<Ledger.OpenRange>,
                          ghostCopies: Int64, numberedStayOpen: Bool, foldedBelow: Int) {
        // A folded message's re-send on its way could be saved low, or shown.
        guard ghostCopies == 0, !numberedStayOpen else { return }
        var floor = savedPosition ?? .max
        for range in openRanges { floor = min(floor, range.first - 1) }
        var next = start
        while next < folded.count {
            let message = folded[next]
            guard message.position == 0 || message.numberingHash != numberingHash || message.position <= floor else { break }
            next += 1
        }
        start = next
        unreachableBelow = next < folded.count ? folded[next].message : Int32(foldedBelow)
        if start * 2 >= folded.count {
            folded.removeFirst(start)
            start = 0
        }
    }
}
