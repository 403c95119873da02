import Base
import FoundationEssentials
import Glibc
import Simulator

/// One `--set PATH=VALUE`: a field of the scenario changed for one run without editing
/// the file. It is applied to the parsed JSON tree before decoding, so the decoder
/// checks the result as it checks the file, and its errors under PATH name the argument.
public struct ScenarioOverride: Sendable, Equatable {
    /// One step of a path: an object key, an array index, or an element by its label.
    package enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        /// `strategies[queue]`: the element whose `label` is this, or that has no label and
        /// whose `name` is (a strategy's label defaults to its name).
        case label(String)
    }

    /// What a field path looks like, for the messages refusing one.
    package static let pathExample = "write e.g. connectivity.offline.mean, strategies[1].repeatMaxCount or "
        + "strategies[queue].repeatMaxCount"

    /// The argument as given, `PATH=VALUE`.
    public var argument: String
    /// The path as written (`strategies[1].repeatMaxCount`, `strategies[queue].repeatMaxCount`).
    public var path: String
    /// The value as written.
    public var valueText: String
    /// The path's steps.
    package let steps: [Step]
    /// The value: `valueText` parsed as JSON, or as a string when it is not JSON.
    package let value: JSONValue

    /// Where errors about the argument itself say they come from.
    package var origin: String { "--set " + argument }

    /// Reads `PATH=VALUE`; a missing `=` or a malformed path is a scenario error naming it.
    /// - Complexity: O(n) in the argument's length.
    public init(_ argument: String) throws(ScenarioError) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw ScenarioError(.invalidValue("expected PATH=VALUE, e.g. strategies[1].repeatMaxCount=3"),
                                file: "--set " + argument, path: "", location: nil)
        }
        try self.init(path: String(argument[..<equals]), value: String(argument[argument.index(after: equals)...]),
                      argument: argument)
    }

    /// The override of `path` by `value` (text as on the command line); `argument` names it in errors.
    /// - Complexity: O(n) in the lengths.
    package init(path: String, value: String, argument: String) throws(ScenarioError) {
        self.argument = argument
        self.path = path
        valueText = value
        guard let steps = Self.steps(path) else {
            throw ScenarioError(.invalidValue("not a field path: \(UserText.quote(path, limit: UserText.pathLimit)) (\(Self.pathExample))"),
                                file: "--set " + argument, path: "", location: nil)
        }
        self.steps = steps
        self.value = Self.value(value)
    }

    /// `text` as JSON when it is a JSON text (a number, `true`, `null`, `"quoted"`, an
    /// array or object), else the string itself: `2h` needs no quotes.
    /// - Complexity: O(n) in the text's length.
    package static func value(_ text: String) -> JSONValue {
        (try? JSONParser.parse(text))?.value ?? .string(text)
    }

    /// The steps of `key(.key|[index]|[label])*`, keys of letters, digits, `_` and `$`, an
    /// index plain digits, a label anything else up to the `]` (so a label of digits alone
    /// is reached by its index); nil when malformed.
    /// - Complexity: O(n) in the path's length.
    package static func steps(_ path: String) -> [Step]? {
        var steps: [Step] = []
        var characters = path[...]
        func isKeyCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "$")
        }
        func key() -> String? {
            let name = characters.prefix(while: isKeyCharacter)
            guard !name.isEmpty else { return nil }
            characters = characters.dropFirst(name.count)
            return String(name)
        }
        guard let first = key() else { return nil }
        steps.append(.key(first))
        while let next = characters.first {
            characters = characters.dropFirst()
            switch next {
            case ".":
                guard let name = key() else { return nil }
                steps.append(.key(name))
            case "[":
                let inside = characters.prefix(while: { $0 != "]" })
                characters = characters.dropFirst(inside.count)
                guard !inside.isEmpty, characters.first == "]" else { return nil }
                characters = characters.dropFirst()
                if inside.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    guard inside.count <= 9, let index = Int(inside), String(index) == inside else { return nil }
                    steps.append(.index(index))
                } else {
                    steps.append(.label(String(inside)))
                }
            default:
                return nil
            }
        }
        return steps
    }

    /// Sets the value in `root` and returns the path it set in the decoder's syntax (a
    /// label's step as the index it found: `strategies[1].repeatMaxCount`), which the
    /// decoder's errors under it carry. A missing object key is added (and missing objects
    /// on the way created empty): the decoder then refuses a key the format does not have.
    /// An index past an array's end, a label no element has, or a step into a value that
    /// is not an object or an array, is an error naming the argument.
    /// - Complexity: O(depth × members).
    @discardableResult
    package func apply(to root: inout JSONNode) throws(ScenarioError) -> String {
        try apply(steps[...], to: &root, walked: "")
    }

    private func apply(_ rest: ArraySlice<Step>, to node: inout JSONNode, walked: String) throws(ScenarioError) -> String {
        guard let step = rest.first else {
            node = JSONNode(value: value, location: node.location)
            return walked
        }
        func fail(_ message: String) -> ScenarioError {
            ScenarioError(.invalidValue(message), file: origin, path: walked, location: nil)
        }
        switch (step, node.value) {
        case (.key(let key), .object(var object)):
            let child = walked.isEmpty ? key : walked + "." + key
            let resolved: String
            if let index = object.members.firstIndex(where: { $0.key == key }) {
                resolved = try apply(rest.dropFirst(), to: &object.members[index].value, walked: child)
            } else {
                // A new member: `{}` until its own steps fill it; placed where its parent starts, for messages.
                var member = JSONNode(value: rest.count == 1 ? value : .object(JSONObject(members: [])), location: node.location)
                resolved = try apply(rest.dropFirst(), to: &member, walked: child)
                object.members.append(JSONMember(key: key, keyLocation: node.location, value: member))
            }
            node.value = .object(object)
            return resolved
        case (.index(let index), .array(var items)):
            guard index < items.count else {
                throw fail("no element [\(index)]: the array has \(items.count) (--set changes elements, it does not add them)")
            }
            let resolved = try apply(rest.dropFirst(), to: &items[index], walked: walked + "[\(index)]")
            node.value = .array(items)
            return resolved
        case (.label(let label), .array(var items)):
            let labels = items.map(Self.label)
            guard let index = labels.firstIndex(of: label) else {
                throw fail("no element labelled \(UserText.quote(label)); the labels are "
                           + UserText.list(labels.map { $0 ?? "(none)" }))
            }
            let resolved = try apply(rest.dropFirst(), to: &items[index], walked: walked + "[\(index)]")
            node.value = .array(items)
            return resolved
        case (.key(let key), let other):
            throw fail("is \(other.kindName), not an object: it has no field \(UserText.quote(key))")
        case (.index(let index), let other):
            throw fail("is \(other.kindName), not an array: it has no element [\(index)]")
        case (.label(let label), let other):
            throw fail("is \(other.kindName), not an array: it has no element [\(UserText.escape(label))]")
        }
    }

    /// An element's label as a run names it: its `label`, else its `name` (a strategy's
    /// label defaults to its name); nil for an element with neither as a string.
    /// - Complexity: O(members).
    private static func label(_ element: JSONNode) -> String? {
        guard case .object(let object) = element.value else { return nil }
        for field in [ScenarioFields.Strategy.label, ScenarioFields.Strategy.name] {
            if case .string(let text)? = object[field.key]?.value { return text }
        }
        return nil
    }

    /// Whether the decoder's `errorPath` is `resolved` (an override's path as applied) or inside it.
    /// - Complexity: O(n) in the paths' length.
    package static func covers(_ errorPath: String, resolved: String) -> Bool {
        errorPath == resolved || errorPath.hasPrefix(resolved + ".") || errorPath.hasPrefix(resolved + "[")
    }

    /// `error` (and each of its `more`) with the errors under an override's path (as
    /// applied, `resolved`) named by that override's argument instead of the file: its
    /// value is not in the file.
    /// - Complexity: O(errors × overrides).
    package static func attribute(_ error: ScenarioError, to overrides: [(override: ScenarioOverride, resolved: String)])
        -> ScenarioError {
        func one(_ error: ScenarioError) -> ScenarioError {
            // The last override of a path wins, as it does when applied.
            guard let override = overrides.last(where: { covers(error.path, resolved: $0.resolved) })?.override else {
                return error
            }
            var named = error
            named.file = override.origin
            named.location = nil
            return named
        }
        var first = one(error)
        first.more = error.more.map(one)
        return first
    }
}

extension ScenarioDecoder {
    /// Validates the scenario text `bytes` with `overrides` applied in order (a later
    /// override of the same path wins); `file` names it in errors, and errors under an
    /// override's path name that `--set` argument instead.
    /// - Complexity: O(n) in the text's size plus the overrides'.
    public static func decode(_ bytes: [UInt8], file: String, overrides: [ScenarioOverride]) throws(ScenarioError) -> Scenario {
        guard !overrides.isEmpty else { return try decode(bytes, file: file) }
        var root = try parse(bytes, file: file)
        var applied: [(override: ScenarioOverride, resolved: String)] = []
        for override in overrides { applied.append((override, try override.apply(to: &root))) }
        do {
            return try decode(root, file: file)
        } catch {
            throw ScenarioOverride.attribute(error, to: applied)
        }
    }
}

extension ScenarioDecoder {
    /// `loadKeepingBytes(path:standardInput:)` with `overrides` applied; the bytes are the file's own.
    /// - Complexity: O(n) in the file's size.
    package static func loadKeepingBytes(path: String, standardInput: Int32 = STDIN_FILENO, overrides: [ScenarioOverride])
        throws(ScenarioError) -> (scenario: Scenario, bytes: [UInt8]) {
        let bytes = try readBytes(path: path, standardInput: standardInput)
        return (try decode(bytes, file: FileBytes.displayName(path), overrides: overrides), bytes)
    }

    /// The bytes of the scenario at `path` (`-`: standard input), read once.
    /// - Complexity: O(n) in the file's size.
    package static func readBytes(path: String, standardInput: Int32 = STDIN_FILENO) throws(ScenarioError) -> [UInt8] {
        do {
            return try FileBytes.read(path: path, standardInput: standardInput)
        } catch {
            throw ScenarioError(.unreadable(error.reason), file: FileBytes.displayName(path), path: "", location: nil)
        }
    }
}

extension ScenarioOverride {
    /// The scenario text `bytes` with `overrides` applied, as compact JSON (members in
    /// file order, numbers as written): the text a run with `--set` simulated, which
    /// `result.json` carries so `pushsim report` reads the scenario as it ran. Nil when
    /// the text does not parse or an override does not apply (the run has failed before).
    /// - Complexity: O(n) in the text's size.
    package static func text(_ bytes: [UInt8], overrides: [ScenarioOverride]) -> String? {
        guard var root = try? JSONParser.parse(bytes) else { return nil }
        for override in overrides {
            do { try override.apply(to: &root) } catch { return nil }
        }
        var text = ""
        write(root, into: &text)
        return text + "\n"
    }

    /// The scenario as simulated: SHA-256 (hex) of `text(bytes, overrides:)`, the compact
    /// text with the overrides applied. Files that differ only in white space share it; a
    /// `--set` or any other member changes it. serve publishes it at `GET /`, and
    /// `pushsim provider` refuses a serve whose digest is not its own (two different
    /// scenarios cannot agree). `run.json`'s `scenario.sha256` is the file's own bytes'.
    /// - Complexity: O(n) in the text's size.
    package static func digest(_ bytes: [UInt8], overrides: [ScenarioOverride]) -> String {
        SHA256.hex(text(bytes, overrides: overrides).map { Array($0.utf8) } ?? bytes)
    }

    /// `node` as compact JSON text.
    /// - Complexity: O(n) in the node's size.
    package static func compact(_ node: JSONNode) -> String {
        var text = ""
        write(node, into: &text)
        return text
    }

    private static func write(_ node: JSONNode, into text: inout String) {
        switch node.value {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let number): text += number.text
        case .string(let string): text += JSONText.string(string)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                write(item, into: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                text += JSONText.string(member.key) + ":"
                write(member.value, into: &text)
            }
            text += "}"
        }
    }
}
