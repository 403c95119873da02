@testable import Base
@testable import Simulator
import Testing

/// The run's outage schedules: scheduled windows tidied, random ones drawn from the
/// seed once per block of users.
@Suite("Outage schedule")
struct OutageScheduleTests {
    static func window(_ start: SimTime, _ duration: SimDuration) -> OutageWindow {
        OutageWindow(start: start, duration: duration)
    }

    /// Windows are sorted, inside `0..<horizon`, non-empty, and neither overlap nor touch.
    static func isTidy(_ windows: [OutageWindow], horizon: SimDuration) -> Bool {
        for (index, window) in windows.enumerated() {
            guard window.start >= 0, window.duration > 0, window.start + window.duration <= horizon else { return false }
            if index > 0 {
                let previous = windows[index - 1]
                guard previous.start + previous.duration < window.start else { return false }
            }
        }
        return true
    }

    @Test("no outage model: no windows")
    func noModel() {
        #expect(OutageSchedule.draw(nil, seed: 1, horizon: TimeUnit.day) == [[]])
        #expect(OutageSchedule.draw(OutageModel(scheduled: [], between: nil, duration: nil), seed: 1,
                                    horizon: TimeUnit.day) == [[]])
    }

    @Test("scheduled windows are sorted, overlapping and touching ones merged, clipped at the horizon, later ones dropped")
    func scheduledWindowsAreTidied() {
        let scheduled = [Self.window(50, 10), Self.window(0, 5), Self.window(5, 3), Self.window(20, 10),
                         Self.window(25, 2), Self.window(55, 10), Self.window(70, 2), Self.window(70, 5),
                         Self.window(40, 0), Self.window(90, 20), Self.window(100, 5), Self.window(150, 5)]
        let expected = [Self.window(0, 8), Self.window(20, 10), Self.window(50, 15), Self.window(70, 5),
                        Self.window(90, 10)]
        let model = OutageModel(scheduled: scheduled, between: nil, duration: nil)
        #expect(OutageSchedule.draw(model, seed: 1, horizon: 100, block: 0) == expected)
        // The file's order does not matter.
        let reversed = OutageModel(scheduled: scheduled.reversed(), between: nil, duration: nil)
        #expect(OutageSchedule.draw(reversed, seed: 1, horizon: 100, block: 0) == expected)
        // Without random windows the seed plays no part.
        #expect(OutageSchedule.draw(model, seed: 99, horizon: 100, block: 0) == expected)
    }

    @Test("a window ending exactly at the horizon is kept whole; one starting there is dropped")
    func horizonBoundaries() {
        let model = OutageModel(scheduled: [Self.window(90, 10), Self.window(100, 1)], between: nil, duration: nil)
        #expect(OutageSchedule.draw(model, seed: 1, horizon: 100, block: 0) == [Self.window(90, 10)])
        #expect(OutageSchedule.draw(model, seed: 1, horizon: 99, block: 0) == [Self.window(90, 9)])
    }

    static let randomModel = OutageModel(scheduled: [],
                                         between: .exponential(mean: 9 * TimeUnit.hour),
                                         duration: .exponential(mean: TimeUnit.hour))

    @Test("random windows are the same for the same seed and differ for another")
    func randomWindowsFollowTheSeed() {
        let horizon = 30 * TimeUnit.day
        let first = OutageSchedule.draw(Self.randomModel, seed: 42, horizon: horizon, block: 0)
        #expect(first.count > 20)
        #expect(OutageSchedule.draw(Self.randomModel, seed: 42, horizon: horizon, block: 0) == first)
        #expect(OutageSchedule.draw(Self.randomModel, seed: 43, horizon: horizon, block: 0) != first)
        #expect(Self.isTidy(first, horizon: horizon))
    }

    @Test("scheduled and random windows together: every window of either is covered, and the result is tidy")
    func scheduledAndRandomMerge() {
        let horizon = 30 * TimeUnit.day
        let scheduled = [Self.window(2 * TimeUnit.day, TimeUnit.day), Self.window(29 * TimeUnit.day, 3 * TimeUnit.day)]
        var model = Self.randomModel
        model.scheduled = scheduled
        let combined = OutageSchedule.draw(model, seed: 5, horizon: horizon, block: 0)
        let randomOnly = OutageSchedule.draw(Self.randomModel, seed: 5, horizon: horizon, block: 0)
        let scheduledOnly = OutageSchedule.draw(OutageModel(scheduled: scheduled, between: nil, duration: nil),
                                                seed: 5, horizon: horizon, block: 0)
        #expect(Self.isTidy(combined, horizon: horizon))
        // Scheduled windows do not shift the random draws: each part is inside the union.
        for part in randomOnly + scheduledOnly {
            #expect(combined.contains { $0.start <= part.start && part.start + part.duration <= $0.start + $0.duration })
        }
        let down = { (windows: [OutageWindow]) in windows.reduce(0) { $0 + $1.duration } }
        #expect(down(combined) <= down(randomOnly) + down(scheduledOnly))
        #expect(down(combined) >= max(down(randomOnly), down(scheduledOnly)))
        #expect(combined.last.map { $0.start + $0.duration } == horizon)
    }

    @Test("exponential gaps and lengths: the long-run share of time down is E[duration] / (E[between] + E[duration])")
    func randomShareOfTimeDown() {
        // Alternating renewal: up ~ Exp(9 h), down ~ Exp(1 h), share 0.1. Per cycle the
        // reward-rate residual D − 0.1 (U + D) = 0.9 D − 0.1 U has variance 0.81 + 0.81 = 1.62 h²,
        // so with n ≈ 10,000 cycles of mean 10 h the SE is √1.62 / (10 √n) ≈ 0.00127; tolerance 4 SE.
        let horizon = 100_000 * TimeUnit.hour
        let windows = OutageSchedule.draw(Self.randomModel, seed: 7, horizon: horizon, block: 0)
        #expect(Self.isTidy(windows, horizon: horizon))
        let cycles = Double(horizon) / Double(10 * TimeUnit.hour)
        // Window count: a renewal count with CV² = Var(cycle) / E[cycle]² = (81 + 1) / 100, SE ≈ √(0.82 n) ≈ 91.
        #expect(abs(Double(windows.count) - cycles) < 4 * (0.82 * cycles).squareRoot())
        let share = Double(windows.reduce(0) { $0 + $1.duration }) / Double(horizon)
        let standardError = 1.62.squareRoot() / (10 * cycles.squareRoot())
        #expect(abs(share - 0.1) < 4 * standardError)
    }

    @Test("random outages are drawn once per block of users, each block its own; scheduled ones alone give one schedule")
    func randomOutagesArePerBlock() {
        let horizon = 30 * TimeUnit.day
        let schedules = OutageSchedule.draw(Self.randomModel, seed: 42, horizon: horizon)
        #expect(schedules.count == UserBlocks.count)
        #expect(Set(schedules.map { $0.map(\.start) }).count == UserBlocks.count)
        for (block, schedule) in schedules.enumerated() {
            #expect(schedule == OutageSchedule.draw(Self.randomModel, seed: 42, horizon: horizon, block: block))
        }
        let scheduled = OutageModel(scheduled: [Self.window(5, 10)], between: nil, duration: nil)
        #expect(OutageSchedule.draw(scheduled, seed: 42, horizon: horizon) == [[Self.window(5, 10)]])
    }

    @Test("a user's timeline holds its block's outages: users 64 apart share them, neighbours do not")
    func aUserSeesItsBlocksOutages() {
        var scenario = UserTimelineTests.chainScenario
        scenario.chain.provider.outages = Self.randomModel
        let schedules = OutageSchedule.draw(scenario.chain.provider.outages, seed: scenario.seed, horizon: scenario.duration)
        func outageStarts(user: Int) -> [SimTime] {
            var timeline = UserTimeline(scenario: scenario, outages: schedules)
            timeline.drawDevice(seed: scenario.seed, user: user)
            timeline.drawLane(0, seed: scenario.seed, user: user)
            return timeline.lanes[0].entries.compactMap { if case .outage(down: true) = $0.event { $0.time } else { nil } }
        }
        #expect(outageStarts(user: 3) == schedules[3].map(\.start))
        #expect(outageStarts(user: 3 + UserBlocks.count) == outageStarts(user: 3))
        #expect(outageStarts(user: 4) == schedules[4].map(\.start))
        #expect(outageStarts(user: 4) != outageStarts(user: 3))
    }
}
