import Base

/// One field of a scenario object: its key, what its value may be, whether it must be
/// there, and the help the schema shows. The decoder reads the field through this
/// value (key, bounds, choices) and `ScenarioSchema` writes the schema from it, so a
/// field is declared once (the declarations are in `ScenarioFields`).
package struct FieldDeclaration: Sendable {
    package let key: String
    package let kind: FieldKind
    package let isRequired: Bool
    /// The schema's help; nil when the definition the field refers to describes it.
    package let summary: String?

    package init(_ key: String, _ kind: FieldKind, required: Bool = false, _ summary: String? = nil) {
        self.key = key
        self.kind = kind
        self.isRequired = required
        self.summary = summary
    }

    /// The declared integer range; a declaration read as the wrong kind is a programming
    /// error the declaration tests catch.
    package var integerRange: ClosedRange<Int64> {
        guard case .integer(let range) = kind else { preconditionFailure("\(key) is not declared an integer") }
        return range
    }

    /// The declared bounds of an array's length (nil: any length).
    package var itemCount: ClosedRange<Int>? {
        guard case .array(_, let count) = kind else { preconditionFailure("\(key) is not declared an array") }
        return count
    }

    /// The declared number range.
    package var numberRange: NumberRange {
        guard case .number(let range) = kind else { preconditionFailure("\(key) is not declared a number") }
        return range
    }
}

/// What a field's value may be, with its bounds and choices.
package indirect enum FieldKind: Sendable {
    /// A string; `pattern` and `minLength` are the schema's summary of the decoder's
    /// check, `excluded` the values the pattern admits but the decoder refuses.
    case text(pattern: String? = nil, minLength: Int? = nil, excluded: [String] = [])
    case boolean
    case integer(ClosedRange<Int64>)
    /// An integer that must be one of `choices` (apns-priority: 10 or 5).
    case integerChoice([Int64])
    case number(NumberRange)
    /// A probability or share, 0 to 1.
    case probability
    /// A mean number of events a day (a Poisson rate), 0 to `ScenarioFields.maxPerDay`.
    case perDay
    /// A size in MB, at most `ScenarioFields.maxMegabytes`; `positive`: above 0.
    case megabytes(positive: Bool)
    /// A duration (`"30s"`, bare 0); `positive`: above 0.
    case duration(positive: Bool)
    /// A time distribution (`#/$defs/distribution`); `positiveMean`: its mean must be above 0.
    case distribution(positiveMean: Bool)
    /// A size distribution in MB (`#/$defs/sizeDistribution`).
    case sizeDistribution
    /// A day, `YYYY-MM-DD`.
    case date
    /// A count that differs between devices (`#/$defs/count`).
    case countShares
    /// A Poisson process with a daily rhythm (`ScenarioFields.Rhythm`).
    case rhythm
    /// A `StrategyKind` by name.
    case strategyName
    /// One of a fixed set of words; `what` names the set in the decoder's messages.
    case choice(what: String, [String])
    case object(ObjectDeclaration)
    /// An array of `items`; `count` bounds its length (nil: any length).
    case array(of: FieldKind, count: ClosedRange<Int>? = nil)
}

/// Bounds of a number field, each inclusive, exclusive or absent.
package struct NumberRange: Sendable {
    package enum Bound: Sendable {
        case inclusive(Double)
        case exclusive(Double)
    }
    package var lower: Bound?
    package var upper: Bound?

    package init(lower: Bound? = nil, upper: Bound? = nil) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` is inside both bounds.
    /// - Complexity: O(1).
    package func contains(_ value: Double) -> Bool {
        let aboveLower: Bool
        switch lower {
        case .inclusive(let bound): aboveLower = value >= bound
        case .exclusive(let bound): aboveLower = value > bound
        case nil: aboveLower = true
        }
        switch upper {
        case .inclusive(let bound): return aboveLower && value <= bound
        case .exclusive(let bound): return aboveLower && value < bound
        case nil: return aboveLower
        }
    }
}

/// A scenario object: its fields in the order the schema lists them (and the decoder's
/// unknown-field message names them), and the rules across its fields.
package struct ObjectDeclaration: Sendable {
    /// The schema's help for the object itself.
    package let summary: String?
    package let fields: [FieldDeclaration]
    /// Fields that need others: `(field, the fields it needs)`.
    package let dependencies: [(key: String, needs: [String])]
    /// Fields of which at least one must be there (empty: no such rule).
    package let needsOneOf: [String]

    package init(_ summary: String? = nil, _ fields: [FieldDeclaration],
                 dependencies: [(key: String, needs: [String])] = [], needsOneOf: [String] = []) {
        self.summary = summary
        self.fields = fields
        self.dependencies = dependencies
        self.needsOneOf = needsOneOf
    }

    /// The keys the object accepts, in declaration order.
    /// - Complexity: O(fields).
    package var keys: [String] { fields.map(\.key) }
}
