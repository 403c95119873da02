@testable import Base
@testable import FakeAPNs
import Testing

/// A notification for `token` with the given headers; the message index tells copies apart.
private func push(_ message: Int32, to token: DeviceToken = DeviceToken(1), pushType: PushType = .alert,
                  priority: UInt8 = 10, expiration: Expiration = .absent, collapseID: CollapseID? = nil,
                  byteCount: Int32 = 200) -> PushNotification {
    PushNotification(token: token, pushType: pushType, priority: priority, expiration: expiration,
                     collapseID: collapseID, payload: PushPayload(messageIndex: message, byteCount: byteCount))
}

/// An APNs that knows `tokens`, each with its device offline.
private func server(knowing tokens: [DeviceToken] = [DeviceToken(1)]) -> APNsServer {
    var server = APNsServer()
    for token in tokens { server.register(token) }
    return server
}

/// An APNs answer spelled out field by field (the memberwise initializer is internal).
private func answer(status: UInt16, reason: APNsReason?, timestamp: SimTime?) -> APNsResponse {
    var response = APNsResponse.ok
    response.status = status
    response.reason = reason
    response.timestamp = timestamp
    return response
}

private let second = TimeUnit.second
private let day = TimeUnit.day

@Suite("FakeAPNs: validation")
struct APNsValidationTests {

    /// Sends `push` to a server knowing token 1 whose device is online; returns the
    /// answer and asserts what must accompany it.
    private func outcome(of push: PushNotification) -> (APNsResponse, OwnedBuffer<APNsEffect>) {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        let response = apns.receive(push, at: 0, into: &effects)
        return (response, effects)
    }

    @Test("every reason has the HTTP status and JSON reason string Apple documents: the 32, and no other")
    func reasonTable() {
        // Apple's "Handling notification responses from APNs", status by status.
        let documented: [UInt16: [String]] = [
            400: ["BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
                  "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
                  "MissingTopic", "PayloadEmpty", "TopicDisallowed"],
            403: ["BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
                  "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken"],
            404: ["BadPath"], 405: ["MethodNotAllowed"], 410: ["ExpiredToken", "Unregistered"], 413: ["PayloadTooLarge"],
            429: ["TooManyProviderTokenUpdates", "TooManyRequests"], 500: ["InternalServerError"],
            503: ["ServiceUnavailable", "Shutdown"],
        ]
        #expect(documented.values.reduce(0) { $0 + $1.count } == 32)
        #expect(APNsReason.allCases.count == 32)
        for reason in APNsReason.allCases {
            #expect(documented[reason.status]?.contains(reason.name) == true, "\(reason): \(reason.status) \(reason.name)")
        }
        // What a provider can do: a 410 drops the token; a throttle or APNs down (429
        // TooManyRequests, 5xx) is retried; anything else is the request's own fault.
        for reason in APNsReason.allCases {
            let expected: APNsReason.Remedy = switch reason.status {
            case 410: .dropToken
            case 500, 503: .retryLater
            case 429 where reason == .tooManyRequests: .retryLater
            default: .giveUp
            }
            #expect(reason.remedy == expected, "\(reason)")
        }
        let table = APNsReason.allCases.map { ($0, $0.status, $0.name) }
        #expect(table.count == APNsReason.allCases.count)
        for (reason, status, name) in table {
            #expect(reason.status == status, "\(reason)")
            #expect(reason.name == name, "\(reason)")
            #expect(APNsResponse.failure(reason) == answer(status: status, reason: reason, timestamp: nil))
            #expect(APNsResponse.failure(reason).description == "\(status) \(name)")
            #expect(!APNsResponse.failure(reason).isSuccess)
        }
        #expect(APNsResponse.ok == answer(status: 200, reason: nil, timestamp: nil))
        #expect(APNsResponse.ok.isSuccess)
        #expect(APNsResponse.ok.description == "200")
    }

    @Test("a token APNs never saw is answered 400 BadDeviceToken and nothing is delivered or stored")
    func unknownToken() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        let stranger = push(1, to: DeviceToken(7))
        #expect(apns.receive(stranger, at: 0, into: &effects) == answer(status: 400, reason: .badDeviceToken,
                                                                              timestamp: nil))
        #expect(apns.receive(push(2, to: DeviceToken(-1)), at: 0, into: &effects) == .failure(.badDeviceToken))
        #expect(effects.isEmpty)
        #expect(apns.storedNotification(for: DeviceToken(7)) == nil)
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("a token between known ones that was itself never registered is still unknown")
    func gapTokenIsUnknown() {
        var apns = server(knowing: [DeviceToken(5)])
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1, to: DeviceToken(2)), at: 0, into: &effects) == .failure(.badDeviceToken))
        #expect(apns.receive(push(1, to: DeviceToken(5)), at: 0, into: &effects) == .ok)
    }

    @Test("an apns-collapse-id of 64 UTF-8 bytes is accepted, 65 bytes is 400 BadCollapseId, whatever the character count")
    func collapseIDLimitInBytes() {
        let accepted = [
            String(repeating: "a", count: 64),
            String(repeating: "é", count: 32),             // 32 characters, 64 bytes
            String(repeating: "€", count: 21) + "a",       // 22 characters, 64 bytes
            String(repeating: "📬", count: 16),            // 16 characters, 64 bytes
        ]
        let rejected = [
            String(repeating: "a", count: 65),
            String(repeating: "é", count: 32) + "a",       // 33 characters, 65 bytes
            String(repeating: "€", count: 22),             // 22 characters, 66 bytes
            String(repeating: "📬", count: 16) + "a",      // 17 characters, 65 bytes
        ]
        for string in accepted {
            let id = CollapseID(string)
            #expect(id.byteCount == 64, "\(string)")
            let (response, effects) = outcome(of: push(1, collapseID: id))
            #expect(response == .ok, "\(string)")
            #expect(effects == [.deliver(push(1, collapseID: id))], "\(string)")
        }
        for string in rejected {
            let id = CollapseID(string)
            #expect(id.byteCount > 64, "\(string)")
            let (response, effects) = outcome(of: push(1, collapseID: id))
            #expect(response == answer(status: 400, reason: .badCollapseId, timestamp: nil), "\(string)")
            #expect(effects.isEmpty, "\(string)")
        }
        #expect(APNsServer.maximumCollapseIDBytes == 64)
    }

    @Test("CollapseID of a string has its UTF-8 length and equal strings give equal ids, different ones different ids")
    func collapseIDIdentity() {
        #expect(CollapseID("mail/1") == CollapseID("mail/1"))
        #expect(CollapseID("mail/1") != CollapseID("mail/2"))
        #expect(CollapseID("é").byteCount == 2)
        #expect(CollapseID("").byteCount == 0)
        // FNV-1a 64 of the empty string is its offset basis: stable across runs and platforms.
        #expect(CollapseID("").key == 0xcbf2_9ce4_8422_2325)
        #expect(CollapseID("a").key == 0xaf63_dc4c_8601_ec8c)
    }

    @Test("a payload of 4096 bytes is accepted and 4097 bytes is 413 PayloadTooLarge for an alert push")
    func alertPayloadLimit() {
        let (ok, delivered) = outcome(of: push(1, byteCount: 4096))
        #expect(ok == .ok)
        #expect(delivered == [.deliver(push(1, byteCount: 4096))])
        let (tooLarge, none) = outcome(of: push(1, byteCount: 4097))
        #expect(tooLarge == answer(status: 413, reason: .payloadTooLarge, timestamp: nil))
        #expect(none.isEmpty)
    }

    @Test("a VoIP payload may be 5120 bytes; 5121 is 413 PayloadTooLarge; every other push type stops at 4096")
    func voipPayloadLimit() {
        #expect(outcome(of: push(1, pushType: .voip, byteCount: 5120)).0 == .ok)
        #expect(outcome(of: push(1, pushType: .voip, byteCount: 5121)).0 == .failure(.payloadTooLarge))
        for type in PushType.allCases where type != .voip && type != .missing {
            #expect(type.maximumPayloadBytes == 4096, "\(type)")
            // A background push must be priority 5 (BackgroundPushRuleTests).
            let priority: UInt8 = type == .background ? 5 : 10
            #expect(outcome(of: push(1, pushType: type, priority: priority, byteCount: 4096)).0 == .ok, "\(type)")
            #expect(outcome(of: push(1, pushType: type, priority: priority, byteCount: 4097)).0 == .failure(.payloadTooLarge),
                    "\(type)")
        }
        #expect(PushType.voip.maximumPayloadBytes == 5120)
    }

    @Test("apns-priority 10, 5 and 1 are accepted; any other value such as 7 is 400 BadPriority")
    func priorities() {
        for priority: UInt8 in [10, 5, 1] {
            #expect(outcome(of: push(1, priority: priority)).0 == .ok, "\(priority)")
        }
        for priority: UInt8 in [0, 2, 7, 9, 11, 255] {
            let (response, effects) = outcome(of: push(1, priority: priority))
            #expect(response == answer(status: 400, reason: .badPriority, timestamp: nil), "\(priority)")
            #expect(effects.isEmpty, "\(priority)")
        }
    }

    @Test("a request without apns-push-type is accepted as an alert (Apple requires it on watchOS only)")
    func missingPushType() {
        let (response, effects) = outcome(of: push(1, pushType: .missing))
        #expect(response == .ok)
        #expect(effects.count == 1)
        #expect(outcome(of: push(1, pushType: .missing, byteCount: 4097)).0 == .failure(.payloadTooLarge))
    }

    @Test("validation checks in a fixed order: token, priority, collapse id, payload size")
    func validationOrder() {
        let apns = server()
        let big = CollapseID(String(repeating: "x", count: 65))
        #expect(apns.validate(push(1, to: DeviceToken(9), pushType: .missing, priority: 7, collapseID: big,
                                   byteCount: 9999)) == .failure(.badDeviceToken))
        #expect(apns.validate(push(1, priority: 7, collapseID: big, byteCount: 9999)) == .failure(.badPriority))
        #expect(apns.validate(push(1, collapseID: big, byteCount: 9999)) == .failure(.badCollapseId))
        #expect(apns.validate(push(1, byteCount: 9999)) == .failure(.payloadTooLarge))
        #expect(apns.validate(push(1)) == nil)
    }

    @Test("an invalidated token is answered 410 Unregistered with the instant it was invalidated, until it registers again")
    func invalidatedToken() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.invalidate(DeviceToken(1), at: 1_234 * second, into: &effects)
        let response = apns.receive(push(1), at: 2_000 * second, into: &effects)
        #expect(response == answer(status: 410, reason: .unregistered, timestamp: 1_234 * second))
        #expect(response.description == "410 Unregistered")
        #expect(effects.isEmpty)
        apns.register(DeviceToken(1))
        #expect(apns.receive(push(2), at: 2_001 * second, into: &effects) == .ok)
        #expect(effects == [.deliver(push(2))])
    }

    @Test("invalidating a token discards the notification stored for it as unregistered")
    func invalidateDropsStored() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
        apns.invalidate(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.discard(push(1), .unregistered)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.heldNotifications == 0)
        effects.removeAll()
        apns.register(DeviceToken(1))
        apns.deviceConnected(DeviceToken(1), at: 2 * second, into: &effects)
        #expect(effects.isEmpty)
    }
}

@Suite("FakeAPNs: delivery and the one-slot store")
struct APNsDeliveryTests {

    @Test("a push to an online device is accepted and delivered at once")
    func onlineDelivers() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(effects.isEmpty)
        #expect(apns.receive(push(1), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: second, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1)), .deliver(push(2))])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("apns-expiration 0 to an online device is still delivered (its one attempt)")
    func immediateToOnlineDelivers() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, expiration: .immediately), at: 0, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1, expiration: .immediately))])
    }

    @Test("three pushes to an offline device: the first two are discarded as replaced and only the third is delivered on reconnect")
    func offlineKeepsOnlyLatest() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 1 * second, into: &effects) == .ok)
        #expect(effects.isEmpty)
        #expect(apns.receive(push(2), at: 2 * second, into: &effects) == .ok)
        #expect(apns.receive(push(3), at: 3 * second, into: &effects) == .ok)
        #expect(effects == [.discard(push(1), .replaced), .discard(push(2), .replaced)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(3))
        effects.removeAll()
        apns.deviceConnected(DeviceToken(1), at: 10 * second, into: &effects)
        #expect(effects == [.deliver(push(3))])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("a device that went offline again stores anew; reconnecting with nothing stored delivers nothing")
    func disconnectStoresAgain() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(1), at: second, into: &effects) == .ok)
        #expect(effects.isEmpty)
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
        apns.deviceConnected(DeviceToken(1), at: 2 * second, into: &effects)
        apns.deviceDisconnected(DeviceToken(1))
        apns.deviceConnected(DeviceToken(1), at: 3 * second, into: &effects)
        #expect(effects == [.deliver(push(1))])
    }

    @Test("each token (each app) has its own slot: pushes to two offline apps do not replace each other")
    func separateSlotsPerToken() {
        let mail = DeviceToken(1), other = DeviceToken(2)
        var apns = server(knowing: [mail, other])
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1, to: mail), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(2, to: other), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(3, to: mail), at: 2 * second, into: &effects) == .ok)
        #expect(effects == [.discard(push(1, to: mail), .replaced)])
        #expect(apns.storedNotification(for: other) == push(2, to: other))
        effects.removeAll()
        apns.deviceConnected(other, at: 3 * second, into: &effects)
        #expect(effects == [.deliver(push(2, to: other))])
        #expect(apns.storedNotification(for: mail) == push(3, to: mail))
        effects.removeAll()
        apns.deviceConnected(mail, at: 4 * second, into: &effects)
        #expect(effects == [.deliver(push(3, to: mail))])
    }

    @Test("apns-expiration 0 to an offline device is discarded as expired at once and not stored")
    func immediateToOfflineExpires() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, expiration: .immediately), at: second, into: &effects) == .ok)
        #expect(effects == [.discard(push(2, expiration: .immediately), .expired)])
        // The one already stored is untouched.
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
    }

    @Test("an apns-expiration instant already past when the push reaches an offline device discards it as expired")
    func pastExpirationExpires() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1, expiration: .at(5 * second)), at: 5 * second, into: &effects) == .ok)
        #expect(effects == [.discard(push(1, expiration: .at(5 * second)), .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("an .at(t) expiry that passes before the device reconnects discards the stored push as expired on connect")
    func expiryPassesBeforeReconnect() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        let stored = push(1, expiration: .at(60 * second))
        #expect(apns.receive(stored, at: 0, into: &effects) == .ok)
        #expect(effects.isEmpty)
        apns.deviceConnected(DeviceToken(1), at: 60 * second, into: &effects)
        #expect(effects == [.discard(stored, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("an .at(t) expiry still ahead when the device reconnects delivers the stored push")
    func expiryAheadDelivers() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        let stored = push(1, expiration: .at(60 * second))
        #expect(apns.receive(stored, at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: 60 * second - 1, into: &effects)
        #expect(effects == [.deliver(stored)])
    }

    @Test("without apns-expiration a push is stored for 30 days: delivered just before, expired at 30 days")
    func absentStoresThirtyDays() {
        #expect(APNsServer.maximumStorage == 30 * day)
        let start = 7 * second
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: start, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: start + 30 * day - 1, into: &effects)
        #expect(effects == [.deliver(push(1))])

        var later = server()
        effects.removeAll()
        #expect(later.receive(push(1), at: start, into: &effects) == .ok)
        later.deviceConnected(DeviceToken(1), at: start + 30 * day, into: &effects)
        #expect(effects == [.discard(push(1), .expired)])
    }

    @Test("an apns-expiration beyond 30 days is capped at 30 days of storage")
    func explicitExpirationCapped() {
        let farAway = push(1, expiration: .at(40 * day))
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(farAway, at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: 30 * day, into: &effects)
        #expect(effects == [.discard(farAway, .expired)])
    }

    @Test("a newer push replacing a stored one whose expiry already passed discards the old one as expired, not replaced")
    func replacingExpiredIsExpired() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        let old = push(1, expiration: .at(10 * second))
        #expect(apns.receive(old, at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: 10 * second, into: &effects) == .ok)
        #expect(effects == [.discard(old, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
    }

    @Test("a delivery that bounced off a disconnected device is stored and delivered when it reconnects")
    func bounceIsStored() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: second, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1))])
        effects.removeAll()
        apns.deviceDisconnected(DeviceToken(1))
        apns.deliveryFailed(push(1), at: 2 * second, into: &effects)
        #expect(effects.isEmpty)
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
        apns.deviceConnected(DeviceToken(1), at: 3 * second, into: &effects)
        #expect(effects == [.deliver(push(1))])
    }

    @Test("a bounced push coalesces with the one stored after the disconnect: the later-accepted stored one is kept")
    func bounceCoalescesKeepingLatest() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: second, into: &effects) == .ok)   // on its way to the device
        guard case .deliver(let onItsWay)? = effects.first else { Issue.record("not delivered"); return }
        #expect(onItsWay.acceptedAt == second)
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(2), at: 2 * second, into: &effects) == .ok)   // stored
        effects.removeAll()
        apns.deliveryFailed(onItsWay, at: 3 * second, into: &effects)           // push 1 bounces back
        #expect(effects == [.discard(push(1), .replaced)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
        effects.removeAll()
        apns.deviceConnected(DeviceToken(1), at: 4 * second, into: &effects)
        #expect(effects == [.deliver(push(2))])
        // Push 1 was handed out once and came back: delivered once, bounced once.
        var expected = APNsCounters()
        (expected[.accepted], expected[.delivered], expected[.deliveredFromStorage], expected[.bounced]) = (2, 1, 1, 1)
        (expected[.storedOffline], expected[.discardedReplaced]) = (1, 1)
        #expect(apns.counters == expected)
    }

    @Test("storage lasts 30 days from acceptance: a bounce of a copy accepted longer ago is expired, not stored")
    func storageCountsFromAcceptance() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        var old = push(1), recent = push(2)
        old.acceptedAt = 0
        recent.acceptedAt = 2 * second
        let limit = APNsServer.maximumStorage
        apns.deliveryFailed(old, at: limit, into: &effects)
        #expect(effects == [.discard(push(1), .expired)])
        effects.removeAll()
        apns.deliveryFailed(recent, at: limit, into: &effects)
        #expect(effects.isEmpty)
        apns.deviceConnected(DeviceToken(1), at: limit + 2 * second, into: &effects)
        #expect(effects == [.discard(push(2), .expired)])
    }

    @Test("two bounces, in either order: the slot keeps the one APNs accepted later")
    func twoBouncesKeepTheLaterAccepted() {
        for laterBouncesFirst in [false, true] {
            var apns = server()
            var effects: OwnedBuffer<APNsEffect> = []
            apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
            #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
            #expect(apns.receive(push(2), at: second, into: &effects) == .ok)
            let handedOut = effects.compactMap { effect -> PushNotification? in
                if case .deliver(let push) = effect { push } else { nil }
            }
            #expect(handedOut.map(\.acceptedAt) == [0, second])
            apns.deviceDisconnected(DeviceToken(1))
            effects.removeAll()
            let bounces = laterBouncesFirst ? handedOut.reversed() : handedOut
            apns.deliveryFailed(bounces[0], at: 5 * second, into: &effects)
            apns.deliveryFailed(bounces[1], at: 6 * second, into: &effects)
            #expect(effects == [.discard(push(1), .replaced)], "later bounces first: \(laterBouncesFirst)")
            #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
            #expect(apns.counters[.storedOffline] == (laterBouncesFirst ? 1 : 2))
        }
    }

    @Test("a bounced push replaces a stored one whose expiry already passed, which is discarded as expired")
    func bounceReplacesExpiredStored() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        let stale = push(2, expiration: .at(2 * second + 1))
        #expect(apns.receive(stale, at: 2 * second, into: &effects) == .ok)
        apns.deliveryFailed(push(1), at: 3 * second, into: &effects)
        #expect(effects == [.discard(stale, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
    }

    @Test("a bounced push that may not be stored by its own apns-expiration is discarded as expired")
    func bounceOfImmediateExpires() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(2), at: 0, into: &effects) == .ok)
        apns.deliveryFailed(push(1, expiration: .immediately), at: second, into: &effects)
        apns.deliveryFailed(push(3, expiration: .at(second)), at: second, into: &effects)
        #expect(effects == [.discard(push(1, expiration: .immediately), .expired),
                            .discard(push(3, expiration: .at(second)), .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
    }

    @Test("a bounce that reaches APNs after the device reconnected is delivered again")
    func bounceWhileConnectedRedelivers() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.deliveryFailed(push(1), at: second, into: &effects)
        #expect(effects == [.deliver(push(1))])
    }

    @Test("a bounce for an invalidated or unknown token is discarded as unregistered, not expired")
    func bounceForDeadToken() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.invalidate(DeviceToken(1), at: 0, into: &effects)
        #expect(effects.isEmpty)
        apns.deliveryFailed(push(1), at: second, into: &effects)
        apns.deliveryFailed(push(2, to: DeviceToken(9)), at: second, into: &effects)
        #expect(effects == [.discard(push(1), .unregistered), .discard(push(2, to: DeviceToken(9)), .unregistered)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.counters[.discardedUnregistered] == 2)
        #expect(apns.counters[.discardedExpired] == 0)
        #expect(apns.counters[.accepted] == 0)
    }

    @Test("expireStored discards a stored push past its expiry and keeps one still valid")
    func expireStored() {
        var apns = server(knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        let short = push(1, to: DeviceToken(1), expiration: .at(10 * second))
        let long = push(2, to: DeviceToken(2), expiration: .at(20 * second))
        #expect(apns.receive(short, at: 0, into: &effects) == .ok)
        #expect(apns.receive(long, at: 0, into: &effects) == .ok)
        apns.expireStored(for: DeviceToken(1), at: 10 * second - 1, into: &effects)
        #expect(effects.isEmpty)
        #expect(apns.storedNotification(for: DeviceToken(1)) == short)
        apns.expireStored(for: DeviceToken(1), at: 10 * second, into: &effects)
        apns.expireStored(for: DeviceToken(2), at: 10 * second, into: &effects)
        apns.expireStored(for: DeviceToken(3), at: 10 * second, into: &effects)
        #expect(effects == [.discard(short, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.storedNotification(for: DeviceToken(2)) == long)
    }

    @Test("reset forgets every token and stored notification")
    func resetForgets() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        apns.reset()
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.receive(push(2), at: 0, into: &effects) == .failure(.badDeviceToken))
        #expect(effects.isEmpty)
    }
}

// MARK: - The delivery chain: configuration, counters, rate limit, storage policy, power deferral

/// An APNs with `configuration` and `seed` that knows `tokens`, each with its device offline.
private func server(_ configuration: APNsConfiguration, seed: UInt64 = 0,
                    knowing tokens: [DeviceToken] = [DeviceToken(1)]) -> APNsServer {
    var server = APNsServer(configuration: configuration)
    server.reset(configuration: configuration, seed: seed)
    for token in tokens { server.register(token) }
    return server
}

/// Console counters spelled out; every one not named is 0.
private func counts(accepted: Int64 = 0, rejected: Int64 = 0, tooManyRequests: Int64 = 0, delivered: Int64 = 0,
                    deliveredFromStorage: Int64 = 0, bounced: Int64 = 0, storedOffline: Int64 = 0, storedPower: Int64 = 0,
                    unregistered: Int64 = 0, expired: Int64 = 0, disabled: Int64 = 0,
                    replaced: Int64 = 0) -> APNsCounters {
    var counters = APNsCounters()
    counters[.accepted] = accepted
    counters[.rejected] = rejected
    counters[.tooManyRequests] = tooManyRequests
    counters[.delivered] = delivered
    counters[.deliveredFromStorage] = deliveredFromStorage
    counters[.bounced] = bounced
    counters[.storedOffline] = storedOffline
    counters[.storedPower] = storedPower
    counters[.discardedUnregistered] = unregistered
    counters[.discardedExpired] = expired
    counters[.discardedDisabled] = disabled
    counters[.discardedReplaced] = replaced
    return counters
}

private let deferring = APNsConfiguration(defersLowPriority: true)

@Suite("FakeAPNs: Console counters")
struct APNsCounterTests {

    @Test("a 200 counts accepted, a 400 / 413 / 410 counts rejected, a 429 counts tooManyRequests")
    func answersAreCounted() {
        var apns = server(APNsConfiguration(rateLimit: APNsRateLimit(burst: 1, window: second)),
                          knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: 0, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.receive(push(3, priority: 7), at: 0, into: &effects) == .failure(.badPriority))
        #expect(apns.receive(push(4, byteCount: 5000), at: 0, into: &effects) == .failure(.payloadTooLarge))
        #expect(apns.receive(push(5, to: DeviceToken(9)), at: 0, into: &effects) == .failure(.badDeviceToken))
        apns.invalidate(DeviceToken(2), at: 0, into: &effects)
        #expect(apns.receive(push(6, to: DeviceToken(2)), at: 0, into: &effects).status == 410)
        #expect(effects == [.deliver(push(1))])
        #expect(apns.counters == counts(accepted: 1, rejected: 4, tooManyRequests: 1, delivered: 1))
    }

    @Test("offline: storedOffline per slot fill, discardedReplaced per coalesced one, deliveredFromStorage on reconnect")
    func storageIsCounted() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: second, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: 2 * second, into: &effects)
        #expect(effects == [.discard(push(1), .replaced), .deliver(push(2))])
        #expect(apns.counters == counts(accepted: 2, deliveredFromStorage: 1, storedOffline: 2, replaced: 1))
    }

    @Test("expired discards are counted whether sent with apns-expiration 0, already past, or past in the slot")
    func expiriesAreCounted() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1, expiration: .immediately), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, expiration: .at(0)), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(3, expiration: .at(second)), at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.discard(push(1, expiration: .immediately), .expired),
                            .discard(push(2, expiration: .at(0)), .expired),
                            .discard(push(3, expiration: .at(second)), .expired)])
        #expect(apns.counters == counts(accepted: 3, storedOffline: 1, expired: 3))
    }

    @Test("a bounce is no new request but counts bounced: re-stored it counts storedOffline, handed to a connected device delivered")
    func bouncesAreNotRequests() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        apns.deviceDisconnected(DeviceToken(1))
        apns.deliveryFailed(push(1), at: second, into: &effects)
        #expect(apns.counters == counts(accepted: 1, delivered: 1, bounced: 1, storedOffline: 1))
        apns.deviceConnected(DeviceToken(1), at: 2 * second, into: &effects)
        apns.deliveryFailed(push(1), at: 3 * second, into: &effects)
        #expect(effects == [.deliver(push(1)), .deliver(push(1)), .deliver(push(1))])
        // Handed out three times, twice back: one reached the device.
        #expect(apns.counters == counts(accepted: 1, delivered: 2, deliveredFromStorage: 1, bounced: 2, storedOffline: 1))
    }

    @Test("power-held notifications count storedPower when held and delivered when the window opens")
    func powerIsCounted() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, priority: 1), at: 0, into: &effects) == .ok)
        #expect(apns.counters == counts(accepted: 2, storedPower: 2))
        apns.powerWindowOpens(DeviceToken(1), at: second, into: &effects)
        #expect(apns.counters == counts(accepted: 2, delivered: 2, storedPower: 2))
    }

    @Test("unregistered and disabled discards are counted by reason, and a disabled push still counts accepted")
    func unregisteredAndDisabledAreCounted() {
        var apns = server(knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        apns.setNotificationsEnabled(DeviceToken(2), false)
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, to: DeviceToken(2)), at: 0, into: &effects) == .ok)
        apns.invalidate(DeviceToken(1), at: second, into: &effects)
        apns.deliveryFailed(push(3), at: second, into: &effects)
        #expect(effects == [.discard(push(2, to: DeviceToken(2)), .disabled), .discard(push(1), .unregistered),
                            .discard(push(3), .unregistered)])
        #expect(apns.counters == counts(accepted: 2, bounced: 1, storedOffline: 1, unregistered: 2, disabled: 1))
    }

    @Test("reset(configuration:seed:) zeroes the counters, forgets tokens and takes the new configuration")
    func resetZeroes() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.counters == counts(accepted: 1, storedOffline: 1))
        #expect(apns.heldNotifications == 1)
        apns.reset(configuration: deferring, seed: 7)
        #expect(apns.counters == APNsCounters())
        #expect(apns.heldNotifications == 0)
        #expect(apns.configuration == deferring)
        #expect(apns.receive(push(2), at: 0, into: &effects) == .failure(.badDeviceToken))
        apns.reset()
        #expect(apns.configuration == deferring)
        #expect(apns.counters == counts(rejected: 0))
    }

    @Test("after a reset a token's power batch starts empty, even if it held some before")
    func resetEmptiesPowerBatches() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        apns.reset()
        apns.register(DeviceToken(1))
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        effects.removeAll()
        #expect(apns.receive(push(2, priority: 5), at: 0, into: &effects) == .ok)
        #expect(effects == [.deferForPower(DeviceToken(1))])
        apns.powerWindowOpens(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.deferForPower(DeviceToken(1)), .deliver(push(2, priority: 5))])
    }
}

@Suite("FakeAPNs: invalidation and disabled notifications")
struct APNsInvalidationTests {

    @Test("invalidate discards the stored notification and then every power-held one, in arrival order, as unregistered")
    func invalidateDiscardsAllHeld() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, priority: 1), at: 0, into: &effects) == .ok)
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(3), at: second, into: &effects) == .ok)
        #expect(apns.heldNotifications == 3)
        effects.removeAll()
        apns.invalidate(DeviceToken(1), at: 2 * second, into: &effects)
        #expect(effects == [.discard(push(3), .unregistered), .discard(push(1, priority: 5), .unregistered),
                            .discard(push(2, priority: 1), .unregistered)])
        #expect(apns.heldNotifications == 0)
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        // The window the world had scheduled finds nothing left.
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: 3 * second, into: &effects)
        #expect(effects.isEmpty)
        #expect(apns.counters[.discardedUnregistered] == 3)
    }

    @Test("invalidating an unknown token does nothing")
    func invalidateUnknown() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.invalidate(DeviceToken(4), at: 0, into: &effects)
        #expect(effects.isEmpty)
        #expect(apns.receive(push(1, to: DeviceToken(4)), at: 0, into: &effects) == .failure(.badDeviceToken))
    }

    @Test("with notifications disabled a valid push is answered 200 and discarded at once as disabled, online or offline")
    func disabledIsOKAndDiscarded() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.setNotificationsEnabled(DeviceToken(1), false)
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
        #expect(apns.receive(push(2), at: 2 * second, into: &effects) == .ok)
        #expect(effects == [.discard(push(1), .disabled), .discard(push(2), .disabled)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.heldNotifications == 0)
    }

    @Test("notifications are enabled by default, registering again does not re-enable them, enabling does")
    func enableSwitch() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        apns.setNotificationsEnabled(DeviceToken(1), false)
        apns.register(DeviceToken(1))
        #expect(apns.receive(push(2), at: 0, into: &effects) == .ok)
        apns.setNotificationsEnabled(DeviceToken(1), true)
        #expect(apns.receive(push(3), at: 0, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1)), .discard(push(2), .disabled), .deliver(push(3))])
    }

    @Test("a token change invalidates the old token and carries the app's notification setting to the new one",
          arguments: [true, false])
    func tokenChangeCarriesTheSetting(enabled: Bool) {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.setNotificationsEnabled(DeviceToken(1), enabled)
        apns.tokenChanged(from: DeviceToken(1), to: DeviceToken(2), at: 5, into: &effects)
        apns.deviceConnected(DeviceToken(2), at: 6, into: &effects)
        #expect(apns.receive(push(1), at: 7, into: &effects) == .failure(.unregistered, timestamp: 5))
        #expect(apns.receive(push(2, to: DeviceToken(2)), at: 8, into: &effects) == .ok)
        #expect(effects == [enabled ? .deliver(push(2, to: DeviceToken(2))) : .discard(push(2, to: DeviceToken(2)), .disabled)])
    }

    @Test("a disabled token still gets 400 for an invalid request and 410 once invalidated")
    func disabledKeepsErrors() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        apns.setNotificationsEnabled(DeviceToken(1), false)
        #expect(apns.receive(push(1, priority: 3), at: 0, into: &effects) == .failure(.badPriority))
        apns.invalidate(DeviceToken(1), at: 5, into: &effects)
        #expect(apns.receive(push(2), at: 9, into: &effects) == .failure(.unregistered, timestamp: 5))
        #expect(effects.isEmpty)
    }
}

@Suite("FakeAPNs: per-token rate limit (GCRA)")
struct APNsRateLimitTests {

    /// burst 4 per 4 s: interval 1 s, tolerance 3 s.
    private let limited = APNsConfiguration(rateLimit: APNsRateLimit(burst: 4, window: 4 * TimeUnit.second))

    @Test("burst requests back to back are accepted, the next is 429 with no effect, and one conforms again after one interval")
    func burstThenInterval() {
        var apns = server(limited)
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        effects.removeAll()
        #expect(apns.receive(push(5), at: 0, into: &effects) == answer(status: 429, reason: .tooManyRequests,
                                                                          timestamp: nil))
        #expect(apns.receive(push(6), at: second - 1, into: &effects) == .failure(.tooManyRequests))
        #expect(effects.isEmpty)
        #expect(apns.receive(push(7), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(8), at: second, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(7))
        #expect(apns.counters[.tooManyRequests] == 3)
        #expect(apns.counters[.accepted] == 5)
    }

    @Test("refused requests use no credit: after a hundred 429s one still conforms exactly one interval later")
    func refusedDoNotConsume() {
        var apns = server(limited)
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        for message: Int32 in 5...104 {
            #expect(apns.receive(push(message), at: 0, into: &effects) == .failure(.tooManyRequests))
        }
        #expect(apns.receive(push(105), at: second, into: &effects) == .ok)
    }

    @Test("a full window of silence refills the whole burst, and no more")
    func refill() {
        var apns = server(limited)
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        let later = 100 * second
        for message: Int32 in 5...8 { #expect(apns.receive(push(message), at: later, into: &effects) == .ok) }
        #expect(apns.receive(push(9), at: later, into: &effects) == .failure(.tooManyRequests))
    }

    @Test("a steady rate of one per interval conforms forever after the burst is spent")
    func steadyRate() {
        var apns = server(limited)
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        for step: Int32 in 1...50 {
            #expect(apns.receive(push(100 + step), at: SimTime(step) * second, into: &effects) == .ok, "\(step)")
        }
        #expect(apns.receive(push(999), at: 50 * second, into: &effects) == .failure(.tooManyRequests))
    }

    @Test("integer arithmetic: burst 3 per 10 µs gives interval 3 µs and tolerance 7 µs")
    func integerInterval() {
        var apns = server(APNsConfiguration(rateLimit: APNsRateLimit(burst: 3, window: 10)))
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...3 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        // tat is 9 now: 9 − 1 = 8 > 7 refuses, 9 − 2 = 7 conforms.
        #expect(apns.receive(push(4), at: 1, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.receive(push(5), at: 2, into: &effects) == .ok)
        #expect(apns.receive(push(6), at: 2, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.receive(push(7), at: 5, into: &effects) == .ok)
    }

    @Test("the limit is per token: another token is not throttled by the first one's burst")
    func perToken() {
        var apns = server(limited, knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        #expect(apns.receive(push(5), at: 0, into: &effects) == .failure(.tooManyRequests))
        for message: Int32 in 1...4 {
            #expect(apns.receive(push(message, to: DeviceToken(2)), at: 0, into: &effects) == .ok)
        }
    }

    @Test("each token keeps its own credit while requests alternate between tokens, and a reset forgets it")
    func alternatingTokens() {
        var apns = server(limited, knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 {
            #expect(apns.receive(push(message), at: 0, into: &effects) == .ok)
            #expect(apns.receive(push(message, to: DeviceToken(2)), at: 0, into: &effects) == .ok)
        }
        #expect(apns.receive(push(5), at: 0, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.receive(push(5, to: DeviceToken(2)), at: 0, into: &effects) == .failure(.tooManyRequests))
        #expect(apns.receive(push(6, to: DeviceToken(2)), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(6), at: second, into: &effects) == .ok)
        // Token 1 spent its credit last; a fresh one gets its whole burst again.
        apns.reset()
        apns.register(DeviceToken(1))
        for message: Int32 in 7...10 { #expect(apns.receive(push(message), at: second, into: &effects) == .ok) }
    }

    @Test("check order: a 400 and a 410 come before 429 and use no credit")
    func order() {
        var apns = server(limited, knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...4 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        #expect(apns.receive(push(5, priority: 7), at: 0, into: &effects) == .failure(.badPriority))
        #expect(apns.receive(push(6, byteCount: 9000), at: 0, into: &effects) == .failure(.payloadTooLarge))
        // Invalid requests to a fresh token leave its whole burst.
        for _ in 0..<10 {
            #expect(apns.receive(push(7, to: DeviceToken(2), priority: 2), at: 0, into: &effects) == .failure(.badPriority))
        }
        for message: Int32 in 1...4 {
            #expect(apns.receive(push(message, to: DeviceToken(2)), at: 0, into: &effects) == .ok)
        }
        apns.invalidate(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(8), at: 0, into: &effects) == .failure(.unregistered, timestamp: 0))
        apns.register(DeviceToken(1))
        #expect(apns.receive(push(9), at: 0, into: &effects) == .failure(.tooManyRequests))
    }

    @Test("without a rate limit a thousand back-to-back requests are all accepted")
    func noLimit() {
        var apns = server()
        var effects: OwnedBuffer<APNsEffect> = []
        for message: Int32 in 1...1000 { #expect(apns.receive(push(message), at: 0, into: &effects) == .ok) }
        #expect(apns.counters[.tooManyRequests] == 0)
    }
}

@Suite("FakeAPNs: nondeterministic storage")
struct APNsNondeterministicStorageTests {

    private static let closeTogether = 10 * TimeUnit.second
    private let policy = APNsConfiguration(storage: .nondeterministic(closeTogether: Self.closeTogether))

    /// Stores push A at `first` and push B at `second`, asserts the effects are one
    /// of the two exact outcomes, empties the slot by reconnecting, and returns
    /// whether the older (A) was kept.
    private func keptOlder(_ apns: inout APNsServer, first: SimTime, second: SimTime) -> Bool {
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(1), at: first, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: second, into: &effects) == .ok)
        let older = effects == [.discard(push(2), .replaced)] && apns.storedNotification(for: DeviceToken(1)) == push(1)
        let newer = effects == [.discard(push(1), .replaced)] && apns.storedNotification(for: DeviceToken(1)) == push(2)
        #expect(older != newer, "\(effects)")
        effects.removeAll()
        apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.deliver(older ? push(1) : push(2))])
        return older
    }

    @Test("close together, the older survives about half the time (4000 trials, SE 0.79%, tolerance 4 SE)")
    func evenOdds() {
        var apns = server(policy, seed: 2024)
        let trials = 4000
        var older = 0
        for trial in 0..<trials {
            let start = SimTime(trial) * TimeUnit.minute
            if keptOlder(&apns, first: start, second: start + Self.closeTogether - 1) { older += 1 }
        }
        let share = Double(older) / Double(trials)
        #expect(abs(share - 0.5) <= 4 * 0.0079, "\(share)")
        #expect(apns.counters[.discardedReplaced] == Int64(trials))
        #expect(apns.counters[.storedOffline] == Int64(trials + trials - older))
    }

    @Test("closeTogether or further apart, the newer always survives")
    func farApartNewest() {
        var apns = server(policy, seed: 2024)
        for trial in 0..<300 {
            let start = SimTime(trial) * TimeUnit.minute
            let gap = trial % 2 == 0 ? Self.closeTogether : Self.closeTogether + SimTime(trial) * TimeUnit.second
            #expect(!keptOlder(&apns, first: start, second: start + gap), "\(trial)")
        }
    }

    @Test("under the latest policy the newer always survives, even close together")
    func latestIgnoresCoin() {
        var apns = server(APNsConfiguration(), seed: 2024)
        for trial in 0..<300 {
            let start = SimTime(trial) * TimeUnit.minute
            #expect(!keptOlder(&apns, first: start, second: start + 1), "\(trial)")
        }
    }

    @Test("one seed gives the same choices; another seed gives other choices")
    func determinism() {
        func choices(seed: UInt64) -> [Bool] {
            var apns = server(policy, seed: seed)
            return (0..<64).map { trial in
                let start = SimTime(trial) * TimeUnit.minute
                return keptOlder(&apns, first: start, second: start + 1)
            }
        }
        #expect(choices(seed: 11) == choices(seed: 11))
        #expect(choices(seed: 11) != choices(seed: 12))
        // reset reseeds: a used server reset to seed 11 repeats the fresh one.
        var used = server(policy, seed: 99)
        _ = keptOlder(&used, first: 0, second: 1)
        used.reset(configuration: policy, seed: 11)
        used.register(DeviceToken(1))
        let again = (0..<64).map { trial in
            let start = SimTime(trial) * TimeUnit.minute
            return keptOlder(&used, first: start, second: start + 1)
        }
        #expect(again == choices(seed: 11))
    }

    @Test("a coin lent around each call (serve's one APNs for many device apps) gives each stream the choices of a server seeded with it alone")
    func lentCoins() {
        func choices(seed: UInt64) -> [Bool] {
            var apns = server(policy, seed: seed)
            return (0..<32).map { trial in
                let start = SimTime(trial) * TimeUnit.minute
                return keptOlder(&apns, first: start, second: start + 1)
            }
        }
        var shared = server(policy, seed: 99)
        var coins = [SplitMix64(seed: 11), SplitMix64(seed: 12)]
        var lent: [[Bool]] = [[], []]
        for trial in 0..<64 {
            let app = trial % 2
            shared.storageCoin = coins[app]
            let start = SimTime(trial) * TimeUnit.minute
            lent[app].append(keptOlder(&shared, first: start, second: start + 1))
            coins[app] = shared.storageCoin
        }
        #expect(lent[0] == choices(seed: 11))
        #expect(lent[1] == choices(seed: 12))
    }

    @Test("closeness is measured from when the kept one was stored: a third push far from the first always wins")
    func keptOneKeepsItsTime() {
        var apns = server(policy, seed: 5)
        var sawOlderKept = 0
        for trial in 0..<400 {
            let start = SimTime(trial) * TimeUnit.minute
            var effects: OwnedBuffer<APNsEffect> = []
            #expect(apns.receive(push(1), at: start, into: &effects) == .ok)
            #expect(apns.receive(push(2), at: start + 6 * second, into: &effects) == .ok)
            guard apns.storedNotification(for: DeviceToken(1)) == push(1) else {
                apns.deviceConnected(DeviceToken(1), at: start + 30 * second, into: &effects)
                apns.deviceDisconnected(DeviceToken(1))
                continue
            }
            sawOlderKept += 1
            effects.removeAll()
            // 12 s after push 1 (stored), 6 s after push 2 (never stored): far apart.
            #expect(apns.receive(push(3), at: start + 12 * second, into: &effects) == .ok)
            #expect(effects == [.discard(push(1), .replaced)], "\(trial)")
            apns.deviceConnected(DeviceToken(1), at: start + 30 * second, into: &effects)
            apns.deviceDisconnected(DeviceToken(1))
        }
        #expect(sawOlderKept > 100)
    }

    @Test("an expired stored one is discarded as expired with no coin: the generator's later draws are unchanged")
    func expiredUsesNoCoin() {
        func choicesAfter(expiredFirst: Bool) -> [Bool] {
            var apns = server(policy, seed: 3)
            if expiredFirst {
                var effects: OwnedBuffer<APNsEffect> = []
                let stale = push(9, expiration: .at(second))
                #expect(apns.receive(stale, at: 0, into: &effects) == .ok)
                #expect(apns.receive(push(10), at: second, into: &effects) == .ok)
                #expect(effects == [.discard(stale, .expired)])
                #expect(apns.storedNotification(for: DeviceToken(1)) == push(10))
                apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
            }
            return (1...64).map { trial in
                let start = SimTime(trial) * TimeUnit.minute
                return keptOlder(&apns, first: start, second: start + 1)
            }
        }
        #expect(choicesAfter(expiredFirst: true) == choicesAfter(expiredFirst: false))
    }

    /// Push 1 as APNs handed it out, accepted at `acceptedAt`.
    private func handedOut(acceptedAt: SimTime) -> PushNotification {
        var copy = push(1)
        copy.acceptedAt = acceptedAt
        return copy
    }

    @Test("a bounce accepted close to the stored one: the coin keeps either, exactly; further apart the later-accepted stored one wins")
    func bounceUnderCoin() {
        var apns = server(policy, seed: 8)
        var keptBounce = 0, keptStored = 0
        for trial in 0..<200 {
            let start = SimTime(trial) * TimeUnit.minute
            var effects: OwnedBuffer<APNsEffect> = []
            #expect(apns.receive(push(2), at: start, into: &effects) == .ok)
            // Accepted just before push 2 and handed out; it bounces a second later.
            apns.deliveryFailed(handedOut(acceptedAt: start - 1), at: start + second, into: &effects)
            if effects == [.discard(push(2), .replaced)] {
                #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
                keptBounce += 1
            } else {
                #expect(effects == [.discard(push(1), .replaced)])
                #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
                keptStored += 1
            }
            apns.deviceConnected(DeviceToken(1), at: start + 2 * second, into: &effects)
            apns.deviceDisconnected(DeviceToken(1))
        }
        #expect(keptBounce > 50 && keptStored > 50, "\(keptBounce) / \(keptStored)")
        for trial in 200..<300 {
            let start = SimTime(trial) * TimeUnit.minute
            var effects: OwnedBuffer<APNsEffect> = []
            #expect(apns.receive(push(2), at: start, into: &effects) == .ok)
            apns.deliveryFailed(handedOut(acceptedAt: start - Self.closeTogether), at: start + second, into: &effects)
            #expect(effects == [.discard(push(1), .replaced)], "\(trial)")
            apns.deviceConnected(DeviceToken(1), at: start + Self.closeTogether, into: &effects)
            apns.deviceDisconnected(DeviceToken(1))
        }
    }
}

@Suite("FakeAPNs: low-priority power deferral")
struct APNsPowerDeferralTests {

    @Test("priority 5 and 1 for a connected device are held with one deferForPower per batch and delivered together in order")
    func heldAndDeliveredInOrder() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, priority: 1), at: second, into: &effects) == .ok)
        #expect(apns.receive(push(3, priority: 5), at: 2 * second, into: &effects) == .ok)
        #expect(effects == [.deferForPower(DeviceToken(1))])
        #expect(apns.heldNotifications == 3)
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: 5 * second, into: &effects)
        #expect(effects == [.deliver(push(1, priority: 5)), .deliver(push(2, priority: 1)),
                            .deliver(push(3, priority: 5))])
        #expect(apns.heldNotifications == 0)
        // The next one starts a new batch and asks for a new window.
        effects.removeAll()
        #expect(apns.receive(push(4, priority: 5), at: 6 * second, into: &effects) == .ok)
        #expect(effects == [.deferForPower(DeviceToken(1))])
    }

    @Test("a held push released to an offline device does not push out a newer one stored meanwhile")
    func releasedHeldPushKeepsTheNewerStored() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)          // held for power
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(2, priority: 5), at: 60 * second, into: &effects) == .ok) // stored: offline
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2, priority: 5))
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: 120 * second, into: &effects)
        #expect(effects == [.discard(push(1, priority: 5), .replaced)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2, priority: 5))
        #expect(apns.heldNotifications == 1)
    }

    @Test("priority 10 is delivered at once past a held batch; without deferral priority 5 is delivered at once too")
    func highPriorityAndNoDeferral() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, priority: 10), at: 0, into: &effects) == .ok)
        #expect(effects == [.deferForPower(DeviceToken(1)), .deliver(push(2, priority: 10))])

        var plain = server()
        effects.removeAll()
        plain.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(plain.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(plain.receive(push(2, priority: 1), at: 0, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1, priority: 5)), .deliver(push(2, priority: 1))])
        #expect(plain.counters[.storedPower] == 0)
    }

    @Test("priority 5 for an offline device is stored as usual, with no deferForPower")
    func offlineLowPriorityStored() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        #expect(effects.isEmpty)
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1, priority: 5))
        #expect(apns.counters == counts(accepted: 1, storedOffline: 1))
    }

    @Test("offline when the window opens: the held ones are stored like any offline push, so they coalesce to the last")
    func offlineAtWindowCoalesces() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        for message: Int32 in 1...3 { #expect(apns.receive(push(message, priority: 5), at: 0, into: &effects) == .ok) }
        apns.deviceDisconnected(DeviceToken(1))
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.discard(push(1, priority: 5), .replaced), .discard(push(2, priority: 5), .replaced)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(3, priority: 5))
        #expect(apns.heldNotifications == 1)
        effects.removeAll()
        apns.deviceConnected(DeviceToken(1), at: 2 * second, into: &effects)
        #expect(effects == [.deliver(push(3, priority: 5))])
        #expect(apns.counters == counts(accepted: 3, deliveredFromStorage: 1, storedOffline: 3, storedPower: 3,
                                        replaced: 2))
    }

    @Test("a held one whose apns-expiration passed is discarded as expired; apns-expiration 0 gets its one attempt at the window")
    func expiryAtWindow() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        let passed = push(1, priority: 5, expiration: .at(5 * second))
        let ahead = push(2, priority: 5, expiration: .at(5 * second + 1))
        let once = push(3, priority: 5, expiration: .immediately)
        for held in [passed, ahead, once] { #expect(apns.receive(held, at: 0, into: &effects) == .ok) }
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: 5 * second, into: &effects)
        #expect(effects == [.discard(passed, .expired), .deliver(ahead), .deliver(once)])

        // Offline at the window, apns-expiration 0 may not be stored.
        effects.removeAll()
        #expect(apns.receive(once, at: 6 * second, into: &effects) == .ok)
        apns.deviceDisconnected(DeviceToken(1))
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(1), at: 7 * second, into: &effects)
        #expect(effects == [.discard(once, .expired)])
        #expect(apns.heldNotifications == 0)
    }

    @Test("reconnecting does not release the power batch, and a window for an empty batch or unknown token does nothing")
    func windowOnly() {
        var apns = server(deferring)
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, priority: 5), at: 0, into: &effects) == .ok)
        apns.deviceDisconnected(DeviceToken(1))
        apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
        #expect(effects == [.deferForPower(DeviceToken(1))])
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(7), at: second, into: &effects)
        apns.powerWindowOpens(DeviceToken(-3), at: second, into: &effects)
        #expect(effects.isEmpty)
        apns.powerWindowOpens(DeviceToken(1), at: 2 * second, into: &effects)
        apns.powerWindowOpens(DeviceToken(1), at: 3 * second, into: &effects)
        #expect(effects == [.deliver(push(1, priority: 5))])
    }

    @Test("each token has its own batch and its own deferForPower")
    func batchesPerToken() {
        var apns = server(deferring, knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: OwnedBuffer<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.deviceConnected(DeviceToken(2), at: 0, into: &effects)
        #expect(apns.receive(push(1, to: DeviceToken(1), priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, to: DeviceToken(2), priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(3, to: DeviceToken(1), priority: 5), at: 0, into: &effects) == .ok)
        #expect(effects == [.deferForPower(DeviceToken(1)), .deferForPower(DeviceToken(2))])
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(2), at: second, into: &effects)
        #expect(effects == [.deliver(push(2, to: DeviceToken(2), priority: 5))])
        #expect(apns.heldNotifications == 2)
    }
}

@Suite("FakeAPNs: end-of-run accounting")
struct APNsEndOfRunTests {

    @Test("heldNotifications counts offline slots and power batches over all tokens, and follows every exit")
    func heldCount() {
        var apns = server(deferring, knowing: [DeviceToken(1), DeviceToken(2), DeviceToken(3)])
        var effects: OwnedBuffer<APNsEffect> = []
        #expect(apns.heldNotifications == 0)
        #expect(apns.receive(push(1, to: DeviceToken(1)), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, to: DeviceToken(1)), at: 0, into: &effects) == .ok)     // replaces 1
        #expect(apns.receive(push(3, to: DeviceToken(2)), at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(3), at: 0, into: &effects)
        #expect(apns.receive(push(4, to: DeviceToken(3), priority: 5), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(5, to: DeviceToken(3), priority: 1), at: 0, into: &effects) == .ok)
        #expect(apns.heldNotifications == 4)
        apns.deviceConnected(DeviceToken(1), at: second, into: &effects)
        #expect(apns.heldNotifications == 3)
        apns.invalidate(DeviceToken(2), at: second, into: &effects)
        #expect(apns.heldNotifications == 2)
        apns.powerWindowOpens(DeviceToken(3), at: second, into: &effects)
        #expect(apns.heldNotifications == 0)
        apns.deviceDisconnected(DeviceToken(1))
        apns.deliveryFailed(push(2, to: DeviceToken(1)), at: 2 * second, into: &effects)
        #expect(apns.heldNotifications == 1)
        apns.expireStored(for: DeviceToken(1), at: 2 * second + APNsServer.maximumStorage, into: &effects)
        #expect(apns.heldNotifications == 0)
    }

    @Test("expireAll discards every expired stored or power-held notification and keeps the valid ones held")
    func expireAll() {
        let tokens = [DeviceToken(1), DeviceToken(2), DeviceToken(3), DeviceToken(5)]
        var apns = server(deferring, knowing: tokens)
        var effects: OwnedBuffer<APNsEffect> = []
        let short1 = push(1, to: DeviceToken(1), expiration: .at(10 * second))
        let long = push(2, to: DeviceToken(2), expiration: .at(20 * second))
        let short5 = push(5, to: DeviceToken(5), expiration: .at(5 * second))
        let heldStale = push(3, to: DeviceToken(3), priority: 5, expiration: .at(second))
        let heldFresh = push(4, to: DeviceToken(3), priority: 5, expiration: .at(60 * second))
        for offline in [short1, long, short5] { #expect(apns.receive(offline, at: 0, into: &effects) == .ok) }
        apns.deviceConnected(DeviceToken(3), at: 0, into: &effects)
        #expect(apns.receive(heldStale, at: 0, into: &effects) == .ok)
        #expect(apns.receive(heldFresh, at: 0, into: &effects) == .ok)
        #expect(apns.heldNotifications == 5)
        effects.removeAll()
        apns.expireAll(at: 10 * second, into: &effects)
        #expect(effects == [.discard(short1, .expired), .discard(heldStale, .expired), .discard(short5, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(2)) == long)
        #expect(apns.heldNotifications == 2)
        #expect(apns.counters[.discardedExpired] == 3)
        effects.removeAll()
        apns.powerWindowOpens(DeviceToken(3), at: 10 * second, into: &effects)
        #expect(effects == [.deliver(heldFresh)])
        #expect(apns.heldNotifications == 1)
    }

    @Test("tokens registered far apart and after rotation each get their own state")
    func growingTokens() {
        var apns = server(knowing: [DeviceToken(0)])
        var effects: OwnedBuffer<APNsEffect> = []
        for number: Int32 in 1...200 { apns.register(DeviceToken(number)) }
        apns.register(DeviceToken(1000))
        for number: Int32 in [0, 1, 200, 1000] {
            #expect(apns.receive(push(number, to: DeviceToken(number)), at: 0, into: &effects) == .ok)
        }
        #expect(apns.receive(push(9, to: DeviceToken(500)), at: 0, into: &effects) == .failure(.badDeviceToken))
        #expect(apns.heldNotifications == 4)
        #expect(apns.storedNotification(for: DeviceToken(1000)) == push(1000, to: DeviceToken(1000)))
    }
}

@Suite("FakeAPNs: the notification value")
struct PushNotificationTests {
    @Test("== compares every field but APNs's acceptance stamp (a field added later must be compared too)")
    func equalityCoversEveryFieldButTheStamp() {
        let base = push(1, collapseID: CollapseID("a"))
        // Stored compactly: token, payload, pushType, priority, isResend, the header flags
        // (expiration's case, collapse id sent), the padding's two named fields (always 0:
        // nothing to compare), the collapse id's byte count and key, the expiration's
        // instant, acceptedAt.
        #expect(Mirror(reflecting: base).children.count == 12)
        var stamped = base
        stamped.acceptedAt = 5 * second
        #expect(stamped == base)
        var variants: [PushNotification] = []
        func vary(_ change: (inout PushNotification) -> Void) {
            var copy = base
            change(&copy)
            variants.append(copy)
        }
        vary { $0.token = DeviceToken(2) }
        vary { $0.pushType = .background }
        vary { $0.priority = 5 }
        vary { $0.expiration = .immediately }
        vary { $0.expiration = .at(7 * second) }
        vary { $0.collapseID = nil }
        vary { $0.collapseID = CollapseID("b") }
        vary { $0.payload.messageIndex = 2 }
        vary { $0.payload.xiva = XivaInfo(position: 3, deviceIDHash: 1) }
        vary { $0.isResend = true }
        for variant in variants { #expect(variant != base, "\(variant)") }
    }

    @Test("every push type and resend flag reads back as it was written (they are stored as bytes)")
    func pushTypeAndResendReadBack() {
        for type in PushType.allCases {
            for isResend in [false, true] {
                var copy = push(1)
                copy.pushType = type
                copy.isResend = isResend
                #expect(copy.pushType == type && copy.isResend == isResend)
                let made = PushNotification(token: DeviceToken(1), pushType: type, payload: copy.payload, isResend: isResend)
                #expect(made.pushType == type && made.isResend == isResend)
            }
        }
    }

    @Test("a push is 56 bytes, every one a field's (the padding is named)")
    func pushIsFiftySixBytes() {
        #expect(MemoryLayout<PushNotification>.size == 56)
        let named = push(1)
        #expect(named.unusedByte == 0 && named.unusedHalf == 0)
    }
}
