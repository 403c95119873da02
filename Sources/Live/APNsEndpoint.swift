import Base
import FakeAPNs
import ProviderAuth
import Transport

extension ServeService {
    /// Answers one request on the APNs listener as APNs does: the wire checks
    /// (`APNsWireRequest.parse`), the provider's authentication, the topic, the token, then
    /// the population's APNs (410, 429, 200). Every answer carries `apns-id`: the request's,
    /// or one made for it; an error's body is `{"reason": …}` (with `timestamp` for 410).
    /// - Complexity: O(n) in the request, plus the events it causes.
    func answerAPNs(_ request: HTTPRequest) -> HTTPResponse {
        // Only the fields `APNsWireRequest.parse` reads (`apns-*` and `authorization`) become
        // text, their known names as constants: not `user-agent`, `content-length`, ….
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(8)
        request.forEachField { name, value in
            guard let text = Self.apnsFieldName(name) else { return }
            headers.append((text, String(decoding: value, as: UTF8.self)))
        }
        let wire: APNsWireRequest
        switch APNsWireRequest.parse(method: request.method, path: request.path, headers: headers, body: request.body) {
        case .failure(let reason):
            return answer(.failure(reason), apnsID: makeAPNsID())
        case .success(let parsed):
            wire = parsed
        }
        let apnsID = wire.apnsID ?? makeAPNsID()
        // Known before the checks that come first, so a refusal is counted to its device app.
        let token = population.tokens.token(wire.token)
        func refuse(_ reason: APNsReason) -> HTTPResponse {
            if let token { population.refused(token, reason) }
            return answer(.failure(reason), apnsID: apnsID)
        }
        var topic = wire.topic
        switch authentication {
        case .none:
            break
        case .token:
            var check = tokenChecks[request.connection] ?? freshTokenCheck!
            let verdict = check.check(authorization: wire.authorization, now: wallClock())
            tokenChecks[request.connection] = check
            if let reason = verdict.reason { return refuse(reason.apnsReason) }
            if topic == nil { return refuse(.missingTopic) }
        case .certificate(let subjectHeader):
            // A token sent beside a certificate is not looked at: the certificate authenticates.
            guard let subject = request.value(subjectHeader) else {
                return refuse(.missingProviderToken)
            }
            guard let allowed = CertificateSubject.topic(subject) else {
                return refuse(.badCertificate)
            }
            if let asked = topic {
                guard Self.topic(asked, belongsTo: allowed) else { return refuse(.topicDisallowed) }
            } else {
                topic = allowed
            }
        }
        guard let token else { return refuse(.badDeviceToken) }
        let app = population.lanes[Int(population.tokens.lane(of: token))].app
        // Through an inout access: `population.topic(ofApp:)` called on this class's property
        // copied the whole population for the call (about 2,000 instructions a request).
        if let topic, !Self.topic(topic, belongsTo: Self.topic(ofApp: app, in: &population)) {
            return refuse(.deviceTokenNotForTopic)
        }
        return answer(population.receive(wire, token: token, apnsID: apnsID), apnsID: apnsID)
    }

    /// The name of a field APNs reads, as text (the known ones are constants), or nil for
    /// another field.
    /// - Complexity: O(n), n the name's octets.
    static func apnsFieldName(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        func equals(_ text: StaticString) -> Bool {
            guard name.count == text.utf8CodeUnitCount else { return false }
            for index in 0..<name.count where name[index] != text.utf8Start[index] { return false }
            return true
        }
        if equals("authorization") { return "authorization" }
        // "apns-"
        guard name.count >= 5, name[0] == 0x61, name[1] == 0x70, name[2] == 0x6e, name[3] == 0x73, name[4] == 0x2d else { return nil }
        switch name.count {
        case 7 where equals("apns-id"): return "apns-id"
        case 10 where equals("apns-topic"): return "apns-topic"
        case 13 where equals("apns-priority"): return "apns-priority"
        case 14 where equals("apns-push-type"): return "apns-push-type"
        case 15 where equals("apns-expiration"): return "apns-expiration"
        case 16 where equals("apns-collapse-id"): return "apns-collapse-id"
        default: return String(decoding: name, as: UTF8.self)
        }
    }

    /// The topic of app `app`, read from `population` in place.
    private static func topic(ofApp app: Int32, in population: inout LivePopulation) -> String {
        population.topic(ofApp: app)
    }

    /// Whether `topic` is the app's bundle id, or the bundle id with a push type's suffix
    /// (`.voip`, `.complication`, `.push-type.liveactivity`, …).
    static func topic(_ topic: String, belongsTo bundleID: String) -> Bool {
        topic == bundleID || (topic.hasPrefix(bundleID) && topic.utf8.dropFirst(bundleID.utf8.count).first == UInt8(ascii: "."))
    }

    /// The HTTP answer for APNs's response.
    func answer(_ response: APNsResponse, apnsID: String) -> HTTPResponse {
        answeredByStatus[Int(response.status)] += 1
        guard let reason = response.reason else {
            return HTTPResponse(status: 200, headers: [Header("apns-id", apnsID)])
        }
        var body = "{\"reason\":" + JSONText.string(reason.name)
        if reason.status == 410 {
            let at = response.timestamp ?? population.now
            body += ",\"timestamp\":" + String(LiveClock.epochMilliseconds(at, start: population.scenario.start))
        }
        body += "}"
        return HTTPResponse(status: Int(reason.status),
                            headers: [Header("apns-id", apnsID), Header("content-type", "application/json")],
                            body: Array(body.utf8))
    }
}
