/// Where an occurrence of the user's timeline stands among those due at one instant.
/// The kernel's key is (time, source, sequence): zero-time messages, then the timeline,
/// then messages in flight. The world sorts its timeline by (time, phase), so at one
/// instant the phases come in declaration order; within a phase, the order drawn.
///
/// Ties need equal microseconds, which only scheduled instants (outages, offline
/// windows) and zero delays make; the order is nevertheless fixed, because it
/// decides report bytes.
package enum TimelinePhase: UInt8, Comparable, CaseIterable {
    /// Drawn before the run whatever the strategy, in this order at one instant: the
    /// provider's schedule changes first, then the device's identity, the app's token
    /// and subscriptions, the network, what a test steers (`events`), and only then what meets
    /// that state: mail, then the user opening the app, then a background push (`background`).
    /// The timeline as a whole comes after the zero-time messages (the rest of what just ran)
    /// and before the messages in flight (what the world does on its own at an instant, a
    /// device going offline at t, is settled before what arrives at t meets it).
    case outage, deviceIDChange, tokenRotation, subscriptionChange, connectivity, steering, mail, launch, backgroundPush

    package static func < (lhs: TimelinePhase, rhs: TimelinePhase) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TimelineEvent {
    /// The event's phase in the agenda's key.
    package var phase: TimelinePhase {
        switch self {
        case .outage: .outage
        case .deviceIDChange: .deviceIDChange
        case .tokenRotation: .tokenRotation
        case .subscriptionChange: .subscriptionChange
        case .connectivity: .connectivity
        case .mail: .mail
        case .launch: .launch
        case .steered: .steering
        case .backgroundPush: .backgroundPush
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
