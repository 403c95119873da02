@testable import Base
@testable import CLI
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import TestSupport
import Testing

/// `--set PATH=VALUE`: paths and values read, the tree changed before decoding, and
/// every mistake a scenario error naming the argument.
@Suite("Scenario overrides (--set)")
struct ScenarioOverrideTests {
    static let scenarioText = """
    { "name": "override", "seed": 3, "start": "2026-03-02", "duration": "3d", "devices": 10,
      "mail": { "perDay": 12 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }
    """

    func decode(_ sets: [String]) throws -> Scenario {
        let overrides = try sets.map { try ScenarioOverride($0) }
        return try ScenarioDecoder.decode(Array(Self.scenarioText.utf8), file: "s.json", overrides: overrides)
    }

    func error(_ sets: [String]) -> ScenarioError? {
        do {
            _ = try decode(sets)
            return nil
        } catch let error as ScenarioError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("paths read as the decoder writes them: keys with dots, indices in brackets; malformed ones are refused")
    func paths() {
        #expect(ScenarioOverride.steps("strategies[1].repeatMaxCount") == [.key("strategies"), .index(1), .key("repeatMaxCount")])
        #expect(ScenarioOverride.steps("connectivity.offline.mean") == [.key("connectivity"), .key("offline"), .key("mean")])
        #expect(ScenarioOverride.steps("device.accounts.2") == [.key("device"), .key("accounts"), .key("2")])
        // A bracket holding anything but digits is a label: strategies are addressed by theirs.
        #expect(ScenarioOverride.steps("strategies[queue].repeatMaxCount") == [.key("strategies"), .label("queue"), .key("repeatMaxCount")])
        #expect(ScenarioOverride.steps("a[x]") == [.key("a"), .label("x")])
        #expect(ScenarioOverride.steps("a[-1]") == [.key("a"), .label("-1")])
        for bad in ["", ".a", "a.", "a..b", "a[", "a[]", "a[01]", "[0]", "a b", "a[1]b", "a[x", "a[x]y"] {
            #expect(ScenarioOverride.steps(bad) == nil, "\(bad)")
        }
    }

    @Test("a value is JSON when it parses as JSON, else the text as a string")
    func values() {
        if case .number(let number) = ScenarioOverride.value("3") { #expect(number.doubleValue == 3) } else { Issue.record("not a number") }
        #expect(ScenarioOverride.value("true") == .bool(true))
        #expect(ScenarioOverride.value("null") == .null)
        #expect(ScenarioOverride.value("2h") == .string("2h"))
        #expect(ScenarioOverride.value("\"2h\"") == .string("2h"))
        #expect(ScenarioOverride.value("queue") == .string("queue"))
        #expect(ScenarioOverride.value("") == .string(""))
        if case .array(let items) = ScenarioOverride.value("[1, 2]") { #expect(items.count == 2) } else { Issue.record("not an array") }
        if case .object(let object) = ScenarioOverride.value("{\"a\": 1}") { #expect(object["a"] != nil) } else { Issue.record("not an object") }
    }

    @Test("overrides change the decoded scenario: numbers, durations without quotes, a new key the decoder knows, the last of a path wins")
    func applied() throws {
        let plain = try decode([])
        let changed = try decode(["devices=25", "strategies[1].repeatMaxCount=0", "connectivity.offline.mean=2h",
                                  "strategies[0].label=\"old\"", "seed=9", "seed=11", "device.legacyIOS=0.5"])
        #expect(plain.devices == 10 && changed.devices == 25)
        #expect(changed.strategies[1].repeatMaxCount == 0)
        #expect(changed.strategies[0].label == "old")
        #expect(changed.seed == 11)
        #expect(changed.chain.device.legacyIOSShare == 0.5)
        #expect(changed.connectivity?.offline == .exponential(mean: 2 * 3_600_000_000))
        #expect(plain.connectivity?.offline == .exponential(mean: 40 * 60_000_000))
    }

    @Test("the digest serve and provider compare: the SHA-256 of the compact text with --set applied; white space does not change it, a --set or another value does")
    func digest() throws {
        let bytes = Array(Self.scenarioText.utf8)
        let plain = ScenarioOverride.digest(bytes, overrides: [])
        let compact = try #require(ScenarioOverride.text(bytes, overrides: []))
        #expect(plain == SHA256.hex(Array(compact.utf8)) && plain.count == 64)
        let spaced = Array(Self.scenarioText.replacingOccurrences(of: ": ", with: " :\n\t ").utf8)
        #expect(spaced != bytes && ScenarioOverride.digest(spaced, overrides: []) == plain)
        let devices25 = try ScenarioOverride("devices=25")
        let set = ScenarioOverride.digest(bytes, overrides: [devices25])
        let edited = Array(Self.scenarioText.replacingOccurrences(of: "\"devices\": 10", with: "\"devices\": 25").utf8)
        #expect(set != plain && ScenarioOverride.digest(edited, overrides: []) == set)
        let rate = Array(Self.scenarioText.replacingOccurrences(of: "\"perDay\": 12", with: "\"perDay\": 13").utf8)
        #expect(ScenarioOverride.digest(rate, overrides: []) != plain)
    }

    @Test("a value the decoder refuses is reported under its path and named by the --set argument, not the file")
    func decoderErrorsNameTheArgument() throws {
        let refused = try #require(error(["devices=-1"]))
        #expect(refused.description == "--set devices=-1: devices: must be between 1 and 100000000, found -1")
        let duration = try #require(error(["connectivity.offline.mean=2"]))
        #expect(duration.description.hasPrefix("--set connectivity.offline.mean=2: connectivity.offline.mean: a duration needs a unit"))
        let typo = try #require(error(["strategies[1].repeatMaxCountt=1"]))
        #expect(typo.description.hasPrefix("--set strategies[1].repeatMaxCountt=1: strategies[1].repeatMaxCountt: unknown field"))
        // A field the no-queue strategy does not have, created by --set, is refused by the decoder.
        let wrongStrategy = try #require(error(["strategies[0].repeatMaxCount=3"]))
        #expect(wrongStrategy.description.contains("only the queue strategies have repeatMaxCount"))
    }

    @Test("a strategy is addressed by its label, or by its name when it has none; errors under it name the argument")
    func strategiesByLabel() throws {
        let changed = try decode(["strategies[queue].repeatMaxCount=3", "strategies[no-queue].label=\"plain\"",
                                  "strategies[plain].registration=once"])
        #expect(changed.strategies[1].repeatMaxCount == 3)
        #expect(changed.strategies[0].label == "plain")
        #expect(changed.strategies[0].registration == .onceAtPrompt)
        // The decoder's path names the index the label found; the message names the --set argument.
        #expect(error(["strategies[queue].repeatMaxCount=-1"])?.description
                == "--set strategies[queue].repeatMaxCount=-1: strategies[1].repeatMaxCount: must be between 0 and "
                + "\(ScenarioFields.Strategy.repeatMaxCount.integerRange.upperBound), found -1")
        #expect(error(["strategies[fifo].repeatMaxCount=3"])?.description
                == "--set strategies[fifo].repeatMaxCount=3: strategies: no element labelled \"fifo\"; the labels are no-queue, queue")
        // A misspelt field under a label: one error, with the field it resembles.
        let typo = try #require(error(["strategies[queue].repeatMaxCont=3"]))
        #expect(typo.all.count == 1)
        #expect(typo.description == "--set strategies[queue].repeatMaxCont=3: strategies[1].repeatMaxCont: unknown field; "
                + "did you mean repeatMaxCount?")
    }

    @Test("an index past the end, a step through a non-object or a malformed path is an error naming the argument")
    func structuralErrors() throws {
        #expect(error(["strategies[2].repeatMaxCount=1"])?.description
                == "--set strategies[2].repeatMaxCount=1: strategies: no element [2]: the array has 2 (--set changes elements, it does not add them)")
        #expect(error(["name.first=1"])?.description == "--set name.first=1: name: is a string, not an object: it has no field \"first\"")
        #expect(error(["mail[0]=1"])?.description == "--set mail[0]=1: mail: is an object, not an array: it has no element [0]")
        #expect(error(["a..b=1"])?.description.hasPrefix("--set a..b=1: not a field path: \"a..b\"") == true)
        #expect(error(["devices"])?.description == "--set devices: expected PATH=VALUE, e.g. strategies[1].repeatMaxCount=3")
    }

    @Test("run --set: exit 65 before anything runs for a bad override; run.json records the overrides and keeps the file's hash")
    func runRecordsOverrides() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-set-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: folder + "/s.json"))
        let bad = CapturedConsole()
        let refused = RunCommand.main(["--set", "strategies[5].label=x", folder + "/s.json", "--out", folder + "/bad"],
                                      console: bad.console) { _, _, _, _, _ in
            Issue.record("simulated despite a bad --set")
            throw AccountingError(description: "unreachable")
        }
        #expect(refused == .dataError)
        #expect(bad.err.hasPrefix("error: --set strategies[5].label=x: strategies: no element [5]"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad"))

        let captured = CapturedConsole()
        #expect(PushSimCommand.main(["run", folder + "/s.json", "--set", "devices=4", "--set=strategies[1].repeatMaxCount=1",
                                     "--out", folder + "/r", "--quiet"], console: captured.console) == .success, "\(captured.err)")
        let bytes = try #require(FileManager.default.contents(atPath: folder + "/r/run.json"))
        let record = try RunRecord.decode(Array(bytes), file: "run.json")
        #expect(record.overrides == ["devices=4", "strategies[1].repeatMaxCount=1"])
        #expect(record.devices == 4)
        #expect(record.scenarioSHA256 == SHA256.hex(Array(Self.scenarioText.utf8)))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"overrides\": [\"devices=4\",\"strategies[1].repeatMaxCount=1\"]"))

        // result.json carries the scenario as it ran: report draws the same page again.
        let redrawn = CapturedConsole()
        #expect(PushSimCommand.main(["report", folder + "/r", "--out", folder + "/again"], console: redrawn.console) == .success,
                "\(redrawn.err)")
        let page = try #require(FileManager.default.contents(atPath: folder + "/r/report.html"))
        #expect(FileManager.default.contents(atPath: folder + "/again/report.html") == page)
        #expect(String(decoding: page, as: UTF8.self).contains("<dt>devices</dt><dd>4</dd>"))

        let shard = CapturedConsole()
        #expect(PushSimCommand.main(["run", folder + "/s.json", "--set", "devices=4", "--shard", "1/2"], console: shard.console) == .usage)
        #expect(shard.err.contains("no --set with --shard"))
    }

    @Test("check takes --set: an overridden bound is judged, and the run is the overridden scenario")
    func checkTakesOverrides() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-set-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = Self.scenarioText.replacingOccurrences(
            of: "{ \"name\": \"queue\", \"repeatMaxCount\": 4 }] }",
            with: "{ \"name\": \"queue\", \"repeatMaxCount\": 4 }], \"expect\": [{ \"metric\": \"deliverability\", \"strategy\": \"queue\", \"atLeast\": 0 }] }")
        #expect(text != Self.scenarioText)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/s.json"))
        let holds = CapturedConsole()
        #expect(PushSimCommand.main(["check", folder + "/s.json", "--out", folder + "/a", "--quiet"], console: holds.console) == .success,
                "\(holds.err)")
        let fails = CapturedConsole()
        #expect(PushSimCommand.main(["check", folder + "/s.json", "--set", "expect[0].atLeast=1.5", "--set", "devices=3",
                                     "--out", folder + "/b", "--quiet"], console: fails.console) == .failedCheck)
        #expect(fails.err.contains("error: expectation failed:"))
        let record = try RunRecord.decode(Array(try #require(FileManager.default.contents(atPath: folder + "/b/run.json"))), file: "run.json")
        #expect(record.devices == 3 && record.overrides == ["expect[0].atLeast=1.5", "devices=3"])
    }

    @Test("diff refuses folders run with different overrides unless --force; the same overrides in another order compare")
    func diffSeesOverrides() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-set-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: folder + "/s.json"))
        for (name, sets) in [("a", ["devices=5", "seed=2"]), ("b", ["seed=2", "devices=5"]), ("c", ["devices=6", "seed=2"])] {
            let captured = CapturedConsole()
            #expect(PushSimCommand.main(["run", folder + "/s.json", "--out", folder + "/" + name, "--quiet"]
                                        + sets.flatMap { ["--set", $0] }, console: captured.console) == .success, "\(captured.err)")
        }
        let same = CapturedConsole()
        #expect(PushSimCommand.main(["diff", folder + "/a", folder + "/b", "--quiet"], console: same.console) != .dataError, "\(same.err)")
        let different = CapturedConsole()
        #expect(PushSimCommand.main(["diff", folder + "/a", folder + "/c"], console: different.console) == .dataError)
        #expect(different.err.contains("different overrides"))
        #expect(different.err.contains("--set devices=6 --set seed=2"))
        let forced = CapturedConsole()
        #expect(PushSimCommand.main(["diff", folder + "/a", folder + "/c", "--force", "--quiet"], console: forced.console) != .dataError)
    }
}
