@testable import Base
@testable import FakeAPNs
import Foundation
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// The delivery chain, scenario by scenario: each loss family's shipped file puts its loss in
/// its own column, the same file without the family's field loses nothing there,
/// and the accounting adds up (`Simulation.run` refuses a result that does not).
@Suite("Loss families", .ownThread(.computing))
struct ChainTests {
    /// Runs a shipped scenario with fewer devices so a debug build stays quick.
    static func run(_ file: String, devices: Int, edit: (inout Scenario) -> Void = { _ in }) throws -> SimulationResult {
        var scenario = WorldFixtures.shipped(file)
        scenario.devices = devices
        edit(&scenario)
        return try Simulation.run(scenario, threads: 2)
    }

    /// Every loss column other than `allowed` is zero in `aggregate`.
    static func onlyLosses(_ allowed: Set<LossReason>, in aggregate: StrategyAggregate) -> Bool {
        LossReason.allCases.allSatisfy { allowed.contains($0) || aggregate.lost($0) == 0 }
    }

    @Test("stale subscriptions: dropped mail lands in lost_stale_subscription for every strategy, and the queue cannot win it back")
    func staleSubscription() throws {
        let result = try Self.run("stale-subscription.json", devices: 120)
        let noQueue = result["no-queue"], queue = result["queue"]
        #expect(noQueue.lost(.staleSubscription) > 0)
        // The provider never numbered those mails: the same ones are lost either way.
        #expect(queue.lost(.staleSubscription) == noQueue.lost(.staleSubscription))
        #expect(queue.chain[.subscriptionChanges] > 0)
        let without = try Self.run("stale-subscription.json", devices: 120) { $0.chain.provider.subscriptions = nil }
        #expect(without["no-queue"].lost(.staleSubscription) == 0)
    }

    @Test("provider network: with failure probability p and r retries an always-online device loses p^(r+1) of its mail")
    func providerNetworkMatchesTheory() throws {
        // 150 devices × 7 days × 24 mails ≈ 25,200 messages; loss 0.2² = 4%,
        // binomial SE = sqrt(0.04 × 0.96 / 25200) ≈ 0.0012; tolerance 4 SE.
        let result = try Self.run("provider-network.json", devices: 150) { scenario in
            scenario.connectivity = nil
            scenario.duration = 7 * TimeUnit.day
            scenario.chain.provider.network?.failureProbability = 0.2
        }
        let noQueue = result["no-queue"]
        let share = Double(noQueue.lost(.providerNetwork)) / Double(noQueue[.messages])
        #expect(abs(share - 0.04) < 4 * (0.04 * 0.96 / Double(noQueue[.messages])).squareRoot())
        #expect(Self.onlyLosses([.providerNetwork], in: noQueue))
        // Each first failure is retried once: about p of the requests.
        #expect(noQueue.chain[.retries] > 0)
    }

    @Test("provider network: the queue re-requests the gaps a lost numbered push leaves")
    func providerNetworkQueueWinsBack() throws {
        let result = try Self.run("provider-network.json", devices: 100)
        let noQueue = result["no-queue"], queue = result["queue"]
        #expect(noQueue.lost(.providerNetwork) > 0)
        #expect(queue.deliverability > noQueue.deliverability)
        #expect(queue.rerequests > 0)
    }

    @Test("provider outage: mail during an outage is lost_provider_outage in proportion to the time down")
    func providerOutageMatchesDowntime() throws {
        // Always online, no random outages, one day down out of ten: 10% of the mail.
        // 150 devices × 10 days × 24 ≈ 36,000 messages, SE ≈ sqrt(0.1 × 0.9 / 36000) ≈ 0.0016.
        let result = try Self.run("provider-outage.json", devices: 150) { scenario in
            scenario.connectivity = nil
            scenario.duration = 10 * TimeUnit.day
            scenario.chain.provider.outages = OutageModel(scheduled: [OutageWindow(start: 3 * TimeUnit.day, duration: TimeUnit.day)],
                                                 between: nil, duration: nil)
        }
        let noQueue = result["no-queue"]
        let share = Double(noQueue.lost(.providerOutage)) / Double(noQueue[.messages])
        #expect(abs(share - 0.1) < 4 * (0.1 * 0.9 / Double(noQueue[.messages])).squareRoot())
        #expect(Self.onlyLosses([.providerOutage], in: noQueue))
        #expect(noQueue.daily[3][.lost] == noQueue.daily[3][.messages])
        // daily.csv explains the dip: the day down lost all its mail to the outage, no other day lost any.
        for day in noQueue.daily.indices {
            #expect(noQueue.lost(.providerOutage, day: day) == (day == 3 ? noQueue.daily[3][.messages] : 0))
        }
    }

    @Test("provider outage and TTL: re-requests are answered with errors and expired positions are counted")
    func providerOutageAnswersErrors() throws {
        let result = try Self.run("provider-outage.json", devices: 100)
        let queue = result["queue"]
        #expect(queue.lost(.providerOutage) > 0)
        #expect(queue.chain[.rerequestErrors] > 0)
        #expect(queue.chain[.positionsExpired] > 0)
        #expect(result["no-queue"].chain[.rerequestErrors] == 0)
    }

    @Test("token rotation: registering only at the prompt loses far more to 410 Unregistered than registering on every launch")
    func tokenRotation() throws {
        let result = try Self.run("token-rotation.json", devices: 100)
        let everyLaunch = result["queue-register-every-launch"], once = result["queue-register-once"]
        #expect(everyLaunch.chain[.tokenRotations] > 0 && everyLaunch.chain[.tokenRotations] == once.chain[.tokenRotations])
        #expect(everyLaunch.lost(.unregistered) > 0)
        #expect(once.lost(.unregistered) > 3 * everyLaunch.lost(.unregistered))
        #expect(everyLaunch.apns[.rejected] > 0)
        #expect(everyLaunch.chain[.registrations] > once.chain[.registrations])
        let without = try Self.run("token-rotation.json", devices: 60) { $0.chain.device.tokenRotation = nil }
        #expect(without.aggregates.allSatisfy { $0.lost(.unregistered) == 0 })
    }

    @Test("rate limit: one push per 10 minutes at 0.2 mails a minute loses 2/3 to 429, the non-paralyzable dead-time share λτ / (1 + λτ)")
    func rateLimitMatchesDeadTime() throws {
        // burst 1 per 10 min: an accepted push blocks the token for τ = 10 min and
        // refused ones do not extend it, so accepted pushes are a renewal process
        // with rate λ / (1 + λτ). λτ = 2 → 2/3 of the mail is refused (no retries).
        // 60 devices × 7 days × 288 ≈ 121,000 messages; binomial SE ≈ 0.0014, tolerance 0.01
        // for the correlation the dead time adds.
        let result = try Self.run("apns-rate-limit.json", devices: 60) { scenario in
            scenario.connectivity = nil
            scenario.mail = MailModel(perDay: 288)
            scenario.chain.apns.rateLimit = APNsRateLimit(burst: 1, window: 10 * TimeUnit.minute)
            scenario.strategies = [scenario.strategies[0]]
        }
        let noQueue = result["no-queue"]
        let share = Double(noQueue.lost(.rateLimited)) / Double(noQueue[.messages])
        #expect(abs(share - 2.0 / 3.0) < 0.01)
        #expect(noQueue.apns[.tooManyRequests] == noQueue.lost(.rateLimited))
        #expect(Self.onlyLosses([.rateLimited], in: noQueue))
    }

    @Test("rate limit: re-request storms hit 429 and the queue wins back less than without the limit")
    func rateLimitStorms() throws {
        let result = try Self.run("apns-rate-limit.json", devices: 60)
        let big = result["queue-max-50"], small = result["queue-max-5"]
        #expect(big.apns[.tooManyRequests] > 0)
        #expect(small.apns[.tooManyRequests] < big.apns[.tooManyRequests])
        #expect(result["no-queue"].apns[.tooManyRequests] == 0)
        let without = try Self.run("apns-rate-limit.json", devices: 60) { $0.chain.apns.rateLimit = nil }
        #expect(without.aggregates.allSatisfy { $0.lost(.rateLimited) == 0 && $0.apns[.tooManyRequests] == 0 })
        // A re-send refused by 429 leaves its message lost where it was first lost.
        #expect(big.deliverability < without["queue-max-50"].deliverability - 0.05)
    }

    @Test("APNs storage and order: jitter reorders, priority 5 is held for power, and the console counters add up")
    func storageAndPriority() throws {
        let result = try Self.run("apns-storage-priority.json", devices: 80)
        for aggregate in result.aggregates {
            #expect(aggregate.chain[.reordered] > 0)
            #expect(aggregate.lost(.apnsCoalesced) > 0)
            // Every stored or delivered notification was accepted first; each ends once.
            let apns = aggregate.apns
            #expect(apns[.accepted] == aggregate[.pushesSent] - apns[.rejected] - apns[.tooManyRequests])
        }
        #expect(result["no-queue"].apns[.storedPower] == 0)
        #expect(result["no-queue-priority-5"].apns[.storedPower] > 0)
        #expect(result["queue-priority-5"].apns[.storedPower] > 0)
        #expect(result["no-queue"].apns[.discardedReplaced] == result["no-queue"].lost(.apnsCoalesced))
    }

    @Test("nondeterministic storage: when an older push may survive, the same offline stretches lose as many but deliver older mail")
    func nondeterministicStorage() throws {
        // One survivor per offline stretch either way, so the coalesced count barely moves;
        // but a coin that keeps an older push makes the survivor's mail older at reconnect.
        func run(_ storage: APNsStoragePolicy) throws -> StrategyAggregate {
            try Self.run("apns-storage-priority.json", devices: 60) { scenario in
                scenario.latency = LatencyModel()
                scenario.chain.apns.lowPriorityDeferral = nil
                scenario.chain.apns.storage = storage
                scenario.strategies = [scenario.strategies[0]]
            }["no-queue"]
        }
        let latest = try run(.latest), coin = try run(.nondeterministic(closeTogether: TimeUnit.hour))
        #expect(latest[.messages] == coin[.messages])
        let lostLatest = Double(latest.lost(.apnsCoalesced)), lostCoin = Double(coin.lost(.apnsCoalesced))
        #expect(abs(lostCoin - lostLatest) / lostLatest < 0.02)
        #expect(coin.latency.quantile(0.95)! > latest.latency.quantile(0.95)!)
        #expect(coin.apns[.discardedReplaced] == coin.lost(.apnsCoalesced))
    }

    @Test("notification settings: disabled, alerts not allowed and display off each land in their own column; iOS < 10 shows without the extension")
    func notificationSettings() throws {
        let result = try Self.run("notification-settings.json", devices: 200)
        let noQueue = result["no-queue"]
        #expect(noQueue.lost(.disabled) > 0)
        #expect(noQueue.lost(.alertsNotAllowed) > 0)
        #expect(noQueue.lost(.displayOff) > 0)
        #expect(noQueue.chain[.extensionNotRun] > 0)
        #expect(noQueue.apns[.discardedDisabled] == noQueue.lost(.disabled))
        // 10% of device apps disabled: per-device Bernoulli, SE = sqrt(0.1 × 0.9 / 200) ≈ 0.021.
        let share = Double(noQueue.lost(.disabled)) / Double(noQueue[.messages])
        #expect(abs(share - 0.1) < 4 * 0.021)
        let without = try Self.run("notification-settings.json", devices: 60) { $0.chain = ChainModel() }
        #expect(without.aggregates.allSatisfy { Self.onlyLosses([.apnsCoalesced], in: $0) && $0.chain[.extensionNotRun] == 0 })
    }

    @Test("extension limits: slow re-requests time out and big footprints are killed, while the originals are still shown")
    func extensionLimits() throws {
        let result = try Self.run("extension-limits.json", devices: 100)
        let noQueue = result["no-queue"], queue = result["queue"]
        #expect(queue.chain[.extensionTimedOut] > 0)
        #expect(noQueue.chain[.extensionTimedOut] == 0)
        #expect(noQueue.chain[.extensionKilled] > 0 && queue.chain[.extensionKilled] > 0)
        // A killed invocation logs nothing: fewer logged than reached the device.
        #expect(noQueue[.logged] < noQueue[.reachedDevice])
        #expect(Self.onlyLosses([.apnsCoalesced], in: noQueue))
    }

    @Test("identity and apps: a device id change defeats the hash check until the app registers again; more apps and accounts mean more messages")
    func identityAndApps() throws {
        let result = try Self.run("identity-and-apps.json", devices: 80)
        let queue = result["queue"], once = result["queue-register-once"]
        #expect(queue.chain[.deviceIDChanges] > 0)
        #expect(once.chain[.hashMismatches] > queue.chain[.hashMismatches])
        let single = try Self.run("identity-and-apps.json", devices: 80) {
            $0.chain.device.apps = .one
            $0.chain.device.accounts = .one
        }
        // Mean accounts 1.5 and apps 1.3: about 1.95 × the mail.
        let ratio = Double(queue[.messages]) / Double(single["queue"][.messages])
        #expect(ratio > 1.7 && ratio < 2.2)
    }

    @Test("measurement: with instant delivery and one launch a day the talk's method reports E[1 − e^(−(2−u))] / (1 − e^(−2)) ≈ 0.8876")
    func measuredDeliverabilityMatchesTheory() throws {
        // Always online, no latency, no taps: everything is delivered and logged at once;
        // the measured figure only misses logs no launch uploaded by the end of the next day.
        // Users who launched on day d or d + 1 count; mail arrives uniformly in the day.
        let result = try Self.run("measurement.json", devices: 300) { scenario in
            scenario.connectivity = nil
            scenario.chain.device.taps = nil
            scenario.chain.device.launches = LaunchModel(rhythm: MailModel(perDay: 1))
        }
        let noQueue = result["no-queue"]
        #expect(noQueue.deliverability == 1)
        // The last day has no next day inside the run: leave it out.
        let days = noQueue.daily.dropLast()
        let sent = days.reduce(0) { $0 + $1[.measuredSent] }, received = days.reduce(0) { $0 + $1[.measuredReceived] }
        let measured = Double(received) / Double(sent)
        let theory = (1 - exp(-2.0) * (exp(1.0) - 1)) / (1 - exp(-2.0))
        // Launches are shared by a user's mail of a day: about 300 × 13 user-days, a per-day
        // share with SD ≈ 0.3 gives SE ≈ 0.3 / sqrt(3400) ≈ 0.005; tolerance 4 SE.
        #expect(abs(measured - theory) < 0.02)
    }

    @Test("measurement: the funnel narrows stage by stage and about 14.4% of shown notifications are opened")
    func funnel() throws {
        let result = try Self.run("measurement.json", devices: 150)
        for aggregate in result.aggregates {
            #expect(aggregate[.messages] >= aggregate[.providerSent])
            #expect(aggregate[.providerSent] >= aggregate[.apnsAccepted])
            #expect(aggregate[.apnsAccepted] >= aggregate[.reachedDevice])
            #expect(aggregate[.reachedDevice] >= aggregate[.delivered])
            #expect(aggregate[.logged] >= aggregate[.uploaded])
            #expect(aggregate[.measuredSent] > 0)
            #expect(aggregate.measuredDeliverability < aggregate.deliverability)
            // Taps: binomial over shown notifications, SE = sqrt(0.144 × 0.856 / delivered) ≈ 0.002.
            let openRate = Double(aggregate[.opened]) / Double(aggregate[.delivered])
            #expect(abs(openRate - 0.144) < 4 * (0.144 * 0.856 / Double(aggregate[.delivered])).squareRoot())
        }
    }
}
