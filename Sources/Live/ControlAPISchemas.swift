import Base
import FakeAPNs
import Simulator

/// The JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of the control API's answers and
/// bodies: what `ControlAPI.swift` writes. The counters' objects list the counters'
/// declarations (`APNsCounter`, `DeviceAppCount`, `APNsReason`), so they cannot drift.
enum ControlAPISchemas {
    static let string = JSONText.object([("type", JSONText.string("string"))])
    static let boolean = JSONText.object([("type", JSONText.string("boolean"))])
    static let number = JSONText.object([("type", JSONText.string("number"))])
    static let count = JSONText.object([("type", JSONText.string("integer")), ("minimum", "0")])
    static let anyInteger = JSONText.object([("type", JSONText.string("integer"))])
    static let instant = JSONText.object([("type", JSONText.string("string")), ("format", JSONText.string("date-time"))])
    static let nullableString = JSONText.object([("type", JSONText.array([JSONText.string("string"), JSONText.string("null")]))])

    /// An integer from `low` to `high`.
    static func integer(_ low: Int, _ high: Int, default value: Int? = nil) -> String {
        JSONText.object([("type", JSONText.string("integer")), ("minimum", String(low)), ("maximum", String(high))]
                        + (value.map { [("default", String($0))] } ?? []))
    }

    /// An object with `properties`, those in `required` required, others allowed.
    static func object(_ properties: [(String, String)], required: [String]) -> String {
        JSONText.object([("type", JSONText.string("object")), ("properties", JSONText.object(properties)),
                         ("required", JSONText.array(required.map(JSONText.string)))])
    }

    /// An object with every property required.
    static func object(_ properties: [(String, String)]) -> String { object(properties, required: properties.map(\.0)) }

    /// An object of exactly `properties`, all required, and no other member: a body the route
    /// refuses with anything more.
    static func closed(_ properties: [(String, String)]) -> String {
        JSONText.object([("type", JSONText.string("object")), ("properties", JSONText.object(properties)),
                         ("required", JSONText.array(properties.map { JSONText.string($0.0) })), ("additionalProperties", "false")])
    }

    static func array(_ items: String) -> String { JSONText.object([("type", JSONText.string("array")), ("items", items)]) }

    /// An object of counts, one per counter of `Kind`, by column name.
    static func counts<Kind: Counter>(_ kind: Kind.Type) -> String { object(Kind.allCases.map { ($0.columnName, count) }) }

    /// An object of counts whose keys are only some of `names`.
    static func countsBy(_ names: [String]) -> String {
        JSONText.object([("type", JSONText.string("object")), ("propertyNames", JSONText.object([("enum", JSONText.array(names.map(JSONText.string)))])),
                         ("additionalProperties", count)])
    }

    /// Every schema, by name.
    static var components: String {
        JSONText.object([
            ("Error", object([("error", string)])),
            ("Index", index),
            ("DeviceCounts", counts(DeviceAppCount.self)),
            ("Rejections", countsBy(APNsReason.allCases.map(\.name))),
            ("DevicePage", object([("now", instant), ("devices", array(ControlAPIDocument.ref("DeviceListed"))),
                                   ("next", JSONText.object([("type", JSONText.array([JSONText.string("integer"), JSONText.string("null")])),
                                                             ("minimum", "0")]))])),
            ("DeviceListed", object([("device", count), ("app", count), ("topic", string), ("token", string), ("online", boolean),
                                     ("oldTokens", array(string)), ("counts", ControlAPIDocument.ref("DeviceCounts"))],
                                    required: ["device", "app", "topic", "token", "online", "oldTokens"])),
            ("Push", push),
            ("DeviceApp", deviceApp),
            ("Clock", clock),
            ("ClockMove", clockMove),
            ("Counters", object([("now", instant), ("apns", counts(APNsCounter.self)), ("deviceApps", ControlAPIDocument.ref("DeviceCounts")),
                                 ("rejections", ControlAPIDocument.ref("Rejections")),
                                 ("background", counts(BackgroundCounter.self)),
                                 ("answers", JSONText.object([("type", JSONText.string("object")),
                                                              ("propertyNames", JSONText.object([("pattern", JSONText.string("^[1-5][0-9][0-9]$"))])),
                                                              ("additionalProperties", count)]))])),
            ("Stopping", object([("stopping", JSONText.object([("const", "true")]))])),
            ("SteeringRequest", closed([("action", JSONText.object([("enum", JSONText.array(SteeringAction.allCases.map {
                JSONText.string($0.name)
            }))]))])),
            ("TokenRequest", closed([("token", JSONText.object([("type", JSONText.string("string")),
                                                                ("pattern", JSONText.string("^[0-9A-Fa-f]{64}$"))])),
                                     ("topic", string)])),
            ("RegisteredToken", object([("device", count), ("app", count), ("topic", string), ("token", string), ("online", boolean)])),
            ("Faults", faults),
            ("FaultRequest", faultRequest),
        ])
    }

    /// `GET /faults`: the kind in force now, the one started, the scenario's, requests by kind.
    static var faults: String {
        let kind = JSONText.object([("enum", JSONText.array(APNsFaultKind.allCases.map { JSONText.string($0.name) }))])
        let nullableKind = JSONText.object([("enum", JSONText.array(APNsFaultKind.allCases.map { JSONText.string($0.name) } + ["null"]))])
        let started = JSONText.object([("oneOf", JSONText.array([
            object([("kind", kind), ("until", JSONText.object([("type", JSONText.array([JSONText.string("string"), JSONText.string("null")]))]))]),
            JSONText.object([("type", JSONText.string("null"))]),
        ]))])
        return object([("now", instant), ("inForce", nullableKind), ("started", started), ("scenario", nullableKind),
                       ("requests", object(APNsFaultKind.allCases.map { ($0.name, count) }))])
    }

    /// `POST /faults`'s body: a kind (for some seconds, or until stopped), or a stop.
    static var faultRequest: String {
        let kind = JSONText.object([("enum", JSONText.array(APNsFaultKind.allCases.map { JSONText.string($0.name) }))])
        let seconds = JSONText.object([("type", JSONText.string("number")), ("exclusiveMinimum", "0"), ("maximum", "315576000")])
        let start = JSONText.object([("type", JSONText.string("object")), ("properties", JSONText.object([("kind", kind), ("seconds", seconds)])),
                                     ("required", JSONText.array([JSONText.string("kind")])), ("additionalProperties", "false")])
        let stop = JSONText.object([("type", JSONText.string("object")), ("properties", JSONText.object([("stop", JSONText.object([("const", "true")]))])),
                                    ("required", JSONText.array([JSONText.string("stop")])), ("additionalProperties", "false")])
        return JSONText.object([("oneOf", JSONText.array([start, stop]))])
    }

    static var index: String {
        object([
            ("run", object([("scenario", string), ("seed", string), ("strategy", string), ("deviceApps", count), ("endMicroseconds", count),
                            ("topics", array(string)), ("scenarioDigest", string),
                            ("apns", string), ("apnsCA", string), ("provider", string)],
                           required: ["scenario", "seed", "strategy", "deviceApps", "endMicroseconds", "topics"])),
            ("routes", array(object([("route", JSONText.object([("enum", JSONText.array(ControlRoute.allCases.map { JSONText.string($0.pattern) }))])),
                                     ("answers", string)]))),
        ])
    }

    /// A push as the device app view shows it: its record, or only that its words are no longer kept.
    static var push: String {
        object([("apnsId", nullableString), ("words", string), ("acceptedAt", instant), ("title", nullableString), ("body", nullableString),
                ("collapseId", nullableString), ("priority", count), ("expiredOnArrival", boolean)], required: ["apnsId"])
    }

    static var deviceApp: String {
        let withPush: ([(String, String)], [String]) -> String = { properties, required in
            JSONText.object([("allOf", JSONText.array([ControlAPIDocument.ref("Push"), object(properties, required: required)]))])
        }
        let shown = withPush([("shownAt", instant), ("missedMessages", object([("fromPosition", anyInteger), ("toPosition", anyInteger)]))],
                             ["shownAt"])
        let held = withPush([("place", JSONText.object([("enum", JSONText.array(["offline slot", "power batch"].map(JSONText.string)))])),
                             ("until", instant)], ["place"])
        let logged = object([("time", instant), ("step", string), ("apnsId", nullableString)], required: ["time", "step"])
        return object([
            ("now", instant), ("device", count), ("app", count), ("topic", string), ("token", string), ("online", boolean),
            ("deviceIdHash", string),
            ("savedPosition", JSONText.object([("type", JSONText.array([JSONText.string("integer"), JSONText.string("null")]))])),
            ("notificationCenter", array(shown)), ("extensionLog", array(logged)), ("apnsHolds", array(held)),
            ("counts", ControlAPIDocument.ref("DeviceCounts")), ("rejections", ControlAPIDocument.ref("Rejections")),
        ])
    }

    static var clock: String {
        let mode = object([("kind", JSONText.object([("enum", JSONText.array(["scaled", "controlled"].map(JSONText.string)))])),
                           ("speed", number)], required: ["kind"])
        return object([("mode", mode), ("now", instant), ("simulatedSeconds", number), ("microseconds", anyInteger),
                       ("waitingForProvider", count), ("epochMilliseconds", anyInteger), ("end", instant),
                       ("endSimulatedSeconds", number)])
    }

    /// `POST /clock`'s body: one member, the amount in its unit (`ServeService.clockBound`).
    static var clockMove: String {
        let bound = ServeService.clockBoundSeconds
        func one(_ key: String, _ schema: String) -> String {
            JSONText.object([("type", JSONText.string("object")), ("properties", JSONText.object([(key, schema)])),
                             ("required", JSONText.array([JSONText.string(key)])), ("additionalProperties", "false")])
        }
        let seconds = JSONText.object([("type", JSONText.string("number")), ("minimum", "0"), ("maximum", String(Int64(bound)))])
        let microseconds = JSONText.object([("type", JSONText.string("integer")), ("minimum", "0"),
                                            ("maximum", String(Int64(ServeService.clockBound("toMicroseconds"))))])
        return JSONText.object([
            ("description", JSONText.string("One member: advanceSeconds moves the clock on by that much; toSeconds and toMicroseconds "
                                            + "move it to that instant since the start, never back (400).")),
            ("oneOf", JSONText.array([one("advanceSeconds", seconds), one("toSeconds", seconds), one("toMicroseconds", microseconds)])),
        ])
    }
}
