import Base

/// What a test makes one device app do at an instant, from serve's control API or a
/// scenario's dated `events[]`: the same list for both, so `run` and `serve` can tell the
/// same story. Each is a timeline event (`TimelineEvent.steered`) the actors take as they
/// take the drawn ones.
public enum SteeringAction: String, Sendable, CaseIterable {
    /// The device connects to APNs (every app on it): APNs hands out what it holds.
    case online
    /// The device loses the network (every app on it): APNs keeps one notification per app.
    case offline
    /// The user opens the app: it uploads its log, registers (per policy) and syncs its subscriptions.
    case launch
    /// The app gets a new APNs token (a restore from backup); it registers it at the next launch.
    case rotateToken
    /// The app is removed and installed again: a new token, the extension's storage empty,
    /// the permission prompt (and so a registration) at the next launch.
    case reinstall
    /// Notifications off for the app in Settings: APNs accepts pushes and drops them.
    case disableNotifications
    case enableNotifications
    /// Alerts not allowed for the app: iOS receives pushes and draws nothing.
    case disallowAlerts
    case allowAlerts
    /// The app's notification display off: iOS receives pushes and draws nothing.
    case displayOff
    case displayOn

    /// The action's name in files and requests.
    /// - Complexity: O(1).
    public var name: String { rawValue }

    /// What it does, for docs and the schema.
    /// - Complexity: O(1).
    public var summary: String {
        switch self {
        case .online: "the device connects to APNs (every app on it)"
        case .offline: "the device loses the network (every app on it); APNs keeps the newest notification per app"
        case .launch: "the user opens the app: log upload, registration (per policy), subscription sync"
        case .rotateToken: "the app gets a new token; it registers it at its next launch"
        case .reinstall: "the app is removed and installed again: a new token, empty extension storage, the prompt at the next launch"
        case .disableNotifications: "notifications off in Settings: APNs accepts pushes and drops them"
        case .enableNotifications: "notifications on in Settings again"
        case .disallowAlerts: "alerts not allowed: iOS receives pushes and draws nothing"
        case .allowAlerts: "alerts allowed again"
        case .displayOff: "the app's notification display off: iOS receives pushes and draws nothing"
        case .displayOn: "the app's notification display on again"
        }
    }

    /// Whether it acts on the whole device (its network) rather than one app.
    /// - Complexity: O(1).
    public var isDeviceWide: Bool {
        switch self {
        case .online, .offline: true
        case .launch, .rotateToken, .reinstall, .disableNotifications, .enableNotifications, .disallowAlerts, .allowAlerts,
             .displayOff, .displayOn: false
        }
    }
}

/// A dated steering action of a scenario's `events[]`: app `app` of device `device` does
/// `action` at `at` (from the run's start), in every strategy.
public struct SteeringEvent: Sendable, Equatable {
    public var at: SimTime
    public var device: Int
    public var app: Int
    public var action: SteeringAction

    /// - Complexity: O(1).
    public init(at: SimTime, device: Int, app: Int, action: SteeringAction) {
        self.at = at
        self.device = device
        self.app = app
        self.action = action
    }

    /// Whether it acts on app `lane` of `device`: a device-wide action on each of its apps.
    /// - Complexity: O(1).
    public func applies(device: Int, lane: Int) -> Bool {
        self.device == device && (action.isDeviceWide || app == lane)
    }
}

extension Scenario {
    /// Why `events[]` names an app a device of this scenario does not have under `seed`
    /// (the apps a device has are drawn from the seed), or nil. `run` and `serve` ask it
    /// once the seed is final.
    /// - Complexity: O(e) for e events.
    package func steeringProblem(seed: UInt64) -> String? {
        for (index, event) in events.enumerated() where !event.action.isDeviceWide {
            let apps = World.deviceTraits(chain: chain, seed: seed, user: event.device).apps
            if event.app >= apps {
                return "events[\(index)].app: device \(event.device) has \(apps) app\(apps == 1 ? "" : "s") under seed \(seed) "
                    + "(device.apps draws them), so app \(event.app) does not exist; apps count from 0"
            }
        }
        return nil
    }
}

extension World.DeviceTraits {
    /// A device of one app on current iOS with id `deviceID`: a team's own test token in
    /// serve (`POST /tokens`), which no scenario draws.
    /// - Complexity: O(1).
    package init(testDeviceID deviceID: UInt64) {
        self.init(deviceID: deviceID, legacyIOS: false, olderIOS: false, apps: 1)
    }
}
