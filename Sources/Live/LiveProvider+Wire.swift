import Base
import FakeAPNs
import Provider
import Transport

extension LiveProvider {
    /// The APNs request for a push: `POST /3/device/<token>` with the headers the
    /// simulation's push carries and the payload its template renders (the talk's XIVA
    /// fields `xiva.pos`, `xiva.device_id_hash` and `mid`).
    /// - Complexity: O(n) in the payload.
    package func apnsRequest(_ outgoing: OutgoingPush) -> OutgoingRequest {
        let push = outgoing.push
        let template = lanes[Int(outgoing.lane)].provider.template
        let position = push.payload.xiva?.position ?? 0
        var headers = [Header("apns-topic", template.app), Header("apns-push-type", "alert"),
                       Header("apns-priority", String(push.priority))]
        switch push.expiration {
        case .absent: break
        case .immediately: headers.append(Header("apns-expiration", "0"))
        case .at(let time):
            // Whole seconds, rounded up: never earlier than the simulation's instant.
            let seconds = LiveClock.startEpochSeconds(scenario.start) + (time + TimeUnit.second - 1) / TimeUnit.second
            headers.append(Header("apns-expiration", String(max(1, seconds))))
        }
        if push.collapseID != nil, position > 0 {
            headers.append(Header("apns-collapse-id", template.collapseIDString(position: position)))
        }
        let payload = template.render(position: position, messageIndex: push.payload.messageIndex,
                                      deviceIDHash: push.payload.xiva?.deviceIDHash ?? 0)
        return OutgoingRequest(method: "POST", path: "/3/device/" + text(of: push.token), headers: headers,
                               body: Array(payload.utf8))
    }

    /// What APNs's answer says, as the provider actor reads it: 200, or the status with the
    /// `reason` of its JSON body and, for 410, its `timestamp` (epoch milliseconds) in
    /// simulated time. A status without a reason Apple documents is read as 500 InternalServerError.
    /// - Complexity: O(n) in the body.
    package func apnsResponse(_ response: HTTPResponse) -> APNsResponse {
        if response.status == 200 { return .ok }
        guard let root = try? JSONParser.parse(response.body), case .object(let object) = root.value,
              case .string(let name)? = object["reason"]?.value,
              let reason = APNsReason.allCases.first(where: { $0.name == name }) else {
            return .failure(.internalServerError)
        }
        var timestamp: SimTime?
        if case .number(let number)? = object["timestamp"]?.value, let milliseconds = number.int64Value {
            timestamp = (milliseconds - LiveClock.startEpochSeconds(scenario.start) * 1000) * (TimeUnit.second / 1000)
        }
        return .failure(reason, timestamp: timestamp)
    }
}
