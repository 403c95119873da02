import Base
import Simulator

/// The JSON Schema of scenario files, printed by `pushsim schema` and shipped as
/// `schema/pushsim-scenario.schema.json` (a test keeps the two byte-identical). It is
/// written from the field declarations (`ScenarioFields`) and the shared definitions
/// below, so it names every field `ScenarioDecoder` reads with the bounds it checks;
/// the decoder stays the judge (cross-field checks such as labels named by `expect`).
/// After changing a declaration, write the file again with
/// `swift run pushsim schema > schema/pushsim-scenario.schema.json`.
package enum ScenarioSchema {
    /// The schema, draft 2020-12, indented by two spaces, with a final line break.
    package static let text = JSONText.pretty(compact) + "\n"

    /// The schema as compact JSON text.
    /// - Complexity: O(n) in the schema's length.
    package static var compact: String {
        let top = ScenarioFields.Top.object
        return JSONText.object([
            ("$schema", JSONText.string("https://json-schema.org/draft/2020-12/schema")),
            ("title", JSONText.string("PushSim scenario")),
            ("description", JSONText.string(top.summary ?? "")),
        ] + objectMembers(top, describe: false) + [("$defs", JSONText.object(definitions))])
    }

    // MARK: Fields

    /// A field's schema: its kind's, then its help.
    static func field(_ field: FieldDeclaration) -> String {
        JSONText.object(members(field.kind, summary: field.summary))
    }

    /// The members of a value of `kind`, with `summary` as its description where the
    /// kind puts it (last, except in objects and arrays of undescribed objects).
    static func members(_ kind: FieldKind, summary: String?) -> [(String, String)] {
        let description = summary.map { [("description", JSONText.string($0))] } ?? []
        switch kind {
        case .text(let pattern, let minLength, let excluded):
            var members = [("type", JSONText.string("string"))]
            if let minLength { members.append(("minLength", String(minLength))) }
            if let pattern { members.append(("pattern", JSONText.string(pattern))) }
            if !excluded.isEmpty {
                members.append(("not", JSONText.object([("enum", JSONText.array(excluded.map(JSONText.string)))])))
            }
            return members + description
        case .boolean:
            return [("type", JSONText.string("boolean"))] + description
        case .integer(let range):
            return [("type", JSONText.string("integer")), ("minimum", String(range.lowerBound)),
                    ("maximum", String(range.upperBound))] + description
        case .integerChoice(let choices):
            return [("enum", JSONText.array(choices.map { String($0) }))] + description
        case .number(let range):
            return [("type", JSONText.string("number"))] + bounds(range) + description
        case .probability:
            return members(.number(NumberRange(lower: .inclusive(0), upper: .inclusive(1))), summary: summary)
        case .perDay:
            return members(.number(NumberRange(lower: .inclusive(0), upper: .inclusive(ScenarioFields.maxPerDay))), summary: summary)
        case .megabytes(let positive):
            let lower: NumberRange.Bound = positive ? .exclusive(0) : .inclusive(0)
            return members(.number(NumberRange(lower: lower, upper: .inclusive(ScenarioFields.maxMegabytes))), summary: summary)
        case .duration(let positive):
            return reference(positive ? "positiveDuration" : "duration") + description
        case .distribution:
            return reference("distribution") + description
        case .sizeDistribution:
            return reference("sizeDistribution") + description
        case .date:
            return reference("date") + description
        case .countShares:
            return reference("count") + description
        case .rhythm:
            return reference("rhythm") + description
        case .strategyName:
            return reference("strategyName") + description
        case .choice(_, let words):
            return [("enum", JSONText.array(words.map(JSONText.string)))] + description
        case .object(let object):
            return objectMembers(object, describe: true)
        case .array(let items, let count):
            let minimum = count.map { [("minItems", String($0.lowerBound))] } ?? []
            let maximum = count.flatMap { $0.upperBound == Int.max ? nil : [("maxItems", String($0.upperBound))] } ?? []
            let itemSchema = ("items", JSONText.object(members(items, summary: nil)))
            // The order the first, hand-written schema had, kept so the shipped file did not change.
            if case .object(let object) = items {
                return object.summary == nil
                    ? [("type", JSONText.string("array"))] + minimum + description + [itemSchema] + maximum
                    : [("type", JSONText.string("array"))] + minimum + [itemSchema] + maximum + description
            }
            return [("type", JSONText.string("array")), itemSchema] + minimum + maximum + description
        }
    }

    /// An object's members: type, description, properties, required, additionalProperties
    /// and its cross-field rules.
    static func objectMembers(_ object: ObjectDeclaration, describe: Bool) -> [(String, String)] {
        var members = [("type", JSONText.string("object"))]
        if describe, let summary = object.summary { members.append(("description", JSONText.string(summary))) }
        members.append(("properties", JSONText.object(object.fields.map { ($0.key, field($0)) })))
        let required = object.fields.filter(\.isRequired).map(\.key)
        if !required.isEmpty { members.append(("required", keyList(required))) }
        members.append(("additionalProperties", "false"))
        if !object.dependencies.isEmpty {
            members.append(("dependentRequired", JSONText.object(object.dependencies.map { ($0.key, keyList($0.needs)) })))
        }
        if !object.needsOneOf.isEmpty {
            members.append(("anyOf", JSONText.array(object.needsOneOf.map { JSONText.object([("required", keyList([$0]))]) })))
        }
        return members
    }

    /// An array of keys (`required`, `dependentRequired`).
    static func keyList(_ keys: [String]) -> String { JSONText.array(keys.map(JSONText.string)) }

    /// A `$ref` to one of the shared definitions.
    static func reference(_ definition: String) -> [(String, String)] {
        [("$ref", JSONText.string("#/$defs/" + definition))]
    }

    /// A number's bounds as the schema's keywords, inclusive or exclusive.
    static func bounds(_ range: NumberRange) -> [(String, String)] {
        var members: [(String, String)] = []
        switch range.lower {
        case .inclusive(let bound): members.append(("minimum", number(bound)))
        case .exclusive(let bound): members.append(("exclusiveMinimum", number(bound)))
        case nil: break
        }
        switch range.upper {
        case .inclusive(let bound): members.append(("maximum", number(bound)))
        case .exclusive(let bound): members.append(("exclusiveMaximum", number(bound)))
        case nil: break
        }
        return members
    }

    /// Whole bounds written as integers (`1000000`, not `1000000.0`), as a reader expects.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : JSONText.number(value)
    }

    // MARK: Shared definitions

    static let durationText = #"A duration: a string with a unit, "250ms", "30s", "15m", "3h", "2d" (decimals allowed, e.g. "1.5h"), or a bare 0. Any other bare number is an error: 28 could mean days as well as seconds."#
    static let positiveDurationText = #"A duration greater than zero: a string with a unit, "250ms", "30s", "15m", "3h", "2d" (decimals allowed)."#

    /// `$defs`: the kinds several fields share.
    static var definitions: [(String, String)] {
        let durationUnits = "(ms|s|m|h|d)$"
        return [
            ("duration", JSONText.object([
                ("description", JSONText.string(durationText)),
                ("anyOf", JSONText.array([
                    JSONText.object([("type", JSONText.string("string")),
                                     ("pattern", JSONText.string(#"^([0-9]+(\.[0-9]*)?|\.[0-9]+)"# + durationUnits))]),
                    JSONText.object([("const", "0")]),
                ])),
            ])),
            ("positiveDuration", JSONText.object([
                ("description", JSONText.string(positiveDurationText)),
                ("type", JSONText.string("string")),
                ("pattern", JSONText.string(#"^(?=[0-9.]*[1-9])([0-9]+(\.[0-9]*)?|\.[0-9]+)"# + durationUnits)),
            ])),
            ("date", JSONText.object([
                ("description", JSONText.string("A day, YYYY-MM-DD.")),
                ("type", JSONText.string("string")),
                ("pattern", JSONText.string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
            ])),
            ("probability", JSONText.object([("description", JSONText.string("A probability or share, 0 to 1."))]
                                            + members(.probability, summary: nil))),
            ("distribution", JSONText.object([
                ("description", JSONText.string(#"A distribution of durations: an object with "distribution" ("#
                                                + DistributionShape.all.map(\.name).joined(separator: ", ")
                                                + ") and its parameters, or a bare duration meaning constant.")),
                ("anyOf", JSONText.array([JSONText.object(reference("duration"))]
                                         + DistributionShape.all.map { variant($0, sizes: false) })),
            ])),
            ("megabytes", JSONText.object([
                ("description", JSONText.string("A size in megabytes (a plain number, 0 to \(number(ScenarioFields.maxMegabytes))).")),
            ] + members(.megabytes(positive: false), summary: nil))),
            ("sizeDistribution", JSONText.object([
                ("description", JSONText.string("A distribution of sizes in megabytes: written like a time distribution with "
                                                + "plain numbers of MB instead of durations (a bare number means constant).")),
                ("anyOf", JSONText.array([JSONText.object(reference("megabytes"))]
                                         + DistributionShape.all.map { variant($0, sizes: true) })),
            ])),
            ("count", JSONText.object([
                ("description", JSONText.string("A count that differs between devices: an integer 1 to \(ScenarioFields.maxCount) "
                                                + #"(every device the same), or shares of devices by count, {"1": 0.7, "2": 0.3} "#
                                                + #"(keys "1" to "\#(ScenarioFields.maxCount)", shares summing to 1)."#)),
                ("anyOf", JSONText.array([
                    JSONText.object(members(.integer(1...Int64(ScenarioFields.maxCount)), summary: nil)),
                    JSONText.object([
                        ("type", JSONText.string("object")),
                        ("propertyNames", JSONText.object([("pattern", JSONText.string(countKeyPattern))])),
                        ("additionalProperties", JSONText.object(reference("probability"))),
                        ("minProperties", "1"),
                    ]),
                ])),
            ])),
            ("rhythm", JSONText.object(objectMembers(ScenarioFields.Rhythm.object, describe: true))),
            ("strategyName", JSONText.object([
                ("description", JSONText.string("A strategy: no-queue (pushes shown as they come), queue (numbered pushes, "
                                                + "gaps re-requested), queue-as-published (the talk's code as printed).")),
                ("enum", keyList(StrategyKind.allCases.map(\.rawValue))),
            ])),
        ]
    }

    /// The keys `1` … `maxCount` as a pattern: one digit, then each full ten, then the rest.
    static var countKeyPattern: String {
        let tens = ScenarioFields.maxCount / 10
        if tens == 0 { return "^[1-\(ScenarioFields.maxCount)]$" }
        var alternatives = ["[1-9]"] + (1..<tens).map { "\($0)[0-9]" }
        let last = ScenarioFields.maxCount % 10
        alternatives.append(last == 0 ? "\(tens)0" : "\(tens)[0-\(last)]")
        return "^(" + alternatives.joined(separator: "|") + ")$"
    }

    /// One variant of a distribution: its tag and parameters, in durations or (`sizes`) megabytes.
    static func variant(_ shape: DistributionShape, sizes: Bool) -> String {
        let properties = [("distribution", JSONText.object([("const", JSONText.string(shape.name))]))]
            + shape.parameters.map { parameter -> (String, String) in
                switch parameter.kind {
                case .amount(let positive):
                    let kind: [(String, String)] = sizes ? reference("megabytes")
                        : reference(positive ? "positiveDuration" : "duration")
                    // Megabyte parameters are described by their definition.
                    let description = sizes ? [] : [("description", JSONText.string(parameter.summary))]
                    return (parameter.name, JSONText.object(kind + description))
                case .sigma:
                    return (parameter.name, JSONText.object(
                        members(.number(NumberRange(lower: .inclusive(0), upper: .inclusive(ScenarioFields.maxSigma))),
                                summary: parameter.summary)))
                }
            }
        return JSONText.object([
            ("type", JSONText.string("object")),
            ("properties", JSONText.object(properties)),
            ("required", keyList(["distribution"] + shape.parameters.map(\.name))),
            ("additionalProperties", "false"),
        ])
    }
}
