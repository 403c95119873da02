import Base
import ScenarioFormat

extension FitStudy {
    /// The `--set`s that bring a scenario's dated fields into the measured period, by rule
    /// (docs/fit.md, "Dates by rule"), for the errors a point's decoding gave (`errors`, each
    /// with its path):
    /// - a list's element dated outside it (`provider.outages.scheduled[0].start`, an APNs
    ///   fault, an event): the list without it, `[]` when none is left;
    /// - a strategy's rollout `from` (`strategies[4].from`): as many days after the first
    ///   measured day as after the scenario's own start, held within the measured days.
    /// An error of another shape gets no fix. The fixes are in the order of the errors.
    /// - Complexity: O(errors × scenario size).
    package static func dateFixes(_ errors: [ScenarioError], bytes: [UInt8], labels: [String], first: CivilDate, last: CivilDate) -> [String] {
        guard let root = try? JSONParser.parse(bytes) else { return [] }
        var dropped: [(list: String, indices: Set<Int>)] = []
        var fixes: [String] = []
        for error in errors {
            guard let open = error.path.lastIndex(of: "["), let close = error.path[open...].firstIndex(of: "]"),
                  let index = Int(error.path[error.path.index(after: open)..<close]) else { continue }
            let list = String(error.path[..<open])
            if list == "strategies", error.path[close...] == "].from" {
                guard case .string(let text)? = node(root, error.path)?.value, let from = CivilDate(iso: text),
                      case .string(let startText)? = node(root, "start")?.value, let start = CivilDate(iso: startText),
                      labels.indices.contains(index) else { continue }
                let moved = first.adding(days: min(max(from.daysSinceEpoch - start.daysSinceEpoch, 0), last.daysSinceEpoch - first.daysSinceEpoch))
                fixes.append("strategies[\(labels[index])].from=\(moved)")
            } else if let slot = dropped.firstIndex(where: { $0.list == list }) {
                dropped[slot].indices.insert(index)
            } else {
                dropped.append((list, [index]))
            }
        }
        for (list, indices) in dropped {
            guard case .array(let items)? = node(root, list)?.value else { continue }
            let kept = items.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
            fixes.append(list + "=" + ScenarioOverride.compact(JSONNode(value: .array(kept), location: root.location)))
        }
        return fixes
    }

    /// The node at a path of keys and indices (`provider.outages.scheduled[0].start`), if any.
    private static func node(_ root: JSONNode, _ path: String) -> JSONNode? {
        guard let steps = ScenarioOverride.steps(path) else { return nil }
        var node = root
        for step in steps {
            switch (step, node.value) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else { return nil }
                node = next
            case (.index(let index), .array(let items)):
                guard items.indices.contains(index) else { return nil }
                node = items[index]
            case (.key, _), (.index, _), (.label, _):
                return nil
            }
        }
        return node
    }
}
