import Base
import FakeAPNs
import Reports
import Simulator

/// What serve writes at the end of a run, whole or not at all (the CLI writes the files
/// as `run` does): per device app what happened to the pushes it was sent, the refusals by
/// reason, and the run's totals with how it ended.
public enum ServeReport {
    /// The files, in the order they are written.
    public static let fileNames = ["devices.csv", "rejections.csv", "steering.csv", "serve.json"]

    /// `steering.csv`'s columns: each steering action taken, in order (`LivePopulation.steerings`).
    public static let steeringColumns = ["time", "microseconds", "device", "app", "action", "source"]

    /// `devices.csv`'s columns: the device app, then `DeviceAppCount`'s, then what APNs still holds.
    public static let deviceColumns = ["device", "app", "topic", "token"] + DeviceAppCount.allCases.map(\.columnName) + ["held"]

    /// The report files of `service`'s run, ended for `ending`.
    /// - Throws: the accounting problem when the books do not balance (nothing is written then).
    /// - Complexity: O(l × (t + m)) for l device apps, t tokens and m messages waiting.
    public static func files(_ service: ServeService, ending: ServeService.Ending,
                             command: [String]) throws(AccountingError) -> [(name: String, contents: String)] {
        let population = service.population
        if let problem = population.accountingProblem() { throw AccountingError(description: problem) }
        var devices = CSV.row(deviceColumns)
        var rejections = CSV.row(["device", "app", "reason", "status", "count"])
        let totals = PopulationTotals(population)
        var held: Int64 = 0
        for (lane, deviceApp) in population.lanes.enumerated() {
            let laneHeld = Int64(population.held(lane: Int32(lane)).count)
            held += laneHeld
            devices += CSV.row([String(deviceApp.device), String(deviceApp.app), population.topic(ofApp: deviceApp.app),
                                population.tokens.hex(deviceApp.phone.token)]
                               + DeviceAppCount.allCases.map { String(deviceApp.counts[$0]) } + [String(laneHeld)])
            for reason in APNsReason.allCases where deviceApp.rejections[reason.index] > 0 {
                rejections += CSV.row([String(deviceApp.device), String(deviceApp.app), reason.name, String(reason.status),
                                       String(deviceApp.rejections[reason.index])])
            }
        }
        var steering = CSV.row(steeringColumns)
        for record in population.steerings {
            let deviceApp = population.lanes[Int(record.lane)]
            steering += CSV.row([LiveClock.iso8601(record.time, start: population.scenario.start), String(record.time),
                                 String(deviceApp.device), String(deviceApp.app), record.action.name, record.source.text])
        }
        let endingName = switch ending {
        case .endReached: "end reached"
        case .stopRequested: "stop requested"
        case .signal: "signal"
        }
        let scenario = population.scenario
        let summary = JSONText.object(lines: [
            [("version", JSONText.string(PushSimVersion.current)), ("command", JSONText.array(command.map(JSONText.string)))],
            [("scenario", JSONText.string(scenario.name)), ("seed", String(scenario.seed)),
             ("strategy", JSONText.string(population.strategy.label))],
            [("apnsURL", service.apnsURL.map(JSONText.string) ?? "null"), ("apnsCA", service.apnsCAFile.map(JSONText.string) ?? "null")],
            [("ended", JSONText.string(endingName)), ("simulatedSeconds", JSONText.number(Double(population.now) / 1e6)),
             ("endedAt", service.time(population.now))],
            [("deviceApps", String(population.lanes.count)), ("requests", String(population.serials)),
             ("steeringActions", String(population.steerings.count)), ("testTokens", String(population.testDevices))],
            [("answers", JSONText.object(service.answered.map { (String($0.status), String($0.count)) }))],
            [("counts", service.countsJSON(totals.counts)), ("held", String(held))],
            [("apns", JSONText.object(APNsCounter.allCases.map { ($0.columnName, String(population.apns.counters[$0])) }))],
        ] + Self.faultLines(service) + Self.backgroundLines(totals))
        return [("devices.csv", devices), ("rejections.csv", rejections), ("steering.csv", steering), ("serve.json", summary + "\n")]
    }

    /// `background`: what became of the background pushes, when any was sent.
    /// - Complexity: O(counters).
    static func backgroundLines(_ totals: PopulationTotals) -> [[(String, String)]] {
        guard totals.background[.sent] > 0 else { return [] }
        return [[("background", totals.backgroundJSON)]]
    }

    /// `faults`: the requests each APNs fault kind met, when one met any (ServeFaults.swift).
    /// - Complexity: O(kinds).
    static func faultLines(_ service: ServeService) -> [[(String, String)]] {
        guard service.faults.requests.contains(where: { $0 > 0 }) else { return [] }
        return [[("faults", JSONText.object(APNsFaultKind.allCases.map { ($0.name, String(service.faults.requests[Int($0.rawValue)])) }))]]
    }
}
