import Base
import SendLog

/// A scenario's mail taken from a team's send log (`sendLog`, docs/send-log.md) instead of
/// the `mail` model: the log's path, and once a command has prepared it for the scenario
/// (`SendLogReplay.prepare`), the replay each user's timeline reads its pushes from.
public struct SendLogInput: Sendable, Equatable {
    /// The log's path, as the scenario names it resolved against the scenario file's folder.
    public var path: String
    /// The log prepared for this scenario's app, window and devices; nil until a command prepares it.
    public var replay: SendLogReplay?

    /// A value of the fields given.
    /// - Complexity: O(1).
    public init(path: String, replay: SendLogReplay? = nil) {
        self.path = path
        self.replay = replay
    }

    /// What the log must be prepared for to be `scenario`'s mail.
    /// - Complexity: O(1).
    public static func target(of scenario: Scenario) -> SendLogReplay.Target {
        SendLogReplay.Target(topic: scenario.app, start: scenario.start, duration: scenario.duration,
                             devices: scenario.devices, acceptsBackground: scenario.chain.background != nil)
    }

    /// The same log: a prepared copy equals the scenario it was prepared for.
    /// - Complexity: O(1).
    public static func == (lhs: SendLogInput, rhs: SendLogInput) -> Bool { lhs.path == rhs.path }
}

extension Scenario {
    /// The scenario with its send log (if any) prepared for it, once in the process
    /// (`SendLogReplay.cached`); a replay prepared for other devices or another window is
    /// prepared again.
    /// - Complexity: O(n log n) in the log's rows the first time; O(1) after.
    public func preparingSendLog() throws(SendLogError) -> Scenario {
        guard let input = sendLog else { return self }
        var prepared = self
        prepared.sendLog?.replay = try SendLogReplay.cached(path: input.path, for: SendLogInput.target(of: self))
        return prepared
    }
}

extension SendLogInput {
    /// What a command says of a prepared log, in counts only (never an id): "send log: 1,200
    /// rows, 1,000 alert and 20 background pushes to 100 devices replayed; left out: …".
    /// - Complexity: O(1).
    public static func summary(_ tally: SendLogTally) -> String {
        var text = "send log: \(Counted.phrase(tally.rows, "row")), \(tally.alerts) alert and \(tally.background) "
            + "background pushes to \(Counted.phrase(tally.users, "device")) replayed"
        let left = [(tally.otherTopic, "of another topic"), (tally.outsideRun, "outside the run"),
                    (tally.beyondDevices, "of users past the scenario's devices")].filter { $0.0 > 0 }
        if !left.isEmpty { text += "; left out: " + left.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
        return text
    }
}
