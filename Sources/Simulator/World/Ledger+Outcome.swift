extension Ledger {
    /// The one bucket a message ends in, by the ledger's precedence: its own
    /// notification shown; else covered by a summary; else a copy still in flight;
    /// else lost, under the reason of its first loss. Written once, here: the fold
    /// counts by it and a trace tells it.
    package enum Outcome: Equatable, Sendable {
        case delivered
        case summarized
        case pending
        /// Lost; the raw value of its first `LossReason` (the aggregate's index).
        case lost(reasonRawValue: UInt8)
        /// Fits no bucket: the accounting identity is broken (`FoldPass.unaccounted`).
        case unaccounted
    }
}

extension Ledger.Record {
    /// The message's bucket as its record stands now (final once the message has settled).
    /// - Complexity: O(1).
    @inline(__always)
    package var outcome: Ledger.Outcome {
        if shownAt >= 0 { return .delivered }
        if summarized { return .summarized }
        if inFlight > 0 { return .pending }
        if firstLoss != 0 { return .lost(reasonRawValue: firstLoss) }
        return .unaccounted
    }
}
