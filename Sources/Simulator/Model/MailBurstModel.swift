import Base

/// Mail that comes in bursts (`mailBursts`): a thread's replies, one sender's batch.
/// Bursts start as the mail's weekly-rhythm Poisson process at `mail.perDay / meanSize`
/// a weekday; a burst holds a geometric number of mails (1, 2, … with mean `meanSize`),
/// the first at its start and each next one `gap` after the one before. The daily mean is
/// `mail.perDay`'s, as without bursts; only the variance grows (a compound Poisson process).
public struct MailBurstModel: Sendable, Equatable {
    /// Mean mails a burst, at least 1 (1: every burst is one mail, the Poisson model).
    public var meanSize: Double
    /// Time from one mail of a burst to the next.
    public var gap: Distribution

    /// A model of bursts of mean size `meanSize` (at least 1), `gap` apart.
    /// - Complexity: O(1).
    public init(meanSize: Double, gap: Distribution) {
        self.meanSize = meanSize
        self.gap = gap
    }

    /// The chance a burst goes on after each of its mails: a geometric size of mean
    /// `meanSize` is 1 + the number of successes before the first stop.
    /// - Complexity: O(1).
    public var continueProbability: Double { meanSize > 1 ? 1 - 1 / meanSize : 0 }

    /// The mean and variance of one device app's mail count over a window in which
    /// `expectedBursts` bursts are expected to start, every burst's mails inside it
    /// (a window much longer than a burst). Compound Poisson with geometric sizes N:
    /// mean = Λ·E[N] = Λ·m, variance = Λ·E[N²] = Λ·m·(2m − 1).
    /// - Complexity: O(1).
    public func countMoments(expectedBursts: Double) -> (mean: Double, variance: Double) {
        (expectedBursts * meanSize, expectedBursts * meanSize * (2 * meanSize - 1))
    }

    /// The mails a window's end cuts off, expected, for bursts starting at `burstsPerDay`
    /// just before it: each burst loses the mails whose offset from its start passes the end,
    /// Λ' · E[gap] · E[N(N − 1)/2] = Λ' · E[gap] · m(m − 1) (`countMoments`' bias, in mails).
    /// - Complexity: O(1).
    public func mailsCutAtEnd(burstsPerDay: Double) -> Double {
        burstsPerDay * gap.mean / Double(TimeUnit.day) * meanSize * (meanSize - 1)
    }
}
