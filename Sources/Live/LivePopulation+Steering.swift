import Base
import Device
import FakeAPNs
import Simulator

/// Where a steering action came from.
package enum SteeringSource: Sendable, Equatable, CaseIterable {
    /// The scenario's dated `events`.
    case scenario
    /// A request to the control API.
    case controlAPI

    /// Its name in the log and `steering.csv`.
    /// - Complexity: O(1).
    package var text: String {
        switch self {
        case .scenario: "scenario"
        case .controlAPI: "control API"
        }
    }
}

/// One steering action taken: which device app did what, when, asked by whom.
package struct SteeringRecord: Sendable, Equatable {
    package var time: SimTime
    package var lane: Int32
    package var action: SteeringAction
    package var source: SteeringSource
}

extension LivePopulation {
    /// The device apps `action` acts on when asked for app `app` of device `device`: that
    /// one, or every app of the device for a device-wide action (its network). Empty: no such device app.
    /// - Complexity: O(l) in the device apps.
    package func lanes(steeredBy action: SteeringAction, device: Int32, app: Int32) -> [Int32] {
        guard lanes.contains(where: { $0.device == device && $0.app == app }) else { return [] }
        return lanes.indices.filter { lanes[$0].device == device && (action.isDeviceWide || lanes[$0].app == app) }.map(Int32.init)
    }

    /// A test steers app `app` of device `device` now (the control API): the action goes to
    /// the phone as a message on the agenda, at the clock's reading, and happens before this
    /// returns (unless the clock holds for the provider's answers: then as it goes on).
    /// Answers the device apps it acted on (empty: no such device app).
    /// - Complexity: O(l) in the device apps, plus the events it causes.
    package mutating func steer(_ action: SteeringAction, device: Int32, app: Int32) -> [Int32] {
        let targets = lanes(steeredBy: action, device: device, app: app)
        for lane in targets { agenda.send(.steered(lane: lane, action), arrivingAt: now) }
        drain(before: now + 1)
        return targets
    }

    /// The device app at `lane` does `action` now, as the simulation's world does it
    /// (`World.steer`): through the phone and APNs, what they answer routed as usual.
    /// - Complexity: O(1) amortized, plus the effects routed.
    mutating func apply(_ action: SteeringAction, lane: Int32, from source: SteeringSource, at now: SimTime) {
        let index = Int(lane)
        steerings.append(SteeringRecord(time: now, lane: lane, action: action, source: source))
        lanes[index].note(.steered(action, source), message: nil, at: now)
        switch action {
        case .online, .offline:
            lanes[index].phone.setOnline(action == .online, at: now, into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .launch:
            launch(lane: lane, at: now)
        case .rotateToken, .reinstall:
            rotateToken(lane: lane, promptShown: action == .reinstall, at: now)
        case .disableNotifications, .enableNotifications:
            apns.setNotificationsEnabled(lanes[index].phone.token, action == .enableNotifications)
        case .disallowAlerts, .allowAlerts:
            lanes[index].phone.changeSettings(alertsAllowed: action == .allowAlerts)
        case .displayOff, .displayOn:
            lanes[index].phone.changeSettings(displayEnabled: action == .displayOn)
        }
    }

    /// A team's own test token (32 bytes) for app `app` (its topic's index), as pushy's
    /// mock server takes one: it becomes a device app of its own device, numbered after the
    /// scenario's, installed, registered with APNs and online, with every setting allowed;
    /// nothing happens to it on its own (no timeline), only what a test steers. Answers its
    /// lane, or nil when the bytes are not 32 or the population already holds them.
    /// - Complexity: amortized O(1), plus the events it causes.
    package mutating func registerTestToken(_ bytes: [UInt8], app: Int32) -> Int32? {
        let lane = Int32(lanes.count)
        guard let token = tokens.register(bytes, lane: lane) else { return nil }
        let device = Int32(scenario.devices) + testDevices
        testDevices += 1
        // Its device id from its token: the same token gives the same device on every start.
        var words = SplitMix64(seed: bytes.reduce(0) { SplitMix64.mix($0 ^ UInt64($1)) })
        let deviceID = words.next()
        let traits = World.DeviceTraits(testDeviceID: deviceID)
        let configuration = plan.phoneConfiguration(device: traits, alertsNotAllowed: false, displayOff: false,
                                                    reportsSavedPosition: false, copyBounds: nil)
        var apnsChoice = RandomStream.apnsChoice.generator(seed: scenario.seed, user: UInt64(device), lane: Int(app))
        var deviceApp = DeviceApp(device: device, app: app,
                                  phone: Phone(configuration: configuration, token: token, deviceID: deviceID,
                                               deviceIDHash: UInt32(truncatingIfNeeded: SplitMix64.mix(deviceID))),
                                  streams: LaneStreams(seed: scenario.seed, user: Int(device), app: Int(app)),
                                  apnsCoin: SplitMix64(seed: apnsChoice.next()))
        deviceApp.tokens = [token]
        deviceApp.counts[.registrations] += 1
        deviceApp.note(.registered, message: nil, at: now)
        apns.register(token)
        lanes.append(deviceApp)
        lanes[Int(lane)].phone.setOnline(true, at: now, into: &deviceEffects)
        routeDeviceEffects(lane: lane, at: now)
        drain(before: now + 1)
        return lane
    }
}
