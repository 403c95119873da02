import Base
import Simulator

/// `run.json`, written beside the reports of every run and merge: which pushsim ran
/// which scenario text (by hash), with what seed, strategies and command line, and for
/// a merge which parts. `pushsim diff` reads it to refuse comparing different scenarios.
public struct RunRecord: Sendable, Equatable {
    /// The file's name in a report folder.
    public static let fileName = "run.json"
    /// The value of its `format` key.
    package static let format = "pushsim-run"

    /// One shard's partial result a merge read.
    public struct Part: Sendable, Equatable {
        /// The file as named on the command line (`<stdin>` for `-`).
        public var file: String
        /// Its shard, "K/N".
        public var shard: String
        package init(file: String, shard: String) {
            self.file = file
            self.shard = shard
        }
    }

    /// pushsim's version (`pushsim --version`).
    public var version: String
    /// The scenario's `name`.
    public var scenarioName: String
    /// SHA-256 of the scenario file's bytes, 64 lowercase hex digits.
    public var scenarioSHA256: String
    /// The seed run (after `--seed`).
    public var seed: UInt64
    /// The labels of the strategies run (after `--strategy`), in report order.
    public var strategies: [String]
    /// The scenario's device count.
    public var devices: Int
    /// The first and last simulated day, YYYY-MM-DD.
    public var start: String, end: String
    /// The command line, one argument per item, starting with `pushsim`.
    public var commandLine: [String]
    /// The parts a merge read, in command-line order; empty for a run.
    public var parts: [Part]
    /// The `--set PATH=VALUE` overrides applied to the scenario, in command-line order;
    /// `scenarioSHA256` stays the file's own hash, so these say what else ran.
    public var overrides: [String] = []

    /// The record of `scenario` (as run: its seed and strategies), read from `scenarioBytes`.
    /// - Complexity: O(n) in the scenario's size.
    package init(scenario: Scenario, scenarioBytes: [UInt8], commandLine: [String], parts: [Part] = [], overrides: [String] = []) {
        version = PushSimVersion.current
        scenarioName = scenario.name
        scenarioSHA256 = SHA256.hex(scenarioBytes)
        seed = scenario.seed
        strategies = scenario.strategies.map(\.label)
        devices = scenario.devices
        start = scenario.start.description
        end = scenario.start.adding(days: max(scenario.dayCount - 1, 0)).description
        self.commandLine = commandLine
        self.parts = parts
        self.overrides = overrides
    }

    /// The file's text: one key a line, in this order.
    /// - Complexity: O(n) in the command line's and parts' length.
    package func encoded() -> String {
        let members: [(String, String)] = [
            ("format", JSONText.string(Self.format)),
            ("pushsim", JSONText.string(version)),
            ("scenario", JSONText.object(["name": JSONText.string(scenarioName), "sha256": JSONText.string(scenarioSHA256)])),
            ("seed", String(seed)),
            ("strategies", JSONText.array(strategies.map(JSONText.string))),
            ("devices", String(devices)),
            ("start", JSONText.string(start)),
            ("end", JSONText.string(end)),
            ("commandLine", JSONText.array(commandLine.map(JSONText.string))),
            ("parts", JSONText.array(parts.map { JSONText.object(["file": JSONText.string($0.file), "shard": JSONText.string($0.shard)]) })),
            ("overrides", JSONText.array(overrides.map(JSONText.string))),
        ]
        return JSONText.objectOneMemberALine(members) + "\n"
    }

    /// Why a `run.json` cannot be read.
    public struct DecodingError: Error, CustomStringConvertible {
        /// The file and what is wrong.
        public var description: String
    }

    /// Reads a `run.json`; `file` names it in errors.
    /// - Complexity: O(n) in the file's size.
    package static func decode(_ bytes: [UInt8], file: String) throws(DecodingError) -> RunRecord {
        func fail(_ message: String) -> DecodingError { DecodingError(description: "\(UserText.path(file)): \(message)") }
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch { throw fail("\(error.location): \(error.message)") }
        guard case .object(let object) = root.value, case .string(format)? = object["format"]?.value else {
            throw fail("not a pushsim run.json")
        }
        func string(_ node: JSONNode?, _ key: String) throws(DecodingError) -> String {
            guard case .string(let text)? = node?.value else { throw fail("damaged run.json (\(key) is not a string)") }
            return text
        }
        func integer(_ node: JSONNode?, _ key: String) throws(DecodingError) -> Int64 {
            guard case .number(let number)? = node?.value, let value = number.int64Value, value >= 0 else {
                throw fail("damaged run.json (\(key) is not a count)")
            }
            return value
        }
        func array(_ node: JSONNode?, _ key: String) throws(DecodingError) -> [JSONNode] {
            guard case .array(let items)? = node?.value else { throw fail("damaged run.json (\(key) is not an array)") }
            return items
        }
        guard case .object(let scenario)? = object["scenario"]?.value else { throw fail("damaged run.json (no scenario)") }
        var record = RunRecord(version: try string(object["pushsim"], "pushsim"),
                               scenarioName: try string(scenario["name"], "scenario.name"),
                               scenarioSHA256: try string(scenario["sha256"], "scenario.sha256"),
                               seed: UInt64(try integer(object["seed"], "seed")),
                               strategies: [], devices: Int(try integer(object["devices"], "devices")),
                               start: try string(object["start"], "start"), end: try string(object["end"], "end"),
                               commandLine: [], parts: [])
        for item in try array(object["strategies"], "strategies") { record.strategies.append(try string(item, "strategies[]")) }
        for item in try array(object["commandLine"], "commandLine") { record.commandLine.append(try string(item, "commandLine[]")) }
        for item in try array(object["parts"], "parts") {
            guard case .object(let part) = item.value else { throw fail("damaged run.json (parts[] is not an object)") }
            record.parts.append(Part(file: try string(part["file"], "parts[].file"), shard: try string(part["shard"], "parts[].shard")))
        }
        // Absent from the run.json of a pushsim before --set: no overrides.
        if object["overrides"] != nil {
            for item in try array(object["overrides"], "overrides") { record.overrides.append(try string(item, "overrides[]")) }
        }
        return record
    }

    private init(version: String, scenarioName: String, scenarioSHA256: String, seed: UInt64, strategies: [String],
                 devices: Int, start: String, end: String, commandLine: [String], parts: [Part]) {
        self.version = version
        self.scenarioName = scenarioName
        self.scenarioSHA256 = scenarioSHA256
        self.seed = seed
        self.strategies = strategies
        self.devices = devices
        self.start = start
        self.end = end
        self.commandLine = commandLine
        self.parts = parts
    }
}
