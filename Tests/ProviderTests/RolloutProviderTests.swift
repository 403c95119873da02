@testable import Base
@testable import FakeAPNs
@testable import Provider
import Testing

private let token = DeviceToken(3)
private let hash: UInt32 = 0x00ab_cdef
private let from: SimTime = 86_400 * TimeUnit.second

@Suite("Provider: numbering from a rollout's first day")
struct RolloutProviderTests {
    private func template(numbered: Bool) -> PushTemplate {
        PushTemplate(app: "ru.yandex.mail", deviceID: "5C1D0E7A-0000-4000-8000-00000000CAFE",
                     alertBody: "You have new mail", numbered: numbered)
    }

    private func provider() -> XivaProvider {
        var provider = XivaProvider(configuration: ProviderConfiguration(template: template(numbered: true), numbering: true,
                                                                         numberingFrom: from),
                                    deviceIDHash: hash)
        provider.register(token)
        return provider
    }

    private func sent(_ effects: OwnedBuffer<ProviderEffect>) -> [PushNotification] {
        effects.compactMap { if case .send(let push) = $0 { push } else { nil } }
    }

    @Test("mail before numberingFrom goes out plain (no xiva, no collapse id, a plain payload's size); from it on, positions 1, 2, …")
    func numberingStartsAtItsInstant() {
        var provider = provider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 0, at: 0, into: &effects)
        provider.receiveMail(messageIndex: 1, at: from - 1, into: &effects)
        provider.receiveMail(messageIndex: 2, at: from, into: &effects)
        provider.receiveMail(messageIndex: 3, at: from + 5, into: &effects)
        let pushes = sent(effects)
        #expect(pushes.map(\.payload.xiva?.position) == [nil, nil, 1, 2])
        #expect(pushes.map { $0.collapseID == nil } == [true, true, false, false])
        // A plain push is exactly the size a provider that never numbers sends.
        let plain = template(numbered: false)
        #expect(pushes[1].payload.byteCount == plain.byteCount(position: 0, messageIndex: 1))
        #expect(pushes[1].payload.byteCount == Int32(plain.render(position: 0, messageIndex: 1, deviceIDHash: hash).utf8.count))
        #expect(pushes[2].payload.byteCount == Int32(template(numbered: true).render(position: 1, messageIndex: 2,
                                                                                        deviceIDHash: hash).utf8.count))
    }

    @Test("a re-request before any numbered push is answered with an error: nothing is held")
    func rerequestBeforeNumberingFails() {
        var provider = provider()
        var effects: OwnedBuffer<ProviderEffect> = []
        provider.receiveMail(messageIndex: 0, at: 0, into: &effects)
        effects.removeAll()
        provider.receiveRerequest(lastPosition: 3, gap: 2, invocation: 7, at: 10, into: &effects)
        #expect(effects == [.answer(invocation: 7, ok: false)])
    }
}
