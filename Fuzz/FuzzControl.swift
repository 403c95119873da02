import Base
import Live
import ScenarioFormat
import Simulator
import Transport

// The `control` target: serve's control API against a client's request. The input's first
// line is `METHOD TARGET` (the target a path with any query), the rest the body; it goes
// to a small population on a controlled clock, so that every route (the query readers of
// GET /devices, POST /clock's body, the path parameters) reads outside bytes. Beyond "no
// crash", every answer is 2xx-4xx and JSON, but /metrics's text.

/// Two phones for a day; the clock moves as the inputs say and stops at the end.
private let control: ServeService? = {
    let text = """
    { "name": "fuzz-control", "seed": 1, "start": "2026-01-05", "duration": "1d", "devices": 2,
      "mail": { "perDay": 24 }, "strategies": [ { "name": "no-queue" } ] }
    """
    guard let scenario = try? ScenarioDecoder.decode(Array(text.utf8), file: "fuzz-control.json") else { return nil }
    return try? ServeService(scenario: scenario, strategy: scenario.strategies[0], topics: ["com.example.mail"],
                             end: scenario.duration, clock: .controlled, authentication: .none, apnsListener: 0,
                             controlListener: 1, wallClock: { 1_800_000_000 * TimeUnit.second })
}()

func fuzzControl(_ bytes: [UInt8]) {
    guard let control else { fatalError("the control target's population did not build") }
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let line = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
    let parts = line.split(separator: " ", maxSplits: 1)
    let method = parts.first.map(String.init) ?? "GET"
    let target = parts.count > 1 ? String(parts[1]) : "/"
    let answer = control.respond(to: HTTPRequest(method: method, path: target.hasPrefix("/") ? target : "/" + target, body: body,
                                                 version: .http1_1, listener: 1, connection: 1))
    if answer.isLater { return }
    precondition((200..<500).contains(answer.status), "\(line) answered \(answer.status)")
    if answer.headers.first(where: { $0.name == "content-type" })?.value == "application/json" {
        precondition((try? JSONParser.parse(answer.body)) != nil, "\(line) answered text that is not JSON")
    }
}
