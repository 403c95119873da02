@testable import Base
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// Durations with units, and every error of a file reported in one pass.
@Suite("Scenario decoder: durations need a unit; every error in one pass")
struct ScenarioDiagnosticsTests {
    static let base = """
    {
      "name": "base",
      "start": "2026-01-05",
      "duration": "3d",
      "devices": 20,
      "mail": { "perDay": 24 },
      "connectivity": {
        "online": { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "exponential", "mean": "1h" }
      },
      "strategies": [
        { "name": "no-queue" },
        { "name": "queue", "repeatMaxCount": 5 }
      ]
    }
    """

    /// `base` with each `(piece, replacement)` applied; every piece must occur once.
    static func edited(_ edits: [(String, String)]) -> String {
        var text = base
        for (piece, replacement) in edits {
            precondition(text.components(separatedBy: piece).count == 2, "not unique: \(piece)")
            text = text.replacingOccurrences(of: piece, with: replacement)
        }
        return text
    }

    /// The error decoding `text` throws, or nil when it decodes.
    static func failure(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "bad.json")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Durations

    struct BareNumberCase: Sendable, CustomTestStringConvertible {
        var name: String
        var edit: (String, String)
        var path: String
        var line: Int
        var column: Int
        /// The number as written, quoted back in the fix.
        var written: String
        var testDescription: String { name }
    }

    static let bareNumbers: [BareNumberCase] = [
        BareNumberCase(name: "the run's duration", edit: (#""duration": "3d""#, #""duration": 28"#),
                       path: "duration", line: 4, column: 15, written: "28"),
        BareNumberCase(name: "an exponential mean", edit: (#""mean": "3h""#, #""mean": 10800"#),
                       path: "connectivity.online.mean", line: 8, column: 56, written: "10800"),
        BareNumberCase(name: "a decimal constant", edit: (#""offline": { "distribution": "exponential", "mean": "1h" }"#,
                                                          #""offline": 1.5"#),
                       path: "connectivity.offline", line: 9, column: 16, written: "1.5"),
        BareNumberCase(name: "a number with an exponent, quoted back as a plain decimal",
                       edit: (#""duration": "3d""#, #""duration": 1.5e2"#), path: "duration", line: 4, column: 15,
                       written: "150"),
        BareNumberCase(name: "provider.payloadTTL", edit: (#""devices": 20,"#, #""devices": 20, "provider": { "payloadTTL": 86400 },"#),
                       path: "provider.payloadTTL", line: 5, column: 46, written: "86400"),
    ]

    @Test("a bare non-zero number as a duration is refused at its line:column with the fix in the message",
          arguments: bareNumbers)
    func bareNumberRefused(_ bare: BareNumberCase) throws {
        let error = try #require(Self.failure(Self.edited([bare.edit])))
        let w = bare.written
        let message = "a duration needs a unit: write \"\(w)d\", \"\(w)h\", \"\(w)m\" or \"\(w)s\""
        #expect(error == ScenarioError(.invalidValue(message), file: "bad.json", path: bare.path,
                                       location: SourceLocation(line: bare.line, column: bare.column)))
        #expect(error.description == "bad.json:\(bare.line):\(bare.column): \(bare.path): \(message)")
    }

    @Test("a bare negative number is refused as negative")
    func bareNegativeRefused() throws {
        let error = try #require(Self.failure(Self.edited([(#""duration": "3d""#, #""duration": -2"#)])))
        #expect(error == ScenarioError(.invalidValue("negative duration -2"), file: "bad.json", path: "duration",
                                       location: SourceLocation(line: 4, column: 15)))
    }

    @Test("a bare 0 is a duration: no expiration storage, no latency, a zero-width uniform")
    func bareZeroAccepted() throws {
        let text = Self.edited([(#""devices": 20,"#, """
            "devices": 20, "apns": { "expiration": 0 },
            "latency": { "providerToAPNs": 0, "apnsToDevice": { "distribution": "uniform", "min": 0, "max": "1s" } },
            """)])
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "zero.json")
        #expect(scenario.expiration == .immediately)
        #expect(scenario.latency.providerToAPNs == .constant(0))
        #expect(scenario.latency.apnsToDevice == .uniform(min: 0, max: TimeUnit.second))
    }

    @Test("every unit is accepted, with decimals, inside a distribution too", arguments: [
        ("\"250ms\"", 250 * TimeUnit.millisecond), ("\"1.5s\"", 1_500_000), ("\"90m\"", 90 * TimeUnit.minute),
        ("\"0.5h\"", 30 * TimeUnit.minute), ("\"28d\"", 28 * TimeUnit.day),
    ])
    func everyUnit(json: String, microseconds: SimDuration) throws {
        let text = Self.edited([(#""mean": "3h""#, "\"mean\": \(json)")])
        let scenario = try ScenarioDecoder.decode(Array(text.utf8), file: "units.json")
        #expect(scenario.connectivity?.online == .exponential(mean: microseconds))
    }

    // MARK: Every error in one pass

    @Test("two typos give two errors, in file order, each naming the field it resembles")
    func twoTypos() throws {
        let text = Self.edited([(#""perDay": 24"#, #""perDya": 24"#), (#""repeatMaxCount": 5"#, #""repeatMaxCuont": 5"#)])
        let error = try #require(Self.failure(text))
        #expect(error.all.map(\.path) == ["mail.perDya", "strategies[1].repeatMaxCuont"])
        #expect(error.all.map(\.location?.line) == [6, 13])
        #expect(error.unlisted == 0)
        #expect(error.description == "bad.json:6:13: mail.perDya: unknown field; did you mean perDay?\n"
                + "error: bad.json:13:24: strategies[1].repeatMaxCuont: unknown field; did you mean repeatMaxCount?")
    }

    @Test("a misspelt required field is one error naming the declared field it resembles, not also 'missing' and every key")
    func misspeltRequiredFieldIsOneError() throws {
        let error = try #require(Self.failure(Self.edited([(#""duration": "3d""#, #""duraton": "3d""#)])))
        #expect(error.all.count == 1)
        #expect(error.description == "bad.json:4:3: duraton: unknown field; did you mean duration?")
        // Both halves of a pair that depend on each other: "ofline" resembles offline (and online).
        let pair = try #require(Self.failure(Self.edited([(#""offline": {"#, #""ofline": {"#)])))
        #expect(pair.all.count == 1)
        #expect(pair.description.hasSuffix("connectivity.ofline: unknown field; did you mean online or offline?"))
    }

    @Test("a key like no declared one gets the list of the object's fields, and the missing field stays reported")
    func unlikeAnyFieldListsThem() throws {
        let error = try #require(Self.failure(Self.edited([(#""duration": "3d""#, #""length": "3d""#)])))
        #expect(error.all.map(\.path) == ["duration", "length"])
        #expect(error.all[1].description.hasSuffix("length: unknown field; expected one of: "
                                                   + ScenarioFields.Top.object.keys.joined(separator: ", ")))
    }

    @Test("an error inside a strategy and one in connectivity are both reported, connectivity first")
    func strategyAndConnectivity() throws {
        let text = Self.edited([(#""mean": "1h""#, #""mean": "1 hour""#), (#""name": "queue""#, #""name": "fifo""#)])
        let error = try #require(Self.failure(text))
        #expect(error.all.map(\.path) == ["connectivity.offline.mean", "strategies[1].name"])
        #expect(error.all.map(\.location) == [SourceLocation(line: 9, column: 57), SourceLocation(line: 13, column: 15)])
        // The rendering the command line prints after "error: ": one line each.
        let lines = "error: \(error)".split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("error: bad.json:") })
    }

    @Test("a check across fields is skipped when a field it needs is broken: a bad start gives one error, not two")
    func crossFieldCheckSkipped() throws {
        let text = Self.edited([(#""start": "2026-01-05""#, #""start": "5 Jan""#), (#""devices": 20,"#, """
            "devices": 20, "provider": { "outages": { "scheduled": [ { "start": "2026-01-06T00:00", "duration": "1h" } ] } },
            """)])
        let error = try #require(Self.failure(text))
        #expect(error.all.map(\.path) == ["start"])
    }

    @Test("past 20 errors the rest are counted, not listed")
    func listIsCapped() throws {
        let typos = (1...25).map { "\"typo\($0)\": 1" }.joined(separator: ", ")
        let text = Self.edited([(#""perDay": 24"#, #""perDay": 24, "# + typos)])
        let error = try #require(Self.failure(text))
        #expect(error.all.count == ScenarioError.listLimit)
        #expect(error.all.map(\.path) == (1...20).map { "mail.typo\($0)" })
        #expect(error.unlisted == 5)
        #expect(error.description.hasSuffix("\nerror: bad.json: … and 5 more errors"))
    }

    @Test("a good file still decodes whole; one error alone renders as one line")
    func oneErrorOneLine() throws {
        let error = try #require(Self.failure(Self.edited([(#""devices": 20"#, #""devices": 0"#)])))
        #expect(error.more.isEmpty)
        #expect(!error.description.contains("\n"))
        #expect(throws: Never.self) { try ScenarioDecoder.decode(Array(Self.base.utf8), file: "good.json") }
    }
}
