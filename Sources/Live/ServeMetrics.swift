import Base
import FakeAPNs
import Simulator

/// `GET /metrics`: serve's counts in Prometheus's text format, under the names its reports
/// use. Each family follows from a counter's declaration (`APNsCounter`, `DeviceAppCount`,
/// `APNsReason`), never from a list kept here: a counter added there is exported here.
extension ServeService {
    /// Every metric's prefix.
    static let metricPrefix = "pushsim_"

    /// The metric name of counter group `group` (`GET /counters`'s key, in snake_case) and column `column`.
    /// - Complexity: O(n).
    static func counterMetricName(group: String, column: String) -> String { metricPrefix + group + "_" + column + "_total" }

    /// The exposition: the run's identity, the clock, APNs's counters, the device apps'
    /// counts summed, refusals by reason, answers by status.
    /// - Complexity: O(device apps × counters).
    func metricsText() -> String {
        let sums = PopulationTotals(population)
        let (totals, rejections) = (sums.counts, sums.rejections)
        let strategy = [("strategy", population.strategy.label)]
        var out = PrometheusText()
        out.family(Self.metricPrefix + "run_info", help: "What serve runs: the scenario, its seed and the strategy (GET /).", kind: .gauge,
                   samples: [([("scenario", population.scenario.name), ("seed", String(population.scenario.seed))] + strategy, 1)])
        out.family(Self.metricPrefix + "device_apps", help: "Device apps in the population.", kind: .gauge,
                   samples: [(strategy, Int64(population.lanes.count))])
        out.family(Self.metricPrefix + "clock_microseconds", help: "The simulated clock: microseconds since the run's start (GET /clock).",
                   kind: .gauge, samples: [([], population.now)])
        let apns = population.apns.counters
        for counter in APNsCounter.allCases {
            out.family(Self.counterMetricName(group: "apns", column: counter.columnName),
                       help: "APNs's \(Self.words(counter.columnName)): the Push Console's count, GET /counters apns.\(counter.columnName).",
                       kind: .counter, samples: [(strategy, apns[counter])])
        }
        for count in DeviceAppCount.allCases {
            out.family(Self.counterMetricName(group: "device_apps", column: count.columnName),
                       help: "The device apps' \(Self.words(count.columnName)), summed: devices.csv's \(count.columnName) column, "
                           + "GET /counters deviceApps.\(count.columnName).",
                       kind: .counter, samples: [(strategy, totals[count])])
        }
        for counter in BackgroundCounter.allCases {
            out.family(Self.counterMetricName(group: "background", column: counter.columnName),
                       help: "Background pushes, \(Self.words(counter.columnName)): run's background.csv column, "
                           + "GET /counters background.\(counter.columnName).",
                       kind: .counter, samples: [(strategy, sums.background[counter])])
        }
        out.family(Self.metricPrefix + "rejections_total",
                   help: "Requests APNs refused, by reason and status: rejections.csv summed, GET /counters rejections.",
                   kind: .counter, samples: APNsReason.allCases.map {
                       (strategy + [("reason", $0.name), ("status", String($0.status))], rejections[$0.index])
                   })
        out.family(Self.metricPrefix + "answers_total", help: "Requests answered on APNs's listener, by HTTP status: serve.json's answers.",
                   kind: .counter, samples: answered.map { ([("status", String($0.status))], $0.count) })
        return out.text
    }

    /// `a_column_name` as words: `a column name`.
    /// - Complexity: O(n).
    static func words(_ column: String) -> String { column.split(separator: "_").joined(separator: " ") }
}
