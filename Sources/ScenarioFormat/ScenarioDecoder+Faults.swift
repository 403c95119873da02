import Base
import FakeAPNs
import Simulator

extension ScenarioDecoder {
    /// `apns.faults`: scheduled windows (a kind, a local `YYYY-MM-DDTHH:MM` start inside the
    /// run, a length), random ones (a kind each, `between` and `duration` with positive means),
    /// and what the slow and idle kinds take. Every error is logged; what is readable is kept.
    /// `start` and `duration` are nil when broken (times are then not checked against the run).
    static func decodeFaults(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?) throws -> APNsFaultModel {
        typealias Faults = ScenarioFields.Faults
        typealias Scheduled = ScenarioFields.ScheduledFault
        typealias Random = ScenarioFields.RandomFaults
        let fields = try reader.object(Faults.object)
        let log = reader.log
        var model = APNsFaultModel()
        func kind(_ field: FieldReader) throws -> APNsFaultKind { try field.choice { APNsFaultKind(name: $0) } }

        if let scheduledReader = fields.optional(Faults.scheduled), let windowReaders = log.attempt({ try scheduledReader.array() }) {
            for windowReader in windowReaders {
                let window = log.attempt { () throws -> APNsFaultWindow? in
                    let window = try windowReader.object(Scheduled.object)
                    let faultKind = log.attempt { try kind(window.required(Scheduled.kind)) }
                    let length = log.attempt { try window.required(Scheduled.duration).duration() }
                    let startReader = try window.required(Scheduled.start)
                    let text = try startReader.string()
                    guard let start else { return nil }
                    let offset = try windowStart(text, of: startReader, runStart: start, duration: duration)
                    guard let faultKind, let length else { return nil }
                    return APNsFaultWindow(kind: faultKind, start: offset, duration: length)
                }
                if let window = window ?? nil { model.scheduled.append(window) }
            }
            if model.scheduled.count > ScenarioLimits.scheduledOutages {
                log.record(scheduledReader.invalid("at most \(ScenarioLimits.scheduledOutages) scheduled faults, "
                                                   + "found \(model.scheduled.count)"))
            }
        }
        // Ties broken by length and kind so the order never depends on the file's order.
        model.scheduled.sort { ($0.start, $0.duration, $0.kind.rawValue) < ($1.start, $1.duration, $1.kind.rawValue) }

        if let randomReader = fields.optional(Faults.random), let entryReaders = log.attempt({ try randomReader.array() }) {
            var named = Set<APNsFaultKind>()
            for entryReader in entryReaders {
                let entry = log.attempt { () throws -> RandomAPNsFaults? in
                    let entry = try entryReader.object(Random.object)
                    let kindReader = try entry.required(Random.kind)
                    let faultKind = log.attempt { try kind(kindReader) }
                    let between = log.attempt { try entry.required(Random.between).distribution() }
                    let length = log.attempt { try entry.required(Random.duration).distribution() }
                    if let faultKind, !named.insert(faultKind).inserted {
                        throw kindReader.invalid("random faults of kind \(UserText.quote(faultKind.name)) are named twice")
                    }
                    guard let faultKind, let between, let length else { return nil }
                    return RandomAPNsFaults(kind: faultKind, between: between, duration: length)
                }
                if let entry = entry ?? nil { model.random.append(entry) }
            }
            // Every fault is a window of every block's schedule: bound how many the run expects.
            if let duration {
                let expected = model.expectedRandomFaults(horizon: duration)
                if expected > ScenarioLimits.randomOutages {
                    log.record(randomReader.invalid("about \(format(expected.rounded())) random faults over the run, more than "
                                                    + "\(format(ScenarioLimits.randomOutages)); make them rarer (a longer \"between\")"))
                }
            }
        }
        if let field = fields.optional(Faults.slowLatency), let value = log.attempt({ try field.distribution() }) {
            model.slowLatency = value
        }
        if let field = fields.optional(Faults.reconnect), let value = log.attempt({ try field.distribution() }) {
            model.reconnect = value
        }
        return model
    }
}
