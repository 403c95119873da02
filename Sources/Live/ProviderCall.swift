import Base
import FakeAPNs

/// A call a phone of the live population makes to the provider (docs/provider-api.md).
/// The population queues them (`LivePopulation.calls`); serve sends them and hands each
/// outcome back (`LivePopulation.answered(_:ok:)`).
package struct ProviderCall: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// The app registered its token; `atInstall`: the registration every app makes when the run starts.
        case register(token: DeviceToken, deviceID: UInt64, deviceIDHash: UInt32, atInstall: Bool)
        /// The app synced its folder subscriptions up to `generation`.
        case subscriptions(generation: Int32)
        /// The extension's invocation `invocation` asks for the `gap` positions before `position`.
        case rerequest(invocation: Int32, position: Int32, gap: Int32, token: DeviceToken, deviceID: UInt64,
                       deviceIDHash: UInt32)
    }

    /// The device app calling (`LivePopulation.lanes`).
    package var lane: Int32
    package var kind: Kind

    /// The call's path under the provider's URL.
    package var path: String {
        switch kind {
        case .register: "/register"
        case .subscriptions: "/subscriptions"
        case .rerequest: "/rerequest"
        }
    }

    /// The call's JSON body.
    /// - Complexity: O(1) (a few dozen bytes).
    package func body(device: Int32, app: Int32, topic: String, tokens: DeviceTokens) -> String {
        var fields: [(String, String)] = [("device", String(device)), ("app", String(app)), ("topic", JSONText.string(topic))]
        func identity(_ token: DeviceToken, _ deviceID: UInt64, _ hash: UInt32) {
            fields += [("deviceId", JSONText.string(Self.hex(deviceID, digits: 16))),
                       ("deviceIdHash", JSONText.string(Self.hex(UInt64(hash), digits: 8))),
                       ("token", JSONText.string(tokens.hex(token)))]
        }
        switch kind {
        case .register(let token, let deviceID, let hash, _):
            identity(token, deviceID, hash)
        case .subscriptions(let generation):
            fields.append(("generation", String(generation)))
        case .rerequest(_, let position, let gap, let token, let deviceID, let hash):
            identity(token, deviceID, hash)
            fields += [("position", String(position)), ("gap", String(gap))]
        }
        return JSONText.object(fields)
    }

    /// `value` in lowercase hex, zero-padded to `digits`.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// How the population calls the provider.
package struct ProviderLink: Sendable, Equatable {
    /// The clock stands still while a call is unanswered (a controlled clock), so a run is
    /// reproducible; a scaled clock goes on and the answer arrives when it arrives.
    package var holdsClock: Bool
    /// Subscription syncs are sent (the scenario has `provider.subscriptions`).
    package var sendsSubscriptions: Bool

    package init(holdsClock: Bool, sendsSubscriptions: Bool) {
        self.holdsClock = holdsClock
        self.sendsSubscriptions = sendsSubscriptions
    }
}
