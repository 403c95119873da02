import FakeAPNs

/// One JSON value on its way into a scenario, with the path and file that name it
/// in error messages.
struct FieldReader {
    let file: String
    let node: JSONNode
    let path: String

    func failure(_ kind: ScenarioError.Kind) -> ScenarioError {
        ScenarioError(kind, file: file, path: path, location: node.location)
    }

    func invalid(_ message: String) -> ScenarioError { failure(.invalidValue(message)) }

    func wrongType(_ expected: String) -> ScenarioError {
        failure(.wrongType(expected: expected, found: node.value.kindName))
    }

    func object(known: [String]) throws -> ObjectReader {
        guard case .object(let object) = node.value else { throw wrongType("an object") }
        for member in object.members where !known.contains(member.key) {
            throw ScenarioError(.unknownField(known: known), file: file, path: child(member.key),
                                location: member.keyLocation)
        }
        return ObjectReader(reader: self, object: object)
    }

    func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func string() throws -> String {
        guard case .string(let text) = node.value else { throw wrongType("a string") }
        return text
    }

    func bool() throws -> Bool {
        guard case .bool(let value) = node.value else { throw wrongType("a boolean") }
        return value
    }

    func number(atLeast minimum: Double = 0) throws -> Double {
        guard case .number(let number) = node.value else { throw wrongType("a number") }
        guard number.doubleValue.isFinite else { throw invalid("number out of range") }
        guard number.doubleValue >= minimum else { throw invalid("must be at least \(format(minimum)), found \(number.text)") }
        return number.doubleValue
    }

    func integer(in range: ClosedRange<Int64>) throws -> Int64 {
        guard case .number(let number) = node.value else { throw wrongType("an integer") }
        guard number.isInteger, let value = number.int64Value else { throw invalid("expected an integer, found \(number.text)") }
        guard range.contains(value) else {
            throw invalid("must be between \(range.lowerBound) and \(range.upperBound), found \(number.text)")
        }
        return value
    }

    func probability() throws -> Double {
        guard case .number(let number) = node.value else { throw wrongType("a probability (a number from 0 to 1)") }
        guard number.doubleValue >= 0, number.doubleValue <= 1 else {
            throw invalid("probability must be between 0 and 1, found \(number.text)")
        }
        return number.doubleValue
    }

    func array() throws -> [FieldReader] {
        guard case .array(let items) = node.value else { throw wrongType("an array") }
        return items.enumerated().map { FieldReader(file: file, node: $1, path: path + "[\($0)]") }
    }

    /// A duration: `"250ms"`, `"30s"`, `"15m"`, `"3h"`, `"2d"` (decimals allowed) or a number of seconds.
    func duration(positive: Bool = false) throws -> SimDuration {
        let microseconds: Double
        switch node.value {
        case .number(let number):
            microseconds = number.doubleValue * Double(TimeUnit.second)
            if microseconds < 0 { throw invalid("negative duration \(number.text)") }
        case .string(let text):
            guard let parsed = Self.parseDuration(text) else {
                throw invalid("not a duration: \"\(text)\" (write e.g. \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\" or a number of seconds)")
            }
            if parsed < 0 { throw invalid("negative duration \"\(text)\"") }
            microseconds = parsed
        default:
            throw wrongType("a duration (\"30s\", \"3h\", … or a number of seconds)")
        }
        guard microseconds <= Double(100 * 365 * TimeUnit.day) else { throw invalid("duration longer than 100 years") }
        let value = SimDuration(microseconds.rounded())
        if positive && value <= 0 { throw invalid("duration must be positive") }
        return value
    }

    static func parseDuration(_ text: String) -> Double? {
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

    /// A distribution object, or a bare duration meaning `constant`.
    func distribution(positiveMean: Bool = false) throws -> Distribution {
        if case .object = node.value {} else {
            let value = try duration()
            if positiveMean && value <= 0 { throw invalid("must be positive") }
            return .constant(value)
        }
        let kinds = ["constant", "exponential", "uniform", "lognormal"]
        let probe = try object(known: ["distribution", "value", "mean", "min", "max", "median", "sigma"])
        let kindReader = try probe.required("distribution")
        let kind = try kindReader.string()
        let result: Distribution
        switch kind {
        case "constant":
            let fields = try object(known: ["distribution", "value"])
            result = .constant(try fields.required("value").duration())
        case "exponential":
            let fields = try object(known: ["distribution", "mean"])
            result = .exponential(mean: try fields.required("mean").duration(positive: true))
        case "uniform":
            let fields = try object(known: ["distribution", "min", "max"])
            let low = try fields.required("min").duration()
            let highReader = try fields.required("max")
            let high = try highReader.duration()
            guard high >= low else { throw highReader.invalid("max must not be less than min") }
            result = .uniform(min: low, max: high)
        case "lognormal":
            let fields = try object(known: ["distribution", "median", "sigma"])
            let median = try fields.required("median").duration(positive: true)
            let sigmaReader = try fields.required("sigma")
            let sigma = try sigmaReader.number()
            guard sigma <= 5 else { throw sigmaReader.invalid("sigma above 5 gives absurd tails") }
            result = .lognormal(median: median, sigma: sigma)
        default:
            throw kindReader.invalid("unknown distribution \"\(kind)\"; expected one of: " + kinds.joined(separator: ", "))
        }
        if positiveMean && result.mean <= 0 { throw invalid("the mean must be positive") }
        return result
    }
}

/// An object's members, looked up by key with their paths.
struct ObjectReader {
    let reader: FieldReader
    let object: JSONObject

    func optional(_ key: String) -> FieldReader? {
        guard let node = object[key] else { return nil }
        return FieldReader(file: reader.file, node: node, path: reader.child(key))
    }

    func required(_ key: String) throws -> FieldReader {
        guard let field = optional(key) else {
            throw ScenarioError(.missingField, file: reader.file, path: reader.child(key), location: reader.node.location)
        }
        return field
    }
}

/// Prints 1.0 as "1" and 0.5 as "0.5" in messages.
func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
