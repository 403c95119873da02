import Base
import Device
import FakeAPNs
import Provider

/// What watches a world play without a say in it: it is shown each message and
/// occurrence before the world hands it to its actor, and each effect the world
/// routes, and answers nothing.
///
/// The world's handlers are generic over it and call its hooks as static functions
/// (`Observer.routing(effect, at: now, in: &self)`), so a handler specialized for
/// `Unobserved`, whose hooks are empty, is exactly the handler without hooks: no call,
/// no branch, no argument (an observer passed as a value, even an empty one, cost an
/// argument on every call: docs/performance.md). An observer that keeps something
/// keeps it in the world (`World.recorder`), and reads there only the world's own
/// routing state (the push pool), never an actor's.
package protocol WorldObserver {
    /// Whether the lane's actors should report what they otherwise keep to themselves
    /// (where APNs holds a notification, every save of the extension's position) and
    /// the ledger keep every record to the end of the lane. Neither changes what any
    /// actor does or how a message is counted (`APNsConfiguration.reportsHolding`,
    /// `PhoneConfiguration.reportsSavedPosition`, `Ledger`'s folding).
    static var wantsEverything: Bool { get }

    /// A lane starts: app `lane` of the device, at time 0.
    static func laneStarts(_ lane: Int, in world: inout World)
    /// The world is about to hand `message` to its actor at `now` (the push pool still
    /// holds the push a message names by its slot).
    static func handling(_ message: WorldEvent, at now: SimTime, in world: inout World)
    /// The user's timeline does `event` at `now` (before the world acts on it).
    static func occurring(_ event: TimelineEvent, at now: SimTime, in world: inout World)
    /// A mail reached the provider and became message `messageIndex`.
    static func mailArrived(_ messageIndex: Int32, at now: SimTime, in world: inout World)
    /// APNs answered the request of the message being handled.
    static func apnsAnswered(_ response: APNsResponse, at now: SimTime, in world: inout World)
    /// The world routes what the provider answered.
    static func routing(_ effect: ProviderEffect, at now: SimTime, in world: inout World)
    /// The world routes what APNs answered.
    static func routing(_ effect: APNsEffect, at now: SimTime, in world: inout World)
    /// The world routes what the phone answered.
    static func routing(_ effect: DeviceEffect, at now: SimTime, in world: inout World)
    /// The lane ended at `end`; the ledger holds every message's record
    /// (`wantsEverything` keeps them all), not yet folded.
    static func laneEnds(at end: SimTime, in world: inout World)
}

/// The observer of an untraced world: it watches nothing. Every hook is empty and
/// inlined, so the handlers specialized for it are the ones without hooks.
package enum Unobserved: WorldObserver {
    package static var wantsEverything: Bool { false }
    @inline(__always) package static func laneStarts(_ lane: Int, in world: inout World) {}
    @inline(__always) package static func handling(_ message: WorldEvent, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func occurring(_ event: TimelineEvent, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func mailArrived(_ messageIndex: Int32, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func apnsAnswered(_ response: APNsResponse, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func routing(_ effect: ProviderEffect, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func routing(_ effect: APNsEffect, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func routing(_ effect: DeviceEffect, at now: SimTime, in world: inout World) {}
    @inline(__always) package static func laneEnds(at end: SimTime, in world: inout World) {}
}

/// The observer of a traced device's world: every hook hands what it is shown to the
/// world's `TraceRecorder`, with the push pool where a message names its push by slot.
/// Each hook costs O(1) amortized; `laneEnds`, O(n log n) in the lane's events
/// (`TraceRecorder`).
package enum Recording: WorldObserver {
    package static var wantsEverything: Bool { true }
    package static func laneStarts(_ lane: Int, in world: inout World) { world.recorder.laneStarts(lane) }
    package static func handling(_ message: WorldEvent, at now: SimTime, in world: inout World) {
        world.recorder.handling(message, at: now, pool: world.pushPool)
    }
    package static func occurring(_ event: TimelineEvent, at now: SimTime, in world: inout World) {
        world.recorder.occurring(event, at: now)
    }
    package static func mailArrived(_ messageIndex: Int32, at now: SimTime, in world: inout World) {
        world.recorder.mailArrived(messageIndex, at: now)
    }
    package static func apnsAnswered(_ response: APNsResponse, at now: SimTime, in world: inout World) {
        world.recorder.apnsAnswered(response, at: now)
    }
    package static func routing(_ effect: ProviderEffect, at now: SimTime, in world: inout World) {
        world.recorder.routing(effect, at: now)
    }
    package static func routing(_ effect: APNsEffect, at now: SimTime, in world: inout World) {
        world.recorder.routing(effect, at: now)
    }
    package static func routing(_ effect: DeviceEffect, at now: SimTime, in world: inout World) {
        world.recorder.routing(effect, at: now)
    }
    package static func laneEnds(at end: SimTime, in world: inout World) {
        world.recorder.laneEnds(at: end, ledger: world.ledger)
    }
}
