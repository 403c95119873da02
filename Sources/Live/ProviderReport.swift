import Base
import Reports
import Simulator

/// What `pushsim provider` writes at the end, whole or not at all: per device app its own
/// counts beside serve's, and the live run's figures with their standard errors.
public enum ProviderReport {
    /// The files, in the order they are written.
    public static let fileNames = ["provider.csv", "live.json"]

    /// Serve's counts `provider.csv` repeats beside the provider's.
    static let serveColumns: [DeviceAppCount] = [.accepted, .delivered, .shown, .mailsShown, .coalesced, .expired,
                                                 .rerequests, .rerequestErrors, .rerequestTimeouts, .summariesShown,
                                                 .registrationFailures]

    /// `provider.csv`'s columns: the device app, `ProviderLaneCount`'s, then serve's (prefixed `serve_`).
    public static let columns = ["device", "app"] + ProviderLaneCount.allCases.map(\.columnName)
        + serveColumns.map { "serve_" + $0.columnName }

    /// The report of `service`'s run.
    /// - Throws: the accounting problem when the books do not balance (nothing is written then).
    /// - Complexity: O(l) in the device apps.
    public static func files(_ service: ProviderService, command: [String]) throws(AccountingError) -> [(name: String, contents: String)] {
        let provider = service.provider
        if let problem = provider.accountingProblem(inFlight: service.pushesInFlightByLane) { throw AccountingError(description: problem) }
        var rows = CSV.row(columns)
        var totals = ProviderLaneCounts()
        var serveTotals: [String: Int64] = [:]
        var byBlock: [Int: [(LiveFigure, Int64, Int64)]] = [:]
        for lane in provider.lanes {
            let serve = service.serveCounts[ProviderService.Lane(device: lane.device, app: lane.app)] ?? [:]
            totals += lane.counts
            for count in serveColumns { serveTotals[count.columnName, default: 0] += serve[count.columnName] ?? 0 }
            var fields = [String(lane.device), String(lane.app)]
            fields += ProviderLaneCount.allCases.map { String(lane.counts[$0]) }
            fields += serveColumns.map { String(serve[$0.columnName] ?? 0) }
            rows += CSV.row(fields)
            for figure in LiveFigure.allCases {
                byBlock[UserBlocks.block(of: Int(lane.device)), default: []].append((figure, figure.numerator(provider: lane.counts, serve: serve),
                                                           lane.counts[.messages]))
            }
        }
        let figures = LiveFigure.allCases.map { figure in
            let pairs = byBlock.keys.sorted().map { block in
                byBlock[block]!.filter { $0.0 == figure }.reduce((y: Int64(0), x: Int64(0))) { ($0.y + $1.1, $0.x + $1.2) }
            }
            let (value, se) = LiveFigure.ratio(pairs)
            return (figure.name, JSONText.object([("value", JSONText.number(value)), ("se", JSONText.number(se)),
                                                  ("simulated", JSONText.string(figure.simulated))]))
        }
        let scenario = provider.scenario
        let live = JSONText.object(lines: [
            [("version", JSONText.string(PushSimVersion.current)), ("command", JSONText.array(command.map(JSONText.string)))],
            [("scenario", JSONText.string(scenario.name)), ("seed", String(scenario.seed)),
             ("strategy", JSONText.string(provider.strategy.label))],
            [("clock", JSONText.string(service.clockMode)), ("simulatedSeconds", JSONText.number(Double(provider.now) / 1e6)),
             ("serveReconnections", String(service.reconnections)), ("serveRestarts", String(service.restarts))],
            [("deviceApps", String(provider.lanes.count)), ("devices", String(provider.scenario.devices)),
             ("blocks", String(byBlock.count))],
            [("figures", JSONText.object(figures))],
            [("provider", JSONText.object(ProviderLaneCount.allCases.map { ($0.columnName, String(totals[$0])) }))],
            [("serve", JSONText.object(serveColumns.map { ($0.columnName, String(serveTotals[$0.columnName] ?? 0)) }))],
        ])
        return [("provider.csv", rows), ("live.json", live + "\n")]
    }
}
