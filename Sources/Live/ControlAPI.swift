import Base
import FoundationEssentials
import FakeAPNs
import Simulator
import Transport

/// The control and inspection API's routes, declared once: the index (`GET /`), the
/// dispatch, the OpenAPI document (`ControlAPIDocument`) and docs/serve.md (checked by a
/// test) all follow this list.
public enum ControlRoute: CaseIterable, Sendable {
    case index, devices, deviceApp, steer, registerToken, clock, advanceClock, counters, metrics, openAPI, stop
    /// APNs's faults (ServeFaults.swift).
    case faults, startFault

    /// The method and path pattern, as documented.
    public var pattern: String {
        switch self {
        case .index: "GET /"
        case .devices: "GET /devices"
        case .deviceApp: "GET /devices/{device}/apps/{app}"
        case .steer: "POST /devices/{device}/apps/{app}/actions"
        case .registerToken: "POST /tokens"
        case .clock: "GET /clock"
        case .advanceClock: "POST /clock"
        case .counters: "GET /counters"
        case .metrics: "GET /metrics"
        case .openAPI: "GET /openapi.json"
        case .stop: "POST /stop"
        case .faults: "GET /faults"
        case .startFault: "POST /faults"
        }
    }

    /// What it answers, for the index.
    public var summary: String {
        switch self {
        case .index: "what runs (scenario and its digest, seed, strategy, device apps, topics, end, APNs's URL) and these routes"
        case .devices: "the device apps a page at a time: topic, current token, old tokens, online or not "
            + "(?limit= and ?after= page, ?topic= filters, ?counts=true adds its counts)"
        case .deviceApp: "one device app: Notification Center, the extension's log, what APNs holds, its counts"
        case .steer: "steers the device app now: {\"action\": a} with a one of " + SteeringAction.allCases.map(\.name).joined(separator: ", ")
            + "; answers the device app as GET does"
        case .registerToken: "a team's own test token for a topic: {\"token\": 64 hex digits, \"topic\": t}; answers its device and app"
        case .clock: "the simulated clock: mode, now, the end"
        case .advanceClock: "moves a controlled clock: {\"advanceSeconds\": s} or {\"toSeconds\": s}"
        case .counters: "the counts so far: APNs's (as summary.csv and the Push Console), the device apps', by reason"
        case .metrics: "the same counts in Prometheus's text format (0.0.4), for a scraper"
        case .openAPI: "this API's OpenAPI 3.1 document (schema/pushsim-control-api.openapi.json)"
        case .stop: "ends the run: serve writes its reports and exits"
        case .faults: "APNs's faults: the kind in force now, the one started here, the requests each kind met"
        case .startFault: "starts a fault now: {\"kind\": k} or {\"kind\": k, \"seconds\": s}; {\"stop\": true} stops it"
        }
    }

    /// The method: the pattern's first word.
    /// - Complexity: O(1).
    public var method: String { String(pattern.prefix { $0 != " " }) }

    /// The path template (`/devices/{device}/apps/{app}`): the pattern after the method.
    /// - Complexity: O(1).
    public var path: String { String(pattern.drop { $0 != " " }.dropFirst()) }

    /// The path parameters' values when `segments` (a path split at `/`) is this route's
    /// path, by name; nil when it is not.
    /// - Complexity: O(segments).
    func parameters(_ segments: [String]) -> [String: String]? {
        let template = path.split(separator: "/").map(String.init)
        guard template.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(template, segments) {
            if part.hasPrefix("{") { values[String(part.dropFirst().dropLast())] = segment } else if part != segment { return nil }
        }
        return values
    }
}

/// JSON answers of the control API.
enum ControlAPI {
    static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("content-type", "application/json")], body: Array((text + "\n").utf8))
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, JSONText.object([("error", JSONText.string(message))]))
    }

    /// 405 for a path whose routes take other methods: `Allow` lists them (RFC 9110, 15.5.6),
    /// HEAD beside GET.
    /// - Complexity: O(routes).
    static func notAllowed(_ routes: [ControlRoute]) -> HTTPResponse {
        var methods: [String] = []
        for route in routes {
            methods.append(route.method)
            if route.method == "GET" { methods.append("HEAD") }
        }
        var answer = error(405, routes.map(\.pattern).joined(separator: " or ") + " only")
        answer.headers.append(Header("allow", methods.joined(separator: ", ")))
        return answer
    }
}

extension ServeService {
    /// Answers one request on the control listener (`ControlRoute`).
    /// - Complexity: O(devices × apps) for the lists, O(1) otherwise, plus a clock's events.
    func answerControl(_ request: HTTPRequest) -> HTTPResponse {
        let (path, query) = Self.split(request.path)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let routes = ControlRoute.allCases.compactMap { route in route.parameters(segments).map { (route, $0) } }
        guard !routes.isEmpty else { return ControlAPI.error(404, "no route \(path); GET / lists them") }
        guard let (route, parameters) = routes.first(where: {
            request.method == $0.0.method || (request.method == "HEAD" && $0.0.method == "GET")
        }) else {
            return ControlAPI.notAllowed(routes.map(\.0))
        }
        switch route {
        case .index:
            var run: [(String, String)] = [
                ("scenario", JSONText.string(population.scenario.name)), ("seed", JSONText.string(String(population.scenario.seed))),
                ("strategy", JSONText.string(population.strategy.label)), ("deviceApps", String(population.lanes.count)),
                ("endMicroseconds", String(population.end)),
                ("topics", JSONText.array(population.appTopics.map(JSONText.string))),
            ]
            if let scenarioDigest { run.append(("scenarioDigest", JSONText.string(scenarioDigest))) }
            if let apnsURL { run.append(("apns", JSONText.string(apnsURL))) }
            if let apnsCAFile { run.append(("apnsCA", JSONText.string(apnsCAFile))) }
            if let provider { run.append(("provider", JSONText.string(provider.url.description))) }
            return ControlAPI.json(200, JSONText.object([("run", JSONText.object(run)), ("routes", JSONText.array(ControlRoute.allCases.map {
                JSONText.object([("route", JSONText.string($0.pattern)), ("answers", JSONText.string($0.summary))])
            }))]))
        case .devices:
            return listDevices(request, query: query)
        case .deviceApp:
            let (deviceText, appText) = (parameters["device"] ?? "", parameters["app"] ?? "")
            guard let device = Int32(deviceText), let app = Int32(appText),
                  let lane = population.lanes.firstIndex(where: { $0.device == device && $0.app == app }) else {
                return ControlAPI.error(404, "no device \(UserText.quote(deviceText)) with app \(UserText.quote(appText))")
            }
            // A background push held past a spent hour reached the app when the next hour began.
            population.settleBackground(lane: Int32(lane))
            return ControlAPI.json(200, deviceAppJSON(lane))
        case .steer:
            return steer(request, device: segments[1], app: segments[3])
        case .registerToken:
            return registerToken(request)
        case .clock:
            return ControlAPI.json(200, clockJSON())
        case .advanceClock:
            return advanceClock(request)
        case .counters:
            return ControlAPI.json(200, countersJSON())
        case .metrics:
            return HTTPResponse(status: 200, headers: [Header("content-type", PrometheusText.contentType)], body: Array(metricsText().utf8))
        case .openAPI:
            return HTTPResponse(status: 200, headers: [Header("content-type", "application/json")],
                                body: Array(ControlAPIDocument.text.utf8))
        case .stop:
            stop(.stopRequested)
            return ControlAPI.json(202, JSONText.object([("stopping", "true")]))
        case .faults:
            return ControlAPI.json(200, faultsJSON())
        case .startFault:
            return startOrStopFault(request)
        }
    }

    /// The path and its query's `name=value` pairs.
    static func split(_ target: String) -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            // `=x` and `=` have an empty name: kept as parts, never a missing first part.
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? PercentDecoding.decoded(parts[1]) ?? String(parts[1]) : ""
            query[PercentDecoding.decoded(parts[0]) ?? String(parts[0])] = value
        }
        return (String(target[..<mark]), query)
    }

    func time(_ time: SimTime) -> String { JSONText.string(LiveClock.iso8601(time, start: population.scenario.start)) }

    /// One page of `GET /devices`, built at once.
    /// - Complexity: O(lanes looked at).
    func devicesJSON(_ page: DeviceQuery) -> String {
        var listing = DeviceListing(answer: nil, topic: page.topic, counts: page.counts, limit: page.limit, from: page.from,
                                    now: time(population.now))
        while listing.next < population.lanes.count && !listing.isFull { continueListing(&listing, for: Self.listingStep) }
        return listing.finished(lanes: population.lanes.count)
    }

    /// Looks at up to `budget` device apps for `listing`, from where it stands, until its page is full.
    /// - Complexity: O(budget).
    func continueListing(_ listing: inout DeviceListing, for budget: Int) {
        let end = Swift.min(population.lanes.count, listing.next + budget)
        while listing.next < end && !listing.isFull {
            let lane = listing.next
            listing.next += 1
            let deviceApp = population.lanes[lane]
            let appTopic = population.topic(ofApp: deviceApp.app)
            if let topic = listing.topic, topic != appTopic { continue }
            let current = deviceApp.phone.token
            let old = deviceApp.tokens.filter { $0 != current }
            listing.append(JSONText.object([
                ("device", String(deviceApp.device)), ("app", String(deviceApp.app)), ("topic", JSONText.string(appTopic)),
                ("token", JSONText.string(population.tokens.hex(current))), ("online", String(deviceApp.phone.isOnline)),
                ("oldTokens", JSONText.array(old.map { JSONText.string(population.tokens.hex($0)) })),
            ] + (listing.counts ? [("counts", countsJSON(deviceApp.counts))] : [])))
        }
    }

    func countsJSON(_ counts: DeviceAppCounts) -> String {
        JSONText.object(DeviceAppCount.allCases.map { ($0.columnName, String(counts[$0])) })
    }

    func rejectionsJSON(_ rejections: [Int64]) -> String {
        JSONText.object(APNsReason.allCases.filter { rejections[$0.index] > 0 }.map { ($0.name, String(rejections[$0.index])) })
    }

    func recordJSON(_ record: PushRecord?, messageIndex: Int32) -> [(String, String)] {
        guard let record else { return [("apnsId", "null"), ("words", JSONText.string("no longer kept"))] }
        return [("apnsId", JSONText.string(record.apnsID)), ("acceptedAt", time(record.acceptedAt)),
                ("title", JSONText.optional(record.title, JSONText.string)), ("body", JSONText.optional(record.body, JSONText.string)),
                ("collapseId", JSONText.optional(record.collapseID, JSONText.string)), ("priority", String(record.priority)),
                ("expiredOnArrival", String(record.expiredOnArrival))]
    }

    func deviceAppJSON(_ lane: Int) -> String {
        let deviceApp = population.lanes[lane]
        let shown = deviceApp.notificationCenter.reversed().map { entry in
            var members: [(String, String)] = [("shownAt", time(entry.shownAt))]
            members += recordJSON(entry.record, messageIndex: entry.messageIndex)
            if let summary = entry.summary {
                members.append(("missedMessages", JSONText.object([("fromPosition", String(summary.lowerBound)),
                                                                   ("toPosition", String(summary.upperBound))])))
            }
            return JSONText.object(members)
        }
        let log = deviceApp.log.reversed().map { entry in
            var members: [(String, String)] = [("time", time(entry.time)), ("step", JSONText.string(entry.step.text))]
            if let message = entry.messageIndex {
                members.append(("apnsId", JSONText.optional(population.records.record(messageIndex: message)?.apnsID, JSONText.string)))
            }
            return JSONText.object(members)
        }
        var holds: [String] = []
        for deviceToken in deviceApp.tokens {
            if let stored = population.apns.storedNotification(for: deviceToken) {
                var members: [(String, String)] = [("place", JSONText.string("offline slot"))]
                members += recordJSON(population.records.record(messageIndex: stored.payload.messageIndex),
                                      messageIndex: stored.payload.messageIndex)
                if let until = APNsServer.storageDeadline(of: stored, at: stored.acceptedAt) { members.append(("until", time(until))) }
                holds.append(JSONText.object(members))
            }
            for held in population.apns.powerBatch(for: deviceToken) {
                holds.append(JSONText.object([("place", JSONText.string("power batch"))]
                                             + recordJSON(population.records.record(messageIndex: held.payload.messageIndex),
                                                          messageIndex: held.payload.messageIndex)))
            }
        }
        let received = deviceApp.backgroundUpdates.reversed().map { entry in
            var members: [(String, String)] = [("time", time(entry.time)),
                                               ("fate", JSONText.string(entry.fate.name))]
            members += recordJSON(entry.record, messageIndex: entry.messageIndex)
            return JSONText.object(members)
        }
        let phone = deviceApp.phone
        let budget = phone.configuration.background
        let background = JSONText.object([
            ("budgetPerHour", String(budget.perHour)), ("forceQuitShare", JSONText.number(budget.forceQuitShare)),
            ("usedThisHour", String(phone.backgroundUpdates.usedThisHour)),
            ("held", JSONText.optional(phone.backgroundUpdates.held) { message in
                JSONText.object(recordJSON(population.records.record(messageIndex: message), messageIndex: message))
            }),
            ("received", JSONText.array(received)),
            ("counts", deviceApp.backgroundCountsJSON),
        ])
        return JSONText.object([
            ("now", time(population.now)), ("device", String(deviceApp.device)), ("app", String(deviceApp.app)),
            ("topic", JSONText.string(population.topic(ofApp: deviceApp.app))),
            ("token", JSONText.string(population.tokens.hex(phone.token))), ("online", String(phone.isOnline)),
            ("deviceIdHash", JSONText.string(ProviderCall.hex(UInt64(phone.deviceIDHash), digits: 8))),
            ("savedPosition", JSONText.optional(phone.storage.lastNotificationPosition) { String($0) }),
            ("notificationCenter", JSONText.array(shown)), ("extensionLog", JSONText.array(log)),
            ("apnsHolds", JSONText.array(holds)), ("counts", countsJSON(deviceApp.counts)),
            ("rejections", rejectionsJSON(deviceApp.rejections)), ("background", background),
        ])
    }

    func clockJSON() -> String {
        let mode = switch clock.mode {
        case .scaled(let speed): JSONText.object([("kind", JSONText.string("scaled")), ("speed", JSONText.number(speed))])
        case .controlled: JSONText.object([("kind", JSONText.string("controlled"))])
        }
        let start = population.scenario.start
        return JSONText.object([
            ("mode", mode), ("now", time(population.now)),
            ("simulatedSeconds", JSONText.number(Double(population.now) / Double(TimeUnit.second))),
            ("microseconds", String(population.now)),
            ("waitingForProvider", String(population.unanswered)),
            ("epochMilliseconds", String(LiveClock.epochMilliseconds(population.now, start: start))),
            ("end", time(population.end)), ("endSimulatedSeconds", JSONText.number(Double(population.end) / Double(TimeUnit.second))),
        ])
    }

    func advanceClock(_ request: HTTPRequest) -> HTTPResponse {
        let body = request.body
        guard case .controlled = clock.mode else {
            return ControlAPI.error(409, "the clock is scaled wall time (--speed); only a controlled clock (--clock controlled) is advanced")
        }
        guard let root = try? JSONParser.parse(body), case .object(let object) = root.value,
              object.members.count == 1, let member = object.members.first,
              case .number(let number) = member.value.value, number.doubleValue.isFinite, number.doubleValue >= 0,
              number.doubleValue <= Self.clockBound(member.key) else {
            return ControlAPI.error(400, Self.clockBodyExpected)
        }
        let amount = member.key == "toMicroseconds" ? SimTime(exactly: number.doubleValue) ?? -1
            : SimTime((number.doubleValue * Double(TimeUnit.second)).rounded(.down))
        let target: SimTime
        switch member.key {
        case "advanceSeconds": target = population.now + amount
        case "toSeconds", "toMicroseconds":
            guard number.isInteger || member.key == "toSeconds" else { return ControlAPI.error(400, Self.clockBodyExpected) }
            guard amount >= population.now else {
                return ControlAPI.error(400, "the clock reads \(Double(population.now) / Double(TimeUnit.second)) s; it never goes back")
            }
            target = amount
        default:
            return ControlAPI.error(400, "unknown key \(UserText.quote(member.key)); expected advanceSeconds, toSeconds or toMicroseconds")
        }
        population.advance(to: target)
        if population.pendingTarget != nil {
            // The phones wait for the provider: the answer comes once the clock got there.
            clockWaiters.append(request.laterAnswer)
            return .later
        }
        if population.now >= population.end { stop(.endReached) }
        return ControlAPI.json(200, clockJSON())
    }

    static let clockBodyExpected =
        "expected {\"advanceSeconds\": s}, {\"toSeconds\": s} with s a number from 0 to 315576000 (ten years), "
        + "or {\"toMicroseconds\": n} with n an integer from 0 to 315576000000000"

    /// The largest clock move a body may ask for, in its own key's unit: ten years either way
    /// (a run is at most a few years; ten years in microseconds is 3.2e14, far inside `SimTime`).
    static let clockBoundSeconds: Double = 315_576_000
    static func clockBound(_ key: String) -> Double {
        key == "toMicroseconds" ? clockBoundSeconds * Double(TimeUnit.second) : clockBoundSeconds
    }


    func countersJSON() -> String {
        let totals = PopulationTotals(population)
        let apns = population.apns.counters
        return JSONText.object([
            ("now", time(population.now)),
            ("apns", JSONText.object(APNsCounter.allCases.map { ($0.columnName, String(apns[$0])) })),
            ("deviceApps", countsJSON(totals.counts)), ("rejections", rejectionsJSON(totals.rejections)),
            ("background", totals.backgroundJSON),
            ("answers", JSONText.object(answered.map { (String($0.status), String($0.count)) })),
        ])
    }
}
