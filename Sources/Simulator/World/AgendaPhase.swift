/// Where something stands among everything due at one instant. The kernel's key is
/// (time, source, sequence) with its sources zero-time messages, the timeline and
/// messages in flight; the world orders its timeline by (time, phase), so at one
/// instant the phases come in declaration order; within a phase, the order drawn.
///
/// Ties need equal microseconds, which only scheduled instants (outages, offline
/// windows) and zero delays make; the order is nevertheless fixed, because it
/// decides report bytes.
package enum AgendaPhase: UInt8, Comparable, CaseIterable {
    /// A message that takes no time (a connection or disconnection reaching APNs,
    /// a delivery bouncing off a device that went offline, a token change reaching
    /// APNs, a registration or a subscription sync reaching the provider), sent by
    /// what ran at this very instant. First, in sending order: it is the rest of
    /// what just ran, so nothing else due now comes between.
    case zeroTime
    /// The user's timeline, drawn before the run whatever the strategy, in this
    /// order at one instant: the provider's schedule changes first, then the
    /// device's identity, the app's token and subscriptions, the network, and only
    /// then what meets that state: mail, then the user opening the app. Within one
    /// kind, the order they were drawn in.
    case outage, deviceIDChange, tokenRotation, subscriptionChange, connectivity, mail, launch
    /// Messages in flight (requests, deliveries, answers, timers), in sending
    /// order. After the timeline: what the world does on its own at an instant
    /// (a device going offline at t) is settled before what arrives at t meets it.
    case inFlight

    package static func < (lhs: AgendaPhase, rhs: AgendaPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TimelineEvent {
    /// The event's phase in the agenda's key.
    package var phase: AgendaPhase {
        switch self {
        case .outage: .outage
        case .deviceIDChange: .deviceIDChange
        case .tokenRotation: .tokenRotation
        case .subscriptionChange: .subscriptionChange
        case .connectivity: .connectivity
        case .mail: .mail
        case .launch: .launch
        }
    }
}

extension TimelineEntry {
    /// The agenda's order for a timeline drawn from several sources: (time,
    /// phase); a stable sort keeps each source's drawing order as the sequence.
    package static func agendaOrder(_ lhs: TimelineEntry, _ rhs: TimelineEntry) -> Bool {
        lhs.time < rhs.time || (lhs.time == rhs.time && lhs.event.phase < rhs.event.phase)
    }
}
