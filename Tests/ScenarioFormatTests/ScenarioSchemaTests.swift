@testable import Base
@testable import CLI
import ChildProcesses
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// The JSON Schema of scenario files: the shipped file is what `pushsim schema` prints,
/// it names every field the decoder reads, every shipped scenario validates against it
/// with a real validator (Python's jsonschema), and broken files fail it and the decoder.
@Suite("Scenario JSON Schema")
struct ScenarioSchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let schemaPath = repository + "/schema/pushsim-scenario.schema.json"

    /// In CI (CI=true) the validator must be there: a missing module fails the test.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether `python3 -c 'import jsonschema'` works.
    static let validatorPresent: Bool = {
        (try? python(["-c", "import jsonschema"]).status) == 0
    }()

    /// Runs python3 with `arguments`; its exit status and standard output.
    static func python(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Validates each file with jsonschema's Draft 2020-12 validator (after checking the
    /// schema itself); one line per file: `ok` or `invalid: <first message>`.
    static func validate(_ files: [String]) throws -> [String] {
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
            print("ok" if not errors else "invalid: " + errors[0].message.replace("\\n", " ")[:200])
        """
        let result = try python(["-c", script, schemaPath] + files)
        #expect(result.status == 0, "python3 jsonschema failed: \(result.out)")
        return result.out.split(separator: "\n").map(String.init)
    }

    /// The schema parsed by PushSim's own JSON parser.
    func schema() throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(ScenarioSchema.text).value else {
            throw AccountingError(description: "the schema is not an object")
        }
        return object
    }

    /// The keys of `properties` at `path` (object keys, `items` followed into arrays, `$ref`s resolved).
    func propertyNames(_ path: [String]) throws -> [String] {
        let root = try schema()
        var node = JSONValue.object(root)
        func resolve(_ value: JSONValue) -> JSONValue {
            guard case .object(let object) = value, case .string(let reference)? = object["$ref"]?.value,
                  case .object(let definitions)? = root["$defs"]?.value,
                  let target = definitions[String(reference.split(separator: "/").last ?? "")] else { return value }
            return target.value
        }
        for key in path {
            node = resolve(node)
            guard case .object(let object) = node, case .object(let properties)? = object["properties"]?.value,
                  var child = properties[key]?.value else { return [] }
            if case .object(let array) = child, case .string("array")? = array["type"]?.value, let items = array["items"] {
                child = items.value
            }
            node = child
        }
        guard case .object(let object) = resolve(node), case .object(let properties)? = object["properties"]?.value else { return [] }
        return properties.members.map(\.key)
    }

    @Test("the shipped schema file is byte for byte what 'pushsim schema' prints, and it is JSON")
    func shippedFileIsTheCommandsOutput() throws {
        let shipped = try #require(FileManager.default.contents(atPath: Self.schemaPath))
        let captured = CapturedConsole()
        #expect(PushSimCommand.main(["schema"], console: captured.console) == .success)
        #expect(captured.out == String(decoding: shipped, as: UTF8.self),
                "schema/pushsim-scenario.schema.json differs from ScenarioSchema.text: swift run pushsim schema > schema/pushsim-scenario.schema.json")
        #expect(captured.out == ScenarioSchema.text)
        #expect(try schema()["$schema"]?.value == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(PushSimCommand.main(["schema", "extra"], console: CapturedConsole().console) == .usage)
    }

    @Test("every object the decoder reads lists exactly the fields it accepts, in the decoder's order")
    func fieldsMatchTheDecoder() throws {
        #expect(try propertyNames([]) == ScenarioDecoder.topLevelFields)
        #expect(try propertyNames(["strategies"]) == ScenarioDecoder.strategyFields)
        #expect(try propertyNames(["expect"]) == ScenarioDecoder.expectationFields)
        #expect(try propertyNames(["provider"]) == ScenarioDecoder.providerFields)
        #expect(try propertyNames(["apns"]) == ScenarioDecoder.apnsFields)
        #expect(try propertyNames(["device"]) == ScenarioDecoder.deviceFields)
        #expect(try propertyNames(["mail"]) == ["perDay", "diurnal", "weekendFactor"])
        #expect(try propertyNames(["device", "launches"]) == ["perDay", "diurnal", "weekendFactor"])
        #expect(try propertyNames(["connectivity"]) == ["online", "offline", "offlineWindows"])
        #expect(try propertyNames(["connectivity", "offlineWindows"]) == ["start", "duration", "probability", "days"])
        #expect(try propertyNames(["latency"]) == ["providerToAPNs", "apnsToDevice", "rerequestRoundTrip"])
        #expect(try propertyNames(["push"]) == ["app", "alertBodyBytes"])
    }

    @Test("every field in the schema has a description (its own or its definition's), for editors' help")
    func everyFieldDescribed() throws {
        let root = try schema()
        guard case .object(let definitions)? = root["$defs"]?.value else { Issue.record("no $defs"); return }
        var undescribed: [String] = [], fields = 0
        func described(_ value: JSONValue) -> Bool {
            guard case .object(let object) = value else { return false }
            if object["description"] != nil { return true }
            guard case .string(let reference)? = object["$ref"]?.value,
                  let target = definitions[String(reference.split(separator: "/").last ?? "")] else { return false }
            return described(target.value)
        }
        func walk(_ value: JSONValue, path: String) {
            switch value {
            case .object(let object):
                for member in object.members {
                    if member.key == "properties", case .object(let properties) = member.value.value {
                        for property in properties.members {
                            fields += 1
                            if !described(property.value.value) { undescribed.append(path + "." + property.key) }
                        }
                    }
                    walk(member.value.value, path: path + "." + member.key)
                }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item.value, path: path + "[\(index)]") }
            case .null, .bool, .number, .string:
                break
            }
        }
        walk(.object(root), path: "")
        #expect(fields > 100)
        // The `distribution` tag inside a distribution's variants is named by the variant's own description.
        #expect(undescribed.filter { !$0.hasSuffix(".distribution") } == [])
    }

    @Test("the schema's strategy names and expect metrics are the decoder's (StrategyKind, Metric)")
    func enumerationsMatch() throws {
        let text = ScenarioSchema.text
        let names = StrategyKind.allCases.map { "\"" + $0.rawValue + "\"" }.joined(separator: ",\n        ")
        #expect(text.contains("\"enum\": [\n        " + names + "\n      ]"))
        let metrics = Metric.allCases.map { "\"" + $0.name + "\"" }.joined(separator: ",\n              ")
        #expect(text.contains("\"enum\": [\n              " + metrics + "\n            ]"))
    }

    /// Files that break one rule each; the decoder must refuse every one (exit 65) and so must the schema.
    static let brokenScenarios: [(name: String, change: String)] = [
        ("unknown-key", #""devicez": 5,"#),
        ("wrong-type", #""seed": "seven","#),
        ("negative-count", #""provider": { "retries": -1 },"#),
        ("bare-number-duration", #""apns": { "expiration": 3600 },"#),
        ("unknown-strategy", #""strategies": [{ "name": "fifo" }],"#),
        ("bad-expect-metric", #""expect": [{ "metric": "delivery", "strategy": "queue", "atLeast": 0.5 }],"#),
        ("unknown-distribution", #""latency": { "apnsToDevice": { "distribution": "gamma", "mean": "1s" } },"#),
        ("probability-above-one", #""device": { "displayOff": 1.5 },"#),
        ("empty-strategies", #""strategies": [],"#),
        ("online-without-offline", #""connectivity": { "online": "2h" },"#),
    ]

    /// A valid scenario with `change` placed first (a later duplicate key is not allowed, so
    /// fields the change names are left out of the base).
    static func broken(_ change: String) -> String {
        var fields = [#""name": "broken""#, #""start": "2026-03-02""#, #""duration": "2d""#, #""devices": 3"#,
                      #""mail": { "perDay": 4 }"#, #""strategies": [{ "name": "no-queue" }, { "name": "queue" }]"#]
        if let key = change.split(separator: ":").first { fields.removeAll { $0.hasPrefix(key + ":") } }
        return "{ " + change + " " + fields.joined(separator: ", ") + " }\n"
    }

    @Test("every shipped scenario validates against the schema with Python's jsonschema; broken files fail it and pushsim validate (exit 65)", .ownThread,
          .enabled(if: validatorPresent || required,
                   "python3 -m pip install jsonschema (with CI=true its absence fails the test)"))
    func validatesWithJSONSchema() throws {
        try #require(Self.validatorPresent, "CI=true, but python3 cannot import jsonschema (pip install jsonschema)")
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/scenarios")
            .filter { $0.hasSuffix(".json") }.sorted().map { Self.repository + "/scenarios/" + $0 }
        #expect(shipped.count >= 14)
        let verdicts = try Self.validate(shipped)
        #expect(verdicts.count == shipped.count)
        for (file, verdict) in zip(shipped, verdicts) { #expect(verdict == "ok", "\(file): \(verdict)") }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The base file itself is valid for both, so each failure below is its change's.
        try Data(Self.broken("").utf8).write(to: URL(fileURLWithPath: folder + "/base.json"))
        #expect(try Self.validate([folder + "/base.json"]) == ["ok"])
        #expect(PushSimCommand.main(["validate", folder + "/base.json"], console: CapturedConsole().console) == .success)
        var paths: [String] = []
        for (name, change) in Self.brokenScenarios {
            let path = folder + "/" + name + ".json"
            try Data(Self.broken(change).utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            let captured = CapturedConsole()
            #expect(PushSimCommand.main(["validate", path], console: captured.console) == .dataError, "\(name)")
            #expect(captured.err.hasPrefix("error: " + path + ":"), "\(name): \(captured.err)")
        }
        for (path, verdict) in zip(paths, try Self.validate(paths)) {
            #expect(verdict.hasPrefix("invalid: "), "\(path): the schema accepts it")
        }
    }
}
