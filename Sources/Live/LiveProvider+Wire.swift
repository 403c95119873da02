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
    /// simulated time. A status without a reason Apple documents is read by the status alone
    /// (`unexplained(status:)`).
    /// - Complexity: O(n) in the body.
    package func apnsResponse(_ response: HTTPResponse) -> APNsResponse {
        if response.status == 200 { return .ok }
        guard let root = try? JSONParser.parse(response.body), case .object(let object) = root.value,
              case .string(let name)? = object["reason"]?.value,
              let reason = APNsReason.allCases.first(where: { $0.name == name }) else {
            return Self.unexplained(status: response.status)
        }
        var timestamp: SimTime?
        if case .number(let number)? = object["timestamp"]?.value, let milliseconds = number.int64Value {
            timestamp = (milliseconds - LiveClock.startEpochSeconds(scenario.start) * 1000) * (TimeUnit.second / 1000)
        }
        return .failure(reason, timestamp: timestamp)
    }

    /// An error without a reason Apple documents (a proxy's page, a bare status), read as APNs
    /// would mean it: 410 as `Unregistered`, 429 as `TooManyRequests`, 503 as
    /// `ServiceUnavailable`, another 5xx as `InternalServerError`; any other status is given up,
    /// as a 4xx cannot succeed by sending the same request again.
    /// - Complexity: O(1).
    static func unexplained(status: Int) -> APNsResponse {
        switch status {
        case 410: .failure(.unregistered)
        case 429: .failure(.tooManyRequests)
        case 503: .failure(.serviceUnavailable)
        case 500...599: .failure(.internalServerError)
        default: .unexplained(status: UInt16(clamping: status))
        }
    }
}
