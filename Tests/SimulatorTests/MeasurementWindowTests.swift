import Base
@testable import Simulator
import TestSupport
import Testing

/// The talk's measurement window, one definition for the fold that counts and the page
/// that shows: a day's mail is measured over launches and uploads until the end of the
/// next day, so the days whose window ends after the run read low.
@Suite("Measurement window")
struct MeasurementWindowTests {
    static func scenario(duration: String) -> Scenario {
        WorldFixtures.scenario("""
        { "name": "window", "seed": 5, "start": "2026-03-02", "duration": "\(duration)", "devices": 30,
          "mail": { "perDay": 25 },
          "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                            "offline": { "distribution": "exponential", "mean": "40m" } },
          "device": { "launches": { "perDay": 3 } },
          "strategies": [{ "name": "no-queue" }, { "name": "queue" }] }
        """)
    }

    @Test("a day's window ends with the next day: the last day of a whole-day run is truncated, the last two of a run ending within a day")
    func truncatedDays() {
        #expect(MeasurementWindow.end(ofDay: 3) == 5 * TimeUnit.day)
        let whole = Self.scenario(duration: "6d")
        #expect((0..<whole.dayCount).filter { whole.measurementTruncated(day: $0) } == [5])
        let partial = Self.scenario(duration: "156h")
        #expect(partial.dayCount == 7)
        #expect((0..<partial.dayCount).filter { partial.measurementTruncated(day: $0) } == [5, 6])
    }

    @Test("a run one day longer changes the measured counts of exactly the days measurementTruncated names, and raises them")
    func longerRunCompletesTruncatedDays() throws {
        let short = Self.scenario(duration: "6d"), long = Self.scenario(duration: "7d")
        let shortRun = try Simulation.run(short, threads: 2), longRun = try Simulation.run(long, threads: 2)
        for (shortAggregate, longAggregate) in zip(shortRun.aggregates, longRun.aggregates) {
            for day in 0..<short.dayCount {
                let before = shortAggregate.daily[day], after = longAggregate.daily[day]
                if short.measurementTruncated(day: day) {
                    #expect(after[.measuredReceived] > before[.measuredReceived], "day \(day)")
                    #expect(after[.measuredSent] >= before[.measuredSent], "day \(day)")
                } else {
                    #expect(after[.measuredSent] == before[.measuredSent], "day \(day)")
                    #expect(after[.measuredReceived] == before[.measuredReceived], "day \(day)")
                }
            }
        }
    }
}
