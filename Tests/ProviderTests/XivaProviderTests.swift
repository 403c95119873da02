@testable import Base
@testable import FakeAPNs
import Foundation
@testable import Provider
import Testing

private let second = TimeUnit.second
private let token = DeviceToken(3)
private let hash: UInt32 = 0x00ab_cdef

/// An alert body with what JSON must escape and what it must not mangle.
private let trickyBody = #"Re: "quarterly" C:\reports\ — привет 📬 tab"# + "\t" + "newline\n" + "bell\u{07}"

private func template(numbered: Bool, body: String = "You have new mail") -> PushTemplate {
    PushTemplate(app: "ru.yandex.mail", deviceID: "5C1D0E7A-0000-4000-8000-00000000CAFE",
                 alertBody: body, numbered: numbered)
}

/// A registered provider of the given shape.
private func makeProvider(numbering: Bool = true, sendsCollapseID: Bool = true, payloadTTL: SimDuration? = nil,
                      expiration: ExpirationPolicy = .absent, priority: UInt8 = 10,
                      retry: RetryPolicy = RetryPolicy(),
                      expiredPositions: ExpiredPositionsAnswer = .resendRest) -> XivaProvider {
    let configuration = ProviderConfiguration(template: template(numbered: numbering), numbering: numbering,
                                              sendsCollapseID: sendsCollapseID, payloadTTL: payloadTTL,
                                              expiration: expiration, priority: priority, retry: retry,
                                              expiredPositions: expiredPositions)
    var provider = XivaProvider(configuration: configuration, deviceIDHash: hash)
    provider.register(token)
    return provider
}

/// The request a numbering provider with collapse ids sends for `message` at `position`.
private func expected(_ message: Int32, position: Int32, expiration: Expiration = .absent,
                      isResend: Bool = false, to recipient: DeviceToken = token) -> PushNotification {
    let shape = template(numbered: true)
    return PushNotification(token: recipient, priority: 10, expiration: expiration,
                            collapseID: shape.collapseID(position: position),
                            payload: PushPayload(messageIndex: message,
                                                 xiva: XivaInfo(position: position, deviceIDHash: hash),
                                                 byteCount: shape.byteCount(position: position,
                                                                            messageIndex: message)),
                            isResend: isResend)
}

/// Sends mails `messages` at `now`, clearing the effects.
private func mail(_ provider: inout XivaProvider, _ messages: ClosedRange<Int32>, at now: SimTime) {
    var effects: OwnedBuffer<ProviderEffect> = []
    for message in messages { provider.receiveMail(messageIndex: message, at: now, into: &effects) }
}

@Suite("Provider: PushTemplate")
struct PushTemplateTests {

    static let values: [Int32] = [0, 1, 9, 10, 11, 99, 100, 999, 1_000, 99_999, 100_000, 1_000_000_000, Int32.max]

    @Test("byteCount equals the rendered payload's UTF-8 size for every position and message id, numbered or not",
          arguments: [true, false], ["You have new mail", trickyBody, ""])
    func byteCountMatchesRender(numbered: Bool, body: String) {
        let shape = template(numbered: numbered, body: body)
        for position in Self.values {
            for message in Self.values {
                let rendered = shape.render(position: position, messageIndex: message, deviceIDHash: 0xffff_ffff)
                #expect(shape.byteCount(position: position, messageIndex: message) == Int32(rendered.utf8.count),
                        "position \(position), message \(message)")
            }
        }
    }

    @Test("a non-numbered template's size does not depend on the position")
    func unnumberedIgnoresPosition() {
        let shape = template(numbered: false)
        #expect(shape.byteCount(position: 0, messageIndex: 5) == shape.byteCount(position: Int32.max, messageIndex: 5))
        #expect(shape.byteCount(position: 0, messageIndex: 10) == shape.byteCount(position: 0, messageIndex: 5) + 1)
    }

    @Test("a numbered payload is valid JSON with mutable-content 1, the alert, thread-id, xiva pos, device_id_hash and mid")
    func renderedNumberedJSON() throws {
        let shape = template(numbered: true, body: trickyBody)
        let text = shape.render(position: 42, messageIndex: 99_999, deviceIDHash: 0x0000_0abc)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let root = try #require(object)
        #expect(Set(root.keys) == ["aps", "xiva", "mid"])
        let aps = try #require(root["aps"] as? [String: Any])
        #expect(Set(aps.keys) == ["alert", "mutable-content", "thread-id"])
        #expect((aps["mutable-content"] as? NSNumber)?.intValue == 1)
        #expect(aps["thread-id"] as? String == "ru.yandex.mail")
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "New mail")
        #expect(alert["body"] as? String == trickyBody)
        let xiva = try #require(root["xiva"] as? [String: Any])
        #expect((xiva["pos"] as? NSNumber)?.intValue == 42)
        #expect(xiva["device_id_hash"] as? String == "00000abc")
        #expect((root["mid"] as? NSNumber)?.intValue == 99_999)
    }

    @Test("a non-numbered payload is valid JSON with the aps dictionary and mid but no xiva")
    func renderedUnnumberedJSON() throws {
        let shape = template(numbered: false, body: trickyBody)
        let text = shape.render(position: 42, messageIndex: 7, deviceIDHash: 1)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(root.keys) == ["aps", "mid"])
        let aps = try #require(root["aps"] as? [String: Any])
        #expect((aps["mutable-content"] as? NSNumber)?.intValue == 1)
        #expect((aps["alert"] as? [String: Any])?["body"] as? String == trickyBody)
        #expect((root["mid"] as? NSNumber)?.intValue == 7)
    }

    @Test("every rendered payload parses as JSON, whatever the position, message id and hash; position 0 has no xiva")
    func everyRenderParses() throws {
        let shape = template(numbered: true, body: trickyBody)
        for value in Self.values {
            for hash: UInt32 in [0, 1, 0xdead_beef, UInt32.max] {
                let text = shape.render(position: value, messageIndex: value, deviceIDHash: hash)
                let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                // Position 0 is a push sent before numbering starts: no xiva block at all.
                guard value > 0 else {
                    #expect(root["xiva"] == nil)
                    continue
                }
                let xiva = try #require(root["xiva"] as? [String: Any])
                #expect((xiva["pos"] as? NSNumber)?.int64Value == Int64(value))
                let hex = try #require(xiva["device_id_hash"] as? String)
                #expect(hex.count == 8)
                #expect(UInt32(hex, radix: 16) == hash)
            }
        }
    }

    @Test("the collapse id is the queue key and position: its byteCount is collapseIDString's UTF-8 length")
    func collapseIDSize() {
        let shape = PushTemplate(app: "ru.yandex.mail", deviceID: "устройство-é", alertBody: "x", numbered: true)
        #expect(shape.queueKey == "устройство-é+ru.yandex.mail")
        #expect(shape.collapseIDString(position: 17) == "устройство-é+ru.yandex.mail/17")
        for position in Self.values {
            #expect(shape.collapseID(position: position).byteCount
                    == Int32(shape.collapseIDString(position: position).utf8.count), "\(position)")
        }
    }

    @Test("the same position gives the same collapse id, different positions different ones")
    func collapseIDIdentityPerPosition() {
        let shape = template(numbered: true)
        #expect(shape.collapseID(position: 5) == shape.collapseID(position: 5))
        var keys = Set<UInt64>()
        for position in Int32(1)...100_000 { keys.insert(shape.collapseID(position: position).key) }
        #expect(keys.count == 100_000)
    }

    @Test("the collapse id equals CollapseID of its string, so two queue keys never share one")
    func collapseIDMatchesString() {
        let mail = template(numbered: true)
        let other = PushTemplate(app: "ru.yandex.disk", deviceID: mail.deviceID, alertBody: "x", numbered: true)
        for position in Self.values + [-1, -10, Int32.min] {
            #expect(mail.collapseID(position: position) == CollapseID(mail.collapseIDString(position: position)))
            #expect(mail.collapseID(position: position) != other.collapseID(position: position))
        }
    }

    @Test("every position the template tabulates has the key of its collapse id's string, and the first past the table too")
    func tabulatedCollapseKeysMatchStrings() {
        let mail = template(numbered: true)
        for position in Int32(1)...4_100 {
            #expect(mail.collapseID(position: position) == CollapseID(mail.collapseIDString(position: position)))
        }
    }

    @Test("decimalDigits counts digits, with the sign for negatives")
    func digits() {
        let cases: [(Int32, Int32)] = [(0, 1), (9, 1), (10, 2), (99_999, 5), (Int32.max, 10), (-1, 2),
                                       (-10, 3), (Int32.min, 11)]
        for (value, digits) in cases {
            #expect(decimalDigits(value) == digits, "\(value)")
            #expect(decimalDigits(value) == Int32(String(value).count), "\(value)")
        }
    }

    @Test("deviceIDHash is 32-bit FNV-1a, stable across runs")
    func deviceHash() {
        #expect(deviceIDHash("") == 0x811c_9dc5)
        #expect(deviceIDHash("a") == 0xe40c_292c)
        #expect(deviceIDHash("device-1") != deviceIDHash("device-2"))
    }
}

@Suite("Provider: XivaProvider")
struct XivaProviderTests {

    @Test("positions are 1, 2, 3 … per provider, each push numbered with the provider's device-id hash")
    func positionsCountUp() {
        var first = makeProvider()
        var other = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        #expect(first.lastPosition == 0)
        first.receiveMail(messageIndex: 10, at: 0, into: &effects)
        first.receiveMail(messageIndex: 11, at: 0, into: &effects)
        first.receiveMail(messageIndex: 12, at: 0, into: &effects)
        #expect(effects == [.send(expected(10, position: 1)), .send(expected(11, position: 2)),
                            .send(expected(12, position: 3))])
        #expect(first.lastPosition == 3)
        effects.removeAll()
        other.receiveMail(messageIndex: 13, at: 0, into: &effects)
        #expect(effects == [.send(expected(13, position: 1))])
        #expect(other.lastPosition == 1)
    }

    @Test("without an explicit hash the provider uses the hash of the template's device id")
    func defaultHash() {
        let shape = template(numbered: true)
        var provider = XivaProvider(configuration: ProviderConfiguration(template: shape, numbering: true))
        provider.register(token)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 1, at: 0, into: &effects)
        guard case .send(let push)? = effects.first else { Issue.record("no send: \(effects)"); return }
        #expect(push.payload.xiva == XivaInfo(position: 1, deviceIDHash: deviceIDHash(shape.deviceID)))
    }

    @Test("the no-queue configuration sends no xiva info and no collapse id, and numbers nothing")
    func noQueueSendsPlainPushes() {
        var plain = makeProvider(numbering: false)
        var effects: OwnedBuffer<ProviderEffect> = []
        plain.receiveMail(messageIndex: 4, at: 0, into: &effects)
        plain.receiveMail(messageIndex: 5, at: 0, into: &effects)
        let shape = template(numbered: false)
        #expect(effects == [
            .send(PushNotification(token: token, collapseID: nil,
                                   payload: PushPayload(messageIndex: 4, byteCount: shape.byteCount(position: 0,
                                                                                                     messageIndex: 4)))),
            .send(PushNotification(token: token, collapseID: nil,
                                   payload: PushPayload(messageIndex: 5, byteCount: shape.byteCount(position: 0,
                                                                                                     messageIndex: 5)))),
        ])
        #expect(plain.lastPosition == 0)
    }

    @Test("a numbering provider with collapse ids switched off numbers pushes but sends no collapse id")
    func collapseIDOff() {
        var numbered = makeProvider(sendsCollapseID: false)
        var effects: OwnedBuffer<ProviderEffect> = []
        numbered.receiveMail(messageIndex: 1, at: 0, into: &effects)
        var push = expected(1, position: 1)
        push.collapseID = nil
        #expect(effects == [.send(push)])
    }

    @Test("apns-priority comes from the configuration")
    func priority() {
        var low = makeProvider(priority: 5)
        var effects: OwnedBuffer<ProviderEffect> = []
        low.receiveMail(messageIndex: 1, at: 0, into: &effects)
        var push = expected(1, position: 1)
        push.priority = 5
        #expect(effects == [.send(push)])
    }

    @Test("expiration policy: absent sends none, immediately sends 0, after(d) sends the instant now + d")
    func expirationPolicy() {
        let now = 1_000 * second
        var effects: OwnedBuffer<ProviderEffect> = []
        var absent = makeProvider(expiration: .absent)
        absent.receiveMail(messageIndex: 1, at: now, into: &effects)
        var immediately = makeProvider(expiration: .immediately)
        immediately.receiveMail(messageIndex: 2, at: now, into: &effects)
        var after = makeProvider(expiration: .after(3_600 * second))
        after.receiveMail(messageIndex: 3, at: now, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, expiration: .absent)),
                            .send(expected(2, position: 1, expiration: .immediately)),
                            .send(expected(3, position: 1, expiration: .at(now + 3_600 * second)))])
    }

    @Test("a provider that never heard a token drops mail with noValidToken and numbers nothing")
    func noTokenDrops() {
        var provider = XivaProvider(configuration: ProviderConfiguration(template: template(numbered: true),
                                                                         numbering: true), deviceIDHash: hash)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 8, at: 0, into: &effects)
        #expect(effects == [.dropped(messageIndex: 8, .noValidToken)])
        #expect(provider.lastPosition == 0)
    }

    @Test("a re-request re-sends exactly lastPosition-gap … lastPosition-1 in ascending order, flagged isResend, and answers ok")
    func rerequestResendsHeld() {
        var provider = makeProvider()
        mail(&provider, 100...109, at: 0)                 // positions 1…10 carry messages 100…109
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 9, gap: 3, invocation: 4, at: 5 * second, into: &effects)
        #expect(effects == [.send(expected(105, position: 6, isResend: true)),
                            .send(expected(106, position: 7, isResend: true)),
                            .send(expected(107, position: 8, isResend: true)),
                            .answer(invocation: 4, ok: true)])
        #expect(provider.lastPosition == 10)
    }

    @Test("a re-sent push carries its original's collapse id, so it collapses with the original on the device")
    func resendSharesCollapseID() {
        var provider = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 1, at: 0, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        provider.receiveRerequest(lastPosition: 2, gap: 1, invocation: 0, at: second, into: &effects)
        guard case .send(let original) = effects[0], case .send(let resent) = effects[2] else {
            Issue.record("unexpected effects \(effects)")
            return
        }
        #expect(original.collapseID != nil)
        #expect(resent.collapseID == original.collapseID)
        #expect(resent.payload == original.payload)
        #expect(resent.isResend && !original.isResend)
    }

    @Test("a re-sent push's apns-expiration counts from the re-send, not from the original")
    func resendExpirationFromNow() {
        var provider = makeProvider(expiration: .after(60 * second))
        mail(&provider, 1...2, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 2, gap: 1, invocation: 0, at: 10 * second, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, expiration: .at(70 * second), isResend: true)),
                            .answer(invocation: 0, ok: true)])
    }

    @Test("a re-request whose positions are all past payloadTTL answers an error and re-sends nothing")
    func rerequestAllExpired() {
        var provider = makeProvider(payloadTTL: 60 * second)
        mail(&provider, 1...3, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 3, gap: 2, invocation: 1, at: 60 * second, into: &effects)
        #expect(effects == [.positionsExpired(2), .answer(invocation: 1, ok: false)])
    }

    @Test("a payload is held until just before payloadTTL has passed")
    func ttlBoundary() {
        var provider = makeProvider(payloadTTL: 60 * second)
        mail(&provider, 1...2, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 2, gap: 1, invocation: 1, at: 60 * second - 1, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, isResend: true)), .answer(invocation: 1, ok: true)])
    }

    @Test("a re-request partly past payloadTTL re-sends only the positions still held, counts the others and answers ok")
    func rerequestPartlyExpired() {
        var provider = makeProvider(payloadTTL: 60 * second)
        mail(&provider, 1...2, at: 0)                     // positions 1, 2 at t = 0
        mail(&provider, 3...5, at: 30 * second)           // positions 3, 4, 5 at t = 30 s
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 5, gap: 4, invocation: 2, at: 70 * second, into: &effects)
        #expect(effects == [.positionsExpired(2),
                            .send(expected(3, position: 3, isResend: true)),
                            .send(expected(4, position: 4, isResend: true)),
                            .answer(invocation: 2, ok: true)])
    }

    @Test("without payloadTTL the queue keeps runs of consecutive messages, and a re-request across a run's break gets each one")
    func queueWithoutTTLKeepsRuns() {
        var provider = makeProvider()
        mail(&provider, 1...1_000, at: 0)
        // Mail 1001 never reached the provider (another app's, say): the numbering goes on with 1002.
        mail(&provider, 1_002...1_100, at: 10 * second)
        #expect(provider.lastPosition == 1_099)
        #expect(provider.heldPayloads == 1_099)
        #expect(provider.queueEntries == 2)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 1_003, gap: 4, invocation: 1, at: 20 * second, into: &effects)
        #expect(effects == [.send(expected(999, position: 999, isResend: true)),
                            .send(expected(1_000, position: 1_000, isResend: true)),
                            .send(expected(1_002, position: 1_001, isResend: true)),
                            .send(expected(1_003, position: 1_002, isResend: true)),
                            .answer(invocation: 1, ok: true)])
        effects.removeAll()
        provider.receiveRerequest(lastPosition: 3, gap: 2, invocation: 2, at: 20 * second, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, isResend: true)),
                            .send(expected(2, position: 2, isResend: true)),
                            .answer(invocation: 2, ok: true)])
    }

    @Test("a long queue forgets payloads past payloadTTL: numbering goes on, and a re-request still counts them expired")
    func longQueueForgetsExpiredPayloads() {
        var provider = makeProvider(payloadTTL: 60 * second)
        // 3,000 mails a second apart: by the last, all but the last minute's are past the TTL.
        for message in Int32(1)...3_000 { mail(&provider, message...message, at: SimTime(message) * second) }
        #expect(provider.lastPosition == 3_000)
        #expect(provider.heldPayloads < 1_100)
        var effects: OwnedBuffer<ProviderEffect> = []
        // Positions 2,995…2,999 are held; a gap reaching back over forgotten ones counts those expired.
        provider.receiveRerequest(lastPosition: 3_000, gap: 100, invocation: 4, at: 3_000 * second, into: &effects)
        #expect(effects.first == .positionsExpired(41))
        #expect(effects.count == 1 + 59 + 1)
        #expect(effects.last == .answer(invocation: 4, ok: true))
        effects.removeAll()
        provider.receiveRerequest(lastPosition: 10, gap: 5, invocation: 5, at: 3_000 * second, into: &effects)
        #expect(effects == [.positionsExpired(5), .answer(invocation: 5, ok: false)])
    }

    @Test("under payloadTTL a re-request gets each held position's own message, the newest as the older ones, and a copy that owns its storage keeps its own")
    func ttlQueueResendsNewestAndOlder() {
        var provider = makeProvider(payloadTTL: 600 * second)
        // Position p holds message 2p.
        for position in Int32(1)...21 { mail(&provider, (2 * position)...(2 * position), at: SimTime(position) * second) }
        var copy = provider
        copy.ownStorage()
        mail(&provider, 100...110, at: 30 * second)       // positions 22…32, the original's only
        mail(&copy, 200...200, at: 30 * second)           // position 22 of the copy: over the original's had they shared
        let older = OwnedBuffer<ProviderEffect>(
            (Int32(10)...21).map { .send(expected(2 * $0, position: $0, isResend: true)) } + [.answer(invocation: 1, ok: true)])
        for var queue in [provider, copy] {
            var effects: OwnedBuffer<ProviderEffect> = []
            queue.receiveRerequest(lastPosition: 22, gap: 12, invocation: 1, at: 40 * second, into: &effects)
            #expect(effects == older)
        }
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 33, gap: 11, invocation: 2, at: 40 * second, into: &effects)
        #expect(effects == OwnedBuffer((Int32(22)...32).map { .send(expected($0 + 78, position: $0, isResend: true)) }
                                       + [.answer(invocation: 2, ok: true)]))
        effects.removeAll()
        copy.receiveRerequest(lastPosition: 23, gap: 1, invocation: 3, at: 40 * second, into: &effects)
        #expect(effects == [.send(expected(200, position: 22, isResend: true)), .answer(invocation: 3, ok: true)])
        #expect(provider.queueEntries == 32 && copy.queueEntries == 22)
    }

    @Test("a gap reaching before position 1 is clamped at position 1")
    func gapClampedAtOne() {
        var provider = makeProvider()
        mail(&provider, 1...4, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 3, gap: 10, invocation: 0, at: second, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, isResend: true)),
                            .send(expected(2, position: 2, isResend: true)),
                            .answer(invocation: 0, ok: true)])
    }

    @Test("positions the provider never handed out are not re-sent")
    func beyondQueueNotResent() {
        var provider = makeProvider()
        mail(&provider, 1...2, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 10, gap: 9, invocation: 0, at: second, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, isResend: true)),
                            .send(expected(2, position: 2, isResend: true)),
                            .answer(invocation: 0, ok: true)])
        effects.removeAll()
        provider.receiveRerequest(lastPosition: 10, gap: 2, invocation: 1, at: second, into: &effects)
        #expect(effects == [.answer(invocation: 1, ok: false)])
    }

    @Test("a re-request with a gap of zero or less answers an error")
    func nonPositiveGap() {
        var provider = makeProvider()
        mail(&provider, 1...3, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 3, gap: 0, invocation: 0, at: second, into: &effects)
        provider.receiveRerequest(lastPosition: 3, gap: -1, invocation: 1, at: second, into: &effects)
        #expect(effects == [.answer(invocation: 0, ok: false), .answer(invocation: 1, ok: false)])
    }

    @Test("a no-queue provider answers every re-request with an error")
    func noQueueRefusesRerequests() {
        var plain = makeProvider(numbering: false)
        mail(&plain, 1...5, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        plain.receiveRerequest(lastPosition: 5, gap: 2, invocation: 0, at: second, into: &effects)
        plain.receiveRerequest(lastPosition: 2, gap: 1, invocation: 1, at: second, into: &effects)
        plain.receiveRerequest(lastPosition: 1, gap: 1, invocation: 2, at: second, into: &effects)
        #expect(effects == [.answer(invocation: 0, ok: false), .answer(invocation: 1, ok: false),
                            .answer(invocation: 2, ok: false)])
    }

    @Test("a 410 Unregistered makes the provider drop later mail with noValidToken until the device registers again")
    func unregisteredStopsUntilRegister() {
        var provider = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 1, at: 0, into: &effects)
        let refused = expected(1, position: 1)
        let answer = APNsResponse.failure(.unregistered, timestamp: 5)
        effects.removeAll()
        provider.receiveResponse(answer, for: refused, into: &effects)
        #expect(effects == [.failed(refused, .rejected(answer))])
        effects.removeAll()
        provider.receiveMail(messageIndex: 2, at: second, into: &effects)
        provider.receiveMail(messageIndex: 3, at: second, into: &effects)
        #expect(effects == [.dropped(messageIndex: 2, .noValidToken), .dropped(messageIndex: 3, .noValidToken)])
        #expect(provider.lastPosition == 1)
        effects.removeAll()
        provider.receiveRerequest(lastPosition: 2, gap: 1, invocation: 0, at: second, into: &effects)
        #expect(effects == [.answer(invocation: 0, ok: false)])
        effects.removeAll()
        let fresh = DeviceToken(4)
        provider.register(fresh)
        provider.receiveMail(messageIndex: 4, at: 2 * second, into: &effects)
        #expect(effects == [.send(expected(4, position: 2, to: fresh))])
    }

    @Test("a 410 for a token the provider no longer uses does not stop the current one")
    func staleUnregisteredIgnored() {
        var provider = makeProvider()
        let fresh = DeviceToken(9)
        provider.register(fresh)
        var effects: OwnedBuffer<ProviderEffect> = []
        let old = expected(1, position: 1)                 // sent to `token` before the re-registration
        provider.receiveResponse(.failure(.unregistered, timestamp: 0), for: old, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        #expect(effects == [.failed(old, .rejected(.failure(.unregistered, timestamp: 0))),
                            .send(expected(2, position: 1, to: fresh))])
    }

    @Test("other APNs errors are reported as failed and keep the token; 200 changes nothing")
    func otherErrorsKeepToken() {
        var provider = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        let push = expected(1, position: 1)
        provider.receiveResponse(.ok, for: push, into: &effects)
        #expect(effects.isEmpty)
        provider.receiveResponse(.failure(.payloadTooLarge), for: push, into: &effects)
        provider.receiveResponse(.failure(.tooManyRequests), for: push, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        #expect(effects == [.failed(push, .rejected(.failure(.payloadTooLarge))),
                            .failed(push, .rejected(.failure(.tooManyRequests))),
                            .send(expected(2, position: 1))])
    }

    @Test("reset empties the queue and forgets the token")
    func resetStartsOver() {
        var provider = makeProvider()
        mail(&provider, 1...3, at: 0)
        provider.reset(configuration: provider.configuration, deviceIDHash: hash)
        #expect(provider.lastPosition == 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 4, at: 0, into: &effects)
        provider.register(token)
        provider.receiveMail(messageIndex: 5, at: 0, into: &effects)
        #expect(effects == [.dropped(messageIndex: 4, .noValidToken), .send(expected(5, position: 1))])
    }
}

@Suite("Provider: the effects' layout")
struct ProviderEffectLayoutTests {
    @Test("an effect keeps its case in a byte after its largest payload, not in a push's bits (a push moves in and out as a plain copy)")
    func caseInAByteOfItsOwn() {
        // The largest payload, `.retry`'s push, attempt and delay, is 72 bytes; a push with
        // unused bits (a Bool's, an enum's, padding) would hold the case there, in 72.
        #expect(MemoryLayout<ProviderEffect>.size == 73)
    }
}

@Suite("Provider: XivaProvider retries, tokens, outages and subscriptions")
struct XivaProviderChainTests {

    // MARK: Stale subscriptions

    @Test("mail for a folder subscribed after the last sync is dropped as staleSubscription and numbers nothing")
    func staleSubscriptionDropped() {
        var provider = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 1, folderGeneration: 1, at: 0, into: &effects)
        #expect(effects == [.dropped(messageIndex: 1, .staleSubscription)])
        #expect(provider.lastPosition == 0)
        effects.removeAll()
        // Install-time folders (generation 0) are always known, so the next push is position 1.
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        #expect(effects == [.send(expected(2, position: 1))])
    }

    @Test("after subscriptionsSynced the folder's mail is sent; later generations stay stale; a sync never goes back")
    func subscriptionsSyncedAdmitsFolder() {
        var provider = makeProvider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.subscriptionsSynced(generation: 2)
        #expect(provider.syncedGeneration == 2)
        provider.receiveMail(messageIndex: 1, folderGeneration: 1, at: 0, into: &effects)
        provider.receiveMail(messageIndex: 2, folderGeneration: 2, at: 0, into: &effects)
        provider.receiveMail(messageIndex: 3, folderGeneration: 3, at: 0, into: &effects)
        provider.subscriptionsSynced(generation: 1)      // an older sync arriving late
        #expect(provider.syncedGeneration == 2)
        provider.receiveMail(messageIndex: 4, folderGeneration: 2, at: 0, into: &effects)
        #expect(effects == [.send(expected(1, position: 1)), .send(expected(2, position: 2)),
                            .dropped(messageIndex: 3, .staleSubscription), .send(expected(4, position: 3))])
        #expect(provider.lastPosition == 3)
    }

    @Test("a stale subscription is reported before a missing token")
    func staleBeforeNoToken() {
        var provider = XivaProvider(configuration: ProviderConfiguration(template: template(numbered: true),
                                                                         numbering: true), deviceIDHash: hash)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 1, folderGeneration: 1, at: 0, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        #expect(effects == [.dropped(messageIndex: 1, .staleSubscription), .dropped(messageIndex: 2, .noValidToken)])
    }

    // MARK: Outages

    @Test("while down, mail is dropped as outage without a position, re-requests answer errors, due retries fail")
    func outageStopsSending() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 3))
        mail(&provider, 1...3, at: 0)
        provider.outageBegins()
        #expect(provider.isDown)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 4, at: second, into: &effects)
        provider.receiveMail(messageIndex: 5, folderGeneration: 7, at: second, into: &effects)   // outage first
        provider.receiveRerequest(lastPosition: 3, gap: 2, invocation: 9, at: second, into: &effects)
        let held = expected(2, position: 2)
        provider.retryDue(held, attempt: 1, at: second, into: &effects)
        #expect(effects == [.dropped(messageIndex: 4, .outage), .dropped(messageIndex: 5, .outage),
                            .answer(invocation: 9, ok: false), .failed(held, .outage)])
        #expect(provider.lastPosition == 3)
    }

    @Test("after outageEnds the provider numbers on from where it stopped, re-sends and retries again")
    func outageRecovers() {
        var provider = makeProvider()
        mail(&provider, 1...3, at: 0)
        provider.outageBegins()
        mail(&provider, 4...5, at: second)
        provider.outageEnds()
        #expect(!provider.isDown)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 6, at: 2 * second, into: &effects)
        provider.receiveRerequest(lastPosition: 3, gap: 1, invocation: 0, at: 2 * second, into: &effects)
        provider.retryDue(expected(1, position: 1), attempt: 1, at: 2 * second, into: &effects)
        #expect(effects == [.send(expected(6, position: 4)), .send(expected(2, position: 2, isResend: true)),
                            .answer(invocation: 0, ok: true), .sendRetry(expected(1, position: 1), attempt: 1)])
    }

    @Test("while down, APNs answers to earlier requests, registrations and subscription syncs are still applied")
    func outageKeepsSubscriptionStore() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 1, backoff: second))
        provider.outageBegins()
        var effects: OwnedBuffer<ProviderEffect> = []
        let early = expected(1, position: 1)
        provider.receiveResponse(.failure(.serviceUnavailable), for: early, into: &effects)
        provider.sendFailed(early, attempt: 0, into: &effects)
        provider.receiveResponse(.failure(.unregistered, timestamp: 0), for: early, into: &effects)
        #expect(effects == [.retry(early, attempt: 1, after: second), .retry(early, attempt: 1, after: second),
                            .failed(early, .rejected(.failure(.unregistered, timestamp: 0)))])
        let fresh = DeviceToken(42)
        provider.register(fresh, at: 5 * second)
        provider.subscriptionsSynced(generation: 1)
        #expect(provider.syncedGeneration == 1)
        provider.outageEnds()
        effects.removeAll()
        provider.receiveMail(messageIndex: 2, folderGeneration: 1, at: 6 * second, into: &effects)
        #expect(effects == [.send(expected(2, position: 1, to: fresh))])
    }

    // MARK: Network failures and 429 / 503

    @Test("a request without an answer is retried with a doubling back-off up to maxRetries, then fails as network")
    func networkFailureBackoff() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 3, backoff: 2 * second))
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        for attempt: Int32 in 0...3 { provider.sendFailed(push, attempt: attempt, into: &effects) }
        #expect(effects == [.retry(push, attempt: 1, after: 2 * second), .retry(push, attempt: 2, after: 4 * second),
                            .retry(push, attempt: 3, after: 8 * second), .failed(push, .network)])
    }

    @Test("with the default policy a request without an answer fails as network at once")
    func networkFailureNoRetries() {
        var provider = makeProvider()
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.sendFailed(push, attempt: 0, into: &effects)
        #expect(effects == [.failed(push, .network)])
    }

    @Test("429 and 503 are retried after the back-off while retries are left, then fail as rejected; the token stays")
    func rateLimitRetried() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 2, backoff: second))
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveResponse(.failure(.tooManyRequests), for: push, attempt: 0, into: &effects)
        provider.receiveResponse(.failure(.serviceUnavailable), for: push, attempt: 1, into: &effects)
        provider.receiveResponse(.failure(.tooManyRequests), for: push, attempt: 2, into: &effects)
        provider.receiveResponse(.failure(.serviceUnavailable), for: push, attempt: 2, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 0, into: &effects)
        #expect(effects == [.retry(push, attempt: 1, after: second), .retry(push, attempt: 2, after: 2 * second),
                            .failed(push, .rejected(.failure(.tooManyRequests))),
                            .failed(push, .rejected(.failure(.serviceUnavailable))),
                            .send(expected(2, position: 1))])
    }

    @Test("errors other than 429 and 503 are never retried, even with retries left")
    func otherErrorsNotRetried() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 5))
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveResponse(.failure(.payloadTooLarge), for: push, into: &effects)
        provider.receiveResponse(.failure(.badCollapseId), for: push, attempt: 1, into: &effects)
        provider.receiveResponse(.ok, for: push, attempt: 1, into: &effects)
        #expect(effects == [.failed(push, .rejected(.failure(.payloadTooLarge))),
                            .failed(push, .rejected(.failure(.badCollapseId)))])
    }

    // MARK: 410 timestamps

    @Test("a 410 whose timestamp predates the token's last registration is reported but keeps the token")
    func unregisteredBeforeRegistrationIgnored() {
        var provider = makeProvider()
        provider.register(token, at: 100 * second)        // the device registered the same token again
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        let stale = APNsResponse.failure(.unregistered, timestamp: 100 * second - 1)
        provider.receiveResponse(stale, for: push, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 101 * second, into: &effects)
        #expect(effects == [.failed(push, .rejected(stale)), .send(expected(2, position: 1))])
    }

    @Test("a 410 stamped at or after the token's registration stops the token")
    func unregisteredAfterRegistrationDrops() {
        for stamp in [100 * second, 200 * second] {
            var provider = makeProvider()
            provider.register(token, at: 100 * second)
            let push = expected(1, position: 1)
            var effects: OwnedBuffer<ProviderEffect> = []
            let current = APNsResponse.failure(.unregistered, timestamp: stamp)
            provider.receiveResponse(current, for: push, into: &effects)
            provider.receiveMail(messageIndex: 2, at: 201 * second, into: &effects)
            #expect(effects == [.failed(push, .rejected(current)), .dropped(messageIndex: 2, .noValidToken)],
                    "timestamp \(stamp)")
        }
    }

    @Test("a 410 without a timestamp counts as current and stops the token")
    func unregisteredWithoutTimestampDrops() {
        var provider = makeProvider()
        provider.register(token, at: 100 * second)
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveResponse(.failure(.unregistered), for: push, into: &effects)
        provider.receiveMail(messageIndex: 2, at: 101 * second, into: &effects)
        #expect(effects == [.failed(push, .rejected(.failure(.unregistered))), .dropped(messageIndex: 2, .noValidToken)])
    }

    // MARK: retryDue

    @Test("a due retry is sent again as that attempt, unchanged to the same token, and re-addressed after a re-registration")
    func retryDueReaddressed() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 2))
        let push = expected(1, position: 1, isResend: true)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.retryDue(push, attempt: 1, at: second, into: &effects)
        let fresh = DeviceToken(77)
        provider.register(fresh, at: 2 * second)
        provider.retryDue(push, attempt: 2, at: 3 * second, into: &effects)
        #expect(effects == [.sendRetry(push, attempt: 1),
                            .sendRetry(expected(1, position: 1, isResend: true, to: fresh), attempt: 2)])
    }

    @Test("a due retry with no valid token left fails as Unregistered")
    func retryDueWithoutToken() {
        var provider = makeProvider(retry: RetryPolicy(maxRetries: 2))
        let push = expected(1, position: 1)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveResponse(.failure(.unregistered, timestamp: second), for: push, attempt: 1, into: &effects)
        effects.removeAll()
        let other = expected(2, position: 2)
        provider.retryDue(other, attempt: 1, at: 2 * second, into: &effects)
        #expect(effects == [.failed(other, .rejected(.failure(.unregistered)))])
    }

    // MARK: Device-id change

    @Test("a registration with a new device-id hash starts a new queue: numbering restarts, the new hash and queue key are used")
    func deviceIDChangeRestartsQueue() {
        var provider = makeProvider()
        mail(&provider, 1...3, at: 0)
        let newHash: UInt32 = 0x0001_2345
        provider.register(token, deviceIDHash: newHash, at: second)
        #expect(provider.lastPosition == 0)
        // The 36-character device id becomes the new hash in hex, zero-padded to the same length.
        let newKey = String(repeating: "0", count: 31) + "12345+ru.yandex.mail"
        #expect(provider.template.queueKey == newKey)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 4, at: second, into: &effects)
        let shape = template(numbered: true)
        let renumbered = PushNotification(token: token, collapseID: CollapseID(newKey + "/1"),
                                          payload: PushPayload(messageIndex: 4,
                                                               xiva: XivaInfo(position: 1, deviceIDHash: newHash),
                                                               byteCount: shape.byteCount(position: 1, messageIndex: 4)))
        #expect(effects == [.send(renumbered)])
        #expect(renumbered.collapseID != expected(1, position: 1).collapseID)
        #expect(renumbered.collapseID?.byteCount == expected(1, position: 1).collapseID?.byteCount)
    }

    @Test("after a device-id change the old key's held payloads are gone")
    func deviceIDChangeDropsHeldPayloads() {
        var provider = makeProvider()
        mail(&provider, 1...3, at: 0)
        provider.register(token, deviceIDHash: 0x0001_2345, at: second)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 4, gap: 3, invocation: 0, at: second, into: &effects)
        #expect(effects == [.answer(invocation: 0, ok: false)])
    }

    @Test("a registration with the same hash or none leaves the queue and the hash untouched")
    func sameHashKeepsQueue() {
        var provider = makeProvider()
        mail(&provider, 1...2, at: 0)
        provider.register(token, deviceIDHash: hash, at: second)
        provider.register(token, at: 2 * second)
        #expect(provider.lastPosition == 2)
        #expect(provider.template == template(numbered: true))
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 3, at: 3 * second, into: &effects)
        provider.receiveRerequest(lastPosition: 3, gap: 1, invocation: 0, at: 3 * second, into: &effects)
        #expect(effects == [.send(expected(3, position: 3)), .send(expected(2, position: 2, isResend: true)),
                            .answer(invocation: 0, ok: true)])
    }

    @Test("reset restores the configuration's template, install-time subscriptions and an up provider")
    func resetClearsChainState() {
        var provider = makeProvider()
        provider.register(token, deviceIDHash: 0x0001_2345, at: second)
        provider.subscriptionsSynced(generation: 4)
        provider.outageBegins()
        provider.reset(configuration: provider.configuration, deviceIDHash: hash)
        #expect(provider.template == template(numbered: true))
        #expect(provider.syncedGeneration == 0)
        #expect(!provider.isDown)
    }

    // MARK: TTL and expiredPositions

    @Test("under .error one expired position makes the re-request an error with nothing re-sent, counted first")
    func expiredPositionsError() {
        var provider = makeProvider(payloadTTL: 60 * second, expiredPositions: .error)
        mail(&provider, 1...2, at: 0)                     // positions 1, 2 at t = 0
        mail(&provider, 3...5, at: 30 * second)           // positions 3, 4, 5 at t = 30 s
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 5, gap: 4, invocation: 2, at: 70 * second, into: &effects)
        #expect(effects == [.positionsExpired(2), .answer(invocation: 2, ok: false)])
    }

    @Test("under .error a single expired position among held ones is enough to answer an error")
    func expiredPositionsErrorSingle() {
        var provider = makeProvider(payloadTTL: 60 * second, expiredPositions: .error)
        mail(&provider, 1...1, at: 0)
        mail(&provider, 2...4, at: 30 * second)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 4, gap: 3, invocation: 5, at: 60 * second, into: &effects)
        #expect(effects == [.positionsExpired(1), .answer(invocation: 5, ok: false)])
    }

    @Test("under .error a re-request with nothing expired re-sends as usual and emits no positionsExpired")
    func expiredPositionsErrorNoneExpired() {
        var provider = makeProvider(payloadTTL: 60 * second, expiredPositions: .error)
        mail(&provider, 1...2, at: 0)
        mail(&provider, 3...5, at: 30 * second)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 5, gap: 2, invocation: 3, at: 70 * second, into: &effects)
        #expect(effects == [.send(expected(3, position: 3, isResend: true)),
                            .send(expected(4, position: 4, isResend: true)), .answer(invocation: 3, ok: true)])
    }

    @Test("under .resendRest the expired count covers only requested positions that exist")
    func expiredCountsOnlyExistingPositions() {
        var provider = makeProvider(payloadTTL: 60 * second, expiredPositions: .resendRest)
        mail(&provider, 1...3, at: 0)
        mail(&provider, 4...4, at: 50 * second)
        var effects: OwnedBuffer<ProviderEffect> = []
        // Requests 2 … 9; only 2 … 4 exist, and 2, 3 are past the TTL at t = 61 s.
        provider.receiveRerequest(lastPosition: 10, gap: 8, invocation: 1, at: 61 * second, into: &effects)
        #expect(effects == [.positionsExpired(2), .send(expected(4, position: 4, isResend: true)),
                            .answer(invocation: 1, ok: true)])
    }

    @Test("without a TTL nothing is ever counted as expired")
    func noTTLNoExpiry() {
        var provider = makeProvider(expiredPositions: .error)
        mail(&provider, 1...2, at: 0)
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveRerequest(lastPosition: 2, gap: 1, invocation: 0, at: 365 * TimeUnit.day, into: &effects)
        #expect(effects == [.send(expected(1, position: 1, isResend: true)), .answer(invocation: 0, ok: true)])
    }
}
