import Base
import FakeAPNs

/// The control API's OpenAPI 3.1 document, made from `ControlRoute`: each route's path,
/// method and summary come from its declaration, its parameters, body and answers from
/// `ControlRoute.operation`, the counters' schemas from the counters' own declarations.
/// Served at `GET /openapi.json`, printed by `pushsim schema control-api` and shipped as
/// schema/pushsim-control-api.openapi.json (a test holds the three equal, byte for byte).
package enum ControlAPIDocument {
    /// The document's version (`info.version`): the API's, raised when a route changes its contract.
    static let apiVersion = "1.1.0"

    /// The document, pretty-printed, ending in a line feed.
    package static let text = JSONText.pretty(compact) + "\n"

    /// The document as compact JSON.
    /// - Complexity: O(routes + counters).
    static var compact: String {
        JSONText.object([
            ("openapi", JSONText.string("3.1.0")),
            ("info", JSONText.object([
                ("title", JSONText.string("pushsim serve: control and inspection API")),
                ("version", JSONText.string(apiVersion)),
                ("description", JSONText.string(
                    "The control listener of `pushsim serve` (docs/serve.md), HTTP/1.1 or HTTP/2 cleartext, for tests on loopback. "
                    + "Every answer but GET /metrics is JSON. An unknown path is 404 and a known path with another method 405 "
                    + "(with `Allow`), both {\"error\": text}; HEAD is answered wherever GET is.")),
            ])),
            ("servers", JSONText.array([JSONText.object([("url", JSONText.string("http://127.0.0.1:2198")),
                                                         ("description", JSONText.string("serve's default --control"))])])),
            ("paths", paths),
            ("components", JSONText.object([("schemas", ControlAPISchemas.components), ("responses", errorAnswers)])),
        ])
    }

    /// Every route under its path, paths in the order their first route is declared.
    static var paths: String {
        var order: [String] = []
        var byPath: [String: [(String, String)]] = [:]
        for route in ControlRoute.allCases {
            if byPath[route.path] == nil { order.append(route.path) }
            byPath[route.path, default: []].append((route.method.lowercased(), route.operation))
        }
        return JSONText.object(order.map { ($0, JSONText.object(byPath[$0] ?? [])) })
    }

    /// The error answers routes refer to (`#/components/responses/…`).
    static var errorAnswers: String {
        func answer(_ description: String) -> String {
            JSONText.object([("description", JSONText.string(description)), ("content", json(ref("Error")))])
        }
        return JSONText.object([
            ("BadRequest", answer("The query or body is not what the route takes; the error says what is expected.")),
            ("NotFound", answer("No such route, or no such device app.")),
            ("MethodNotAllowed", answer("The path is a route's, the method is not: `Allow` lists the methods taken.")),
        ])
    }

    /// `{"$ref": "#/components/schemas/<name>"}`.
    static func ref(_ name: String) -> String { JSONText.object([("$ref", JSONText.string("#/components/schemas/" + name))]) }

    /// `{"application/json": {"schema": …}}`.
    static func json(_ schema: String) -> String { JSONText.object([("application/json", JSONText.object([("schema", schema)]))]) }

    /// An answer with a JSON body of `schema`.
    static func answer(_ description: String, _ schema: String) -> String {
        JSONText.object([("description", JSONText.string(description)), ("content", json(schema))])
    }

    /// A reference to one of `errorAnswers`.
    static func error(_ name: String) -> String { JSONText.object([("$ref", JSONText.string("#/components/responses/" + name))]) }

    /// A query or path parameter.
    static func parameter(_ name: String, in place: String, _ description: String, _ schema: String) -> String {
        JSONText.object([("name", JSONText.string(name)), ("in", JSONText.string(place)), ("required", place == "path" ? "true" : "false"),
                         ("description", JSONText.string(description)), ("schema", schema)])
    }
}

extension ControlRoute {
    /// The route's OpenAPI operation object.
    /// - Complexity: O(its schema).
    var operation: String {
        var members: [(String, String)] = [("operationId", JSONText.string(String(describing: self))),
                                           ("summary", JSONText.string(summary))]
        if !parameters.isEmpty { members.append(("parameters", JSONText.array(parameters))) }
        if let requestBody { members.append(("requestBody", requestBody)) }
        members.append(("responses", JSONText.object(answers)))
        return JSONText.object(members)
    }

    /// Its query and path parameters.
    var parameters: [String] {
        typealias D = ControlAPIDocument
        switch self {
        case .index, .clock, .advanceClock, .counters, .metrics, .openAPI, .stop, .registerToken, .faults, .startFault: return []
        case .devices:
            return [
                D.parameter("limit", in: "query", "The most device apps the page lists.", ControlAPISchemas.integer(
                    1, DeviceQuery.maxLimit, default: DeviceQuery.defaultLimit)),
                D.parameter("after", in: "query", "Where the page starts: the previous page's `next` (default 0, the first).",
                            ControlAPISchemas.integer(0, DeviceQuery.maxCursor)),
                D.parameter("topic", in: "query", "Only the device apps of this topic (bundle id).", ControlAPISchemas.string),
                D.parameter("counts", in: "query", "Add each device app's counts.",
                            JSONText.object([("type", JSONText.string("boolean")), ("default", "false")])),
            ]
        case .deviceApp, .steer:
            return [D.parameter("device", in: "path", "The device's number (GET /devices).", ControlAPISchemas.integer(0, Int(Int32.max))),
                    D.parameter("app", in: "path", "The app's number on the device.", ControlAPISchemas.integer(0, Int(Int32.max)))]
        }
    }

    /// Its request body, nil when it takes none.
    var requestBody: String? {
        switch self {
        case .index, .devices, .deviceApp, .clock, .counters, .metrics, .openAPI, .stop, .faults: nil
        case .advanceClock: Self.body("ClockMove")
        case .steer: Self.body("SteeringRequest")
        case .registerToken: Self.body("TokenRequest")
        case .startFault: Self.body("FaultRequest")
        }
    }

    /// A required JSON body of schema `name`.
    static func body(_ name: String) -> String {
        JSONText.object([("required", "true"), ("content", ControlAPIDocument.json(ControlAPIDocument.ref(name)))])
    }

    /// Its answers by status.
    var answers: [(String, String)] {
        typealias D = ControlAPIDocument
        switch self {
        case .steer:
            return [("200", D.answer("The device app after the action, as GET /devices/{device}/apps/{app}.", D.ref("DeviceApp"))),
                    ("400", D.error("BadRequest")), ("404", D.error("NotFound"))]
        case .registerToken:
            return [("201", D.answer("The test token's own device app.", D.ref("RegisteredToken"))), ("400", D.error("BadRequest")),
                    ("404", D.answer("The topic is not one serve serves (--topic): the error lists them.", D.ref("Error"))),
                    ("409", D.answer("Serve already holds the token: the error names its device app.", D.ref("Error")))]
        case .faults: return [("200", D.answer("APNs's faults now.", D.ref("Faults")))]
        case .startFault:
            return [("200", D.answer("APNs's faults now, as GET /faults.", D.ref("Faults"))), ("400", D.error("BadRequest"))]
        case .index: return [("200", D.answer("What runs, and the routes.", D.ref("Index")))]
        case .devices: return [("200", D.answer("One page of device apps.", D.ref("DevicePage"))), ("400", D.error("BadRequest"))]
        case .deviceApp: return [("200", D.answer("The device app.", D.ref("DeviceApp"))), ("404", D.error("NotFound"))]
        case .clock: return [("200", D.answer("The clock.", D.ref("Clock")))]
        case .advanceClock:
            return [("200", D.answer("The clock, moved (answered once it got there: the phones may wait for a provider).", D.ref("Clock"))),
                    ("400", D.error("BadRequest")),
                    ("409", D.answer("The clock is scaled wall time (--speed): only a controlled clock is moved.", D.ref("Error")))]
        case .counters: return [("200", D.answer("The counts so far.", D.ref("Counters")))]
        case .metrics:
            return [("200", JSONText.object([
                ("description", JSONText.string("The counts in Prometheus's text exposition format 0.0.4.")),
                ("content", JSONText.object([("text/plain", JSONText.object([("schema", ControlAPISchemas.string)]))])),
            ]))]
        case .openAPI: return [("200", D.answer("This document.", JSONText.object([("type", JSONText.string("object"))])))]
        case .stop: return [("202", D.answer("The run ends: serve writes its reports and exits.", D.ref("Stopping")))]
        }
    }
}
