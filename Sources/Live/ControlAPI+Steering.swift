import Base
import Simulator
import Transport

// Phones a test steers: `POST /devices/{device}/apps/{app}/actions` and `POST /tokens`.

extension ServeService {
    /// `POST /devices/{device}/apps/{app}/actions` with `{"action": a}`: the device app does
    /// `a` now (`LivePopulation.steer`); answers it as `GET /devices/{device}/apps/{app}` does.
    /// - Complexity: O(l) in the device apps, plus the events the action causes.
    func steer(_ request: HTTPRequest, device deviceText: String, app appText: String) -> HTTPResponse {
        guard let device = Int32(deviceText), let app = Int32(appText),
              let lane = population.lanes.firstIndex(where: { $0.device == device && $0.app == app }) else {
            return ControlAPI.error(404, "no device \(UserText.quote(deviceText)) with app \(UserText.quote(appText))")
        }
        let names = SteeringAction.allCases.map(\.name).joined(separator: ", ")
        guard let object = Self.jsonObject(request.body), object.members.count == 1, let member = object.members.first,
              member.key == "action", case .string(let name) = member.value.value else {
            return ControlAPI.error(400, "expected {\"action\": a} with a one of: " + names)
        }
        guard let action = SteeringAction(rawValue: name) else {
            return ControlAPI.error(400, "unknown action \(UserText.quote(name)); expected one of: " + names)
        }
        _ = population.steer(action, device: device, app: app)
        return ControlAPI.json(200, deviceAppJSON(lane))
    }

    /// `POST /tokens` with `{"token": hex, "topic": t}`: a team's own test token becomes a
    /// device app of its own (`LivePopulation.registerTestToken`); answers 201 with its device and app.
    /// - Complexity: O(l + t) in the device apps and topics.
    func registerToken(_ request: HTTPRequest) -> HTTPResponse {
        let expected = "expected {\"token\": 64 hex digits, \"topic\": one of serve's topics}"
        guard let object = Self.jsonObject(request.body), object.members.count == 2,
              let tokenNode = object["token"], case .string(let tokenText) = tokenNode.value,
              let topicNode = object["topic"], case .string(let topic) = topicNode.value else {
            return ControlAPI.error(400, expected)
        }
        guard let bytes = Self.tokenBytes(tokenText) else {
            return ControlAPI.error(400, "token: expected 64 hex digits (32 bytes, as APNs issues), found \(UserText.quote(tokenText))")
        }
        let topics = population.topics.isEmpty ? [population.topic(ofApp: 0)] : population.topics
        guard let app = topics.firstIndex(of: topic) else {
            // 404, not 400: the body is well formed, the topic is not one serve holds.
            return ControlAPI.error(404, "topic: serve serves " + UserText.list(topics) + ", not \(UserText.quote(topic)) "
                                    + "(--topic adds one)")
        }
        if let known = population.tokens.token(bytes) {
            let holder = population.lanes[Int(population.tokens.lane(of: known))]
            return ControlAPI.error(409, "token: device \(holder.device) app \(holder.app) already holds it")
        }
        guard let lane = population.registerTestToken(bytes, app: Int32(app)) else { return ControlAPI.error(400, expected) }
        let deviceApp = population.lanes[Int(lane)]
        return ControlAPI.json(201, JSONText.object([
            ("device", String(deviceApp.device)), ("app", String(deviceApp.app)), ("topic", JSONText.string(topic)),
            ("token", JSONText.string(population.tokens.hex(deviceApp.phone.token))), ("online", String(deviceApp.phone.isOnline)),
        ]))
    }

    /// The body as a JSON object, or nil.
    static func jsonObject(_ body: [UInt8]) -> JSONObject? {
        guard let root = try? JSONParser.parse(body), case .object(let object) = root.value else { return nil }
        return object
    }

    /// The 32 bytes of a token written as 64 hex digits (either case), or nil.
    /// - Complexity: O(n) in the text.
    static func tokenBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
