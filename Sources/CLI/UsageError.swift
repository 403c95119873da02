import Base

/// A command line that cannot be run (exit 64). Structured cases first; `description`
/// renders them, quoting what the user typed.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String)
    case missingCommand
    /// An option the command does not take; `near`: its declared options nearest the name.
    case unknownOption(String, command: String, near: [String] = [])
    case missingValue(option: String)
    case repeatedOption(String)
    case invalidValue(option: String, value: String, expected: String)
    case missingArgument(String)
    case unexpectedArgument(String)
    case unknownStrategy(String, known: [String])
    /// The options and the scenario or folders do not fit together (the reason says how).
    case mismatch(String)

    public var description: String {
        switch self {
        case .unknownCommand(let name):
            "unknown command '\(UserText.escape(name))'" + (PushSimCommand.commandsNear(name).map { NearestNames.didYouMean($0) }
                ?? "; expected " + PushSimCommand.commandList)
        case .missingCommand: "no command given"
        case .unknownOption(let option, let command, let near):
            "unknown option '\(UserText.escape(option))' for '\(UserText.escape(command))'" + NearestNames.didYouMean(near)
        case .missingValue(let option): "option '\(UserText.escape(option))' needs a value"
        case .repeatedOption(let option): "option '\(UserText.escape(option))' given twice; it takes one value"
        case .invalidValue(let option, let value, let expected): "invalid value '\(UserText.escape(value))' for '\(UserText.escape(option))': expected \(expected)"
        case .missingArgument(let name): "missing \(name)"
        case .unexpectedArgument(let argument): "unexpected argument '\(UserText.escape(argument))'"
        case .unknownStrategy(let name, let known):
            "no strategy '\(UserText.escape(name))' in the scenario; it has: " + UserText.list(known)
        case .mismatch(let reason): reason
        }
    }
}

/// Splits `argv` into options and positional arguments for one command, by the options
/// it declares. Accepts `--name value` and `--name=value`; `--` ends options. Values are
/// read (and a bad one refused) when the command asks for them, in its own order.
package struct ArgumentScanner {
    package private(set) var positional: [String] = []

    /// The positional arguments, exactly one per name in `names` (what each is, for the
    /// message): a missing one or one too many is a usage error.
    /// - Complexity: O(names).
    package func positionals(_ names: String...) throws(UsageError) -> [String] {
        if positional.count < names.count { throw .missingArgument(names[positional.count]) }
        if positional.count > names.count { throw .unexpectedArgument(positional[names.count]) }
        return positional
    }

    private var values: [(name: String, value: String)] = []
    private var flags: Set<String> = []

    /// Scans `arguments` against `options`, the options command `command` takes: an
    /// option not among them, a value-taking one at the end without its value, or a
    /// second value for one that is not repeatable is a usage error.
    /// - Complexity: O(arguments × options).
    package init(_ arguments: ArraySlice<String>, command: String, options: [OptionSpec]) throws(UsageError) {
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw .unknownOption(argument, command: command, near: NearestNames.nearest(to: name, among: options.map(\.name)))
            }
            switch option.arity {
            case .flag:
                guard inlineValue == nil else { throw .unknownOption(argument, command: command) }
                flags.insert(name)
            case .single, .repeatable:
                if !option.isRepeatable, values.contains(where: { $0.name == name }) {
                    throw .repeatedOption(name)
                }
                if let inlineValue {
                    values.append((name, inlineValue))
                } else {
                    guard index < arguments.endIndex else { throw .missingValue(option: name) }
                    values.append((name, arguments[index]))
                    index += 1
                }
            }
        }
    }

    /// The value given for `option`, read; nil when it was not given.
    /// - Complexity: O(values given).
    package func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = values.last(where: { $0.name == option.spec.name })?.value else { return nil }
        return try option.read(text)
    }

    /// Every value given for a repeatable `option`, read, in order.
    /// - Complexity: O(values given).
    package func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var read: [Value] = []
        for given in values where given.name == option.spec.name { read.append(try option.read(given.value)) }
        return read
    }

    /// Whether `flag` was given.
    package func flag(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// `text` as an integer if it is plain ASCII digits: Swift's own parser also takes
    /// a leading '+' (and '-'), which a job template should not silently rely on.
    /// - Complexity: O(n) in the text's length.
    package static func plainInteger<Value: FixedWidthInteger>(_ text: String) -> Value? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Value(text)
    }
}
