import Base
import FakeAPNs
import ProviderAuth
import Transport
import X509

extension ServeService {
    /// Answers one request on the APNs listener as APNs does: the wire checks
    /// (`APNsWireRequest.parse`), the provider's authentication, the topic, the token, then
    /// the population's APNs (410, 429, 200). Every answer carries `apns-id`: the request's,
    /// or one made for it; an error's body is `{"reason": …}` (with `timestamp` for 410).
    /// - Complexity: O(n) in the request, plus the events it causes.
    func answerAPNs(_ request: HTTPRequest) -> HTTPResponse {
        // The fields are read in place: text is made only of the values the request keeps.
        let wire: APNsWireRequest
        switch APNsWireRequest.parse(method: request.method, path: request.path, forEachField: { request.forEachField($0) },
                                     body: request.body) {
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
            let verifiedBefore = check.signatureVerifications
            let verdict = check.check(authorization: wire.authorization, now: wallClock())
            signatureVerifications += check.signatureVerifications - verifiedBefore
            tokenChecks[request.connection] = check
            if let reason = verdict.reason { return refuse(reason.apnsReason) }
            if topic == nil { return refuse(.missingTopic) }
        case .certificate(let subjectHeader):
            // A token sent beside a certificate is not looked at: the certificate authenticates.
            guard let subject = request.value(subjectHeader) else {
                return refuse(.missingProviderToken)
            }
            switch Self.judge(topic, allowed: CertificateSubject.topic(subject)) {
            case .success(let judged): topic = judged
            case .failure(let reason): return refuse(reason)
            }
        case .clientCertificate:
            guard let leaf = request.clientCertificateChain.first else { return refuse(.missingProviderToken) }
            switch Self.judge(topic, allowed: certificateTopic(leaf, connection: request.connection)) {
            case .success(let judged): topic = judged
            case .failure(let reason): return refuse(reason)
            }
        }
        guard let token else { return refuse(.badDeviceToken) }
        return answer(Self.deliver(wire, token: token, topic: topic, apnsID: apnsID, in: &population), apnsID: apnsID)
    }

    /// The token's topic check, then APNs's answer, in one access to the population: every
    /// access to this class's property is checked for exclusivity at run time, and calling
    /// `population.topic(ofApp:)` on the property copied the whole population for the call
    /// (about 2,000 instructions a request).
    private static func deliver(_ wire: APNsWireRequest, token: DeviceToken, topic: String?, apnsID: String,
                                in population: inout LivePopulation) -> APNsResponse {
        let app = population.lanes[Int(population.tokens.lane(of: token))].app
        if let topic, !Self.topic(topic, belongsTo: population.topic(ofApp: app)) {
            population.refused(token, .deviceTokenNotForTopic)
            return .failure(.deviceTokenNotForTopic)
        }
        return population.receive(wire, token: token, apnsID: apnsID)
    }

    /// The topic a request goes to under certificate authentication: the one asked, if the
    /// certificate's (`allowed`) allows it (400 `TopicDisallowed` otherwise), or the
    /// certificate's; a certificate naming no topic is 403 `BadCertificate`.
    private static func judge(_ asked: String?, allowed: String?) -> Result<String, APNsReason> {
        guard let allowed else { return .failure(.badCertificate) }
        guard let asked else { return .success(allowed) }
        return topic(asked, belongsTo: allowed) ? .success(asked) : .failure(.topicDisallowed)
    }

    /// The `UID` of the client certificate `leaf` (DER, verified by TLS), read once per connection.
    private func certificateTopic(_ leaf: [UInt8], connection: Int) -> String? {
        if let known = certificateTopics[connection] { return known }
        let found = (try? Certificate(der: leaf))?.subject.userID
        certificateTopics[connection] = .some(found)
        return found
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
