import Base
import Simulator

// The `expect` list: bounds `pushsim check` holds a run to.

extension ScenarioDecoder {
    /// Keys of an `expect[]` entry.
    package static var expectationFields: [String] { ScenarioFields.Expectation.object.keys }

    /// Reads `expect`: a non-empty array of entries. `labels` are the strategies'
    /// labels, or nil when the strategy list was broken (already reported), and then
    /// labels are not checked.
    package static func decodeExpectations(_ reader: FieldReader, labels ordered: [String]?) throws -> [Expectation] {
        let entries = try reader.array()
        guard entries.count >= ScenarioFields.Top.expect.itemCount?.lowerBound ?? 0 else {
            throw reader.invalid("an empty expect list checks nothing; add an expectation or remove the field")
        }
        guard entries.count <= ScenarioLimits.expectations else {
            throw reader.invalid("at most \(ScenarioLimits.expectations) expectations, found \(entries.count)")
        }
        let labels = ordered.map(Set.init)
        return entries.compactMap { decodeExpectation($0, labels: labels, ordered: ordered) }
    }

    /// One entry, or nil when it has an error (each logged).
    private static func decodeExpectation(_ reader: FieldReader, labels: Set<String>?, ordered: [String]?) -> Expectation? {
        let log = reader.log
        let errorsBefore = log.errors.count
        typealias Fields = ScenarioFields.Expectation
        guard let fields = log.attempt({ try reader.object(Fields.object) }) else { return nil }
        let metric = log.attempt { try fields.required(Fields.metric).choice(Metric.init(name:)) }
        func label(_ field: FieldReader) throws -> String {
            let label = try field.string()
            if let labels, !labels.contains(label) {
                throw field.invalid("no strategy labelled \(UserText.quote(label)); the scenario has: " + UserText.list(ordered ?? []))
            }
            return label
        }
        let strategy = log.attempt { try label(try fields.required(Fields.strategy)) }
        let baseline = log.attemptOptional { () throws -> String? in
            guard let field = fields.optional(Fields.minus) else { return nil }
            let baseline = try label(field)
            if baseline == strategy { throw field.invalid("a strategy minus itself is always 0") }
            return baseline
        }
        let atLeast = log.attemptOptional { try fields.optional(Fields.atLeast)?.number(atLeast: -.infinity) }
        let atMost = log.attemptOptional { try fields.optional(Fields.atMost)?.number(atLeast: -.infinity) }
        // A misspelt bound ("atleast") is reported once, as the unknown field naming it.
        if Fields.object.needsOneOf.allSatisfy({ fields.optional($0) == nil }),
           !Fields.object.needsOneOf.contains(where: { fields.hasMisspelling(of: $0, known: Fields.object.keys) }) {
            log.record(reader.invalid("an expectation needs a bound: atLeast, atMost or both"))
        }
        if let atLeast, let atMost, atLeast > atMost, let field = fields.optional(Fields.atMost) {
            log.record(field.invalid("atMost \(format(atMost)) is below atLeast \(format(atLeast)): no interval can hold"))
        }
        let confidence = log.attempt { () throws -> Double in
            guard let field = fields.optional(Fields.confidence) else { return Expectation.defaultConfidence }
            let value = try field.number()
            guard Fields.confidence.numberRange.contains(value) else { throw field.invalid("a confidence is \(Expectation.confidenceRangeText), e.g. 0.95") }
            return value
        }
        guard let metric, let strategy, let confidence, log.errors.count == errorsBefore else { return nil }
        return Expectation(metric: metric, strategy: strategy, minus: baseline, atLeast: atLeast, atMost: atMost,
                           confidence: confidence)
    }
}
