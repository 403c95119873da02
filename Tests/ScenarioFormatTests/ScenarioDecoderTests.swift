@testable import Base
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

@Suite("Scenario decoder")
struct ScenarioDecoderTests {
    /// A scenario made bad by replacing one unique piece of `ScenarioDecoderTests.base`,
    /// with the structured error and the one-line message it must produce.
    struct BadScenarioCase: Sendable, CustomTestStringConvertible {
        var name: String
        var replace: String
        var with: String
        var kind: ScenarioError.Kind
        var path: String
        var line: Int
        var column: Int
        /// The rendered text after `bad.json:LINE:COL: `.
        var message: String

        var testDescription: String { name }
    }

    /// Decodes `text` as if read from `file`.
    private func decode(_ text: String, file: String = "s.json") throws -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: file)
    }

    /// The error decoding `text` throws, or nil when it decodes.
    private func failure(_ text: String, file: String = "bad.json") -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: file)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Valid scenarios

    static let full = """
    {
      "name": "full-scenario_1.0",
      "description": "every field, with a ü and a \\"quote\\"",
      "seed": 42,
      "start": "2026-01-05",
      "duration": "2d",
      "devices": 500,
      "mail": {
        "perDay": 48.5,
        "diurnal": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
        "weekendFactor": 0.5
      },
      "connectivity": {
        "online": { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "lognormal", "median": "15m", "sigma": 1.25 },
        "offlineWindows": [
          { "start": "23:30", "duration": { "distribution": "uniform", "min": "6h", "max": "8h" }, "probability": 0.7 },
          { "start": "08:15", "duration": "30s", "probability": 0.25, "days": "weekdays" },
          { "start": "12:00", "duration": "90s", "probability": 0, "days": "weekends" }
        ]
      },
      "latency": {
        "providerToAPNs": "250ms",
        "apnsToDevice": { "distribution": "constant", "value": "0.5s" },
        "rerequestRoundTrip": { "distribution": "exponential", "mean": "2s" }
      },
      "provider": { "payloadTTL": "1.5h" },
      "apns": { "expiration": "1h" },
      "push": { "app": "com.example.mail", "alertBodyBytes": 300 },
      "device": { "extensionTimeLimit": "25s" },
      "strategies": [
        { "name": "no-queue" },
        { "name": "queue", "repeatMaxCount": 5, "collapseID": false },
        { "name": "queue", "label": "queue-unlimited" },
        { "name": "queue-as-published", "label": "published", "repeatMaxCount": 0, "collapseID": true }
      ]
    }
    """

    @Test("a full scenario decodes with the exact values of every field")
    func decodesFullScenario() throws {
        let scenario = try decode(Self.full)
        let second = TimeUnit.second, minute = TimeUnit.minute, hour = TimeUnit.hour
        #expect(scenario.name == "full-scenario_1.0")
        #expect(scenario.description == "every field, with a ü and a \"quote\"")
        #expect(scenario.seed == 42)
        #expect(scenario.start == CivilDate(year: 2026, month: 1, day: 5))
        #expect(scenario.duration == 2 * TimeUnit.day)
        #expect(scenario.dayCount == 2)
        #expect(scenario.devices == 500)

        #expect(scenario.mail.perDay == 48.5)
        #expect(scenario.mail.weekendFactor == 0.5)
        // Weights 1 and 3 have mean 2: normalised to 0.5 and 1.5, mean 1.
        #expect(scenario.mail.diurnal == Array(repeating: 0.5, count: 12) + Array(repeating: 1.5, count: 12))
        #expect(scenario.mail.diurnal.reduce(0, +) / 24 == 1)

        let connectivity = try #require(scenario.connectivity)
        #expect(connectivity.online == .exponential(mean: 3 * hour))
        #expect(connectivity.offline == .lognormal(median: 15 * minute, sigma: 1.25))
        // Windows come out sorted by their start time.
        #expect(connectivity.offlineWindows == [
            OfflineWindow(start: 8 * hour + 15 * minute, duration: .constant(30 * second), probability: 0.25, days: .weekdays),
            OfflineWindow(start: 12 * hour, duration: .constant(90 * second), probability: 0, days: .weekends),
            OfflineWindow(start: 23 * hour + 30 * minute, duration: .uniform(min: 6 * hour, max: 8 * hour),
                          probability: 0.7, days: .all),
        ])

        #expect(scenario.latency.providerToAPNs == .constant(250 * TimeUnit.millisecond))
        #expect(scenario.latency.apnsToDevice == .constant(500 * TimeUnit.millisecond))
        #expect(scenario.latency.rerequestRoundTrip == .exponential(mean: 2 * second))
        #expect(scenario.payloadTTL == 90 * minute)
        #expect(scenario.expiration == .after(hour))
        #expect(scenario.app == "com.example.mail")
        #expect(scenario.alertBodyBytes == 300)
        #expect(scenario.extensionTimeLimit == 25 * second)
        #expect(scenario.strategies == [
            Strategy(label: "no-queue", kind: .noQueue, repeatMaxCount: .max, collapseID: true),
            Strategy(label: "queue", kind: .queue, repeatMaxCount: 5, collapseID: false),
            Strategy(label: "queue-unlimited", kind: .queue, repeatMaxCount: .max, collapseID: true),
            Strategy(label: "published", kind: .queueAsPublished, repeatMaxCount: 0, collapseID: true),
        ])
    }

    static let minimal = """
    {
      "name": "minimal",
      "start": "2024-02-29",
      "duration": "1h",
      "devices": 1,
      "mail": { "perDay": 0 },
      "strategies": [ { "name": "queue" } ]
    }
    """

    @Test("optional fields take their documented defaults")
    func defaults() throws {
        let scenario = try decode(Self.minimal)
        #expect(scenario.description == "")
        #expect(scenario.seed == 0)
        #expect(scenario.start == CivilDate(year: 2024, month: 2, day: 29))
        #expect(scenario.duration == TimeUnit.hour)
        #expect(scenario.dayCount == 1)
        #expect(scenario.mail == MailModel(perDay: 0))
        #expect(scenario.mail.diurnal == Array(repeating: 1, count: 24))
        #expect(scenario.mail.weekendFactor == 1)
        #expect(scenario.connectivity == nil)
        #expect(scenario.latency == LatencyModel())
        #expect(scenario.latency.providerToAPNs == .constant(0))
        #expect(scenario.payloadTTL == nil)
        #expect(scenario.expiration == .absent)
        #expect(scenario.app == "ru.yandex.mail")
        #expect(scenario.alertBodyBytes == 120)
        #expect(scenario.extensionTimeLimit == 30 * TimeUnit.second)
        #expect(scenario.strategies == [Strategy(label: "queue", kind: .queue, repeatMaxCount: .max, collapseID: true)])
    }

    @Test("apns.expiration 0 means 'immediately'")
    func expirationZero() throws {
        let text = Self.minimal.replacingOccurrences(of: "\"devices\": 1,", with: "\"devices\": 1, \"apns\": { \"expiration\": \"0s\" },")
        #expect(try decode(text).expiration == .immediately)
    }

    @Test("durations in every unit, decimals allowed", arguments: [
        ("\"250ms\"", Int64(250_000)),
        ("\"30s\"", 30_000_000),
        ("\"15m\"", 900_000_000),
        ("\"3h\"", 10_800_000_000),
        ("\"2d\"", 172_800_000_000),
        ("\"1.5h\"", 5_400_000_000),
        ("\"0.5ms\"", 500),
        ("\"90s\"", 90_000_000),
        ("\"0.25s\"", 250_000),
    ])
    func durations(json: String, microseconds: Int64) throws {
        let text = Self.minimal.replacingOccurrences(of: "\"duration\": \"1h\"", with: "\"duration\": \(json)")
        #expect(try decode(text).duration == microseconds)
    }

    @Test("the number of calendar days rounds a partial day up", arguments: [
        ("\"250ms\"", 1), ("\"1d\"", 1), ("\"36h\"", 2), ("\"2d\"", 2), ("\"28d\"", 28), ("\"28.0001d\"", 29),
    ])
    func dayCount(json: String, days: Int) throws {
        let text = Self.minimal.replacingOccurrences(of: "\"duration\": \"1h\"", with: "\"duration\": \(json)")
        #expect(try decode(text).dayCount == days)
    }

    @Test("the four distributions and the bare-duration shorthand", arguments: [
        ("\"2s\"", Distribution.constant(2_000_000)),
        ("\"1ms\"", .constant(1_000)),
        ("0", .constant(0)),
        ("{ \"distribution\": \"constant\", \"value\": \"10ms\" }", .constant(10_000)),
        ("{ \"distribution\": \"exponential\", \"mean\": \"3h\" }", .exponential(mean: 10_800_000_000)),
        ("{ \"distribution\": \"uniform\", \"min\": \"1s\", \"max\": \"3s\" }", .uniform(min: 1_000_000, max: 3_000_000)),
        ("{ \"distribution\": \"uniform\", \"min\": 0, \"max\": 0 }", .uniform(min: 0, max: 0)),
        ("{ \"distribution\": \"lognormal\", \"median\": \"200ms\", \"sigma\": 0.75 }", .lognormal(median: 200_000, sigma: 0.75)),
    ])
    func distributions(json: String, expected: Distribution) throws {
        let text = Self.minimal.replacingOccurrences(of: "\"devices\": 1,",
                                                     with: "\"devices\": 1, \"latency\": { \"apnsToDevice\": \(json) },")
        #expect(try decode(text).latency.apnsToDevice == expected)
    }

    // MARK: Bad scenarios

    /// Line numbers below refer to this text (the first line is 1).
    static let base = """
    {
      "name": "base",
      "start": "2026-01-05",
      "duration": "3d",
      "devices": 20,
      "mail": { "perDay": 24 },
      "connectivity": {
        "online": { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "exponential", "mean": "1h" },
        "offlineWindows": [
          { "start": "23:00", "duration": "7h", "probability": 0.5 }
        ]
      },
      "strategies": [
        { "name": "no-queue" },
        { "name": "queue", "repeatMaxCount": 5 }
      ]
    }
    """

    static let topLevelFields = ["name", "description", "seed", "start", "duration", "devices", "mail",
                                 "connectivity", "latency", "provider", "apns", "push", "device", "background", "strategies", "expect", "events",
                                 "sendLog"]

    static let badCases: [BadScenarioCase] = [
        BadScenarioCase(name: "JSON syntax error",
                        replace: "\"repeatMaxCount\": 5 }", with: "\"repeatMaxCount\": 5 },",
                        kind: .syntax("trailing comma before ']'"), path: "", line: 16, column: 45,
                        message: "syntax error: trailing comma before ']'"),
        BadScenarioCase(name: "missing mail.perDay",
                        replace: "{ \"perDay\": 24 }", with: "{ \"weekendFactor\": 1 }",
                        kind: .missingField, path: "mail.perDay", line: 6, column: 11,
                        message: "mail.perDay: required field is missing"),
        BadScenarioCase(name: "missing top-level name",
                        replace: "  \"name\": \"base\",\n", with: "",
                        kind: .missingField, path: "name", line: 1, column: 1,
                        message: "name: required field is missing"),
        BadScenarioCase(name: "online without offline",
                        replace: "    \"offline\": { \"distribution\": \"exponential\", \"mean\": \"1h\" },\n", with: "",
                        kind: .missingField, path: "connectivity.offline", line: 7, column: 19,
                        message: "connectivity.offline: required field is missing"),
        BadScenarioCase(name: "unknown field (typo)",
                        replace: "\"connectivity\"", with: "\"conectivity\"",
                        kind: .unknownField(known: topLevelFields), path: "conectivity", line: 7, column: 3,
                        message: "conectivity: unknown field; did you mean connectivity?"),
        BadScenarioCase(name: "unknown field in a nested object",
                        replace: "\"probability\": 0.5 }", with: "\"probability\": 0.5, \"day\": \"all\" }",
                        kind: .unknownField(known: ["start", "duration", "probability", "days"]),
                        path: "connectivity.offlineWindows[0].day", line: 11, column: 65,
                        message: "connectivity.offlineWindows[0].day: unknown field; did you mean days?"),
        BadScenarioCase(name: "wrong type",
                        replace: "\"devices\": 20", with: "\"devices\": \"500\"",
                        kind: .wrongType(expected: "an integer", found: "a string"), path: "devices", line: 5, column: 14,
                        message: "devices: expected an integer, found a string"),
        BadScenarioCase(name: "devices out of range",
                        replace: "\"devices\": 20", with: "\"devices\": 0",
                        kind: .invalidValue("must be between 1 and 100000000, found 0"), path: "devices", line: 5, column: 14,
                        message: "devices: must be between 1 and 100000000, found 0"),
        BadScenarioCase(name: "negative duration",
                        replace: "\"mean\": \"3h\"", with: "\"mean\": \"-3h\"",
                        kind: .invalidValue("negative duration \"-3h\""), path: "connectivity.online.mean", line: 8, column: 56,
                        message: "connectivity.online.mean: negative duration \"-3h\""),
        BadScenarioCase(name: "not a duration",
                        replace: "\"duration\": \"3d\"", with: "\"duration\": \"3 days\"",
                        kind: .invalidValue("not a duration: \"3 days\" (write e.g. \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\")"),
                        path: "duration", line: 4, column: 15,
                        message: "duration: not a duration: \"3 days\" (write e.g. \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\")"),
        BadScenarioCase(name: "probability above 1",
                        replace: "\"probability\": 0.5", with: "\"probability\": 1.5",
                        kind: .invalidValue("probability must be between 0 and 1, found 1.5"),
                        path: "connectivity.offlineWindows[0].probability", line: 11, column: 60,
                        message: "connectivity.offlineWindows[0].probability: probability must be between 0 and 1, found 1.5"),
        BadScenarioCase(name: "probability below 0",
                        replace: "\"probability\": 0.5", with: "\"probability\": -0.1",
                        kind: .invalidValue("probability must be between 0 and 1, found -0.1"),
                        path: "connectivity.offlineWindows[0].probability", line: 11, column: 60,
                        message: "connectivity.offlineWindows[0].probability: probability must be between 0 and 1, found -0.1"),
        BadScenarioCase(name: "unknown distribution",
                        replace: "\"distribution\": \"exponential\", \"mean\": \"3h\"", with: "\"distribution\": \"gamma\", \"mean\": \"3h\"",
                        kind: .invalidValue("unknown distribution \"gamma\"; expected one of: constant, exponential, uniform, lognormal"),
                        path: "connectivity.online.distribution", line: 8, column: 33,
                        message: "connectivity.online.distribution: unknown distribution \"gamma\"; expected one of: constant, exponential, uniform, lognormal"),
        BadScenarioCase(name: "uniform max below min",
                        replace: "\"duration\": \"7h\"",
                        with: "\"duration\": { \"distribution\": \"uniform\", \"min\": \"8h\", \"max\": \"6h\" }",
                        kind: .invalidValue("max must not be less than min"),
                        path: "connectivity.offlineWindows[0].duration.max", line: 11, column: 88,
                        message: "connectivity.offlineWindows[0].duration.max: max must not be less than min"),
        BadScenarioCase(name: "unknown strategy",
                        replace: "{ \"name\": \"queue\",", with: "{ \"name\": \"fifo\",",
                        kind: .invalidValue("unknown strategy \"fifo\"; expected one of: no-queue, queue, queue-as-published"),
                        path: "strategies[1].name", line: 16, column: 15,
                        message: "strategies[1].name: unknown strategy \"fifo\"; expected one of: no-queue, queue, queue-as-published"),
        BadScenarioCase(name: "duplicate strategy names",
                        replace: "{ \"name\": \"queue\", \"repeatMaxCount\": 5 }", with: "{ \"name\": \"no-queue\" }",
                        kind: .invalidValue("two strategies are labelled \"no-queue\"; give one a distinct \"label\""),
                        path: "strategies[1]", line: 16, column: 5,
                        message: "strategies[1]: two strategies are labelled \"no-queue\"; give one a distinct \"label\""),
        BadScenarioCase(name: "a label equal to another strategy's name",
                        replace: "{ \"name\": \"queue\",", with: "{ \"name\": \"queue\", \"label\": \"no-queue\",",
                        kind: .invalidValue("two strategies are labelled \"no-queue\"; give one a distinct \"label\""),
                        path: "strategies[1]", line: 16, column: 5,
                        message: "strategies[1]: two strategies are labelled \"no-queue\"; give one a distinct \"label\""),
        BadScenarioCase(name: "a label with a comma",
                        replace: "{ \"name\": \"queue\",", with: "{ \"name\": \"queue\", \"label\": \"a,b\",",
                        kind: .invalidValue("a label is non-empty and has no comma, quote, line break or control character"),
                        path: "strategies[1].label", line: 16, column: 33,
                        message: "strategies[1].label: a label is non-empty and has no comma, quote, line break or control character"),
        BadScenarioCase(name: "repeatMaxCount on no-queue",
                        replace: "{ \"name\": \"no-queue\" }", with: "{ \"name\": \"no-queue\", \"repeatMaxCount\": 3 }",
                        kind: .invalidValue("only the queue strategies have repeatMaxCount"),
                        path: "strategies[0].repeatMaxCount", line: 15, column: 45,
                        message: "strategies[0].repeatMaxCount: only the queue strategies have repeatMaxCount"),
        BadScenarioCase(name: "collapseID on no-queue",
                        replace: "{ \"name\": \"no-queue\" }", with: "{ \"name\": \"no-queue\", \"collapseID\": false }",
                        kind: .invalidValue("only the queue strategies have collapseID"),
                        path: "strategies[0].collapseID", line: 15, column: 41,
                        message: "strategies[0].collapseID: only the queue strategies have collapseID"),
        BadScenarioCase(name: "a date that does not exist: the calendar's reason, not the format",
                        replace: "\"2026-01-05\"", with: "\"2026-02-30\"",
                        kind: .invalidValue("not a calendar date: \"2026-02-30\" (February 2026 has 28 days)"), path: "start",
                        line: 3, column: 12, message: "start: not a calendar date: \"2026-02-30\" (February 2026 has 28 days)"),
        BadScenarioCase(name: "a date without zero padding",
                        replace: "\"2026-01-05\"", with: "\"2026-1-05\"",
                        kind: .invalidValue("not a date: \"2026-1-05\" (write YYYY-MM-DD)"), path: "start", line: 3, column: 12,
                        message: "start: not a date: \"2026-1-05\" (write YYYY-MM-DD)"),
        BadScenarioCase(name: "a run that ends after 9999-12-31",
                        replace: "\"2026-01-05\"", with: "\"9999-12-30\"",
                        kind: .invalidValue("the run would end on 10000-01-01, after 9999-12-31 (reports write YYYY-MM-DD)"),
                        path: "start", line: 3, column: 12,
                        message: "start: the run would end on 10000-01-01, after 9999-12-31 (reports write YYYY-MM-DD)"),
        BadScenarioCase(name: "diurnal with 23 entries",
                        replace: "{ \"perDay\": 24 }",
                        with: "{ \"perDay\": 24, \"diurnal\": [" + Array(repeating: "1", count: 23).joined(separator: ",") + "] }",
                        kind: .invalidValue("needs 24 hourly weights, found 23"), path: "mail.diurnal", line: 6, column: 38,
                        message: "mail.diurnal: needs 24 hourly weights, found 23"),
        BadScenarioCase(name: "an unknown day set",
                        replace: "\"probability\": 0.5 }", with: "\"probability\": 0.5, \"days\": \"holidays\" }",
                        kind: .invalidValue("unknown day set \"holidays\"; expected one of: all, weekdays, weekends"),
                        path: "connectivity.offlineWindows[0].days", line: 11, column: 73,
                        message: "connectivity.offlineWindows[0].days: unknown day set \"holidays\"; expected one of: all, weekdays, weekends"),
        BadScenarioCase(name: "more than a million mails a day",
                        replace: "{ \"perDay\": 24 }", with: "{ \"perDay\": 2e6 }",
                        kind: .invalidValue("more than a million mails a day"), path: "mail.perDay", line: 6, column: 23,
                        message: "mail.perDay: more than a million mails a day"),
        BadScenarioCase(name: "a bad time of day",
                        replace: "\"23:00\"", with: "\"24:00\"",
                        kind: .invalidValue("not a time of day: \"24:00\" (write HH:MM, 00:00–23:59)"),
                        path: "connectivity.offlineWindows[0].start", line: 11, column: 18,
                        message: "connectivity.offlineWindows[0].start: not a time of day: \"24:00\" (write HH:MM, 00:00–23:59)"),
    ]

    @Test("a bad scenario is refused with its kind, path, line:column and message", arguments: badCases)
    func rejectsBadScenario(_ bad: BadScenarioCase) throws {
        #expect(Self.base.components(separatedBy: bad.replace).count == 2, "the replaced text must occur exactly once")
        let text = Self.base.replacingOccurrences(of: bad.replace, with: bad.with)
        let error = try #require(failure(text))
        #expect(error.kind == bad.kind)
        #expect(error.file == "bad.json")
        #expect(error.path == bad.path)
        #expect(error.location == Base.SourceLocation(line: bad.line, column: bad.column))
        #expect(error == ScenarioError(bad.kind, file: "bad.json", path: bad.path,
                                       location: Base.SourceLocation(line: bad.line, column: bad.column)))
        #expect(error.description == "bad.json:\(bad.line):\(bad.column): \(bad.message)")
    }

    @Test("the unmodified base scenario is valid")
    func baseIsValid() throws {
        let scenario = try decode(Self.base)
        #expect(scenario.devices == 20)
        #expect(scenario.strategies.map(\.label) == ["no-queue", "queue"])
    }

    @Test("a run may end on 9999-12-31, the last date reports can write")
    func lastWritableDay() throws {
        let scenario = try decode(Self.base.replacingOccurrences(of: "\"2026-01-05\"", with: "\"9999-12-29\""))
        #expect(scenario.start.adding(days: scenario.dayCount - 1).description == "9999-12-31")
    }

    @Test("a missing file is reported as unreadable, without a location")
    func missingFile() {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushsim-missing-\(UUID().uuidString).json").path
        do {
            _ = try ScenarioDecoder.load(path: path)
            Issue.record("loading a missing file succeeded")
        } catch {
            #expect(error == ScenarioError(.unreadable("no such file"), file: path, path: "", location: nil))
            #expect(error.description == "\(path): cannot read the scenario: no such file")
        }
    }

    @Test("a directory is reported as unreadable")
    func directoryIsUnreadable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-dir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            _ = try ScenarioDecoder.load(path: directory)
            Issue.record("loading a directory succeeded")
        } catch {
            #expect(error.kind == .unreadable("it is a directory"))
            #expect(error.description == "\(directory): cannot read the scenario: it is a directory")
        }
    }

    @Test("a pipe reads like a file: process substitution and /dev/stdin work")
    func pipeReadsLikeAFile() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let bytes = Array(Self.full.utf8)
        // A pipe holds 64 KiB; the scenario is far smaller, so one write cannot block.
        try #require(bytes.count < 60_000)
        #expect(bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) } == bytes.count)
        close(descriptors[1])
        let path = "/dev/fd/\(descriptors[0])"
        #expect(try ScenarioDecoder.load(path: path) == decode(Self.full, file: path))
    }

    @Test("an empty device is an empty document, not an unreadable file")
    func devNullIsEmpty() {
        do {
            _ = try ScenarioDecoder.load(path: "/dev/null")
            Issue.record("an empty file decoded")
        } catch {
            guard case .syntax = error.kind else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(error.location == Base.SourceLocation(line: 1, column: 1))
        }
    }

    @Test("a file on disk decodes like the same bytes in memory")
    func loadFromDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-\(UUID().uuidString).json").path
        try Data(Self.full.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ScenarioDecoder.load(path: path) == decode(Self.full, file: path))
    }
}
