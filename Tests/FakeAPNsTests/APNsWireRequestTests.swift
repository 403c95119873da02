@testable import FakeAPNs
import Testing

/// A request as it comes over HTTP/2, checked the way APNs checks it (Apple's "Sending
/// notification requests to APNs"), each rule with the reason Apple answers.
@Suite("APNs requests on the wire")
struct APNsWireRequestTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
    static let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    static func parse(method: String = "POST", path: String = "/3/device/" + token,
                      _ headers: [(String, String)] = [("apns-topic", "ru.yandex.mail")],
                      body: [UInt8] = payload) -> Result<APNsWireRequest, APNsReason> {
        APNsWireRequest.parse(method: method, path: path, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
    }

    static func reason(_ result: Result<APNsWireRequest, APNsReason>) -> APNsReason? {
        if case .failure(let reason) = result { reason } else { nil }
    }

    @Test("a well-formed request is read: token bytes from hex, defaults for what is absent")
    func wellFormed() throws {
        let request = try Self.parse().get()
        #expect(request.token.count == 32 && request.token.first == 0x74 && request.token.last == 0xad)
        #expect(request.topic == "ru.yandex.mail")
        #expect(request.pushType == .missing && request.priority == 10 && request.expiration == .absent)
        #expect(request.collapseID == nil && request.apnsID == nil && request.authorization == nil)
        #expect(request.payload == Self.payload)
    }

    @Test("tokens are hex of any even length, either case; Apple says not to hard-code 64 characters")
    func tokensOfAnyLength() throws {
        #expect(try Self.parse(path: "/3/device/ABCD").get().token == [0xab, 0xcd])
        #expect(try Self.parse(path: "/3/device/" + String(repeating: "0f", count: 100)).get().token.count == 100)
        #expect(Self.reason(Self.parse(path: "/3/device/abc")) == .badDeviceToken)
        #expect(Self.reason(Self.parse(path: "/3/device/zz")) == .badDeviceToken)
        #expect(Self.reason(Self.parse(path: "/3/device/")) == .missingDeviceToken)
        #expect(try Self.parse(path: "/3/device/09afAF").get().token == [0x09, 0xaf, 0xaf])
        // A character next to the digits' ranges, at each position, is refused.
        for position in 0..<8 {
            for wrong in ["/", ":", "@", "G", "`", "g", "é", " "] {
                var digits = Array("0123abcd")
                digits[position] = Character(wrong)
                #expect(Self.reason(Self.parse(path: "/3/device/" + String(digits))) == .badDeviceToken, "\(String(digits))")
            }
        }
    }

    @Test("method and path: 405 MethodNotAllowed for anything but POST, 404 BadPath off /3/device/")
    func methodAndPath() {
        #expect(Self.reason(Self.parse(method: "GET")) == .methodNotAllowed)
        #expect(Self.reason(Self.parse(method: "PUT")) == .methodNotAllowed)
        #expect(Self.reason(Self.parse(path: "/2/device/" + Self.token)) == .badPath)
        #expect(Self.reason(Self.parse(path: "/")) == .badPath)
        #expect(APNsReason.methodNotAllowed.status == 405 && APNsReason.badPath.status == 404)
    }

    @Test("headers: a repeated apns- header is 400 DuplicateHeaders; apns-id must be a canonical UUID, echoed lowercase")
    func headers() throws {
        #expect(Self.reason(Self.parse([("apns-topic", "a"), ("apns-topic", "b")])) == .duplicateHeaders)
        #expect(Self.reason(Self.parse([("apns-priority", "10"), ("apns-priority", "10")])) == .duplicateHeaders)
        let id = "123E4567-E89B-12D3-A456-426614174000"
        #expect(try Self.parse([("apns-id", id)]).get().apnsID == id.lowercased())
        for bad in ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "g23e4567-e89b-12d3-a456-426614174000", ""] {
            #expect(Self.reason(Self.parse([("apns-id", bad)])) == .badMessageId, "\(bad)")
        }
    }

    @Test("push type, priority and expiration: Apple's values read, anything else its 400 reason")
    func typedHeaders() throws {
        for type in PushType.allCases {
            guard let value = type.headerValue else { continue }
            // A background push must say priority 5 (BackgroundPushRuleTests).
            let priority: [(String, String)] = type == .background ? [("apns-priority", "5")] : []
            #expect(try Self.parse([("apns-push-type", value)] + priority).get().pushType == type)
        }
        #expect(Self.reason(Self.parse([("apns-push-type", "Alert")])) == .invalidPushType)
        #expect(Self.reason(Self.parse([("apns-push-type", "")])) == .invalidPushType)
        for priority in [10, 5, 1] { #expect(try Self.parse([("apns-priority", "\(priority)")]).get().priority == UInt8(priority)) }
        for bad in ["0", "7", "high", "", "-5"] { #expect(Self.reason(Self.parse([("apns-priority", bad)])) == .badPriority, "\(bad)") }
        #expect(try Self.parse([("apns-expiration", "0")]).get().expiration == .immediately)
        #expect(try Self.parse([("apns-expiration", "1767225600")]).get().expiration == .epochSeconds(1_767_225_600))
        for bad in ["-1", "soon", "1.5", "", "99999999999999999999"] {
            #expect(Self.reason(Self.parse([("apns-expiration", bad)])) == .badExpirationDate, "\(bad)")
        }
    }

    @Test("fields read in place: the priority's other spellings read as their text does; other fields are not looked at")
    func fieldsInPlace() throws {
        for text in ["+5", "010", "05", "+10", "1", "01", "256", " 5", "5 ", "0x5", "١٠"] {
            let number = UInt8(text).flatMap { [10, 5, 1].contains($0) ? $0 : nil }
            let result = Self.parse([("apns-priority", text)])
            if let number { #expect(try result.get().priority == number, "\(text)") } else { #expect(Self.reason(result) == .badPriority, "\(text)") }
        }
        let mixed = Self.parse([("user-agent", "h2load"), ("apns-topic", "ru.yandex.mail"), ("content-length", "22"),
                                ("apns-push-type", "alert"), ("apnsx", "1"), ("authorization", "bearer x"), ("user-agent", "again")])
        let request = try mixed.get()
        #expect(request.topic == "ru.yandex.mail" && request.pushType == .alert && request.authorization == "bearer x")
        #expect(Self.reason(Self.parse([("apns-topic", "a"), ("authorization", "x"), ("authorization", "y")])) == .duplicateHeaders)
        #expect(Self.reason(Self.parse([("apns-push-type", "alert"), ("apns-push-type", "alert")])) == .duplicateHeaders)
        #expect(Self.reason(Self.parse([("apns-priority", "bad"), ("apns-priority", "10")])) == .duplicateHeaders)
    }

    @Test("a collapse id over 64 bytes is 400 BadCollapseId; an empty payload 400 PayloadEmpty; over 4096 bytes (5120 for VoIP) 413")
    func sizes() throws {
        #expect(try Self.parse([("apns-collapse-id", String(repeating: "x", count: 64))]).get().collapseID?.utf8.count == 64)
        #expect(Self.reason(Self.parse([("apns-collapse-id", String(repeating: "x", count: 65))])) == .badCollapseId)
        // Bytes, not characters: 33 two-byte letters are 66 bytes.
        #expect(Self.reason(Self.parse([("apns-collapse-id", String(repeating: "é", count: 33))])) == .badCollapseId)
        #expect(Self.reason(Self.parse(body: [])) == .payloadEmpty)
        #expect((try? Self.parse(body: Array(repeating: 32, count: 4096)).get()) != nil)
        #expect(Self.reason(Self.parse(body: Array(repeating: 32, count: 4097))) == .payloadTooLarge)
        #expect((try? Self.parse([("apns-push-type", "voip")], body: Array(repeating: 32, count: 5120)).get()) != nil)
        #expect(Self.reason(Self.parse([("apns-push-type", "voip")], body: Array(repeating: 32, count: 5121))) == .payloadTooLarge)
    }

    @Test("the checks run in a fixed order: method, path, token, duplicates, apns-id, push type, priority, expiration, collapse id, payload")
    func order() {
        let everythingWrong: [(String, String)] = [("apns-id", "x"), ("apns-push-type", "x"), ("apns-priority", "x"),
                                                   ("apns-expiration", "x"), ("apns-collapse-id", String(repeating: "x", count: 65))]
        #expect(Self.reason(Self.parse(method: "GET", path: "/x", everythingWrong, body: [])) == .methodNotAllowed)
        #expect(Self.reason(Self.parse(path: "/x", everythingWrong, body: [])) == .badPath)
        #expect(Self.reason(Self.parse(path: "/3/device/x", everythingWrong, body: [])) == .badDeviceToken)
        #expect(Self.reason(Self.parse(everythingWrong + [("apns-id", "y")], body: [])) == .duplicateHeaders)
        var headers = everythingWrong
        let expected: [APNsReason] = [.badMessageId, .invalidPushType, .badPriority, .badExpirationDate, .badCollapseId]
        for reason in expected {
            #expect(Self.reason(Self.parse(headers, body: [])) == reason)
            headers.removeFirst()
        }
        #expect(Self.reason(Self.parse(headers, body: [])) == .payloadEmpty)
    }
}
