@testable import HTTP1
import Testing

/// Whatever the input, the parser answers requests or one error with a status of the
/// protocol, never traps, and the split of the input does not change what it answers.
@Suite("HTTP/1.1 parser robustness")
struct RobustnessTests {
    static let statuses: Set<Int> = [400, 413, 414, 431, 501, 505]

    /// A small deterministic generator (SplitMix64), so a failure replays.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Request lines, fields and bodies, valid and not, glued into requests at random, with
    /// a piece of anything dropped in now and then.
    static let lines = ["GET / HTTP/1.1\r\n", "POST /x?y=1 HTTP/1.1\r\n", "PUT /p HTTP/1.0\r\n", "GET / HTTP/2.0\r\n",
                        "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\n", "\r\n", "GET /\r\n", "PRI * HTTP/2.0\r\n"]
    static let fields = ["Host: h\r\n", "Host: h\r\n", "Content-Length: 3\r\n", "Content-Length: 30\r\n", "Content-Length: x\r\n",
                         "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n", "Connection: close\r\n",
                         "Expect: 100-continue\r\n", "X-Field: " + String(repeating: "v", count: 50) + "\r\n", " folded\r\n",
                         "Bad Name: 1\r\n", "X: 1\n"]
    static let bodies = ["", "abc", "3\r\nabc\r\n0\r\n\r\n", "ffffffff\r\n", "0\r\nT: 1\r\n\r\n", "3;ext\r\nabc\r\n0\r\n\r\n",
                         "abcdef", "\r\n"]
    static let anything = ["\r", "\n", " ", "\t", "\u{0}", "\u{ff}", ":", ";", "0", "\r\n\r\n", "HTTP/1.1"]

    static func randomRequests(_ random: inout Generator) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(3)) {
            text += lines[random.below(lines.count)]
            for _ in 0..<random.below(6) { text += fields[random.below(fields.count)] }
            text += "\r\n" + bodies[random.below(bodies.count)]
        }
        if random.below(3) == 0 {
            var scalars = Array(text.unicodeScalars)
            scalars.insert(contentsOf: anything[random.below(anything.count)].unicodeScalars, at: random.below(scalars.count + 1))
            text = String(String.UnicodeScalarView(scalars))
        }
        return text
    }

    @Test("10 000 random inputs: no trap, only the protocol's statuses, the same answer in one piece and in small pieces")
    func randomInputs() {
        var random = Generator(state: 2_026)
        var limits = RequestLimits()
        limits.maxRequestLineLength = 40
        limits.maxHeaderSectionSize = 120
        limits.maxFieldCount = 6
        limits.maxBodySize = 20
        var outcomes: [Int: Int] = [:]
        for _ in 0..<10_000 {
            let text = Self.randomRequests(&random)
            let whole = parse(text, limits: limits)
            if let error = whole.error {
                #expect(Self.statuses.contains(error.status), "\(error) for \(text.debugDescription)")
                outcomes[error.status, default: 0] += 1
            } else {
                outcomes[200, default: 0] += 1
            }
            // Pieces may meet a limit sooner (a line over it before its end), so the reason
            // may differ, and a client that sent its body at once is not waiting for 100
            // Continue; the requests and the status may not differ.
            let split = parse(text, limits: limits, chunkSize: 1 + random.below(5))
            #expect(split.requests == whole.requests && split.error?.status == whole.error?.status,
                    "\(text.debugDescription) parsed differently in pieces")
        }
        // The generator reaches requests and every kind of refusal, or the test proves little.
        #expect(Set(outcomes.keys) == Self.statuses.union([200]), "\(outcomes)")
    }

    @Test("every octet value in every position of a small request is answered, never trapped on")
    func everyOctet() {
        let request = Array("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx".utf8)
        for position in request.indices {
            for octet in UInt8.min...UInt8.max {
                var bytes = request
                bytes[position] = octet
                let parsed = parse(bytes)
                #expect(parsed.error.map { Self.statuses.contains($0.status) } ?? true)
            }
        }
    }
}
