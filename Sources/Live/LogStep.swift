import Device
import FakeAPNs
import Simulator

/// One step of iOS or the extension in a device app's log, as values: the text the
/// inspection API shows is made from them only when it is read (`text`), so a push's
/// steps cost no string building on the request path.
package enum LogStep: Sendable, Equatable {
    case online
    case offline
    /// iOS received a push; `logged`: the extension's step 2 wrote it in its local log.
    case received(logged: Bool)
    /// The push's own notification was shown; `run`: how the extension took part.
    case shown(ExtensionRun)
    /// A "you have missed messages" notification was shown.
    case summaryShown
    case notShown(NotShownReason)
    /// APNs dropped a push it held.
    case dropped(APNsDiscardReason)
    /// The extension asked the provider for positions `from … to`.
    case rerequested(from: Int32, to: Int32)
    /// The extension re-requested, with no provider to ask.
    case rerequestedWithoutProvider
    case rerequestFailed
    /// The provider's answer came after the device lost the network.
    case answerMissed
    case tokenChanged(reinstall: Bool)
    case registered
    case registrationNotTaken
    case logUploaded
    case appUpdated
    /// A test steered the device app (the control API, or the scenario's `events`).
    case steered(SteeringAction, SteeringSource)
    /// APNs accepted a push whose `apns-expiration` was already past on the simulated clock.
    case arrivedExpired
    /// A background push met its fate: never drawn, handed to the app within its budget.
    case background(BackgroundFate)

    /// The step as the inspection API shows it.
    /// - Complexity: O(1).
    package var text: String {
        switch self {
        case .online: "online"
        case .offline: "offline"
        case .received(let logged): logged ? "received (the extension logged it)" : "received"
        case .shown(let run): "shown (" + Self.describe(run) + ")"
        case .summaryShown: "\"you have missed messages\" shown"
        case .notShown(.alertsNotAllowed): "not shown: alerts not allowed"
        case .notShown(.displayOff): "not shown: display off"
        case .dropped(.replaced): "APNs dropped it for a newer push (one kept per app while offline)"
        case .dropped(.expired): "APNs dropped it: its apns-expiration passed"
        case .dropped(.unregistered): "APNs dropped it: the token is no longer valid"
        case .dropped(.disabled): "APNs dropped it: notifications are off for the app"
        case .rerequested(let from, let to): "the extension re-requested positions \(from)…\(to)"
        case .rerequestedWithoutProvider: "the extension re-requested missed pushes (no provider to ask)"
        case .rerequestFailed: "the re-request failed"
        case .answerMissed: "the provider's answer came after the network went away"
        case .tokenChanged(let reinstall): reinstall ? "token changed (reinstall)" : "token changed"
        case .registered: "the app registered its token"
        case .registrationNotTaken: "the provider did not take the registration"
        case .logUploaded: "the app uploaded its log"
        case .arrivedExpired: "arrived already expired: its apns-expiration is before the simulated clock's now"
        case .appUpdated: "the app was updated"
        case .steered(let action, let source): "steered: \(action.name) (\(source.text))"
        case .background(let fate): "background push: " + Self.describe(fate)
        }
    }

    static func describe(_ fate: BackgroundFate) -> String {
        switch fate {
        case .deliveredToApp: "handed to the app (not drawn)"
        case .deferred: "deferred: the hour's budget is spent (held for the next hour, the newest only)"
        case .deliveredAfterDeferral: "handed to the app as the next hour began (not drawn)"
        case .throttled: "throttled: a newer background push took its place"
        case .discardedForceQuit: "discarded: the app was force-quit"
        }
    }

    static func describe(_ run: ExtensionRun) -> String {
        switch run {
        case .ran: "the extension ran"
        case .notRun: "the extension did not run"
        case .killed: "the extension was killed over its memory limit"
        case .timedOut: "the extension ran out of time"
        case .hashMismatch: "the extension found another device's numbering"
        }
    }
}
