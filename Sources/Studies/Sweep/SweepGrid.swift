import Base
import ScenarioFormat

/// One swept field: `--set PATH=V1,V2,…` of `pushsim sweep`, its values as overrides.
package struct SweepAxis: Sendable {
    /// The field path, as in `--set`.
    package var path: String
    /// Each value as written (one per point along this axis), in order.
    package var texts: [String]
    /// Each value as an override of `path`.
    package var overrides: [ScenarioOverride]
    /// What the path names, for people (`FieldTitle`): a strategy is named by its position
    /// until `named(strategyLabels:)` gives the labels. nil for a path no declaration has.
    package var title: FieldTitle?

    /// Most values one axis may take, and most points a grid may have.
    package static let maxValues = 1000
    package static let maxPoints = 10_000

    /// Reads `PATH=V1,V2,…`. Values split on commas outside brackets, braces and quoted
    /// strings (`[1,2]` and `"a,b"` are one value each); `A..B` (integers, A ≤ B) stands for
    /// every integer from A to B. A malformed path, an empty value or a bad range is a
    /// scenario error naming the argument.
    /// - Complexity: O(n) in the argument's length plus the values.
    package init(_ argument: String) throws(ScenarioError) {
        func fail(_ message: String) -> ScenarioError {
            ScenarioError(.invalidValue(message), file: "--set " + argument, path: "", location: nil)
        }
        guard let equals = argument.firstIndex(of: "=") else {
            throw fail("expected PATH=V1,V2,…, e.g. strategies[1].repeatMaxCount=0..10 or connectivity.offline.mean=30m,1h,2h")
        }
        path = String(argument[..<equals])
        guard ScenarioOverride.steps(path) != nil else {
            throw fail("not a field path: \(UserText.quote(path, limit: UserText.pathLimit)) (\(ScenarioOverride.pathExample))")
        }
        texts = []
        for item in Self.split(String(argument[argument.index(after: equals)...])) {
            guard !item.isEmpty else { throw fail("an empty value (two commas in a row, or one at an end)") }
            if let (low, high) = Self.integerRange(item) {
                guard low <= high else { throw fail("the range \(UserText.escape(item)) is empty (write the smaller end first)") }
                guard high - low < Int64(Self.maxValues) else {
                    throw fail("the range \(UserText.escape(item)) has more than \(Self.maxValues) values")
                }
                texts += (low...high).map(String.init)
            } else {
                texts.append(item)
            }
        }
        guard texts.count <= Self.maxValues else { throw fail("more than \(Self.maxValues) values") }
        overrides = []
        for text in texts {
            overrides.append(try ScenarioOverride(path: path, value: text, argument: path + "=" + text))
        }
        title = FieldTitle(path: path, strategyLabels: [])
    }

    /// The field's name for people: its title ("repeatMaxCount (strategy queue)"), or the
    /// path when no declaration names it.
    /// - Complexity: O(1).
    package var name: String { title?.title ?? path }

    /// The axis's title on a chart: the field's name with the unit its values are drawn in
    /// ("offline mean (h; connectivity)").
    /// - Complexity: O(values), for the scale.
    package var axisLabel: String {
        let unit: String? = switch scale {
        case .numeric(_, let unit): unit
        case .categorical: nil
        }
        if let title { return title.title(unit: unit) }
        return path + (unit.map { " (\($0))" } ?? "")
    }

    /// `text` split on commas at the top level: not inside `[…]`, `{…}` or a `"…"` string
    /// (with its backslash escapes).
    /// - Complexity: O(n) in the text's length.
    package static func split(_ text: String) -> [String] {
        var items: [String] = [], current = ""
        var depth = 0, quoted = false, escaped = false
        for character in text {
            if quoted {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
            } else {
                switch character {
                case "\"": quoted = true
                case "[", "{": depth += 1
                case "]", "}": depth = max(0, depth - 1)
                case "," where depth == 0:
                    items.append(current)
                    current = ""
                    continue
                default: break
                }
            }
            current.append(character)
        }
        items.append(current)
        return items
    }

    /// The ends of `A..B` with A and B integers (plain digits, optionally negative), else nil.
    /// - Complexity: O(n) in the text's length.
    package static func integerRange(_ text: String) -> (low: Int64, high: Int64)? {
        guard let dots = text.firstRange(of: "..") else { return nil }
        func integer(_ part: Substring) -> Int64? {
            let digits = part.hasPrefix("-") ? part.dropFirst() : part
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int64(part)
        }
        guard let low = integer(text[..<dots.lowerBound]), let high = integer(text[dots.upperBound...]) else { return nil }
        return (low, high)
    }

    /// How the values sit along a chart's x axis: numbers where they are numbers, durations
    /// in one unit picked for their size, else equally spaced and labelled with the text.
    package var scale: SweepScale {
        let values = overrides.map(\.value)
        if values.allSatisfy({ if case .number = $0 { true } else { false } }) {
            return .numeric(values.map { if case .number(let number) = $0 { number.doubleValue } else { 0 } }, unit: nil)
        }
        let durations = values.map { value -> Double? in
            switch value {
            case .string(let text): FieldReader.parseDuration(text)
            case .number(let number) where number.doubleValue == 0: 0
            default: nil
            }
        }
        if durations.allSatisfy({ $0 != nil }) {
            let microseconds = durations.map { $0 ?? 0 }
            let largest = microseconds.max() ?? 0
            let units: [(String, Double)] = [("d", Double(TimeUnit.day)), ("h", Double(TimeUnit.hour)),
                                             ("min", Double(TimeUnit.minute)), ("s", Double(TimeUnit.second))]
            let unit = units.first { largest >= 2 * $0.1 } ?? ("ms", Double(TimeUnit.millisecond))
            return .numeric(microseconds.map { $0 / unit.1 }, unit: unit.0)
        }
        return .categorical
    }
}

/// Where an axis's values go on a chart.
package enum SweepScale: Equatable {
    /// At their numeric value (durations converted to `unit`).
    case numeric([Double], unit: String?)
    /// Equally spaced, in order, labelled with the text as written.
    case categorical
}

/// The cartesian product of the axes: every combination of one value per axis, the last
/// axis varying fastest.
package struct SweepGrid: Sendable {
    /// The swept fields, in command-line order.
    package var axes: [SweepAxis]
    /// Fields given one value: the same for every point, applied before the axes.
    package var fixed: [ScenarioOverride]

    /// The grid of `--set` fields: those with two values or more are swept, those with one
    /// are fixed overrides (as `run --set`), unless none has two (a one-point sweep, its
    /// fields all in the columns).
    /// - Complexity: O(fields).
    package init(_ fields: [SweepAxis]) {
        if fields.contains(where: { $0.texts.count > 1 }) {
            axes = fields.filter { $0.texts.count > 1 }
            fixed = fields.filter { $0.texts.count == 1 }.flatMap(\.overrides)
        } else {
            axes = fields
            fixed = []
        }
    }

    /// Each point as one value index per axis.
    /// - Complexity: O(points × axes).
    package var points: [[Int]] {
        axes.reduce([[]]) { partial, axis in partial.flatMap { prefix in axis.texts.indices.map { prefix + [$0] } } }
    }

    /// The number of points.
    package var count: Int { axes.reduce(1) { $0 * $1.texts.count } }

    /// Names the strategies the axes' paths point into (`strategies[i]…`) by their labels
    /// in the file's order, as the points were decoded before `--strategy` chose among them.
    /// - Complexity: O(axes × path length).
    package mutating func name(strategyLabels: [String]) {
        for index in axes.indices { axes[index].title = FieldTitle(path: axes[index].path, strategyLabels: strategyLabels) }
    }

    /// The overrides of `point`, in axis order.
    /// - Complexity: O(axes).
    package func overrides(_ point: [Int]) -> [ScenarioOverride] { fixed + zip(axes, point).map { $0.overrides[$1] } }
}
