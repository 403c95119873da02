import Base
import Simulator

/// One JSON value on its way into a scenario, with the path and file that name it
/// in error messages, and the log that collects the file's errors.
package struct FieldReader {
    package let file: String
    package let node: JSONNode
    package let path: String
    package let log: ScenarioErrorLog
    /// The declaration the value is read through (nil for a value inside a declared
    /// kind, such as a distribution's parameter); the readers without bounds take theirs from it.
    package var declaration: FieldDeclaration? = nil

    package func failure(_ kind: ScenarioError.Kind) -> ScenarioError {
        ScenarioError(kind, file: file, path: path, location: node.location)
    }

    package func invalid(_ message: String) -> ScenarioError { failure(.invalidValue(message)) }

    package func wrongType(_ expected: String) -> ScenarioError {
        failure(.wrongType(expected: expected, found: node.value.kindName))
    }

    /// The object's members; each unknown one is logged (and ignored), so its known
    /// siblings are still read.
    package func object(known: [String]) throws -> ObjectReader {
        guard case .object(let object) = node.value else { throw wrongType("an object") }
        for member in object.members where !known.contains(member.key) {
            log.record(ScenarioError(.unknownField(known: known), file: file, path: child(member.key),
                                     location: member.keyLocation))
        }
        return ObjectReader(reader: self, object: object)
    }

    /// `object(known:)` with the keys `declaration` accepts.
    /// - Complexity: O(members × keys).
    package func object(_ declaration: ObjectDeclaration) throws -> ObjectReader {
        try object(known: declaration.keys)
    }

    /// The declaration's kind; reading a value not read through one is a programming error.
    private var declaredKind: FieldKind {
        guard let declaration else { preconditionFailure("\(path) is not read through a declaration") }
        return declaration.kind
    }

    /// An integer in the declared range.
    /// - Complexity: O(1).
    package func integer() throws -> Int64 {
        guard case .integer(let range) = declaredKind else { preconditionFailure("\(path) is not an integer") }
        return try integer(in: range)
    }

    /// An integer that is one of the declared choices (`.integerChoice`).
    /// - Complexity: O(choices).
    package func integerChoice(_ what: String) throws -> Int64 {
        guard case .integerChoice(let choices) = declaredKind else { preconditionFailure("\(path) is not an integer choice") }
        let value = try integer(in: Int64.min...Int64.max)
        guard choices.contains(value) else {
            throw invalid("\(what) is " + choices.map(String.init).joined(separator: " or ") + ", found \(value)")
        }
        return value
    }

    /// A duration, positive when declared so.
    /// - Complexity: O(n) in the text's length.
    package func duration() throws -> SimDuration {
        guard case .duration(let positive) = declaredKind else { preconditionFailure("\(path) is not a duration") }
        return try duration(positive: positive)
    }

    /// A time distribution, with a positive mean when declared so.
    /// - Complexity: O(1).
    package func distribution() throws -> Distribution {
        guard case .distribution(let positiveMean) = declaredKind else { preconditionFailure("\(path) is not a distribution") }
        return try distribution(positiveMean: positiveMean)
    }

    /// A size in MB as whole kilobytes, positive when declared so.
    /// - Complexity: O(1).
    package func megabytes() throws -> Int64 {
        guard case .megabytes(let positive) = declaredKind else { preconditionFailure("\(path) is not a size") }
        return try kilobytes(positive: positive)
    }

    /// One of the declared words (`.choice`), as the value `value(word)` gives it
    /// (a switch over the words, so a word the decoder does not map traps in the tests).
    /// - Complexity: O(words).
    package func choice<Value>(_ value: (String) -> Value?) throws -> Value {
        guard case .choice(let what, let words) = declaredKind else { preconditionFailure("\(path) is not a choice") }
        let text = try string()
        guard words.contains(text) else {
            throw invalid("unknown \(what) \(UserText.quote(text)); expected one of: " + words.joined(separator: ", "))
        }
        guard let result = value(text) else { preconditionFailure("\(path): the decoder does not map \(text)") }
        return result
    }

    package func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    package func string() throws -> String {
        guard case .string(let text) = node.value else { throw wrongType("a string") }
        return text
    }

    /// A day, `YYYY-MM-DD` (`.date`). A text of that shape naming no day is told apart from
    /// one of another shape: `2026-02-30` needs another day, not another way of writing it.
    /// - Complexity: O(n) in the text's length.
    package func date() throws -> CivilDate {
        guard case .date = declaredKind else { preconditionFailure("\(path) is not a date") }
        let text = try string()
        switch CivilDate.parse(iso: text) {
        case .success(let date): return date
        case .failure(let problem): throw invalid(Self.dateMessage(text, problem))
        }
    }

    /// "not a date: "x" (write YYYY-MM-DD)" or "not a calendar date: "2026-02-30"
    /// (February 2026 has 28 days)", for a date alone or the date part of a local time.
    /// - Complexity: O(n) in the text's length.
    package static func dateMessage(_ text: String, _ problem: CivilDate.ParseError) -> String {
        switch problem {
        case .notISO: "not a date: \(UserText.quote(text)) (\(problem.explanation))"
        case .noSuchMonth, .noSuchDay: "not a calendar date: \(UserText.quote(text)) (\(problem.explanation))"
        }
    }

    package func bool() throws -> Bool {
        guard case .bool(let value) = node.value else { throw wrongType("a boolean") }
        return value
    }

    package func number(atLeast minimum: Double = 0) throws -> Double {
        guard case .number(let number) = node.value else { throw wrongType("a number") }
        guard number.doubleValue.isFinite else { throw invalid("number out of range") }
        guard number.doubleValue >= minimum else { throw invalid("must be at least \(format(minimum)), found \(UserText.escape(number.text))") }
        return number.doubleValue
    }

    package func integer(in range: ClosedRange<Int64>) throws -> Int64 {
        guard case .number(let number) = node.value else { throw wrongType("an integer") }
        guard number.isInteger, let value = number.int64Value else { throw invalid("expected an integer, found \(UserText.escape(number.text))") }
        guard range.contains(value) else {
            throw invalid("must be between \(range.lowerBound) and \(range.upperBound), found \(UserText.escape(number.text))")
        }
        return value
    }

    package func probability() throws -> Double {
        guard case .number(let number) = node.value else { throw wrongType("a probability (a number from 0 to 1)") }
        guard number.doubleValue >= 0, number.doubleValue <= 1 else {
            throw invalid("probability must be between 0 and 1, found \(UserText.escape(number.text))")
        }
        return number.doubleValue
    }

    package func array() throws -> [FieldReader] {
        guard case .array(let items) = node.value else { throw wrongType("an array") }
        return items.enumerated().map { FieldReader(file: file, node: $1, path: path + "[\($0)]", log: log) }
    }

    /// A duration: `"250ms"`, `"30s"`, `"15m"`, `"3h"`, `"2d"` (decimals allowed), or a bare `0`.
    /// Any other bare number is refused: `28` could mean days as well as seconds.
    /// - Complexity: O(n) in the text's length.
    package func duration(positive: Bool) throws -> SimDuration {
        let microseconds: Double
        switch node.value {
        case .number(let number):
            if number.doubleValue < 0 { throw invalid("negative duration \(UserText.escape(number.text))") }
            guard number.doubleValue == 0 else {
                // The fix quotes the number as written, or as a plain decimal when written with
                // an exponent (a duration string takes none).
                let written = UserText.escape(number.text.contains(where: { $0 == "e" || $0 == "E" }) ? format(number.doubleValue) : number.text)
                throw invalid("a duration needs a unit: write \"\(written)d\", \"\(written)h\", \"\(written)m\" or \"\(written)s\"")
            }
            microseconds = 0
        case .string(let text):
            guard let parsed = Self.parseDuration(text) else {
                throw invalid("not a duration: \(UserText.quote(text)) (write e.g. \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\")")
            }
            if parsed < 0 { throw invalid("negative duration \(UserText.quote(text))") }
            microseconds = parsed
        default:
            throw wrongType("a duration (\"250ms\", \"30s\", \"15m\", \"3h\", \"2d\")")
        }
        guard microseconds <= Double(100 * 365 * TimeUnit.day) else { throw invalid("duration longer than 100 years") }
        let value = SimDuration(microseconds.rounded())
        if positive && value <= 0 { throw invalid("duration must be positive") }
        return value
    }

    package static func parseDuration(_ text: String) -> Double? {
        let units: [(String, SimDuration)] = [("ms", TimeUnit.millisecond), ("s", TimeUnit.second),
                                              ("m", TimeUnit.minute), ("h", TimeUnit.hour), ("d", TimeUnit.day)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let digits = text.dropLast(suffix.count)
            // Only plain decimals: no exponent, no spaces, no "inf".
            guard !digits.isEmpty, digits.allSatisfy({ "0123456789.-".contains($0) }),
                  let value = Double(digits) else { return nil }
            return value * Double(scale)
        }
        return nil
    }

    /// A distribution object, or a bare duration meaning `constant`; values in microseconds.
    /// - Complexity: O(1).
    package func distribution(positiveMean: Bool) throws -> Distribution {
        try distribution(positiveMean: positiveMean) { reader, positive in try reader.duration(positive: positive) }
    }

    /// A size distribution: written like a time distribution but with plain numbers of
    /// megabytes (a bare number means `constant`); its values are whole kilobytes.
    /// - Complexity: O(1).
    package func sizeDistribution(positiveMean: Bool = false) throws -> Distribution {
        try distribution(positiveMean: positiveMean) { reader, positive in try reader.kilobytes(positive: positive) }
    }

    /// The shared shape of time and size distributions; `amount` reads one parameter
    /// (`true`: it must be positive) in the distribution's unit.
    private func distribution(positiveMean: Bool,
                              amount: (FieldReader, Bool) throws -> Int64) throws -> Distribution {
        guard case .object(let members) = node.value else {
            let value = try amount(self, false)
            if positiveMean && value <= 0 { throw invalid("must be positive") }
            return .constant(value)
        }
        let allParameters = DistributionShape.allKeys
        // The kind first, so unknown fields are checked once, against its own parameters.
        guard let kindNode = members["distribution"] else {
            _ = try object(known: allParameters)
            throw ScenarioError(.missingField, file: file, path: child("distribution"), location: node.location)
        }
        let kindReader = FieldReader(file: file, node: kindNode, path: child("distribution"), log: log)
        let kind = try kindReader.string()
        guard let shape = DistributionShape.named(kind) else {
            _ = try object(known: allParameters)
            throw kindReader.invalid("unknown distribution \(UserText.quote(kind)); expected one of: "
                                     + DistributionShape.all.map(\.name).joined(separator: ", "))
        }
        let fields = try object(known: shape.keys)
        /// A parameter in the distribution's unit, positive when the shape declares it so.
        func parameter(_ index: Int) throws -> (value: Int64, reader: FieldReader) {
            let declared = shape.parameters[index]
            let reader = try fields.required(declared.name)
            switch declared.kind {
            case .amount(let positive): return (try amount(reader, positive), reader)
            case .sigma: preconditionFailure("σ is read as a number")
            }
        }
        let result: Distribution
        switch shape.name {
        case "constant":
            result = .constant(try parameter(0).value)
        case "exponential":
            result = .exponential(mean: try parameter(0).value)
        case "uniform":
            let low = try parameter(0).value
            let (high, highReader) = try parameter(1)
            guard high >= low else { throw highReader.invalid("max must not be less than min") }
            result = .uniform(min: low, max: high)
        case "lognormal":
            let median = try parameter(0).value
            let sigmaReader = try fields.required(shape.parameters[1].name)
            let sigma = try sigmaReader.number()
            guard sigma <= ScenarioFields.maxSigma else {
                throw sigmaReader.invalid("sigma above \(format(ScenarioFields.maxSigma)) gives absurd tails")
            }
            result = .lognormal(median: median, sigma: sigma)
        default:
            preconditionFailure("DistributionShape \(shape.name) has no reader")
        }
        if positiveMean && result.mean <= 0 { throw invalid("the mean must be positive") }
        return result
    }

    /// A size: a plain number of megabytes, as whole kilobytes (1 MB = 1024 KB, rounded).
    /// - Complexity: O(1).
    package func kilobytes(positive: Bool = false) throws -> Int64 {
        guard case .number(let number) = node.value else { throw wrongType("a size in MB (a number)") }
        let megabytes = number.doubleValue
        guard megabytes.isFinite else { throw invalid("number out of range") }
        guard megabytes >= 0 else { throw invalid("negative size \(UserText.escape(number.text)) MB") }
        // A bound keeps the conversion far from Int64's edge; no extension is near it.
        guard megabytes <= ScenarioFields.maxMegabytes else { throw invalid("size above 1048576 MB (1 TB)") }
        let kilobytes = Int64((megabytes * 1024).rounded())
        if positive && kilobytes <= 0 { throw invalid("size must be positive (at least 1 KB)") }
        return kilobytes
    }

    /// A mean number of events a day (Poisson rate): a number from 0 to a million;
    /// `events` names them in the message ("mails", "launches").
    /// - Complexity: O(1).
    package func perDay(_ events: String) throws -> Double {
        let rate = try number()
        guard rate <= ScenarioFields.maxPerDay else { throw invalid("more than a million \(events) a day") }
        return rate
    }

    /// A strategy's name (`StrategyKind`'s raw values).
    /// - Complexity: O(kinds).
    package func strategyKind() throws -> StrategyKind {
        let text = try string()
        guard let kind = StrategyKind(rawValue: text) else {
            throw invalid("unknown strategy \(UserText.quote(text)); expected one of: "
                          + StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return kind
    }

    /// A count that differs between devices: an integer `1…maxCount` (every device the
    /// same), or an object whose keys are counts (`"1"`, `"2"` …) and whose values are
    /// shares of devices summing to 1 (within 1e-6). Counts not named get share 0;
    /// trailing zeros are dropped, so `{"1": 1}` is `CountShares.one`.
    /// - Complexity: O(maxCount + keys).
    package func countShares(maxCount: Int) throws -> CountShares {
        switch node.value {
        case .number:
            return CountShares(exactly: Int(try integer(in: 1...Int64(maxCount))))
        case .object(let object):
            var shares = [Double](repeating: 0, count: maxCount)
            for member in object.members {
                let memberPath = child(member.key)
                // Canonical decimal only: "01" or "+1" would read as 1 but look like a typo.
                guard let count = Int(member.key), String(count) == member.key, (1...maxCount).contains(count) else {
                    throw ScenarioError(.invalidValue("a key is a count from 1 to \(maxCount), found \(UserText.quote(member.key))"),
                                        file: file, path: memberPath, location: member.keyLocation)
                }
                shares[count - 1] = try FieldReader(file: file, node: member.value, path: memberPath, log: log).probability()
            }
            let sum = shares.reduce(0, +)
            guard abs(sum - 1) <= 1e-6 else { throw invalid("the shares must sum to 1, found \(format(sum))") }
            while shares.count > 1, shares[shares.count - 1] == 0 { shares.removeLast() }
            return CountShares(shares: shares)
        default:
            throw wrongType("a count from 1 to \(maxCount) or shares by count (an object like {\"1\": 0.7, \"2\": 0.3})")
        }
    }
}

/// An object's members, looked up by key with their paths.
package struct ObjectReader {
    package let reader: FieldReader
    package let object: JSONObject

    /// The member `field` declares, read through the declaration.
    /// - Complexity: O(members).
    package func optional(_ field: FieldDeclaration) -> FieldReader? {
        guard var reader = optional(field.key) else { return nil }
        reader.declaration = field
        return reader
    }

    /// The member `field` declares, read through the declaration; absent, a missing-field error.
    /// - Complexity: O(members).
    package func required(_ field: FieldDeclaration) throws -> FieldReader {
        var reader = try required(field.key)
        reader.declaration = field
        return reader
    }

    /// Whether a member the object does not declare (`known`) resembles `key`
    /// (`NearestNames`): the unknown-field error already says it, so a rule that misses
    /// `key` need not say so again.
    /// - Complexity: O(members × known keys × key lengths).
    package func hasMisspelling(of key: String, known: [String]) -> Bool {
        object.members.contains { !known.contains($0.key) && NearestNames.nearest(to: $0.key, among: known).contains(key) }
    }

    package func optional(_ key: String) -> FieldReader? {
        guard let node = object[key] else { return nil }
        return FieldReader(file: reader.file, node: node, path: reader.child(key), log: reader.log)
    }

    package func required(_ key: String) throws -> FieldReader {
        guard let field = optional(key) else {
            throw ScenarioError(.missingField, file: reader.file, path: reader.child(key), location: reader.node.location)
        }
        return field
    }
}
