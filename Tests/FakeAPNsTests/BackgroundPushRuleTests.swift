@testable import Base
@testable import FakeAPNs
import Testing

/// Apple ("Sending notification requests to APNs", `apns-push-type`): a background push
/// must use priority 5; "Using priority 10 is an error". APNs answers 400 `BadPriority`,
/// on the wire and in the model alike; a request without `apns-priority` is priority 10.
@Suite("Background pushes: APNs's priority rule")
struct BackgroundPushRuleTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
    static let payload = Array(#"{"aps":{"content-available":1}}"#.utf8)

    static func parse(_ headers: [(String, String)]) -> Result<APNsWireRequest, APNsReason> {
        APNsWireRequest.parse(method: "POST", path: "/3/device/" + token,
                              headers: ([("apns-topic", "com.example.mail")] + headers).map { (name: $0.0, value: $0.1) },
                              body: payload)
    }

    @Test("on the wire: background with priority 10, or without apns-priority, is 400 BadPriority; 5 and 1 are read")
    func wire() throws {
        func reason(_ result: Result<APNsWireRequest, APNsReason>) -> APNsReason? {
            if case .failure(let reason) = result { reason } else { nil }
        }
        #expect(reason(Self.parse([("apns-push-type", "background"), ("apns-priority", "10")])) == .badPriority)
        #expect(reason(Self.parse([("apns-push-type", "background")])) == .badPriority)
        for priority in ["5", "1"] {
            let request = try Self.parse([("apns-push-type", "background"), ("apns-priority", priority)]).get()
            #expect(request.pushType == .background && request.priority == UInt8(priority)!)
        }
        // Other types keep priority 10, the default.
        #expect(try Self.parse([("apns-push-type", "alert"), ("apns-priority", "10")]).get().priority == 10)
        #expect(try Self.parse([]).get().priority == 10)
        // An unknown priority is refused as before, whatever the type.
        #expect(reason(Self.parse([("apns-push-type", "background"), ("apns-priority", "7")])) == .badPriority)
    }

    @Test("in the model: APNs refuses a background push at priority 10 before storing anything, and takes it at 5")
    func model() {
        var apns = APNsServer()
        apns.register(DeviceToken(1))
        var effects = OwnedBuffer<APNsEffect>()
        func push(priority: UInt8) -> PushNotification {
            PushNotification(token: DeviceToken(1), pushType: .background, priority: priority,
                             payload: PushPayload(messageIndex: 0, mutableContent: false, hasAlert: false, byteCount: 40))
        }
        #expect(apns.receive(push(priority: 10), at: 0, into: &effects) == .failure(.badPriority))
        #expect(effects.isEmpty && apns.counters[.rejected] == 1 && apns.heldNotifications == 0)
        #expect(apns.validate(push(priority: 10)) == .failure(.badPriority))
        #expect(apns.receive(push(priority: 5), at: 0, into: &effects) == .ok)
        // The device is offline: stored in the app's one slot, as any push.
        #expect(apns.heldNotifications == 1)
        #expect(PushType.background.allows(priority: 5) && !PushType.background.allows(priority: 10))
        #expect(PushType.allCases.filter { $0 != .background }.allSatisfy { $0.allows(priority: 10) })
    }
}
