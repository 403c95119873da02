import Base
import Device
import FakeAPNs
import Provider

/// The one place where what an actor answers (its effects) becomes messages between the
/// actors, drawn delays, outcomes and counts: for `run`'s world (`World`), `serve`'s live
/// population and `pushsim provider` alike. A caller supplies only its lane: how a message
/// reaches its agenda (or the wire), where the device app's random streams are, its clock,
/// and its books (`…Note`s, which each caller records its own way). Which message an effect
/// becomes, after which delay drawn from which stream, and what loss it counts as, is
/// decided here and nowhere else (docs/architecture.md, "The path of one mail").
///
/// What each draw is, and from which stream, is said once too (`ChainDraws`, `LaneStreams`);
/// the lane only performs it where its streams live (a world from the lane's tapes of them,
/// `SampleTape`, shared by every strategy; serve from each device app's own).
///
/// Generic and inlined: a world's routing specializes to direct calls, as if written inline.
package enum EffectRouter {
    /// Routes one of the provider's effects through `lane`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package static func route<Lane: ProviderEffectLane>(_ effect: ProviderEffect, at now: SimTime, through lane: inout Lane) {
        switch effect {
        case .send(let push):
            lane.note(.sent(push, isRetry: false), at: now)
            lane.sendToAPNs(push, attempt: 0, at: now)
        case .sendRetry(let push, let attempt):
            lane.note(.sent(push, isRetry: true), at: now)
            lane.sendToAPNs(push, attempt: attempt, at: now)
        case .retry(let push, let attempt, let after):
            lane.note(.retryScheduled, at: now)
            lane.retry(push, attempt: attempt, due: now + after)
        case .answer(let answer):
            lane.note(.rerequestAnswered(ok: answer.ok), at: now)
            lane.answerRerequest(invocation: answer.invocation, ok: answer.ok, at: now)
        case .positionsExpired(let count):
            lane.note(.positionsExpired(count), at: now)
        case .failed(let push, let failure):
            lane.note(.failed(push, failure, loss: LossReason(failure)), at: now)
        case .dropped(let mail):
            lane.note(.dropped(messageIndex: mail.messageIndex, mail.reason, loss: LossReason(mail.reason)), at: now)
        }
    }

    /// Routes one of APNs's effects through `lane`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package static func route<Lane: APNsEffectLane>(_ effect: APNsEffect, at now: SimTime, through lane: inout Lane) {
        switch effect {
        case .deliver(let push):
            let delay = lane.deliveryDelay(for: push.token)
            lane.send(.pushReachesDevice(lane.park(push, attempt: 0)), arrivingAt: now + delay)
        case .deferForPower(let token):
            let delay = lane.powerDelay(for: token)
            lane.send(.powerWindowOpens(token), arrivingAt: now + delay)
        case .discard(let push, let reason):
            lane.discarded(push, reason, loss: LossReason(reason), at: now)
        case .held:
            // Told only under `APNsConfiguration.reportsHolding`, for a traced world's observer.
            break
        }
    }

    /// Routes one of the phone's effects through `lane`. `handedOver`: the slot of the push
    /// just given to `Phone.receive` (-1: none), which `.deliveryFailed` sends back to APNs.
    /// Answers whether it did (the slot is then not free).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package static func route<Lane: DeviceEffectLane>(_ effect: DeviceEffect, handedOver: PushSlot, at now: SimTime,
                                                      through lane: inout Lane) -> Bool {
        switch effect {
        case .connected(let token):
            lane.note(.online, at: now)
            lane.sendNow(.connectionReachesAPNs(token))
        case .disconnected(let token):
            lane.note(.offline, at: now)
            lane.sendNow(.disconnectionReachesAPNs(token))
        case .deliveryFailed:
            precondition(handedOver >= 0, "a delivery failed with no push handed over")
            lane.note(.bounced, at: now)
            lane.sendNow(.bounceReachesAPNs(handedOver))
            return true
        case .received(let message, let isResend, let logged):
            lane.note(.received(messageIndex: message, isResend: isResend, logged: logged), at: now)
        case .logUploaded(let atReconnect):
            lane.note(.logUploaded(atReconnect: atReconnect), at: now)
        case .appUpdated:
            lane.note(.appUpdated, at: now)
        case .rerequest(let position, let gap, let invocation):
            lane.callProvider(.rerequest(position: position, gap: gap, invocation: invocation), at: now)
        case .startDeadline(let invocation, let after):
            lane.send(.extensionDeadline(lane: lane.routedLane, invocation: invocation), arrivingAt: now + after)
        case .presented(let message, let isResend, let replacedExisting, let run):
            // The user may tap a message's own notification the first time it is shown.
            if lane.presented(messageIndex: message, isResend: isResend, replacedExisting: replacedExisting, run: run, at: now),
               let delay = lane.tapDelay(), now + delay < lane.end {
                lane.send(.tapped(lane: lane.routedLane, messageIndex: message), arrivingAt: now + delay)
            }
        case .rerequestAnswerMissed:
            lane.note(.answerMissed, at: now)
        case .summaryShown(let message, let from, let to, let replacedExisting):
            lane.note(.summaryShown(messageIndex: message, from: from, to: to, replacedExisting: replacedExisting), at: now)
        case .notShown(let message, let reason):
            lane.note(.notShown(messageIndex: message, reason, loss: LossReason(reason)), at: now)
        case .tokenChanged(let old, let new):
            lane.sendNow(.tokenChangeReachesAPNs(old: old, new: new))
        case .registered(let token, let hash):
            lane.callProvider(.register(token, deviceIDHash: hash), at: now)
        case .subscriptionsSynced(let generation):
            lane.callProvider(.subscriptions(generation: generation), at: now)
        case .positionSaved(let position):
            lane.note(.positionSaved(position), at: now)
        case .background(let message, let fate):
            lane.note(.background(messageIndex: message, fate), at: now)
        }
        return false
    }
}

/// The messages the router sends between APNs and a phone: each place's agenda carries
/// them as its own type (a world's `WorldEvent`, serve's `LiveMessage`), which names the
/// device app where it must be found (`lane`; a world holds one, and ignores it).
package protocol DeviceAppMessage {
    static func connectionReachesAPNs(_ token: DeviceToken) -> Self
    static func disconnectionReachesAPNs(_ token: DeviceToken) -> Self
    static func bounceReachesAPNs(_ slot: PushSlot) -> Self
    static func tokenChangeReachesAPNs(old: DeviceToken, new: DeviceToken) -> Self
    static func powerWindowOpens(_ token: DeviceToken) -> Self
    static func pushReachesDevice(_ slot: PushSlot) -> Self
    static func extensionDeadline(lane: Int32, invocation: Int32) -> Self
    static func tapped(lane: Int32, messageIndex: Int32) -> Self
}

/// What a place that plays the phones and APNs gives the router: its agenda, its push pool
/// and what it draws from.
package protocol DeliveryLane {
    associatedtype Message: DeviceAppMessage
    /// Sends `message` to arrive at `time`.
    mutating func send(_ message: Message, arrivingAt time: SimTime)
    /// Sends `message` to arrive now, before anything in flight.
    mutating func sendNow(_ message: Message)
    /// Parks `push` for a message to carry by slot.
    mutating func park(_ push: PushNotification, attempt: Int32) -> PushSlot
}

/// What APNs's effects need: besides the agenda, the streams of the device app a token
/// belongs to, and its books.
package protocol APNsEffectLane: DeliveryLane {
    /// APNs → device latency for the device app that holds `token`: `ChainDraws.apnsToDevice`
    /// from its `apnsLatency` stream (a world reads it from the lane's tape of that stream).
    mutating func deliveryDelay(for token: DeviceToken) -> SimDuration
    /// How long APNs waits for the power window of the device app that holds `token`:
    /// `ChainDraws.powerDelay` from its `power` stream.
    mutating func powerDelay(for token: DeviceToken) -> SimDuration
    /// APNs discarded `push` it had accepted, which counts as `loss`.
    mutating func discarded(_ push: PushNotification, _ reason: APNsDiscardReason, loss: LossReason, at now: SimTime)
}

/// What a phone's effects need: the device app whose phone answered, its streams, the
/// run's end (nothing is sent past it), the way its calls reach the provider, and its books.
package protocol DeviceEffectLane: DeliveryLane {
    /// The device app being routed, as its messages name it.
    var routedLane: Int32 { get }
    /// Whether the user taps what was just shown, and after how long: `ChainDraws.tap` from
    /// the device app's `tap` stream (nil: no tap).
    mutating func tapDelay() -> SimDuration?
    /// When the run ends.
    var end: SimTime { get }
    /// The phone calls the provider: in a world a message after a drawn latency, in serve an HTTP request.
    mutating func callProvider(_ call: PhoneCall, at now: SimTime)
    /// The phone showed message `messageIndex`'s own notification. Answers whether this is
    /// the message's first showing (only that one may be tapped). `isResend`: the copy
    /// shown is one the provider re-sent.
    mutating func presented(messageIndex: Int32, isResend: Bool, replacedExisting: Bool, run: ExtensionRun, at now: SimTime) -> Bool
    /// The books: what the phone did.
    mutating func note(_ note: DeviceNote, at now: SimTime)
}

/// What the provider's effects need: how its requests reach APNs and its answers the
/// extension, where its retries wait, and its books.
package protocol ProviderEffectLane {
    /// A request leaves for APNs (`attempt` 0: its first try).
    mutating func sendToAPNs(_ push: PushNotification, attempt: Int32, at now: SimTime)
    /// A retry waits its back-off, until `due`.
    mutating func retry(_ push: PushNotification, attempt: Int32, due: SimTime)
    /// The provider's answer to a re-request leaves for the extension.
    mutating func answerRerequest(invocation: Int32, ok: Bool, at now: SimTime)
    /// The books: what the provider did.
    mutating func note(_ note: ProviderNote, at now: SimTime)
}

/// A phone's call to the provider.
package enum PhoneCall {
    /// The app registers its token (and its device id's hash).
    case register(DeviceToken, deviceIDHash: UInt32)
    /// The app syncs its folder subscriptions up to `generation`.
    case subscriptions(generation: Int32)
    /// The extension asks for the `gap` positions before `position`.
    case rerequest(position: Int32, gap: Int32, invocation: Int32)
}

/// What the router tells a lane's books of a phone's doings.
package enum DeviceNote {
    case online, offline
    /// A push found the device gone and goes back to APNs.
    case bounced
    /// iOS has the push; `logged`: the extension wrote "received" in its log.
    case received(messageIndex: Int32, isResend: Bool, logged: Bool)
    case logUploaded(atReconnect: Bool)
    case appUpdated
    /// The provider's answer came after the network went away.
    case answerMissed
    /// A "you have missed messages" summary stands for positions `from…to`.
    case summaryShown(messageIndex: Int32, from: Int32, to: Int32, replacedExisting: Bool)
    /// The phone had the push and did not show it, which counts as `loss`.
    case notShown(messageIndex: Int32, NotShownReason, loss: LossReason)
    /// The extension saved a position (nil: cleared); told only under `reportsSavedPosition`.
    case positionSaved(Int32?)
    /// A background push met its fate on the device (never drawn).
    case background(messageIndex: Int32, BackgroundFate)
}

/// What the router tells a lane's books of the provider's doings.
package enum ProviderNote {
    /// A request left for APNs (`isRetry`: a retry of an earlier attempt).
    case sent(PushNotification, isRetry: Bool)
    case retryScheduled
    case rerequestAnswered(ok: Bool)
    case positionsExpired(Int32)
    /// The provider gave up on a request, which counts as `loss`.
    case failed(PushNotification, ProviderFailure, loss: LossReason)
    /// The provider dropped a mail before sending it, which counts as `loss`.
    case dropped(messageIndex: Int32, ProviderDropReason, loss: LossReason)
}
