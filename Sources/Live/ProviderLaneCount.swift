import Base

/// What `pushsim provider` counts for each device app: one case per column of
/// `provider.csv` (the case's name in snake_case). Adding a count is adding its case here,
/// counting it where it happens, and its line in docs/provider.md.
public enum ProviderLaneCount: Int, Counter {
    /// Mails for the device app that reached the provider (the scenario's, drawn from the seed).
    case messages
    /// Pushes sent for mails, first tries (`pushes_per_message`'s numerator with `resent` and `retried`).
    case sent
    /// Pushes sent again for a re-request.
    case resent
    /// Pushes sent again after no answer, a 429 or a 5xx.
    case retried
    /// Answers 200 from APNs.
    case accepted
    /// Answers other than 200 from APNs (each attempt's).
    case refusals
    /// Attempts that got no answer: the connection failed, or the time ran out.
    case noAnswers
    /// Pushes given up after APNs refused them (no retry left, or not retried: 400, 403, 410, …).
    case rejected
    /// Pushes given up after no answer came and no retry was left.
    case networkFailures
    /// Retries given up because the provider was down when they were due.
    case outageFailures
    /// Mails dropped: no valid token known (before a registration, after a 410).
    case droppedNoToken
    /// Mails dropped: for a folder whose subscription the provider has not synced yet.
    case droppedStaleSubscription
    /// Mails dropped during a provider outage.
    case droppedOutage
    /// Registrations received.
    case registrations
    /// Re-requests received.
    case rerequests
    /// Re-requests answered 200 (something was re-sent).
    case rerequestsServed
    /// Re-requests answered with an error (nothing held, no token, down).
    case rerequestErrors
    /// Re-requested positions past the payload TTL.
    case positionsExpired
}

/// One device app's counts at the provider.
public typealias ProviderLaneCounts = CounterSet<ProviderLaneCount, 20>
