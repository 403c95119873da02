import Base
import FakeAPNs
import Simulator

/// The device apps' counts summed: what `GET /counters`, `GET /metrics` and `serve.json`
/// report, added up in one place.
struct PopulationTotals {
    /// `devices.csv`'s counts, summed.
    var counts = DeviceAppCounts()
    /// Refusals by `APNsReason.index`.
    var rejections = [Int64](repeating: 0, count: APNsReason.allCases.count)
    /// What became of the background pushes (`run`'s `background.csv` columns).
    var background = BackgroundCounts()

    /// - Complexity: O(device apps).
    init(_ population: LivePopulation) {
        for lane in population.lanes {
            counts += lane.counts
            for index in rejections.indices { rejections[index] += lane.rejections[index] }
            background += lane.background
        }
    }

    /// The background counts as a JSON object, by `background.csv`'s column names.
    /// - Complexity: O(counters).
    var backgroundJSON: String {
        JSONText.object(BackgroundCounter.allCases.map { ($0.columnName, String(background[$0])) })
    }
}
