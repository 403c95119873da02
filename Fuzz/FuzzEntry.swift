// libFuzzer's entry point, compiled by Fuzz/run.sh as a module on top of PushSim's (never
// by SwiftPM: Package.swift does not list this folder). One binary, eleven targets, chosen
// by PUSHSIM_FUZZ_TARGET: `json` (the JSON parser; and the input as a push's payload, read
// by serve's fast scan and by the parser, which must agree), `scenario` (the scenario decoder,
// then the cost estimate of what it accepts), `partial` (a shard's partial result or a
// result.json, then the reports and the page drawn from what it accepts: every number
// in it reaches the CSVs and charts), `folder` (a report folder's summary.csv as
// `diff` reads it, compared with itself and with a shipped one: table and JSON),
// `auth` (ProviderAuth: the input as a PEM key file, as PKCS#8 and SubjectPublicKeyInfo
// DER, and as a provider token through APNs' check, twice, on a connection that accepts
// the seed corpus's token) and `http2` (the input as a client's octets after the preface, to a `ServerConnection` that
// answers every request and reads each as APNs would (`APNsWireRequest`); as frames; as an
// HPACK block; as Huffman code; then as a server's octets to a `ClientConnection` — see
// fuzzHTTP2 and fuzzHTTP2Client) and `http1` (the input as a request line's start to
// `RequestStart`, then as a client's octets to HTTP1's `RequestParser`, whole and in pieces, each request written back and read again
// — see fuzzHTTP1), then the same octets as a server's answers to HTTP1's `ResponseParser`,
// whole and in pieces, each response written back and read again — see fuzzHTTP1Responses)
// and `measured` (pushsim fit's measured CSV, read, written back and read again)
// and `aead` (TLSCrypto's AEADs: the input as a key, a nonce, additional data and a sealed
// record to open, then sealed and opened again — see fuzzAEAD), `signature` (TLSCrypto's
// signatures from outside bytes: the input as a DER ECDSA signature, a P-256 point, an RSA
// signature and an RSA modulus — see fuzzSignatures) `x509` (X509's DER reader,
// certificate parser and PEM readers — see fuzzX509), `tls` (TLS's server against a
// client's bytes, raw and sealed under an honest client's keys — see FuzzTLS.swift) and
// `control` (serve's control API against a client's request — see FuzzControl.swift) and
// `sendlog` (a send log's reader, row by row to its end or its one error — see fuzzSendLog).
// Beyond "no crash", every error message must be lines without control characters,
// each of bounded length: user text is escaped and cut (`UserText`).
import Base
import CLI
import FakeAPNs
import Foundation
import ProviderAuth
import HTTP1
import HTTP2
import Live
import Reports
import ScenarioFormat
import SendLog
import Simulator
import Studies
import TLSCrypto
import X509

private let target = ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_TARGET"] ?? "scenario"

/// Stops the run (a finding) when `message` has a control character other than the
/// line breaks between errors, or a line longer than any message needs.
private func checkMessage(_ message: String) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        precondition(line.unicodeScalars.allSatisfy { !UserText.isInvisible($0) },
                     "a message line holds a control character: \(line.debugDescription)")
        precondition(line.unicodeScalars.count <= 2_000, "a message line of \(line.unicodeScalars.count) characters")
    }
}

/// The shipped summary a fuzzed one is compared with (`Fuzz/corpus/folder/summary.csv`).
/// Read from the repository's root, where run.sh runs the binary; nil elsewhere.
private let reference: ReportFolder? = try? ReportFolder(
    path: "reference", summary: (try? FileBytes.read(path: "Fuzz/corpus/folder/summary.csv")) ?? [], record: nil)

@_cdecl("LLVMFuzzerTestOneInput")
public func pushsimFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch target {
    case "json":
        do {
            _ = try JSONParser.parse(bytes)
        } catch {
            checkMessage("\(error)")
        }
        // serve reads a payload by a scan of its own where it can: it must read what the parser reads.
        if AlertText(payload: bytes) != AlertText(parsing: bytes) {
            fatalError("the payload scan and the parser disagree on \(bytes)")
        }
    case "partial":
        do {
            let decoded = try PartialResult.decode(bytes, file: "fuzz/partial.json")
            _ = decoded.partial.encoded()
            // What `merge` and `report` make of an accepted part: reports, table and page.
            let reports = Reports(scenario: decoded.scenario, result: decoded.partial.result)
            _ = reports.files
            _ = reports.table
            _ = ReportPage.render(scenario: decoded.scenario, result: decoded.partial.result, commandLine: nil)
        } catch {
            checkMessage("\(error)")
        }
    case "auth":
        fuzzProviderAuth(bytes)
    case "http2":
        fuzzHTTP2(bytes)
    case "http1":
        fuzzHTTP1(bytes)
    case "tls":
        fuzzTLS(bytes)
    case "aead":
        fuzzAEAD(bytes, ChaCha20Poly1305.self)
        fuzzAEAD(bytes, AES128GCM.self)
    case "signature":
        fuzzSignatures(bytes)
    case "x509":
        fuzzX509(bytes)
    case "control":
        fuzzControl(bytes)
    case "sendlog":
        fuzzSendLog(bytes)
    case "folder":
        do {
            let folder = try ReportFolder(path: "fuzz", summary: bytes, record: nil)
            for other in [folder] + (reference.map { [$0] } ?? []) {
                for confidence in [0.95, Expectation.maximumConfidence] {
                    let comparison = FolderComparison(old: other, new: folder, confidence: confidence)
                    checkMessage(DiffCommand.table(comparison))
                    _ = MachineOutput.diff(comparison)
                }
            }
        } catch {
            checkMessage("\(error)")
        }
    case "measured":
        // pushsim fit's measured file: read, written back and read again to the same value.
        do {
            let series = try MeasuredSeries.parse(bytes, file: "fuzz/measured.csv")
            let again = try MeasuredSeries.parse(Array(series.csv().utf8), file: "fuzz/measured.csv")
            precondition(again == series, "a measured file does not read back as written")
            for entry in FitEntry.entries(series) {
                // Within its figure's range: a share of columns the file bounds (logged ≤ sent ≤ mail)
                // at most 1; a rate (launches per mail) or the Console's share, any finite value.
                precondition(entry.statistic.range.contains(entry.value) && entry.value.isFinite && entry.count > 0 && entry.day >= 0,
                             "a bad entry \(entry)")
            }
        } catch {
            checkMessage("\(error)")
        }
    default:
        do {
            let scenario = try ScenarioDecoder.decode(bytes, file: "fuzz.json")
            let cost = RunCost(scenario, threads: 2)
            precondition(cost.messages >= 0 && cost.events >= 0 && cost.memoryBytes > 0, "a negative cost: \(cost)")
            _ = ValidateCommand.costLine(scenario, threads: 2)
        } catch {
            checkMessage("\(error)")
        }
    }
    return 0
}

/// The public key of the `auth` seed corpus (RFC 6979 A.2.5's P-256 key, d below), the
/// check that accepts its tokens, and an instant a minute after the seed token's iat
/// (1767225600), so the seed goes all the way through.
private let authKey: P256PublicKey? = {
    let d = Array("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721".utf8)
    let scalar = stride(from: 0, to: d.count, by: 2).map { UInt8(String(decoding: d[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    return try? P256PrivateKey(rawRepresentation: scalar).publicKey
}()
private let authCheck: ProviderTokenCheck? = authKey.flatMap {
    try? ProviderTokenCheck(keys: [ProviderKey(teamID: "TEAM123456", keyID: "KEY1234567", publicKey: $0)])
}
private let authNow: SimTime = (1_767_225_600 + 60) * TimeUnit.second

/// Every ProviderAuth parser on `bytes`; beyond "no crash", an accepted token must parse
/// and verify on its own, and every message must be short lines of visible text.
private func fuzzProviderAuth(_ bytes: [UInt8]) {
    do {
        let file = try P256KeyFile(pem: bytes)
        _ = file.publicKey.x963Representation
    } catch {
        checkMessage("\(error)")
    }
    do {
        _ = try P256KeyFile.privateKey(pkcs8: bytes[...])
    } catch {
        checkMessage("\(error)")
    }
    do {
        _ = try P256KeyFile.publicKey(subjectPublicKeyInfo: bytes[...])
    } catch {
        checkMessage("\(error)")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard var check = authCheck, let key = authKey else { preconditionFailure("the auth target's key is refused") }
    for now in [authNow, authNow + 30 * TimeUnit.minute] {
        let verdict = check.check(authorization: "bearer " + text, now: now)
        switch verdict {
        case .accepted:
            guard let token = try? ProviderToken(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))) else {
                preconditionFailure("an accepted token does not parse: \(text.debugDescription)")
            }
            precondition(token.keyID == "KEY1234567" && token.teamID == "TEAM123456" && token.isSigned(by: key),
                         "an accepted token of another key or team, or not signed by the key")
        case .refused(_, let detail):
            checkMessage(detail)
        }
    }
    _ = check.check(authorization: text, now: authNow)
}

/// The HTTP/2 layer on one input. Beyond "no crash" (and, since run.sh builds the module
/// with PUSHSIM_INVARIANTS, the connection's books balancing after every call):
/// - frames parsed from the input serialise and parse back to the same values;
/// - a field block the decoder accepts re-encodes to one that decodes to the same fields,
///   and Huffman code it accepts is exactly what its encoder writes for what it decoded;
/// - the connection, fed the input in chunks after the preface and answering every request,
///   only ever sends octets that parse as frames whose header blocks decode, and a
///   connection error is its last frame, a GOAWAY with the error's code.
private func fuzzHTTP2(_ bytes: [UInt8]) {
    // Frames.
    var parser = FrameParser(maxFrameSize: 1 << 16)
    parser.append(bytes)
    while let frame = try? parser.nextFrame() {
        var again = FrameParser(maxFrameSize: 1 << 16)
        again.append(frame.encoded)
        precondition((try? again.nextFrame()) == frame, "a frame does not round-trip: \(frame)")
    }
    // HPACK and Huffman.
    var decoder = HPACKDecoder(maxTableSize: 4_096, maxHeaderListSize: 65_536)
    if let fields = try? decoder.decode(bytes) {
        var encoder = HPACKEncoder()
        var fresh = HPACKDecoder(maxHeaderListSize: .max)
        precondition((try? fresh.decode(encoder.encode(fields))) == fields, "decoded fields do not re-encode")
    }
    if let decoded = try? Huffman.decode(bytes) {
        // Valid padding is exactly the ones up to the octet boundary: the code is unique.
        var encoded: [UInt8] = []
        Huffman.encode(decoded, into: &encoded)
        precondition(encoded == bytes, "Huffman code accepted that its encoder would not write")
    }
    // The connection, as a client would drive it.
    var configuration = ServerConfiguration()
    configuration.maxConcurrentStreams = 8
    configuration.limits.maxBufferedResponseBytes = 4_096
    var connection = ServerConnection(configuration: configuration)
    var client = FrameParser(maxFrameSize: Int(1 << 24) - 1)
    var clientDecoder = HPACKDecoder(maxTableSize: 4_096, maxHeaderListSize: .max)
    var headerBlock: [UInt8]?
    var lastFrame: Frame?
    func drain(_ maxBytes: Int) {
        client.append(connection.takeOutbound(maxBytes: maxBytes))
        while true {
            let next: Frame?
            do { next = try client.nextFrame() } catch { preconditionFailure("the server sent an invalid frame: \(error)") }
            guard let frame = next else { break }
            lastFrame = frame
            switch frame.payload {
            case .headers(let fragment, _, let endHeaders, _, _):
                precondition(headerBlock == nil, "HEADERS inside a header block")
                headerBlock = fragment
                if endHeaders { decodeBlock() }
            case .continuation(let fragment, let endHeaders):
                precondition(headerBlock != nil, "CONTINUATION outside a header block")
                headerBlock! += fragment
                if endHeaders { decodeBlock() }
            case .data, .priority, .rstStream, .settings, .pushPromise, .ping, .goAway, .windowUpdate, .unknown:
                precondition(headerBlock == nil, "a frame inside a header block")
            }
        }
    }
    func decodeBlock() {
        do { _ = try clientDecoder.decode(headerBlock ?? []) } catch { preconditionFailure("the server's header block: \(error)") }
        headerBlock = nil
    }
    var now = Duration.zero
    var events = connection.receive(FrameParser.clientPreface, now: now)
    let chunk = 1 + Int(bytes.first ?? 0) % 97
    var offset = 0
    var round = 0
    while offset < bytes.count && !connection.isFinished {
        let end = min(bytes.count, offset + chunk)
        now += .milliseconds(Int64(bytes[offset] % 8))
        events += connection.receive(Array(bytes[offset..<end]), now: now)
        offset = end
        for event in events {
            switch event {
            case .request(let id, let head, _):
                let body = Array((head.path ?? "").utf8.prefix(64))
                // What serve will make of it: APNs's checks of the request's own form answer a
                // request or one of Apple's reasons, never a trap.
                let headers = head.fields.map { (name: $0.nameString, value: $0.valueString) }
                switch APNsWireRequest.parse(method: head.method, path: head.path ?? "", headers: headers, body: body) {
                case .success(let request):
                    precondition(request.payload == body && [10, 5, 1].contains(request.priority), "a request read wrongly")
                case .failure(let reason):
                    precondition([400, 404, 405, 413].contains(reason.status), "a wire check answered \(reason.status)")
                }
                switch id.rawValue % 4 {
                case 0: try? connection.resetStream(id, code: .cancel)
                case 1 where id.rawValue % 8 == 5:
                    // The transport's way: fields in a HeaderList, here the request's own echoed
                    // back (any the HPACK decoder let through, so the encoder meets them too).
                    var fields = HeaderList()
                    fields.append(name: "apns-id", value: "\(id.rawValue)", indexing: .withoutIndexing)
                    for field in head.fields { fields.append(field) }
                    fields.append(name: "content-length", decimal: body.count)
                    try? connection.respond(to: id, status: [200, 400, 429, 410][Int(id.rawValue / 8 % 4)], headers: fields, body: body)
                case 1: try? connection.respond(to: id, status: 400, headers: [HeaderField("apns-id", "\(id.rawValue)")], body: body)
                case 2: try? connection.sendHeaders(status: 200, [], on: id, endStream: false)
                default: try? connection.respond(to: id, status: 200, body: body, trailers: [HeaderField("x-n", "1")])
                }
            case .data(let id, _, true):
                try? connection.sendData([1, 2, 3], on: id, endStream: true)
            case .connectionError(let error):
                checkMessage(error.reason)
            case .data, .trailers, .streamReset, .streamError, .ping, .pingAcknowledged, .goAway:
                break
            }
        }
        let failed = events.compactMap { event -> ErrorCode? in if case .connectionError(let error) = event { error.code } else { nil } }
        events.removeAll()
        round += 1
        drain(round % 3 == 0 ? 13 : .max)
        if let code = failed.first {
            drain(.max)
            guard case .goAway(_, code, _)? = lastFrame?.payload else { preconditionFailure("a connection error without GOAWAY last") }
        }
    }
    if round % 5 == 0 { connection.beginGracefulShutdown() }
    drain(.max)
    fuzzHTTP2Client(bytes)
}

/// The same octets as a server's, after its SETTINGS, to a `ClientConnection` with six
/// requests sent (bodies, trailers, a HEAD; at most three streams at once). Beyond "no
/// crash" (the module checks its books after every call): what the client sends parses as
/// frames after its preface, its header blocks decode, a connection error ends with its
/// GOAWAY; every request gets one outcome at most, and every one has one once the
/// connection is lost.
private func fuzzHTTP2Client(_ bytes: [UInt8]) {
    var configuration = ClientConfiguration()
    configuration.limits.maxResponseBodyBytes = 2_048
    var connection = ClientConnection(configuration: configuration)
    var server = FrameParser(maxFrameSize: Int(1 << 24) - 1, expectingClientPreface: true)
    var serverDecoder = HPACKDecoder(maxTableSize: 4_096, maxHeaderListSize: .max)
    var headerBlock: [UInt8]?
    var lastFrame: Frame?
    func drain(_ maxBytes: Int) {
        server.append(connection.takeOutbound(maxBytes: maxBytes))
        while true {
            let next: Frame?
            do { next = try server.nextFrame() } catch { preconditionFailure("the client sent an invalid frame: \(error)") }
            guard let frame = next else { break }
            lastFrame = frame
            switch frame.payload {
            case .headers(let fragment, _, let endHeaders, _, _):
                precondition(headerBlock == nil && frame.stream.isClientInitiated, "HEADERS inside a header block, or on \(frame.stream)")
                headerBlock = fragment
            case .continuation(let fragment, _):
                precondition(headerBlock != nil, "CONTINUATION outside a header block")
                headerBlock! += fragment
            case .data, .priority, .rstStream, .settings, .pushPromise, .ping, .goAway, .windowUpdate, .unknown:
                precondition(headerBlock == nil, "a frame inside a header block")
            }
            switch frame.payload {
            case .headers(_, _, true, _, _), .continuation(_, true):
                do { _ = try serverDecoder.decode(headerBlock ?? []) } catch { preconditionFailure("the client's header block: \(error)") }
                headerBlock = nil
            default:
                break
            }
        }
    }
    var outcomes: [RequestID: Int] = [:]
    func record(_ events: [ClientEvent]) {
        for event in events {
            switch event {
            case .response(let id, _), .failed(let id, _):
                outcomes[id, default: 0] += 1
                precondition(outcomes[id] == 1, "\(id) has two outcomes")
            case .connectionError(let error):
                checkMessage(error.reason)
            case .goAway, .ping, .pingAcknowledged:
                break
            }
        }
    }
    var ids: [RequestID] = []
    for index in 0..<6 {
        let body = index % 2 == 0 ? [UInt8](repeating: UInt8(index), count: 70_000 * (index % 3)) : []
        let request = ClientRequest(method: index == 5 ? "HEAD" : "POST", path: "/\(index)", authority: "fuzz",
                                    fields: [HeaderField("x-index", String(index))], body: body,
                                    trailers: index == 3 ? [HeaderField("x-trailer", "1")] : nil)
        if let id = try? connection.send(request) { ids.append(id) }
    }
    var now = Duration.zero
    let settings = Frame(stream: .connection, payload: .settings(ack: false, parameters: [Setting(.maxConcurrentStreams, 3)])).encoded
    record(connection.receive(settings, now: now))
    drain(.max)
    let chunk = 1 + Int(bytes.first ?? 0) % 89
    var offset = 0
    var round = 0
    while offset < bytes.count && !connection.isFinished {
        let end = min(bytes.count, offset + chunk)
        now += .milliseconds(Int64(bytes[offset] % 8))
        let events = connection.receive(Array(bytes[offset..<end]), now: now)
        record(events)
        offset = end
        round += 1
        if round % 7 == 0, let id = ids.first(where: { outcomes[$0] == nil }) { connection.cancel(id); outcomes[id] = 1 }
        drain(round % 3 == 0 ? 17 : .max)
        if let code = events.lazy.compactMap({ event -> ErrorCode? in if case .connectionError(let error) = event { error.code } else { nil } }).first {
            drain(.max)
            guard case .goAway(_, code, _)? = lastFrame?.payload else { preconditionFailure("a connection error without GOAWAY last") }
        }
    }
    record(connection.connectionLost())
    precondition(ids.allSatisfy { outcomes[$0] == 1 }, "a request without an outcome once the connection is lost")
    precondition(connection.requestsInFlight == 0 && connection.isFinished, "a lost connection still has requests")
}

/// Every request `RequestParser` hands out from `bytes` in pieces of `size`, then its error.
private func http1Requests(_ bytes: [UInt8], limits: RequestLimits, pieces size: Int) -> (requests: [Request], error: RequestError?) {
    var parser = RequestParser(limits: limits)
    var requests: [Request] = []
    let error = feed(bytes, pieces: size) { (piece: [UInt8]) throws(RequestError) in
        parser.append(piece)
        while let event = try parser.next() {
            if case .request(let request) = event { requests.append(request) }
        }
    }
    return (requests, error)
}

/// Hands `bytes` to `take` in pieces of `size`, as a transport does read after read, until
/// it throws; its error, or nil.
private func feed<Failure: Error>(_ bytes: [UInt8], pieces size: Int, _ take: ([UInt8]) throws(Failure) -> Void) -> Failure? {
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + size)
        do {
            try take(Array(bytes[offset..<end]))
        } catch {
            return error
        }
        offset = end
    } while offset < bytes.count
    return nil
}

/// Every response `ResponseParser` hands out from `bytes` in pieces of `size` (answering
/// HEAD for the responses `heads` marks, GET for the others), then the end of the
/// connection, then its error.
private func http1Responses(_ bytes: [UInt8], limits: ResponseLimits, pieces size: Int,
                            heads: UInt8) -> (responses: [Response], error: ResponseParseError?) {
    var parser = ResponseParser(limits: limits)
    var responses: [Response] = []
    func method() -> String { heads >> (responses.count % 8) & 1 == 1 ? "HEAD" : "GET" }
    if let error = feed(bytes, pieces: size, { (piece: [UInt8]) throws(ResponseParseError) in
        parser.append(piece)
        while let response = try parser.next(requestMethod: method()) { responses.append(response) }
    }) {
        return (responses, error)
    }
    do {
        if let response = try parser.finish() { responses.append(response) }
    } catch {
        return (responses, error)
    }
    return (responses, nil)
}

/// The kind of a response parser's error, which must not depend on how the input was split.
private func kind(_ error: ResponseParseError?) -> String {
    switch error {
    case .malformed?: "malformed"
    case .tooLarge?: "too large"
    case .incomplete?: "incomplete"
    case nil: "none"
    }
}

/// The client side on one input, read as a server's answers. Beyond "no crash": whole and
/// in pieces the same responses and the same kind of error, whose reason is a short line;
/// every response, written back by `Response` (its framing by `content-length`), reads
/// again as the same response.
private func fuzzHTTP1Responses(_ bytes: [UInt8]) {
    var limits = ResponseLimits()
    limits.maxBodySize = 4_096
    limits.maxHeaderSectionSize = 2_048
    limits.maxStatusLineLength = 512
    limits.maxFieldCount = 32
    let heads = bytes.last ?? 0
    let whole = http1Responses(bytes, limits: limits, pieces: .max, heads: heads)
    let split = http1Responses(bytes, limits: limits, pieces: 1 + Int(bytes.first ?? 0) % 13, heads: heads)
    precondition(whole.responses == split.responses && kind(whole.error) == kind(split.error),
                 "the answers read differently in pieces: \(kind(whole.error)) against \(kind(split.error))")
    if let error = whole.error { checkMessage(error.description) }
    var generous = ResponseLimits()
    generous.maxHeaderSectionSize = 1 << 16
    for (index, response) in whole.responses.enumerated() {
        let method = heads >> (index % 8) & 1 == 1 ? "HEAD" : "GET"
        let owned: Set<String> = ["content-length", "transfer-encoding", "connection"]
        var rewritten = response
        rewritten.fields = response.fields.filter { !owned.contains($0.name) }
        var output: [UInt8] = []
        do { try rewritten.encode(into: &output, omittingBody: method == "HEAD") } catch {
            preconditionFailure("a response the parser accepted cannot be written back: \(error)")
        }
        let again = http1Responses(output, limits: generous, pieces: .max, heads: method == "HEAD" ? 0xff : 0)
        let bodiless = response.status == 204 || response.status == 304
        var expected = rewritten
        if !bodiless { expected.fields.append(Field("content-length", String(response.body.count))) }
        precondition(again.error == nil && again.responses == [expected],
                     "a response written back reads differently: \(again.error.map(String.init(describing:)) ?? "")")
    }
}

/// The HTTP/1.1 layer on one input. Beyond "no crash":
/// - the input in one piece and in pieces of 1…13 octets gives the same requests and the
///   same status (a limit may be met sooner in pieces, so not always the same reason);
/// - an error's status is one of the protocol's and its reason is a short line of visible text;
/// - every request, written back as a request with its body by `content-length`, reads
///   again as the same request, and its fields can be sent back in a `Response`: what the
///   parser accepts, the writer does not refuse.
/// `RequestStart` (how serve's HTTP/2 port tells an HTTP/1.1 request line): a method is a
/// non-empty token of at most 32 octets followed by a space, and every prefix of the input
/// agrees with the whole (undecided until the space, then the same verdict).
private func fuzzRequestStart(_ bytes: [UInt8]) {
    let verdict = RequestStart.of(bytes)
    if case .method(let method) = verdict {
        precondition(!method.isEmpty && method.utf8.count <= RequestStart.maxMethodLength && bytes[method.utf8.count] == 0x20,
                     "a method that is not the octets before a space: \(method)")
    }
    for length in 0...min(bytes.count, RequestStart.maxMethodLength + 2) {
        switch (RequestStart.of(bytes[..<length]), verdict) {
        case (.undecided, _), (.method, .method), (.notARequest, .notARequest): break
        case (let early, let late): preconditionFailure("a prefix of \(length) octets says \(early), the whole \(late)")
        }
    }
}

private func fuzzHTTP1(_ bytes: [UInt8]) {
    var limits = RequestLimits()
    limits.maxBodySize = 4_096
    limits.maxHeaderSectionSize = 2_048
    limits.maxRequestLineLength = 512
    limits.maxFieldCount = 32
    fuzzRequestStart(bytes)
    let whole = http1Requests(bytes, limits: limits, pieces: .max)
    let split = http1Requests(bytes, limits: limits, pieces: 1 + Int(bytes.first ?? 0) % 13)
    precondition(whole.requests == split.requests && whole.error?.status == split.error?.status,
                 "the input read differently in pieces: \(whole.error.map(String.init(describing:)) ?? "no error") against \(split.error.map(String.init(describing:)) ?? "no error")")
    if let error = whole.error {
        precondition([400, 413, 414, 431, 501, 505].contains(error.status), "refused with \(error.status)")
        checkMessage(error.reason)
        var output: [UInt8] = []
        do { try Response(error: error).encode(into: &output, closingConnection: true) } catch { preconditionFailure("an error's response: \(error)") }
    }
    var generous = RequestLimits()
    generous.maxHeaderSectionSize = 1 << 16
    for request in whole.requests {
        let framing: Set<String> = ["content-length", "transfer-encoding"]
        let kept = request.fields.filter { !framing.contains($0.name) }
        var text = "\(request.method) \(request.target) HTTP/1.\(request.version == .http1_0 ? 0 : 1)\r\n"
        for field in kept { text += "\(field.name): \(field.value)\r\n" }
        text += "content-length: \(request.body.count)\r\n\r\n"
        let again = http1Requests(Array(text.utf8) + request.body, limits: generous, pieces: .max)
        var expected = request
        expected.fields = kept + [Field("content-length", String(request.body.count))]
        precondition(again.error == nil && again.requests == [expected],
                     "a request written back reads differently: \(again.error.map(String.init(describing:)) ?? "")")
        var output: [UInt8] = []
        let answerable = kept.filter { $0.name != "connection" }
        do { try Response(status: 200, fields: answerable, body: request.body).encode(into: &output, omittingBody: request.method == "HEAD") } catch {
            preconditionFailure("fields the parser accepted cannot be written back: \(error)")
        }
    }
    fuzzHTTP1Responses(bytes)
}

/// One AEAD on one input: a key, a 12-byte nonce, a length byte and that many bytes of
/// additional data (below 64), then a sealed text (ciphertext and tag) — all cut from the input,
/// short parts padded with zeros. Beyond "no crash":
/// - opening the sealed text in an array and in place agree; a text that opens seals back to
///   itself, and a refused one is left untouched in place;
/// - the same bytes sealed as a plaintext open to themselves, through both interfaces;
/// - with one bit flipped (chosen by the input) in the ciphertext, the tag or the additional
///   data, or cut short, they are refused.
private func fuzzAEAD<Cipher: AEAD>(_ bytes: [UInt8], _: Cipher.Type) {
    var rest = bytes[...]
    func take(_ count: Int) -> [UInt8] {
        let part = Array(rest.prefix(count))
        rest = rest.dropFirst(count)
        return part + [UInt8](repeating: 0, count: count - part.count)
    }
    let cipher = Cipher(key: take(Cipher.keyByteCount))!
    let nonce = AEADNonce(take(AEADNonce.byteCount))!
    let additionalData = take(Int(take(1)[0]) % 64)
    let sealed = Array(rest)

    // The input as a sealed text: both interfaces agree, and a refusal leaves the text as it came.
    let opened = cipher.open(nonce: nonce, additionalData: additionalData, sealed: sealed)
    if sealed.count >= Cipher.tagByteCount {
        var record = additionalData + sealed
        let text = additionalData.count..<(record.count - Cipher.tagByteCount)
        let openedInPlace = cipher.open(nonce: nonce, in: &record, additionalData: 0..<additionalData.count, text: text)
        precondition(openedInPlace == (opened != nil), "the array and in-place interfaces disagree on opening")
        precondition(Array(record[text]) == (opened ?? Array(sealed[0..<text.count])), "opening in place wrote the wrong text")
    } else {
        precondition(opened == nil, "a text shorter than a tag opened")
    }
    if let opened {
        precondition(cipher.seal(nonce: nonce, additionalData: additionalData, plaintext: opened) == sealed, "an opened text seals differently")
    }

    // The same bytes as a plaintext: sealed, they open to themselves; tampered, they are refused.
    let plaintext = sealed
    let resealed = cipher.seal(nonce: nonce, additionalData: additionalData, plaintext: plaintext)
    precondition(cipher.open(nonce: nonce, additionalData: additionalData, sealed: resealed) == plaintext, "a sealed text does not open")
    var inPlace = additionalData + plaintext + [UInt8](repeating: 0, count: Cipher.tagByteCount)
    cipher.seal(nonce: nonce, in: &inPlace, additionalData: 0..<additionalData.count,
                text: additionalData.count..<(additionalData.count + plaintext.count))
    precondition(Array(inPlace[additionalData.count...]) == resealed, "sealing in place differs from sealing an array")
    let bit = Int(bytes.last ?? 0) &* 31 &+ bytes.count
    var tampered = resealed
    tampered[bit % tampered.count] ^= 1 << UInt8(bit % 8)
    precondition(cipher.open(nonce: nonce, additionalData: additionalData, sealed: tampered) == nil, "a flipped bit was not noticed")
    if !additionalData.isEmpty {
        var otherData = additionalData
        otherData[bit % otherData.count] ^= 0x80
        precondition(cipher.open(nonce: nonce, additionalData: otherData, sealed: resealed) == nil, "other additional data was accepted")
    }
    precondition(cipher.open(nonce: nonce, additionalData: additionalData, sealed: Array(resealed.dropLast())) == nil,
                 "a text cut short opened")
}

/// The P-256 key the `signature` target verifies and exchanges with (RFC 6979 A.2.5's).
private let signatureKey = P256.PrivateKey(rawRepresentation: [
    0xc9, 0xaf, 0xa9, 0xd8, 0x45, 0xba, 0x75, 0x16, 0x6b, 0x5c, 0x21, 0x57, 0x67, 0xb1, 0xd6, 0x93,
    0x4e, 0x50, 0xc3, 0xdb, 0x36, 0xe8, 0x9b, 0x12, 0x7b, 0x8a, 0x62, 0x2b, 0x12, 0x0f, 0x67, 0x21,
])!

/// A 2048-bit RSA key for the `signature` target: the modulus of the seed `rsa-modulus.bin`
/// (Wycheproof's rsa_pss_2048_sha256_mgf1_32 key), read from the corpus at start.
private let rsaKey: RSA.PublicKey? = (try? FileBytes.read(path: "Fuzz/corpus/signature/rsa-modulus.bin"))
    .flatMap { RSA.PublicKey(modulus: $0, exponent: [0x01, 0x00, 0x01]) }

/// TLSCrypto's signatures from outside bytes. The input as DER's ECDSA-Sig-Value: what reads
/// must be canonical (written back to the same bytes), and must not verify over a digest of
/// the input under the fixed key (a forgery); as a P-256 point: a valid one gives a shared
/// secret; as an RSA signature (the first 256 bytes, the rest as the message) under a fixed
/// 2048-bit key, with every hash and both paddings; as an RSA modulus, whose key (when accepted)
/// verifies the input as a signature of its own length. None may trap.
private func fuzzSignatures(_ bytes: [UInt8]) {
    if let signature = P256.Signature(derRepresentation: bytes) {
        precondition(signature.derRepresentation == bytes, "DER read but not canonical: \(bytes)")
        precondition(P256.Signature(rawRepresentation: signature.rawRepresentation) == signature, "r ‖ s does not round-trip")
        precondition(!signatureKey.publicKey.isValidSignature(signature, forDigest: SHA256.hash(bytes)), "a forgery: \(bytes)")
    }
    _ = signatureKey.publicKey.isValidSignature(P256.Signature(rawRepresentation: bytes), forDigest: bytes)
    if let point = P256.PublicKey(x963Representation: bytes) {
        precondition(point.x963Representation == bytes, "a point does not write back as read")
        precondition(signatureKey.sharedSecret(with: point)?.count == P256.byteCount, "no shared secret with a valid point")
    }
    if let rsaKey {
        let signature = Array(bytes.prefix(rsaKey.modulus.count)), message = Array(bytes.dropFirst(rsaKey.modulus.count))
        for hash in RSA.Hash.allCases {
            _ = rsaKey.isValidPKCS1v15Signature(signature, digest: hash.hash(message), hash: hash)
            _ = rsaKey.isValidPSSSignature(signature, digest: hash.hash(message), hash: hash)
        }
    }
    if let key = RSA.PublicKey(modulus: bytes, exponent: [0x01, 0x00, 0x01]) {
        let signature = Array(bytes.reversed().prefix(key.modulus.count))
        _ = key.isValidPKCS1v15Signature(signature, digest: SHA256.hash(bytes), hash: .sha256)
        _ = key.isValidPSSSignature(signature, digest: SHA256.hash(bytes), hash: .sha256)
    }
}

/// `x509`: the input as DER (walked to the bottom, every element written back by
/// `DERWriter` to the same bytes: DER has one encoding), as a certificate (what is accepted
/// reads back from its own DER, and verifies against itself as a root without a trap), and as
/// PEM text (a chain file, a P-256 key file). Every refusal is a message of bounded lines.
private func fuzzX509(_ bytes: [UInt8]) {
    var reader = DERReader(bytes)
    do {
        var rewritten = DERWriter()
        while !reader.isAtEnd { try rewriteDER(&reader, into: &rewritten) }
        precondition(rewritten.bytes == bytes, "DER read does not write back to the same bytes")
    } catch {
        checkMessage("\(error)")
    }
    do {
        let certificate = try Certificate(der: bytes)
        checkMessage(certificate.description)
        _ = certificate.extensions.subjectAlternativeNames.map(\.description)
        let again = try Certificate(der: certificate.der)
        precondition(again == certificate, "a certificate does not read back")
        // Its signature checked with its own key (self-signed or not): a verdict, never a trap.
        do {
            try certificate.verifySignature(issuedBy: certificate)
        } catch {
            checkMessage("\(error)")
        }
    } catch {
        checkMessage("\(error)")
    }
    for read in [{ _ = try Certificate.chain(pem: bytes) }, { _ = try P256KeyPEM.privateKey(pem: bytes) }] as [() throws -> Void] {
        do { try read() } catch { checkMessage("\(error)") }
    }
}

/// One element of `reader` written to `writer` from what was read: constructed ones element by element.
private func rewriteDER(_ reader: inout DERReader, into writer: inout DERWriter) throws(DERError) {
    guard let tag = reader.nextTag else { return }
    if tag.isConstructed {
        var inner = try reader.constructed(tag, "a constructed element")
        var failure: DERError?
        writer.constructed(tag) { nested in
            do throws(DERError) {
                while !inner.isAtEnd { try rewriteDER(&inner, into: &nested) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    } else {
        writer.element(tag, try reader.read(tag, "a primitive element"))
    }
}

/// A send log (docs/send-log.md) read row by row to its end or to its one error: every row
/// read has a time that reads back the same, and an error names a line the reader reached.
private func fuzzSendLog(_ bytes: [UInt8]) {
    do {
        let reader = try SendLogReader(bytes: bytes, file: "fuzz/log.csv")
        while let row = try reader.next() {
            precondition(row.line >= 2 && row.line <= reader.line, "a row outside the lines read")
            precondition(!row.user.isEmpty && !row.topic.isEmpty, "a required value read empty")
            precondition(row.time.instant == row.time.wall - Int64(row.time.offsetSeconds) * 1_000_000)
        }
    } catch {
        checkMessage("\(error)")
        precondition(!"\(error)".contains("\n"), "a send log's error of more than one line")
    }
    _ = SendLogTime.parse(bytes)
}
