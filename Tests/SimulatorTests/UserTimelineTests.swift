@testable import Base
@testable import Simulator
import ChildProcesses
import TestSupport
import Testing

/// The user's timeline is drawn once and replayed per strategy, so it must hold
/// exactly the draws the lazy processes make, in the order the kernel documents.
@Suite("User timeline")
struct UserTimelineTests {
    @Test("a mail or launch gap rounds up to the same whole microseconds as rounded(.up), read from its bits")
    func poissonGapRoundsUpLikeCeil() {
        var random = SplitMix64(seed: 32)
        var gaps: [Double] = [-0.0, 0, 0.25, 0.5, 1, 1.5, 2.5, 3.0000001, 999_999_999_999_999.5, 1e15.nextDown]
        for _ in 0..<100_000 {
            // Every magnitude a gap takes, from under a microsecond to the cap.
            let exponent = Int(random.next() % 50) - 2
            gaps.append(random.nextUnitInterval() * Double(sign: .plus, exponent: exponent, significand: 1))
        }
        for gap in gaps where gap < 1e15 {
            #expect(WeeklyPoissonProcess.roundedUp(gap) == SimTime(gap.rounded(.up)), "gap \(gap)")
        }
    }

    static let chainScenario = WorldFixtures.scenario("""
    {
      "name": "timeline", "seed": 11, "start": "2026-01-05", "duration": "14d", "devices": 4,
      "mail": { "perDay": 30 },
      "connectivity": {
        "online": { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "exponential", "mean": "30m" },
        "offlineWindows": [{ "start": "08:15", "duration": { "distribution": "constant", "value": "20m" },
                             "probability": 1, "days": "all" }]
      },
      "provider": {
        "outages": { "scheduled": [{ "start": "2026-01-07T08:15", "duration": "1h" }] },
        "subscriptions": { "changesPerDay": 0.5, "mailShare": 0.5, "syncOn": "launch" }
      },
      "device": {
        "tokenRotation": { "perDay": 0.2, "withPrompt": 0.5 },
        "deviceIDChangesPerDay": 0.2,
        "launches": { "perDay": 5 }
      },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 10 }]
    }
    """)

    static func drawn(_ scenario: Scenario, user: Int, lane: Int = 0) -> UserTimeline.Lane {
        let outages = OutageSchedule.draw(scenario.chain.provider.outages, seed: scenario.seed, horizon: scenario.duration)
        var timeline = UserTimeline(scenario: scenario, outages: outages)
        timeline.drawDevice(seed: scenario.seed, user: user)
        timeline.drawLane(lane, seed: scenario.seed, user: user)
        return timeline.lanes[lane]
    }

    static func times(_ lane: UserTimeline.Lane, where matches: (TimelineEvent) -> Bool) -> [SimTime] {
        lane.entries.filter { matches($0.event) }.map(\.time)
    }

    @Test("Mail instants are the lazy mail process's draws, with folder draws in between")
    func mailMatchesTheLazyProcess() {
        let scenario = Self.chainScenario
        for user in 0..<3 {
            let lane = Self.drawn(scenario, user: user)
            let changes = Self.times(lane) { if case .subscriptionChange = $0 { true } else { false } }
            #expect(!changes.isEmpty)
            // Replay the way the world handled mail before the timeline: one folder
            // draw per mail once a subscription change happened, then the next arrival.
            var process = WeeklyPoissonProcess(model: scenario.mail, firstWeekday: scenario.start.weekday)
            process.reset(multiplier: Double(lane.accounts))
            var random = RandomStream.mail.generator(seed: scenario.seed, user: UInt64(user), lane: 0)
            var expected: [(SimTime, Int32)] = []
            while let arrival = process.next(&random), arrival < scenario.duration {
                let generation = Int32(changes.filter { $0 <= arrival }.count)
                var folder: Int32 = 0
                if generation > 0, random.nextUnitInterval() <= 0.5 { folder = generation }
                expected.append((arrival, folder))
            }
            let mail = lane.entries.compactMap { entry -> (SimTime, Int32)? in
                if case .mail(let folder) = entry.event { (entry.time, folder) } else { nil }
            }
            #expect(mail.count == expected.count)
            #expect(zip(mail, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
            #expect(mail.contains { $0.1 > 0 } && mail.contains { $0.1 == 0 })
        }
    }

    @Test("Connectivity entries are the lazy process's changes and alternate from the state at 0")
    func connectivityMatchesTheLazyProcess() {
        let scenario = Self.chainScenario
        for user in 0..<3 {
            let lane = Self.drawn(scenario, user: user)
            let expected = WiringTests.Connectivity(scenario, user: user)
            let changes = lane.entries.compactMap { entry -> (SimTime, Bool)? in
                if case .connectivity(let online) = entry.event { (entry.time, online) } else { nil }
            }
            #expect(changes.map(\.0) == expected.changes)
            for (index, change) in changes.enumerated() {
                #expect(change.1 == ((index % 2 == 0) != expected.startsOnline))
            }
        }
    }

    @Test("Launches, token rotations and device id changes are their streams' draws")
    func rareProcessesMatchTheirStreams() {
        let scenario = Self.chainScenario
        let user = 2
        let lane = Self.drawn(scenario, user: user)
        let horizon = scenario.duration

        var launches = WeeklyPoissonProcess(model: scenario.chain.device.launches!.rhythm, firstWeekday: scenario.start.weekday)
        var random = RandomStream.launches.generator(seed: scenario.seed, user: UInt64(user), lane: 0)
        var expectedLaunches: [SimTime] = []
        while let launch = launches.next(&random), launch < horizon { expectedLaunches.append(launch) }
        #expect(Self.times(lane) { if case .launch = $0 { true } else { false } } == expectedLaunches)

        // Rotation: the gap, then the prompt coin at the rotation, then the next gap.
        random = RandomStream.tokenRotation.generator(seed: scenario.seed, user: UInt64(user), lane: 0)
        var rotations: [(SimTime, Bool)] = []
        var now: SimTime = 0
        while let next = UserTimeline.nextRare(after: now, perDay: 0.2, horizon: horizon, &random) {
            rotations.append((next, random.nextUnitInterval() <= 0.5))
            now = next
        }
        let drawnRotations = lane.entries.compactMap { entry -> (SimTime, Bool)? in
            if case .tokenRotation(let prompt) = entry.event { (entry.time, prompt) } else { nil }
        }
        #expect(!rotations.isEmpty && drawnRotations.count == rotations.count)
        #expect(zip(drawnRotations, rotations).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })

        // Device id: the gap, then the new id, then the next gap (a device stream: no lane).
        random = RandomStream.deviceIDChange.generator(seed: scenario.seed, user: UInt64(user))
        var ids: [(SimTime, UInt64)] = []
        now = 0
        while let next = UserTimeline.nextRare(after: now, perDay: 0.2, horizon: horizon, &random) {
            ids.append((next, random.next()))
            now = next
        }
        let drawnIDs = lane.entries.compactMap { entry -> (SimTime, UInt64)? in
            if case .deviceIDChange(let id) = entry.event { (entry.time, id) } else { nil }
        }
        #expect(!ids.isEmpty && drawnIDs.count == ids.count)
        #expect(zip(drawnIDs, ids).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    }

    @Test("Entries are in time order; at one instant an outage comes before a connectivity change")
    func entriesAreOrderedWithDocumentedTies() throws {
        let scenario = Self.chainScenario
        // 2026-01-07 08:15: the scheduled outage and the daily offline window start together.
        let instant: SimTime = 2 * TimeUnit.day + 8 * TimeUnit.hour + 15 * TimeUnit.minute
        // A user whose device is online just before, so the window makes a change then.
        let user = try #require((0..<8).first { WiringTests.Connectivity(scenario, user: $0).isOnline(at: instant - 1) })
        let entries = Self.drawn(scenario, user: user).entries
        #expect(zip(entries, entries.dropFirst()).allSatisfy {
            $0.time < $1.time || ($0.time == $1.time && $0.event.phase <= $1.event.phase)
        })
        let atInstant = entries.filter { $0.time == instant }.map(\.event.phase)
        #expect(atInstant == [TimelinePhase.outage, .connectivity])
        // Only an outage's end may lie past the horizon (the kernel stops before it).
        #expect(entries.allSatisfy { $0.time < scenario.duration || $0.event.phase == .outage })
    }

    @Test("A reused timeline redraws for another user and gives the same draws back")
    func reuseAcrossUsersIsExact() {
        let scenario = Self.chainScenario
        var timeline = UserTimeline(scenario: scenario, outages: [])
        func draw(_ user: Int, lanes: Int) -> [[SimTime]] {
            timeline.drawDevice(seed: scenario.seed, user: user)
            return (0..<lanes).map { lane in
                timeline.drawLane(lane, seed: scenario.seed, user: user)
                return timeline.lanes[lane].entries.map(\.time)
            }
        }
        let first = draw(1, lanes: 2)
        let other = draw(2, lanes: 2)
        #expect(first != other)
        #expect(draw(1, lanes: 2) == first)
        // Another seed is another user's world too.
        timeline.drawDevice(seed: scenario.seed + 1, user: 1)
        timeline.drawLane(0, seed: scenario.seed + 1, user: 1)
        #expect(timeline.lanes[0].entries.map(\.time) != first[0])
    }

    @Test("A world that played other users first gives a user the same result as a fresh one")
    func worldReuseDoesNotLeak() throws {
        let scenario = Self.chainScenario
        let plans = scenario.strategies.map { StrategyPlan(strategy: $0, scenario: scenario) }
        func result(_ world: inout World, user: Int) throws -> [StrategyAggregate] {
            try plans.map { plan in
                var aggregate = StrategyAggregate(days: scenario.dayCount)
                try world.run(user: user, plan: plan, seed: scenario.seed, into: &aggregate)
                return aggregate
            }
        }
        var fresh = World(scenario: scenario)
        let expected = try result(&fresh, user: 3)
        var reused = World(scenario: scenario)
        _ = try result(&reused, user: 1)
        _ = try result(&reused, user: 2)
        #expect(try result(&reused, user: 3) == expected)
        #expect(expected.allSatisfy { $0[.messages] > 0 })
    }

    @Test("A lane longer than the window keeps its first window and draw state; the windows joined are the whole lane")
    func windowsJoinedAreTheWholeLane() throws {
        let scenario = Self.chainScenario
        let outages = OutageSchedule.draw(scenario.chain.provider.outages, seed: scenario.seed, horizon: scenario.duration)
        for user in 0..<3 {
            let whole = Self.drawn(scenario, user: user)
            #expect(whole.longDraw == nil && whole.entries.count > 100)
            var timeline = UserTimeline(scenario: scenario, outages: outages, window: 7)
            timeline.drawDevice(seed: scenario.seed, user: user)
            timeline.drawLane(0, seed: scenario.seed, user: user)
            let lane = timeline.lanes[0]
            #expect(lane.entries.count == 7)
            var draw = try #require(lane.longDraw)
            var joined: [TimelineEntry] = []
            var window = ContiguousArray<TimelineEntry>()
            repeat {
                window.removeAll()
                draw.fill(&window, upTo: 7)
                joined += window
            } while !draw.isFinished
            #expect(joined.map(\.time) == whole.entries.map(\.time))
            #expect(joined.map { "\($0.event)" } == whole.entries.map { "\($0.event)" })
            #expect(Array(lane.entries).map(\.time) == Array(joined.prefix(7)).map(\.time))
            #expect(lane.accounts == whole.accounts && lane.displayOff == whole.displayOff)
        }
    }
}
