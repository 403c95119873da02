@testable import Base
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// The field declarations held to real behaviour: every declared field is in the
/// generated schema at its path and the decoder and the schema accept a file naming it;
/// a value just outside a declared bound is refused by both, one on the bound by neither.
@Suite("Scenario field declarations")
struct ScenarioFieldsTests {
    /// A declared field and the keys leading to it; `[]` steps into an array's items.
    struct Declared: CustomTestStringConvertible, Sendable {
        var path: [String]
        var field: FieldDeclaration
        var testDescription: String { path.joined(separator: ".") }
    }

    /// Every field declared under `object`, depth first, rhythms and array items followed.
    static func declared(_ object: ObjectDeclaration, under path: [String] = []) -> [Declared] {
        object.fields.flatMap { field -> [Declared] in
            let here = path + [field.key]
            switch field.kind {
            case .object(let nested): return [Declared(path: here, field: field)] + declared(nested, under: here)
            case .rhythm: return [Declared(path: here, field: field)] + declared(ScenarioFields.Rhythm.object, under: here)
            case .array(.object(let nested), _): return [Declared(path: here, field: field)] + declared(nested, under: here + ["[]"])
            case .text, .boolean, .integer, .integerChoice, .number, .probability, .perDay, .megabytes, .duration,
                 .distribution, .sizeDistribution, .date, .countShares, .strategyName, .choice, .array:
                return [Declared(path: here, field: field)]
            }
        }
    }

    static let all = declared(ScenarioFields.Top.object)

    // MARK: Sample files

    /// A valid value of `kind` for the field `key` (JSON text): what the decoder accepts
    /// alone, within a run from 2026-03-02 for two days with strategies queue and no-queue.
    static func sample(_ kind: FieldKind, key: String) -> String {
        switch kind {
        case .text:
            switch key {
            case "start": return JSONText.string("08:00")
            case "minus": return JSONText.string("no-queue")
            case "strategy": return JSONText.string("queue")
            case "at": return JSONText.string("2026-03-02T09:00:00Z")
            default: return JSONText.string("x")
            }
        case .boolean: return "true"
        case .integer(let range): return String(range.lowerBound)
        case .integerChoice(let choices): return String(choices[0])
        case .number(let range):
            switch (range.lower, range.upper) {
            case (.inclusive(let low)?, nil), (.exclusive(let low)?, nil): return ScenarioSchema.number(low + 1)
            case (nil, .inclusive(let high)?), (nil, .exclusive(let high)?): return ScenarioSchema.number(high - 1)
            case (nil, nil): return "0"
            case (.some(let low), .some(let high)):
                return JSONText.number((value(of: low) + value(of: high)) / 2)
            }
        case .probability: return "0.5"
        case .perDay, .megabytes, .countShares, .sizeDistribution: return "1"
        case .duration, .distribution: return JSONText.string(key == "duration" ? "2d" : "1h")
        case .date: return JSONText.string("2026-03-02")
        case .rhythm: return object(ScenarioFields.Rhythm.object, setting: [], to: "")
        case .strategyName: return JSONText.string("queue")
        case .choice(_, let words): return JSONText.string(words[0])
        case .object(let nested): return object(nested, setting: [], to: "")
        case .array(let items, let count):
            let item = sample(items, key: key)
            return JSONText.array(Array(repeating: item, count: max(count?.lowerBound ?? 1, 1)) + extraItems(key))
        }
    }

    static func value(of bound: NumberRange.Bound) -> Double {
        switch bound {
        case .inclusive(let value), .exclusive(let value): value
        }
    }

    /// The second strategy `minus` names.
    static func extraItems(_ key: String) -> [String] {
        key == "strategies" ? [JSONText.object([("name", JSONText.string("no-queue"))])] : []
    }

    /// Fields a field needs beside it that no declaration rule states (the decoder's cross-field checks).
    static let companions: [String: [(String, String)]] = [
        "closeTogether": [("storage", JSONText.string("nondeterministic"))],
    ]

    /// `object` with its required fields (and what they depend on) sampled, and the
    /// value at `path` (below it) set to `value` (JSON text).
    static func object(_ object: ObjectDeclaration, setting path: ArraySlice<String>, to value: String) -> String {
        var members: [(String, String)] = []
        func set(_ key: String, _ text: String) {
            if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = text } else { members.append((key, text)) }
        }
        func field(_ key: String) -> FieldDeclaration? { object.fields.first { $0.key == key } }
        var needed = object.fields.filter(\.isRequired).map(\.key)
        if let first = object.needsOneOf.first { needed.append(first) }
        if let key = path.first {
            needed += object.dependencies.first { $0.key == key }?.needs ?? []
            for (companion, text) in companions[key] ?? [] { set(companion, text) }
        }
        for key in needed { if let field = field(key) { set(key, sample(field.kind, key: key)) } }
        guard let key = path.first, let target = field(key) else { return JSONText.object(members) }
        let rest = path.dropFirst()
        if rest.isEmpty {
            set(key, value)
        } else {
            switch target.kind {
            case .object(let nested): set(key, Self.object(nested, setting: rest, to: value))
            case .rhythm: set(key, Self.object(ScenarioFields.Rhythm.object, setting: rest, to: value))
            case .array(.object(let nested), _):
                set(key, JSONText.array([Self.object(nested, setting: rest.dropFirst(), to: value)] + extraItems(key)))
            default: Issue.record("\(key) has no fields below it")
            }
        }
        return JSONText.object(members)
    }

    /// A whole file with `value` at `path`; scheduled outages and APNs faults start inside the run.
    static func file(_ path: [String], _ value: String) -> String {
        var text = object(ScenarioFields.Top.object, setting: path[...], to: value)
        if path.starts(with: ["provider", "outages", "scheduled"]) || path.starts(with: ["apns", "faults", "scheduled"]) {
            text = text.replacingOccurrences(of: #""start":"08:00""#, with: #""start":"2026-03-02T08:00""#)
        }
        return text
    }

    static func decodes(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "sample.json")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Tests

    @Test("every declared object is in the generated schema at its path, with its fields in order and its required ones")
    func objectsInTheSchema() throws {
        let schema = try #require(Self.schemaObject())
        var objects = [([String](), ScenarioFields.Top.object)]
        for declared in Self.all {
            switch declared.field.kind {
            case .object(let nested): objects.append((declared.path, nested))
            case .array(.object(let nested), _): objects.append((declared.path + ["[]"], nested))
            case .rhythm: objects.append((declared.path, ScenarioFields.Rhythm.object))
            default: break
            }
        }
        #expect(objects.count >= 20)
        for (path, object) in objects {
            let node = try #require(Self.node(schema, at: path), "\(path) is not in the schema")
            guard case .object(let properties)? = node["properties"]?.value else { Issue.record("\(path): no properties"); continue }
            #expect(properties.members.map(\.key) == object.keys, "\(path)")
            let required: [String]
            if case .array(let items)? = node["required"]?.value {
                required = items.compactMap { if case .string(let key) = $0.value { key } else { nil } }
            } else {
                required = []
            }
            #expect(required == object.fields.filter(\.isRequired).map(\.key), "\(path)")
        }
    }

    @Test("a file naming a declared field (with what it needs) is accepted by the decoder (the schema: boundsAreTheSchemas)",
          arguments: all)
    func everyFieldAccepted(_ declared: Declared) throws {
        let text = Self.file(declared.path, Self.sample(declared.field.kind, key: declared.field.key))
        let error = Self.decodes(text)
        #expect(error == nil, "\(text): \(error.map(String.init(describing:)) ?? "")")
    }

    /// Every bounded number field, with values on its bounds and values just outside them.
    static var boundedFields: [(declared: Declared, inside: [String], outside: [String])] {
        all.compactMap { declared in
            let range: NumberRange
            switch declared.field.kind {
            case .integer(let integers):
                var inside = [String(integers.lowerBound), String(integers.upperBound)], outside: [String] = []
                if integers.lowerBound > Int64.min { outside.append(String(integers.lowerBound - 1)) }
                if integers.upperBound < Int64.max { outside.append(String(integers.upperBound + 1)) }
                if declared.field.key == "seed" { inside = [String(integers.lowerBound)] }
                // An event's device is below the file's `devices` too, which the sample keeps small.
                if declared.path.first == "events", declared.field.key == "device" { inside = [String(integers.lowerBound)] }
                return (declared, inside, outside)
            case .number(let numbers): range = numbers
            case .probability: range = NumberRange(lower: .inclusive(0), upper: .inclusive(1))
            case .perDay: range = NumberRange(lower: .inclusive(0), upper: .inclusive(ScenarioFields.maxPerDay))
            case .megabytes(let positive):
                range = NumberRange(lower: positive ? .exclusive(0) : .inclusive(0), upper: .inclusive(ScenarioFields.maxMegabytes))
            default: return nil
            }
            var inside: [String] = [], outside: [String] = []
            switch range.lower {
            case .inclusive(let low)?: inside.append(ScenarioSchema.number(low)); outside.append(JSONText.number(low - 1e-6))
            case .exclusive(let low)?: outside.append(ScenarioSchema.number(low))
            case nil: break
            }
            switch range.upper {
            case .inclusive(let high)?: inside.append(ScenarioSchema.number(high)); outside.append(JSONText.number(high + 1e-6))
            case .exclusive(let high)?: outside.append(ScenarioSchema.number(high))
            case nil: break
            }
            return outside.isEmpty ? nil : (declared, inside, outside)
        }
    }

    @Test("a value just outside a declared bound is refused at its path by the decoder, one on the bound is accepted")
    func boundsAreTheDecoders() {
        let bounded = Self.boundedFields
        #expect(bounded.count >= 25)
        for (declared, inside, outside) in bounded {
            for value in inside {
                let error = Self.decodes(Self.file(declared.path, value))
                #expect(error == nil, "\(declared.testDescription) = \(value): \(error.map(String.init(describing:)) ?? "")")
            }
            for value in outside {
                let error = Self.decodes(Self.file(declared.path, value))
                let expectedPath = declared.path.joined(separator: ".").replacingOccurrences(of: ".[]", with: "[0]")
                #expect(error?.path == expectedPath, "\(declared.testDescription) = \(value): \(String(describing: error))")
            }
        }
    }

    @Test("the schema accepts every sample file, refuses the values just outside a bound and accepts those on it (Python's jsonschema)",
          .enabled(if: ScenarioSchemaTests.validatorPresent || ScenarioSchemaTests.required,
                   "python3 -m pip install jsonschema (with CI=true its absence fails the test)"))
    func boundsAreTheSchemas() throws {
        try #require(ScenarioSchemaTests.validatorPresent, "CI=true, but python3 cannot import jsonschema (pip install jsonschema)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-fields-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var files: [(path: String, valid: Bool, what: String)] = []
        func write(_ text: String, valid: Bool, what: String) throws {
            let path = folder + "/\(files.count).json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            files.append((path, valid, what))
        }
        for declared in Self.all {
            try write(Self.file(declared.path, Self.sample(declared.field.kind, key: declared.field.key)), valid: true,
                      what: declared.testDescription)
        }
        for (declared, inside, outside) in Self.boundedFields {
            for value in inside { try write(Self.file(declared.path, value), valid: true, what: declared.testDescription + " = " + value) }
            for value in outside { try write(Self.file(declared.path, value), valid: false, what: declared.testDescription + " = " + value) }
        }
        let verdicts = try ScenarioSchemaTests.validate(files.map(\.path))
        #expect(verdicts.count == files.count)
        for (file, verdict) in zip(files, verdicts) {
            #expect((verdict == "ok") == file.valid, "\(file.what): \(verdict)")
        }
    }

    @Test("the generated schema is JSON the project's own parser reads, with every declared bound at its path")
    func schemaCarriesTheBounds() throws {
        let schema = try #require(Self.schemaObject())
        for declared in Self.all {
            let node = try #require(Self.node(schema, at: declared.path), "\(declared.testDescription) is not in the schema")
            switch declared.field.kind {
            case .integer(let range):
                #expect(Self.integer(node["minimum"]) == range.lowerBound, "\(declared.testDescription)")
                #expect(Self.integer(node["maximum"]) == range.upperBound, "\(declared.testDescription)")
            case .number(let range):
                for (keyword, bound) in [("minimum", range.lower), ("maximum", range.upper)] {
                    switch bound {
                    case .inclusive(let value)?:
                        #expect(Self.double(node[keyword]) == value, "\(declared.testDescription) \(keyword)")
                    case .exclusive(let value)?:
                        #expect(Self.double(node["exclusive" + keyword.prefix(1).uppercased() + keyword.dropFirst()]) == value,
                                "\(declared.testDescription) exclusive \(keyword)")
                    case nil:
                        #expect(node[keyword] == nil, "\(declared.testDescription) \(keyword)")
                    }
                }
            case .choice(_, let words):
                guard case .array(let items)? = node["enum"]?.value else { Issue.record("\(declared.testDescription): no enum"); continue }
                #expect(items.map(\.value) == words.map { .string($0) }, "\(declared.testDescription)")
            default:
                break
            }
        }
    }

    @Test("the schema's pattern for count keys matches exactly the counts the decoder takes, 1 to maxCount")
    func countKeys() throws {
        let pattern = try NSRegularExpression(pattern: ScenarioSchema.countKeyPattern)
        for count in 0...(ScenarioFields.maxCount + 20) {
            let key = String(count)
            let matches = pattern.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) != nil
            #expect(matches == (1...ScenarioFields.maxCount).contains(count), "\(key)")
        }
        #expect(pattern.firstMatch(in: "01", range: NSRange(location: 0, length: 2)) == nil)
    }

    // MARK: Schema helpers

    static func schemaObject() -> JSONObject? {
        guard let root = try? JSONParser.parse(ScenarioSchema.text), case .object(let object) = root.value else { return nil }
        return object
    }

    static func integer(_ node: JSONNode?) -> Int64? {
        guard case .number(let number)? = node?.value else { return nil }
        return number.int64Value
    }

    static func double(_ node: JSONNode?) -> Double? {
        guard case .number(let number)? = node?.value else { return nil }
        return number.doubleValue
    }

    /// The schema node of the field at `path`: properties followed, `[]` into items, `$ref`s resolved.
    static func node(_ root: JSONObject, at path: [String]) -> JSONObject? {
        func resolve(_ object: JSONObject) -> JSONObject {
            guard case .string(let reference)? = object["$ref"]?.value, case .object(let definitions)? = root["$defs"]?.value,
                  case .object(let target)? = definitions[String(reference.split(separator: "/").last ?? "")]?.value else { return object }
            return target
        }
        var node = root
        for key in path {
            node = resolve(node)
            if key == "[]" {
                guard case .object(let items)? = node["items"]?.value else { return nil }
                node = items
            } else {
                guard case .object(let properties)? = node["properties"]?.value,
                      case .object(let child)? = properties[key]?.value else { return nil }
                node = child
            }
        }
        // A field's own bounds sit beside its $ref only for references; follow one that has no bounds here.
        return node["$ref"] != nil && node["properties"] == nil ? resolve(node).merging(node) : node
    }
}

extension JSONObject {
    /// This object's members with `other`'s added (other wins): a `$ref` target seen with the referring field's description.
    func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for member in other.members {
            result.members.removeAll { $0.key == member.key }
            result.members.append(member)
        }
        return result
    }
}
