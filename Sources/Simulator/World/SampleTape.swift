import Base

/// One lane's draws of one latency stream (provider to APNs, APNs to device, the
/// re-request's round trip, the power deferral, the extension's footprint), drawn
/// once and read by every strategy.
///
/// Each of these streams feeds one sampler only, one uniform a draw, and every
/// strategy starts it afresh from the lane's seed: the k-th draw is the same number
/// whichever strategy asks for it, only how many each asks for differs. So the first
/// strategy played for a lane records its draws here and the next ones read them (a
/// strategy that asks for more extends the tape for the others), as the timeline is
/// drawn once and replayed. Past `capacity` draws a strategy continues the stream on
/// its own from where the tape stopped: the same numbers again, memory bounded.
///
/// A log-normal draw is a quantile table's lookup and interpolation (or an `exp` in
/// the tails), so this saves about 40 instructions a draw for every strategy but
/// the first.
package struct SampleTape {
    /// Draws kept for a lane, at most (32 KB).
    package static let capacity = 1 << 12

    /// The lane's draws so far, in stream order (the world's own: `OwnedBuffer`).
    private var values = OwnedBuffer<SimDuration>(capacity: 256)
    /// The stream after `values.count` draws.
    private var source = SplitMix64(seed: 0)
    /// The draw the strategy being played reads next; past `values.count` (the tape
    /// is full), the strategy draws from `overflow`.
    private var cursor = 0
    /// The stream continued by the strategy being played, past a full tape.
    private var overflow = SplitMix64(seed: 0)
    /// What draws the stream: kept here, so a draw reads no sampler from its caller.
    private var sampler = Sampler(.constant(0))
    /// The sampler's value when it is a constant (it draws nothing: no tape needed).
    private var constant: SimDuration?

    /// An empty tape.
    package init() {}

    /// Starts the tape over for a new lane, whose stream is `stream`, drawn by `sampler`
    /// (the only one that reads this stream).
    /// - Complexity: O(1) (keeps the capacity).
    package mutating func start(_ stream: SplitMix64, drawnBy sampler: Sampler) {
        self.sampler = sampler
        var none = SplitMix64(seed: 0)
        constant = sampler.isConstant ? sampler.sample(&none) : nil
        values.removeAll()
        values.makeUnique()
        source = stream
        cursor = 0
    }

    /// Back to the lane's first draw, for the next strategy.
    /// - Complexity: O(1).
    package mutating func rewind() { cursor = 0 }

    /// Where the strategy being played reads: its next draw (and, past a full tape, its
    /// own continuation of the stream).
    package struct Position {
        fileprivate var cursor: Int
        fileprivate var overflow: SplitMix64
    }

    /// Where the strategy being played reads now.
    package var position: Position { Position(cursor: cursor, overflow: overflow) }

    /// Reads on from `position` (taken on this tape for the same lane).
    package mutating func seek(_ position: Position) {
        cursor = position.cursor
        overflow = position.overflow
    }

    /// The next draw from this stream.
    /// - Complexity: O(1).
    @inline(__always)
    package mutating func next() -> SimDuration {
        if let constant { return constant }
        if cursor < values.count {
            let value = values[cursor]
            cursor &+= 1
            return value
        }
        return extend()
    }

    /// Draws a call of `extend` makes ahead, while there is room: one call, and the sampler's
    /// kind looked up once, for several draws (a lane's last few are drawn for nothing).
    private static let drawnAhead = 16

    /// A draw past what the tape holds: drawn, with the next few, and kept while there is room.
    @inline(never)
    private mutating func extend() -> SimDuration {
        if values.count < Self.capacity {
            let count = Swift.min(Self.drawnAhead, Self.capacity - values.count)
            sampler.sample(count, into: &values, &source)
            let value = values[cursor]
            cursor += 1
            return value
        }
        if cursor == values.count {
            overflow = source
            cursor += 1
        }
        return sampler.sample(&overflow)
    }
}
