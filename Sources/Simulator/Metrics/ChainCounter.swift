import Base

/// Counts along the delivery chain where nothing is lost (in pushes or events): they
/// explain where time, traffic or the queue's numbering went. One case per
/// `summary.csv` column, in column order after `pushes_per_message` (the column is
/// the case's name in snake_case; the stdout table shows the nonzero ones). Adding a
/// counter is adding its case here and counting it where it happens
/// (`ledger.counts[.case] += 1`): the ledger, the aggregate, its merge, the reports
/// and the partial format follow.
public enum ChainCounter: Int, Counter {
    /// Pushes shown without the extension running (iOS < 10).
    case extensionNotRun
    /// Extension invocations killed over the memory limit.
    case extensionKilled
    /// Extension invocations whose time ran out before the re-request answered.
    case extensionTimedOut
    /// Pushes shown as is because they were numbered for another device id.
    case hashMismatches
    /// Pushes that reached the device after a push of a later mail.
    case reordered
    /// Provider retries (network failures, 429, 503).
    case retries
    /// Re-requests answered with an error.
    case rerequestErrors
    /// Re-requested positions the provider no longer held (past the TTL).
    case positionsExpired
    /// APNs token rotations.
    case tokenRotations
    /// Device id changes.
    case deviceIDChanges
    /// Registrations that reached the provider (install included).
    case registrations
    /// App launches (taps included).
    case launches
    /// Folder subscription changes.
    case subscriptionChanges
    /// Re-request answers (ok) that reached the device after it lost the network:
    /// the extension showed "you have missed messages" while the re-sends went on.
    case rerequestAnswersMissed
    /// Device apps that installed a rollout's update during the run.
    case appUpdates
}

/// The chain counters of one world (or summed over many).
public typealias ChainCounts = CounterSet<ChainCounter, 16>
