import Testing
import FakeAPNs

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
    private func outcome(of push: PushNotification) -> (APNsResponse, ContiguousArray<APNsEffect>) {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        let response = apns.receive(push, at: 0, into: &effects)
        return (response, effects)
    }

    @Test("every reason has the HTTP status and JSON reason string Apple documents")
    func reasonTable() {
        let table: [(APNsReason, UInt16, String)] = [
            (.badCollapseId, 400, "BadCollapseId"), (.badDeviceToken, 400, "BadDeviceToken"),
            (.badExpirationDate, 400, "BadExpirationDate"), (.badPriority, 400, "BadPriority"),
            (.missingPushType, 400, "MissingPushType"), (.payloadTooLarge, 413, "PayloadTooLarge"),
            (.unregistered, 410, "Unregistered"), (.tooManyRequests, 429, "TooManyRequests"),
            (.serviceUnavailable, 503, "ServiceUnavailable"),
        ]
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
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
            #expect(outcome(of: push(1, pushType: type, byteCount: 4096)).0 == .ok, "\(type)")
            #expect(outcome(of: push(1, pushType: type, byteCount: 4097)).0 == .failure(.payloadTooLarge), "\(type)")
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

    @Test("a request without apns-push-type is 400 MissingPushType")
    func missingPushType() {
        let (response, effects) = outcome(of: push(1, pushType: .missing))
        #expect(response == answer(status: 400, reason: .missingPushType, timestamp: nil))
        #expect(effects.isEmpty)
    }

    @Test("validation checks in a fixed order: token, push type, priority, collapse id, payload size")
    func validationOrder() {
        let apns = server()
        let big = CollapseID(String(repeating: "x", count: 65))
        #expect(apns.validate(push(1, to: DeviceToken(9), pushType: .missing, priority: 7, collapseID: big,
                                   byteCount: 9999)) == .failure(.badDeviceToken))
        #expect(apns.validate(push(1, pushType: .missing, priority: 7, collapseID: big, byteCount: 9999))
                == .failure(.missingPushType))
        #expect(apns.validate(push(1, priority: 7, collapseID: big, byteCount: 9999)) == .failure(.badPriority))
        #expect(apns.validate(push(1, collapseID: big, byteCount: 9999)) == .failure(.badCollapseId))
        #expect(apns.validate(push(1, byteCount: 9999)) == .failure(.payloadTooLarge))
        #expect(apns.validate(push(1)) == nil)
    }

    @Test("an invalidated token is answered 410 Unregistered with the instant it was invalidated, until it registers again")
    func invalidatedToken() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.invalidate(DeviceToken(1), at: 1_234 * second)
        let response = apns.receive(push(1), at: 2_000 * second, into: &effects)
        #expect(response == answer(status: 410, reason: .unregistered, timestamp: 1_234 * second))
        #expect(response.description == "410 Unregistered")
        #expect(effects.isEmpty)
        apns.register(DeviceToken(1))
        #expect(apns.receive(push(2), at: 2_001 * second, into: &effects) == .ok)
        #expect(effects == [.deliver(push(2))])
    }

    @Test("invalidating a token drops the notification stored for it")
    func invalidateDropsStored() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
        apns.invalidate(DeviceToken(1), at: second)
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1, expiration: .immediately), at: 0, into: &effects) == .ok)
        #expect(effects == [.deliver(push(1, expiration: .immediately))])
    }

    @Test("three pushes to an offline device: the first two are discarded as replaced and only the third is delivered on reconnect")
    func offlineKeepsOnlyLatest() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2, expiration: .immediately), at: second, into: &effects) == .ok)
        #expect(effects == [.discard(push(2, expiration: .immediately), .expired)])
        // The one already stored is untouched.
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
    }

    @Test("an apns-expiration instant already past when the push reaches an offline device discards it as expired")
    func pastExpirationExpires() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        #expect(apns.receive(push(1, expiration: .at(5 * second)), at: 5 * second, into: &effects) == .ok)
        #expect(effects == [.discard(push(1, expiration: .at(5 * second)), .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("an .at(t) expiry that passes before the device reconnects discards the stored push as expired on connect")
    func expiryPassesBeforeReconnect() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        #expect(apns.receive(farAway, at: 0, into: &effects) == .ok)
        apns.deviceConnected(DeviceToken(1), at: 30 * day, into: &effects)
        #expect(effects == [.discard(farAway, .expired)])
    }

    @Test("a newer push replacing a stored one whose expiry already passed discards the old one as expired, not replaced")
    func replacingExpiredIsExpired() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        let old = push(1, expiration: .at(10 * second))
        #expect(apns.receive(old, at: 0, into: &effects) == .ok)
        #expect(apns.receive(push(2), at: 10 * second, into: &effects) == .ok)
        #expect(effects == [.discard(old, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
    }

    @Test("a delivery that bounced off a disconnected device is stored and delivered when it reconnects")
    func bounceIsStored() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        #expect(apns.receive(push(1), at: second, into: &effects) == .ok)   // on its way to the device
        apns.deviceDisconnected(DeviceToken(1))
        #expect(apns.receive(push(2), at: 2 * second, into: &effects) == .ok)   // stored
        effects.removeAll()
        apns.deliveryFailed(push(1), at: 3 * second, into: &effects)            // push 1 bounces back
        #expect(effects == [.discard(push(1), .replaced)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(2))
        effects.removeAll()
        apns.deviceConnected(DeviceToken(1), at: 4 * second, into: &effects)
        #expect(effects == [.deliver(push(2))])
    }

    @Test("a bounced push replaces a stored one whose expiry already passed, which is discarded as expired")
    func bounceReplacesExpiredStored() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        let stale = push(2, expiration: .at(2 * second + 1))
        #expect(apns.receive(stale, at: 2 * second, into: &effects) == .ok)
        apns.deliveryFailed(push(1), at: 3 * second, into: &effects)
        #expect(effects == [.discard(stale, .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == push(1))
    }

    @Test("a bounced push that may not be stored by its own apns-expiration is discarded as expired")
    func bounceOfImmediateExpires() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        apns.deviceConnected(DeviceToken(1), at: 0, into: &effects)
        apns.deliveryFailed(push(1), at: second, into: &effects)
        #expect(effects == [.deliver(push(1))])
    }

    @Test("a bounce for an invalidated or unknown token is discarded as expired")
    func bounceForDeadToken() {
        var apns = server()
        var effects: ContiguousArray<APNsEffect> = []
        apns.invalidate(DeviceToken(1), at: 0)
        apns.deliveryFailed(push(1), at: second, into: &effects)
        apns.deliveryFailed(push(2, to: DeviceToken(9)), at: second, into: &effects)
        #expect(effects == [.discard(push(1), .expired), .discard(push(2, to: DeviceToken(9)), .expired)])
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
    }

    @Test("expireStored discards a stored push past its expiry and keeps one still valid")
    func expireStored() {
        var apns = server(knowing: [DeviceToken(1), DeviceToken(2)])
        var effects: ContiguousArray<APNsEffect> = []
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
        var effects: ContiguousArray<APNsEffect> = []
        #expect(apns.receive(push(1), at: 0, into: &effects) == .ok)
        apns.reset()
        #expect(apns.storedNotification(for: DeviceToken(1)) == nil)
        #expect(apns.receive(push(2), at: 0, into: &effects) == .failure(.badDeviceToken))
        #expect(effects.isEmpty)
    }
}
