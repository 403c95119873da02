/// What a field path names, read from the field declarations (`ScenarioFields`), for a
/// page or table that shows a field to a person: "repeatMaxCount (strategy queue)" rather
/// than `strategies[1].repeatMaxCount`, with the declaration's help and the unit its
/// values are in.
package struct FieldTitle: Sendable, Equatable {
    /// The field as a reader names it: its key ("repeatMaxCount"), a distribution's
    /// parameter after its field ("offline mean"), a count's share ("share with 2 accounts").
    package var name: String
    /// Where the field is when its name alone would not say: "strategy queue" (by the
    /// strategy's label), "connectivity", "provider.network"; nil for a top-level field.
    package var context: String?
    /// The declaration's help, and a distribution parameter's after it; nil when none.
    package var summary: String?
    /// The unit of its values when the declaration fixes one ("share", "per day", "MB");
    /// nil for durations (a chart picks their unit from their size) and plain numbers.
    package var unit: String?

    /// "repeatMaxCount (strategy queue)", "offline mean (connectivity)", "devices".
    /// - Complexity: O(1).
    package var title: String { name + (context.map { " (" + $0 + ")" } ?? "") }

    /// The title with a unit (`unit`, or the one given, e.g. a duration's) in front of the
    /// context: "offline mean (h; connectivity)", "legacyIOS (share; device)".
    /// - Complexity: O(1).
    package func title(unit chosen: String?) -> String {
        let parts = [chosen ?? unit, context].compactMap { $0 }
        return name + (parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")")
    }

    /// The title of the field at `path` (`--set` syntax); `strategyLabels` names the
    /// elements of `strategies` (the file's order; a missing one is named by its
    /// position). nil when the path names no declared field.
    /// - Complexity: O(steps × fields).
    package init?(path: String, strategyLabels: [String]) {
        guard let steps = ScenarioOverride.steps(path) else { return nil }
        var kind = FieldKind.object(ScenarioFields.Top.object)
        var keys: [String] = []          // the object keys walked, with `[i]` for indices
        var context: String?
        var name = "", summary: String?, unit: String?
        var lastField: FieldDeclaration?
        for step in steps {
            switch (step, kind) {
            case (.key(let key), .object), (.key(let key), .rhythm):
                // A rhythm (mail, device.launches) is an object of its own fields.
                let declaration = if case .object(let object) = kind { object } else { ScenarioFields.Rhythm.object }
                guard let field = declaration.fields.first(where: { $0.key == key }) else { return nil }
                lastField = field
                name = key
                summary = field.summary
                unit = Self.unit(of: field.kind)
                kind = field.kind
                keys.append(key)
            case (.key(let key), .distribution), (.key(let key), .sizeDistribution):
                guard let parameter = DistributionShape.all.flatMap(\.parameters).first(where: { $0.name == key }),
                      let field = lastField else { return nil }
                name = field.key + " " + key
                summary = [field.summary, parameter.summary].compactMap { $0 }.joined(separator: "; ")
                switch (parameter.kind, kind) {
                case (.amount, .sizeDistribution): unit = "MB"
                case (.amount, _), (.sigma, _): unit = nil
                }
                keys.removeLast()
                keys.append(name)
                kind = .boolean     // a parameter is a leaf: any step after it names nothing
                lastField = nil
            case (.key(let key), .countShares):
                guard let field = lastField, let count = Int(key) else { return nil }
                name = "share with \(count) " + field.key
                unit = "share"
                keys.removeLast()
                keys.append(name)
                kind = .boolean
                lastField = nil
            case (.index(let index), .array(let items, _)):
                if keys == ["strategies"] {
                    context = "strategy " + (index < strategyLabels.count ? strategyLabels[index] : "\(index + 1)")
                    keys = []
                } else {
                    keys[keys.count - 1] += "[\(index)]"
                    name += "[\(index)]"
                }
                kind = items
            case (.label(let label), .array(let items, _)):
                // `strategies[queue]`: the strategy named by its label.
                guard keys == ["strategies"] else { return nil }
                context = "strategy " + label
                keys = []
                kind = items
            case (.key, _), (.index, _), (.label, _):
                return nil
            }
        }
        guard !name.isEmpty else { return nil }
        // The context is the path to the field, unless the field sits at the top or in a strategy.
        let parents = keys.dropLast()
        if !parents.isEmpty {
            context = ([context].compactMap { $0 } + [parents.joined(separator: ".")]).joined(separator: ", ")
        }
        self.name = name
        self.context = context
        self.summary = summary
        self.unit = unit
    }

    /// The unit a field's kind fixes, or nil.
    /// - Complexity: O(1).
    package static func unit(of kind: FieldKind) -> String? {
        switch kind {
        case .probability: "share"
        case .perDay: "per day"
        case .megabytes: "MB"
        case .text, .boolean, .integer, .integerChoice, .number, .duration, .distribution, .sizeDistribution, .date,
             .countShares, .rhythm, .strategyName, .choice, .object, .array:
            nil
        }
    }
}
