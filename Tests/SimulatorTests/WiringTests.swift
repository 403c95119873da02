import FakeAPNs
import Testing
@testable import Simulator

/// The world's wiring, one rule at a time, on small always-online fixtures with no
/// latency, where the expected counts are exact. Where the count depends on the
/// mail itself, the test replays the lane's mail stream (seed, user, lane) through
/// `MailProcess` as the world does, and compares message for message.
@Suite("World wiring")
struct WiringTests {
    static let start = "2026-01-05"
    static let days = 3

    /// Always online, no latency, 24 mails a day, none in the day's last hour (so a
    /// retry or timeout of the last mail never runs past the end of the run).
    static func scenario(devices: Int = 40, provider: String? = nil, device: String? = nil, connectivity: String? = nil,
                         strategies: String = #"{ "name": "no-queue" }, { "name": "queue" }"#) -> Scenario {
        let diurnal = (Array(repeating: "1", count: 23) + ["0"]).joined(separator: ", ")
        return WorldFixtures.scenario("""
        { "name": "wiring", "seed": 17, "start": "\(start)", "duration": "\(days)d", "devices": \(devices),
          "mail": { "perDay": 24, "diurnal": [\(diurnal)] },
          \(connectivity.map { #""connectivity": { \#($0) },"# } ?? "")
          \(provider.map { #""provider": { \#($0) },"# } ?? "")
          \(device.map { #""device": { \#($0) },"# } ?? "")
          "strategies": [\(strategies)] }
        """)
    }

    /// The mail arrival times of `user`'s app `lane`, as the world draws them.
    static func arrivals(_ scenario: Scenario, user: Int, lane: Int = 0, accounts: Int = 1) -> [SimTime] {
        var process = MailProcess(model: scenario.mail, firstWeekday: scenario.start.weekday)
        process.reset(multiplier: Double(accounts))
        var rng = RandomStream.mail.generator(seed: scenario.seed, user: UInt64(user), lane: lane)
        var times: [SimTime] = []
        while let time = process.next(&rng), time < scenario.duration { times.append(time) }
        return times
    }

    static func run(_ scenario: Scenario) throws -> SimulationResult {
        let result = try Simulation.run(scenario, threads: 2)
        #expect(result.checkIdentity() == nil)
        return result
    }

    // MARK: Accounts and apps

    @Test("accounts: 3 merges three mail streams into the app: exactly the lane's stream at 3× the rate")
    func threeAccountsTripleTheMail() throws {
        let scenario = Self.scenario(device: #""accounts": 3"#)
        let result = try Self.run(scenario)
        let replayed = (0..<scenario.devices).reduce(0) { $0 + Self.arrivals(scenario, user: $1, accounts: 3).count }
        // 40 devices × 3 weekdays × 24 × 3 = 8,640 expected; Poisson SE √8640 ≈ 93; tolerance 4 SE.
        let expected = Double(scenario.devices * Self.days * 24 * 3)
        #expect(abs(Double(replayed) - expected) < 4 * expected.squareRoot())
        for aggregate in result.aggregates {
            #expect(aggregate.messages == Int64(replayed))
            #expect(aggregate.delivered == aggregate.messages)
        }
        let single = try Self.run(Self.scenario())
        let singleReplayed = (0..<scenario.devices).reduce(0) { $0 + Self.arrivals(scenario, user: $1).count }
        #expect(single["no-queue"].messages == Int64(singleReplayed))
        #expect(abs(Double(singleReplayed) - expected / 3) < 4 * (expected / 3).squareRoot())
    }

    @Test("apps: 2 plays a second app with its own mail stream; the first app's is the user's own")
    func twoAppsAreTwoLanes() throws {
        let scenario = Self.scenario(device: #""apps": 2"#)
        let result = try Self.run(scenario)
        var first = 0, second = 0, differing = 0
        for user in 0..<scenario.devices {
            let lane0 = Self.arrivals(scenario, user: user, lane: 0)
            let lane1 = Self.arrivals(scenario, user: user, lane: 1)
            first += lane0.count
            second += lane1.count
            if lane0 != lane1 { differing += 1 }
        }
        #expect(differing == scenario.devices)
        for aggregate in result.aggregates {
            #expect(aggregate.messages == Int64(first + second))
            #expect(aggregate.delivered == aggregate.messages)
        }
        // One app: only lane 0, the same draws as before apps existed.
        let single = try Self.run(Self.scenario())
        #expect(single["no-queue"].messages == Int64(first))
    }

    /// What no-queue gives for one app's `arrivals` on a device whose connectivity is
    /// replayed from the device's own stream, with no latency: mail while online is
    /// shown; of the mail of one offline period APNs keeps the latest, shown at the
    /// reconnect (pending if the run ends first) and the others are coalesced.
    static func noQueueOutcome(_ scenario: Scenario, user: Int, arrivals: [SimTime])
        -> (delivered: Int64, coalesced: Int64, pending: Int64) {
        var process = ConnectivityProcess(model: scenario.connectivity!, firstWeekday: scenario.start.weekday,
                                          horizon: scenario.duration)
        var rng = RandomStream.connectivity.generator(seed: scenario.seed, user: UInt64(user))
        var online = process.start(&rng)
        var change = process.nextChange(&rng)
        var delivered: Int64 = 0, coalesced: Int64 = 0, held: Int64 = 0
        // Applies the changes up to `time` (the world drops those at or after the end):
        // a reconnect delivers the one notification APNs held.
        func advance(to time: SimTime) {
            while let next = change, next <= time, next < scenario.duration {
                online = process.isOnline
                if online && held > 0 {
                    delivered += 1
                    coalesced += held - 1
                    held = 0
                }
                change = process.nextChange(&rng)
            }
        }
        for arrival in arrivals {
            advance(to: arrival)
            if online { delivered += 1 } else { held += 1 }
        }
        advance(to: scenario.duration)
        // Still offline at the end: APNs holds the latest (pending); the others were replaced.
        if held > 0 { coalesced += held - 1 }
        return (delivered, coalesced, held > 0 ? 1 : 0)
    }

    @Test("apps on one device share its connectivity and its device id changes: each app's mail meets the same online periods")
    func appsShareTheDevice() throws {
        let connectivity = #""online": { "distribution": "exponential", "mean": "2h" }, "#
            + #""offline": { "distribution": "exponential", "mean": "1h" }"#
        let scenario = Self.scenario(devices: 30, device: #""apps": 2, "deviceIDChangesPerDay": 1"#,
                                     connectivity: connectivity, strategies: #"{ "name": "no-queue" }"#)
        var delivered: Int64 = 0, coalesced: Int64 = 0, pending: Int64 = 0
        for user in 0..<scenario.devices {
            for lane in 0..<2 {
                let outcome = Self.noQueueOutcome(scenario, user: user, arrivals: Self.arrivals(scenario, user: user, lane: lane))
                delivered += outcome.delivered
                coalesced += outcome.coalesced
                pending += outcome.pending
            }
        }
        #expect(coalesced > 0 && pending > 0)
        let result = try Self.run(scenario)["no-queue"]
        #expect(result.delivered == delivered)
        #expect(result.lost(.apnsCoalesced) == coalesced && result.lost == coalesced)
        #expect(result.pending == pending)
        // The device id process is the device's: both apps see every change.
        var oneApp = scenario
        oneApp.chain.apps = .one
        let single = try Self.run(oneApp)["no-queue"]
        #expect(single.deviceIDChanges > 0)
        #expect(result.deviceIDChanges == 2 * single.deviceIDChanges)
    }

    // MARK: Notification settings

    @Test("notificationsDisabled: 1: APNs accepts every push and discards it; every message is lost_disabled")
    func disabledLosesEverything() throws {
        let result = try Self.run(Self.scenario(device: #""notificationsDisabled": 1"#))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.lost(.disabled) == aggregate.messages && aggregate.lost == aggregate.messages)
            #expect(aggregate.apns.discardedDisabled == aggregate.messages)
            #expect(aggregate.providerSent == aggregate.messages && aggregate.apnsAccepted == aggregate.messages)
            #expect(aggregate.reachedDevice == 0 && aggregate.rerequests == 0)
        }
    }

    @Test("a rotated token keeps the app's disabled setting: nothing is ever delivered")
    func disabledSurvivesTokenRotation() throws {
        // Rotations about every 8 h and launches about every 2 h (which register the new
        // token): with notifications on, most mail is delivered to rotated tokens.
        let device = #""tokenRotation": { "perDay": 3 }, "launches": { "perDay": 12 }"#
        let enabled = try Self.run(Self.scenario(device: device))["no-queue"]
        #expect(enabled.tokenRotations > 0)
        #expect(enabled.delivered > enabled.messages / 2)
        let disabled = try Self.run(Self.scenario(device: device + #", "notificationsDisabled": 1"#))["no-queue"]
        #expect(disabled.tokenRotations == enabled.tokenRotations)
        #expect(disabled.delivered == 0)
        #expect(disabled.lost(.disabled) + disabled.lost(.unregistered) == disabled.messages)
        #expect(disabled.apns.discardedDisabled == disabled.lost(.disabled))
        // Mail to rotated tokens is discarded as disabled too, not only the first token's.
        #expect(disabled.lost(.disabled) > disabled.messages / 2)
    }

    @Test("alertsNotAllowed: 1: every push that reaches the device is lost_alerts_not_allowed, and the extension never runs")
    func alertsNotAllowedLosesEverything() throws {
        let result = try Self.run(Self.scenario(device: #""alertsNotAllowed": 1"#))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.lost(.alertsNotAllowed) == aggregate.messages && aggregate.lost == aggregate.messages)
            #expect(aggregate.reachedDevice == aggregate.messages)
            #expect(aggregate.logged == 0 && aggregate.rerequests == 0 && aggregate.extensionNotRun == 0)
        }
    }

    @Test("displayOff: 1: every push that reaches the device is lost_display_off")
    func displayOffLosesEverything() throws {
        let result = try Self.run(Self.scenario(device: #""displayOff": 1"#))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.lost(.displayOff) == aggregate.messages && aggregate.lost == aggregate.messages)
            #expect(aggregate.reachedDevice == aggregate.messages && aggregate.logged == 0)
        }
    }

    @Test("legacyIOS: 1: every push is shown without the extension, nothing is logged, and the talk measures nobody")
    func legacyIOSShowsWithoutTheExtension() throws {
        let launches = #""launches": { "perDay": 4 }"#
        let result = try Self.run(Self.scenario(device: launches + #", "legacyIOS": 1"#))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.delivered == aggregate.messages)
            // Always online, no latency: one presentation per message, each without the extension.
            #expect(aggregate.extensionNotRun == aggregate.delivered && aggregate.duplicatesShown == 0)
            #expect(aggregate.logged == 0 && aggregate.uploaded == 0 && aggregate.rerequests == 0)
            #expect(aggregate.launches > 0)
            #expect(aggregate.measuredSent == 0 && aggregate.measuredReceived == 0)
        }
        // The same devices on iOS ≥ 10 are measured.
        let modern = try Self.run(Self.scenario(device: launches))
        for aggregate in modern.aggregates {
            #expect(aggregate.extensionNotRun == 0 && aggregate.logged == aggregate.messages)
            #expect(aggregate.measuredSent > 0)
        }
    }

    // MARK: Launches and taps

    @Test("the talk's measurement in the world is the launch log replayed: counted with a launch on the mail's day or the next, received when one follows its log by then")
    func measurementFollowsTheLaunches() throws {
        let scenario = Self.scenario(device: #""launches": { "perDay": 1.5 }"#, strategies: #"{ "name": "no-queue" }"#)
        let day = TimeUnit.day
        var sent = [Int64](repeating: 0, count: Self.days), received = [Int64](repeating: 0, count: Self.days)
        var uploaded: Int64 = 0, launchCount: Int64 = 0
        for user in 0..<scenario.devices {
            var process = MailProcess(model: scenario.chain.launches!.rhythm, firstWeekday: scenario.start.weekday)
            process.reset()
            var rng = RandomStream.launches.generator(seed: scenario.seed, user: UInt64(user), lane: 0)
            var launches: [SimTime] = []
            while let time = process.next(&rng), time < scenario.duration { launches.append(time) }
            launchCount += Int64(launches.count)
            // Always online with no latency: each mail is logged the instant it arrives.
            for arrival in Self.arrivals(scenario, user: user) {
                let mailDay = Int(arrival / day)
                let dayStart = SimTime(mailDay) * day
                let upload = launches.first { $0 >= arrival }
                if upload != nil { uploaded += 1 }
                guard launches.contains(where: { $0 >= dayStart && $0 < dayStart + 2 * day }) else { continue }
                sent[mailDay] += 1
                if let upload, upload < dayStart + 2 * day { received[mailDay] += 1 }
            }
        }
        let result = try Self.run(scenario)["no-queue"]
        #expect(result.launches == launchCount)
        #expect(result.daily.map(\.measuredSent) == sent)
        #expect(result.daily.map(\.measuredReceived) == received)
        #expect(result.uploaded == uploaded)
        // A real gap between the talk's figure and the truth (1 here), or the test would prove little.
        #expect(result.delivered == result.messages)
        #expect(received.reduce(0, +) < sent.reduce(0, +) && sent.reduce(0, +) < result.messages)
    }


    @Test("taps.probability: 1 with no delay opens every delivered message, and each tap's launch uploads its log at once")
    func everyNotificationIsTapped() throws {
        let result = try Self.run(Self.scenario(device: #""taps": { "probability": 1 }"#))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.delivered == aggregate.messages)
            #expect(aggregate.opened == aggregate.delivered)
            // No launch rhythm: every launch is a tap.
            #expect(aggregate.launches == aggregate.opened)
            #expect(aggregate.logged == aggregate.messages && aggregate.uploaded == aggregate.messages)
            #expect(aggregate.measuredSent == aggregate.messages && aggregate.measuredReceived == aggregate.messages)
        }
    }

    // MARK: Provider outages and retries

    @Test("a scheduled outage covering the whole run loses every message to lost_provider_outage, and nothing is sent")
    func wholeRunOutage() throws {
        let outage = #""outages": { "scheduled": [{ "start": "\#(Self.start)T00:00", "duration": "\#(Self.days)d" }] }"#
        let result = try Self.run(Self.scenario(provider: outage))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.lost(.providerOutage) == aggregate.messages && aggregate.lost == aggregate.messages)
            #expect(aggregate.pushesSent == 0 && aggregate.providerSent == 0)
        }
    }

    @Test("a scheduled outage loses exactly the mail that arrives inside it; the rest is delivered")
    func partialOutage() throws {
        // Day 1, 06:00 to 12:00.
        let outage = #""outages": { "scheduled": [{ "start": "2026-01-06T06:00", "duration": "6h" }] }"#
        let scenario = Self.scenario(provider: outage)
        let window = (TimeUnit.day + 6 * TimeUnit.hour)..<(TimeUnit.day + 12 * TimeUnit.hour)
        let inside = (0..<scenario.devices).reduce(0) { total, user in
            total + Self.arrivals(scenario, user: user).filter { window.contains($0) }.count
        }
        #expect(inside > 0)
        let result = try Self.run(scenario)
        for aggregate in result.aggregates {
            #expect(aggregate.lost(.providerOutage) == Int64(inside) && aggregate.lost == Int64(inside))
            #expect(aggregate.delivered == aggregate.messages - Int64(inside))
            #expect(aggregate.daily[1].lost == Int64(inside))
            #expect(aggregate.providerSent == aggregate.messages - Int64(inside))
        }
    }

    @Test("a network that never answers: each message makes 1 + retries requests, retries are counted, and it ends lost_provider_network")
    func retriesAreRequestsNotCopies() throws {
        let network = #""network": { "failureProbability": 1 }, "retries": 2, "backoff": "1s""#
        let result = try Self.run(Self.scenario(provider: network))
        for aggregate in result.aggregates {
            #expect(aggregate.messages > 0)
            #expect(aggregate.pushesSent == 3 * aggregate.messages)
            #expect(aggregate.retries == 2 * aggregate.messages)
            #expect(aggregate.lost(.providerNetwork) == aggregate.messages && aggregate.pending == 0)
            #expect(aggregate.providerSent == aggregate.messages && aggregate.apnsAccepted == 0)
        }
    }

    @Test("a retry that falls due during an outage is lost to the outage, not to the network")
    func retryDueDuringOutageIsAnOutageLoss() throws {
        // Every request times out after 10 s; the one retry comes 1 h later; outage on day 1, 06:00–12:00.
        let provider = #""network": { "failureProbability": 1 }, "retries": 1, "backoff": "1h", "#
            + #""outages": { "scheduled": [{ "start": "2026-01-06T06:00", "duration": "6h" }] }"#
        let scenario = Self.scenario(provider: provider)
        let window = (TimeUnit.day + 6 * TimeUnit.hour)..<(TimeUnit.day + 12 * TimeUnit.hour)
        let timeout = 10 * TimeUnit.second
        var outage: Int64 = 0, network: Int64 = 0, pending: Int64 = 0
        for user in 0..<scenario.devices {
            for arrival in Self.arrivals(scenario, user: user) {
                let retry = arrival + timeout + TimeUnit.hour
                if window.contains(arrival) || window.contains(retry) {
                    outage += 1
                } else if retry + timeout <= scenario.duration - 1 {
                    network += 1
                } else {
                    pending += 1
                }
            }
        }
        #expect(outage > 0)
        let result = try Self.run(scenario)
        for aggregate in result.aggregates {
            #expect(aggregate.lost(.providerOutage) == outage)
            #expect(aggregate.lost(.providerNetwork) == network)
            #expect(aggregate.pending == pending)
        }
    }
}
