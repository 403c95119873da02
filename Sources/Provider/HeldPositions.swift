import Base

/// The provider's numbered positions and what it holds for each: the payload's
/// message and, under a payload TTL, when it was stored. Under a TTL the expired
/// front is forgotten once it is half of what is held. Without one the times are
/// never asked for, so positions are kept as runs of consecutive messages: mail is
/// numbered as it comes, so a run breaks only where mail went unnumbered, and
/// memory grows with those breaks, not with the mail.
///
/// The positions are in `OwnedBuffer`s, written without a uniqueness check each (one a
/// mail, with an array): **a copy shares them** until `ownStorage()`. A provider is one
/// lane's, written by that lane alone; the copy a world keeps to resume from takes its
/// own (`XivaProvider.ownStorage()`), so no two writers share them, whatever thread
/// each runs on.
struct HeldPositions: @unchecked Sendable {
    private struct Timed: BitwiseCopyable {
        var messageIndex: Int32
        var storedAt: SimTime
    }

    private struct Run: BitwiseCopyable {
        var firstPosition: Int32
        var firstMessage: Int32
        var count: Int32
    }

    /// Whether each position's storing time is kept (a payload TTL is set).
    private(set) var keepsTimes = false
    /// Under a TTL: position `p` is `timed[p - 1 - forgotten]`.
    private var timed = OwnedBuffer<Timed>()
    /// Positions `1…forgotten` are past the TTL and no longer held.
    private(set) var forgotten: Int32 = 0
    /// Without a TTL: every position, in runs.
    private var runs = OwnedBuffer<Run>()
    /// The last position handed out (0 before the first).
    private(set) var lastPosition: Int32 = 0

    /// Entries kept in memory: one per position under a TTL, one per run without.
    /// - Complexity: O(1).
    var entries: Int { keepsTimes ? timed.count : runs.count }

    /// Forgets every position; `keepsTimes` for a payload TTL. Keeps capacity.
    /// - Complexity: O(1).
    mutating func removeAll(keepsTimes: Bool) {
        self.keepsTimes = keepsTimes
        timed.removeAll()
        runs.removeAll()
        forgotten = 0
        lastPosition = 0
    }

    /// Makes the positions this value's own: a copy shares them until then.
    /// - Complexity: O(n) in what it holds when shared.
    mutating func ownStorage() {
        timed.makeUnique()
        runs.makeUnique()
    }

    /// Numbers message `messageIndex`, stored at `now`; returns its position.
    /// - Complexity: amortized O(1).
    @inline(__always)
    mutating func append(messageIndex: Int32, storedAt now: SimTime) -> Int32 {
        lastPosition += 1
        if keepsTimes {
            timed.append(Timed(messageIndex: messageIndex, storedAt: now))
        } else if let last = runs.last, last.firstMessage &+ last.count == messageIndex {
            runs[runs.count - 1].count += 1
        } else {
            runs.append(Run(firstPosition: lastPosition, firstMessage: messageIndex, count: 1))
        }
        return lastPosition
    }

    /// The message at `position` (in `forgotten + 1 … lastPosition`).
    /// - Complexity: O(1) under a TTL; O(log runs) without, O(1) in the last run.
    @inline(__always) // Out of line, each call (a re-sent position) was handed a copy of the queue.
    func messageIndex(at position: Int32) -> Int32 {
        if keepsTimes { return timed[Int(position - forgotten) - 1].messageIndex }
        var low = 0, high = runs.count - 1
        if runs[high].firstPosition <= position { low = high }
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].firstPosition <= position { low = middle } else { high = middle - 1 }
        }
        return runs[low].firstMessage + (position - runs[low].firstPosition)
    }

    /// When `position` (in `forgotten + 1 … lastPosition`) was stored; under a TTL only.
    /// - Complexity: O(1).
    func storedAt(_ position: Int32) -> SimTime { timed[Int(position - forgotten) - 1].storedAt }

    /// Forgets the positions past `ttl` at `now` once they are at least half of
    /// those held (expiry only grows with time, so a forgotten position stays expired).
    /// - Complexity: O(log n), and amortized O(1) per position to forget it.
    @inline(__always)
    mutating func forgetExpired(at now: SimTime, ttl: SimDuration) {
        if keepsTimes, timed.count >= 1024 { forgetExpiredFront(at: now, ttl: ttl) }
    }

    @inline(never)
    private mutating func forgetExpiredFront(at now: SimTime, ttl: SimDuration) {
        // Payloads are stored in time order: the expired ones are a prefix.
        var expired = 0, held = timed.count
        while expired < held {
            let middle = (expired + held) / 2
            if now - timed[middle].storedAt >= ttl { expired = middle + 1 } else { held = middle }
        }
        guard expired * 2 >= timed.count else { return }
        timed.removeFirst(expired)
        forgotten += Int32(expired)
    }
}
