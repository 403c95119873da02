import Base
import ScenarioFormat
import SendLog
import Simulator
import Studies

/// `pushsim describe-log LOG`: a send log's rhythm and burstiness, and the scenario fields
/// (`mail`, `mailBursts`) that reproduce them.
package enum DescribeLogCommand {
    package static let help = """
    OVERVIEW: Estimate a send log's rhythm and burstiness; print the scenario fields that reproduce them.

    """ + "\n" + usageHelp.text + """

    Reads a provider's send log (CSV, docs/send-log.md; '-' reads standard input) row by row,
    its alert pushes only (background rows are counted and left out), and estimates, per user
    of the log: mail.perDay (mean pushes a weekday), mail.weekendFactor, mail.diurnal (the 24
    local hours' weights, mean 1), and the bursts (docs/model.md, "Mail in bursts"): a
    thread is a burst, a push without a thread a burst of its own (or, with --burst-gap,
    joined to the user's previous threadless push at most that long before it), giving
    mailBursts.meanSize and the mean of mailBursts.gap. The rhythm is the bursts' starts'.
    Each estimate has a 95% interval over 64 blocks of users (docs/reports.md, "Standard
    errors"). Then prints the fields as a JSON fragment and as --set arguments. No id from
    the log is printed. Memory grows with the log's users and threads, not its rows.

    """ + "\n" + optionsHelp.text + """

    EXIT CODES: 0 ok, 64 bad arguments, 65 the log cannot be read (its file and line) or
    holds no alert push.

    EXAMPLES:
      pushsim describe-log scenarios/logs/bursty-send-log.csv
      pushsim describe-log provider-log.csv --topic ru.yandex.mail --burst-gap 10m --format json

    """

    /// `--topic <topic>`: only the rows of this app.
    package static let topic = Option<String>("--topic", "<topic>", .nonEmpty("a topic"),
                                              help: "Only rows of this topic (default: every row)")
    /// `--burst-gap <duration>`: joins a user's threadless pushes into bursts.
    package static let burstGap = Option<SimDuration>(
        "--burst-gap", "<duration>",
        ValueReader(expected: "a positive duration, e.g. 10m") { text in
            guard let micros = FieldReader.parseDuration(text), micros >= 1, micros <= Double(TimeUnit.day * 365) else { return nil }
            return SimDuration(micros.rounded())
        },
        help: "Join a user's pushes without a thread at most this far apart into one burst",
        "(the log must then be in time order per user; default: each its own burst)")
    package static let format = OutputOptions.format.spec.explained(
        "table (default) or json: {log, estimates: {path: {value, se, low, high}}, fields}")

    /// The options `describe-log` takes.
    package static let options = [topic.spec, burstGap.spec, format]

    package static let usageHelp = UsageHelp(
        "describe-log", [.text("<log.csv | ->"), .optional(topic.spec), .optional(burstGap.spec), .optional(format)])

    package static let optionsHelp = OptionsHelp([.option(topic.spec), .option(burstGap.spec), .option(format), .showHelp])

    /// Runs `describe-log` with `arguments` (after the command's name).
    /// - Complexity: O(rows) of the log, memory O(users + threads).
    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        let path: String
        var outputFormat = OutputOptions.Format.table
        do {
            scanner = try ArgumentScanner(arguments, command: "describe-log", options: Self.options)
            guard let first = scanner.positional.first else { throw UsageError.missingArgument("the send log") }
            if scanner.positional.count > 1 { throw UsageError.unexpectedArgument(scanner.positional[1]) }
            path = first
            if let chosen = try scanner.value(OutputOptions.format) { outputFormat = chosen }
        } catch let error as UsageError {
            return PushSimCommand.usage(error, command: "describe-log", console: console)
        } catch {
            return .failure
        }
        let description: LogDescription
        let skipped: (background: Int, otherTopic: Int)
        do {
            (description, skipped) = try read(path, topic: try scanner.value(Self.topic),
                                              burstGap: try scanner.value(Self.burstGap))
        } catch let error as UsageError {
            return PushSimCommand.usage(error, command: "describe-log", console: console)
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        guard description.pushes > 0 else {
            console.err("error: \(UserText.path(path)): no alert push to describe"
                        + " (\(Counted.phrase(skipped.background, "background row")), \(Counted.phrase(skipped.otherTopic, "row")) of another topic)\n")
            return .dataError
        }
        switch outputFormat {
        case .table: console.out(LogDescriptionText.table(description, skipped: skipped))
        case .json: console.out(LogDescriptionText.json(description, skipped: skipped) + "\n")
        }
        return .success
    }

    /// Every row of the log at `path` through a `LogDescriber`; what was left out.
    /// - Complexity: O(rows), memory O(users + threads).
    static func read(_ path: String, topic: String?, burstGap: SimDuration?) throws
        -> (LogDescription, (background: Int, otherTopic: Int)) {
        let reader = try SendLogReader(path: path)
        var describer = LogDescriber(burstGap: burstGap)
        var background = 0, otherTopic = 0
        while let row = try reader.next() {
            if let topic, row.topic != topic {
                otherTopic += 1
                continue
            }
            switch row.kind {
            case .background:
                background += 1
            case .alert:
                do {
                    try describer.add(user: row.user, thread: row.thread, wall: row.time.wall)
                } catch {
                    throw UnorderedRow(file: path, line: row.line)
                }
            }
        }
        return (describer.describe(), (background, otherTopic))
    }
}

/// A push without a thread earlier than its user's previous one, under `--burst-gap`.
struct UnorderedRow: Error, CustomStringConvertible {
    let file: String
    let line: Int

    var description: String {
        "\(UserText.path(file)):\(line): with --burst-gap each user's pushes without a thread must be in time order;"
            + " this one is earlier than the user's previous"
    }
}
