import Base
import FakeAPNs

extension World {
    /// The app's APNs token rotates; `promptShown`: a reinstall.
    /// - Complexity: O(1) amortized, plus the effects routed.
    package mutating func rotateToken<Observer: WorldObserver>(promptShown: Bool, at now: SimTime, observer: Observer.Type) {
        ledger.counts[.tokenRotations] += 1
        let newToken = DeviceToken(nextTokenNumber)
        nextTokenNumber += 1
        phone.rotateToken(to: newToken, promptShown: promptShown, into: &deviceEffects)
        routeDeviceEffects(at: now, observer: Observer.self)
    }

    /// A scenario's dated steering event (`events`): the actors take it as they take the
    /// drawn events of the same kind (a connectivity change, a launch, a token rotation),
    /// and a settings change where the setting lives (APNs for notifications, iOS for alerts
    /// and display).
    /// - Complexity: O(1) amortized, plus the effects routed.
    package mutating func steer<Observer: WorldObserver>(_ action: SteeringAction, at now: SimTime, observer: Observer.Type) {
        switch action {
        case .online, .offline:
            connectivityChanges(at: now, online: action == .online, observer: Observer.self)
        case .launch:
            launch(at: now, observer: Observer.self)
        case .rotateToken, .reinstall:
            rotateToken(promptShown: action == .reinstall, at: now, observer: Observer.self)
        case .disableNotifications, .enableNotifications:
            apns.setNotificationsEnabled(phone.token, action == .enableNotifications)
        case .disallowAlerts, .allowAlerts:
            phone.changeSettings(alertsAllowed: action == .allowAlerts)
        case .displayOff, .displayOn:
            phone.changeSettings(displayEnabled: action == .displayOn)
        }
    }
}
