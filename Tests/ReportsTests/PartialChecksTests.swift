@testable import Base
@testable import CLI
import Foundation
@testable import Reports
@testable import Simulator
import Synchronization
import TestSupport
import Testing
import TestThreads

/// The rules `merge` checks on every part: real runs never break them, each one fires
/// on the damage it names, and no damaged part, however mutated, crashes the merge.
@Suite("Partial result checks")
struct PartialChecksTests {
    // MARK: Real runs obey every rule

    @Test("every shipped scenario obeys every rule, user by user and summed", .ownThread(.computing),
          arguments: WorldFixtures.shippedFiles)
    func shippedScenariosObeyEveryRule(file: String) throws {
        var scenario = WorldFixtures.shipped(file)
        // A rule that holds for each user holds for their sums; single users are the
        // sharpest test (a sum can hide one user's excess under another's slack).
        scenario.devices = 40
        // busy-device.json's million mails a day would make this slow, not sharper.
        scenario.mail.perDay = min(scenario.mail.perDay, 2_000)
        for user in 0..<scenario.devices {
            let result = try Simulation.run(scenario, users: user..<(user + 1))
            for (strategy, aggregate) in zip(result.strategies, result.aggregates) {
                #expect(PartialChecks.violation(in: aggregate) == nil, "\(file) user \(user) \(strategy.label)")
            }
        }
        let whole = try Simulation.run(scenario, threads: 2)
        for aggregate in whole.aggregates { #expect(PartialChecks.violation(in: aggregate) == nil, "\(file)") }
    }

    // MARK: Each rule fires

    /// Valid: every field nonzero, every rule holding (ReportsTests' fixture).
    static var valid: StrategyAggregate { HandBuilt.aggregate(1) }

    typealias Damage = @Sendable (inout StrategyAggregate) -> Void

    static let damages: [(String, Damage, String)] = [
        ("a negative count", { $0[.messages] = -1 }, "messages -1 < 0"),
        ("a negative loss", { $0.lostByReason[Int(LossReason.rateLimited.rawValue)] = -1 }, "lost_rate_limited -1 < 0"),
        ("a negative chain counter", { $0.chain[.retries] = -5 }, "retries -5 < 0"),
        ("a negative APNs counter", { $0.apns[.bounced] = -1 }, "apns bounced -1 < 0"),
        ("a negative day count", { $0.daily[1][.pending] = -2 }, "day 2 pending -2 < 0"),
        ("a loss without a reason", { $0.lostByReason[0] = 1 }, "a loss without a reason was counted"),
        ("losses adding up past Int64.max", { $0.lostByReason[1] = .max }, "the lost_* counts add up past 9223372036854775807"),
        ("a message in no bucket", { $0[.messages] += 1 },
         "delivered 70 + summarized 10 + lost 15 + pending 5 ≠ messages 101"),
        ("a day not adding up", { $0.daily[0][.lost] += 1; $0.daily[1][.lost] -= 1 },
         "day 1: delivered 42 + summarized 6 + lost 10 + pending 3 ≠ messages 60"),
        ("a day measuring more than its messages", { $0.daily[0][.measuredSent] = 61; $0.daily[1][.measuredSent] = 19 },
         "day 1: measured_sent 61 > messages 60"),
        ("a day receiving more than it measured", { $0.daily[0][.measuredReceived] = 29; $0.daily[1][.measuredReceived] = 31 },
         "day 2: measured_received 31 > measured_sent 30"),
        ("messages moved from delivered to summarized in the totals only", { $0[.delivered] -= 1; $0[.summarized] += 1 },
         "the daily delivered add up to 70, the total is 69"),
        ("days not adding up to the totals", { $0[.messages] += 1; $0.pending += 1 },
         "the daily messages add up to 100, the total is 101"),
        ("a day's reasons not adding up to its lost", { $0.dailyLostByReason[0] -= 1; $0.dailyLostByReason[11] += 1 },
         "day 1: the lost_* counts add up to 8, its lost is 9"),
        ("a reason's days not adding up to its total", { $0.dailyLostByReason[0] -= 1; $0.dailyLostByReason[1] += 1 },
         "the daily lost_apns_coalesced add up to 4, the total is 5"),
        ("a negative day loss", { $0.dailyLostByReason[13] = -1 }, "day 2 lost by reason -1 < 0"),
        ("launches by day that are not the chain's", { $0.chain[.launches] += 1 },
         "the daily launches add up to 12, the chain's launches are 13"),
        ("Console days that are not APNs's accepted", { $0.daily[1][.consoleReceived] += 1; $0[.consoleReceived] += 1; $0.countAllInBlock() },
         "the daily console_received add up to 121, apns accepted is 120"),
        ("Console days that are not APNs's hand-outs", { $0.daily[1][.consoleDelivered] -= 1; $0[.consoleDelivered] -= 1; $0.countAllInBlock() },
         "the daily console_delivered add up to 109, apns delivered + delivered_from_storage is 110"),
        ("a latency for a message not delivered", { $0.latency.record(5) }, "latency was recorded for 71 messages, 70 delivered"),
        ("more sent than messages", { $0[.providerSent] = 101 }, "provider_sent 101 > messages 100"),
        ("more accepted than messages", { $0[.apnsAccepted] = 101 }, "apns_accepted 101 > messages 100"),
        ("more reaching the device than messages", { $0[.reachedDevice] = 101 }, "reached_device 101 > messages 100"),
        ("more logged than messages", { $0[.logged] = 101 }, "logged 101 > messages 100"),
        ("more uploaded than logged", { $0[.uploaded] = 67 }, "uploaded 67 > logged 66"),
        ("more opened than delivered", { $0[.opened] = 71 }, "opened 71 > delivered 70"),
        ("more measured than sent", { $0[.providerSent] = 79 }, "measured_sent 80 > provider_sent 79"),
        ("more measured received than uploaded", { $0[.uploaded] = 59 }, "measured_received 60 > uploaded 59"),
        ("more messages sent than requests", { $0[.pushesSent] = 97 }, "provider_sent 98 > pushes_sent 97"),
        ("more messages accepted than 200s", { $0.apns[.accepted] = 94 }, "apns_accepted 95 > apns accepted 94"),
        ("more messages at the device than APNs handed out", { $0.apns[.delivered] = 60 },
         "reached_device 85 > apns delivered + delivered_from_storage 80"),
        ("APNs answering more requests than were sent", { $0.apns[.rejected] = 8 },
         "apns accepted 120 + rejected 8 + too_many_requests 3 > pushes_sent 130"),
        ("more bounces than hand-outs", { $0.apns[.bounced] = 111 }, "apns bounced 111 > delivered + delivered_from_storage 110"),
        ("more handed out from storage than stored", { $0.apns[.storedOffline] = 19 },
         "apns delivered_from_storage 20 > stored_offline 19"),
        ("more notifications leaving APNs than entered it", { $0.apns[.discardedExpired] = 7 },
         "apns delivered + delivered_from_storage + discarded_* 127 > accepted + bounced 126"),
    ]

    @Test("the fixture obeys every rule")
    func fixtureIsValid() {
        #expect(PartialChecks.violation(in: Self.valid) == nil)
    }

    @Test("each rule fires on the damage it names", arguments: damages)
    func ruleFires(name: String, damage: Damage, message: String) {
        var aggregate = Self.valid
        damage(&aggregate)
        #expect(PartialChecks.violation(in: aggregate) == message, "\(name)")
    }

    @Test("parts each valid whose sum passes Int64.max are refused with the part and the count named, the sum unchanged")
    func mergeOverflowNamed() throws {
        let scenario = HandBuilt.scenario
        var huge = StrategyAggregate(days: 2)
        let half = Int64.max / 2 + 1
        huge[.messages] = half
        huge[.delivered] = half
        huge.daily[0][.messages] = half
        huge.daily[0][.delivered] = half
        huge.latency.add(bucket: 0, count: UInt64(half))
        huge.countAllInBlock()
        #expect(PartialChecks.violation(in: huge) == nil)
        let part = SimulationResult(strategies: scenario.strategies, aggregates: [huge, huge, huge], users: 5, events: 1)
        var merged = part
        do {
            try merged.merge(part: part, file: "p2.json")
            Issue.record("merged past Int64.max")
        } catch {
            #expect(error.description == "p2.json: strategy no-queue: messages summed over the parts passes 9223372036854775807")
        }
        #expect(merged == part)
        var events = SimulationResult(strategies: scenario.strategies, aggregates: part.aggregates.map { _ in .init(days: 2) },
                                      users: 5, events: .max)
        #expect(throws: PartialResult.DecodingError.self) { try events.merge(part: events, file: "p2.json") }
    }

    // MARK: Mutated partials through `pushsim merge`

    /// Two shards of a small run with losses, summaries and pending messages, as text.
    static func parts() throws -> [String] {
        let scenario = WorldFixtures.scenario(CommandFixtures.shardedJSON)
        return try (1...2).map { index in
            let users = Simulation.shardRange(index: index, count: 2, devices: scenario.devices)
            let result = try Simulation.run(scenario, users: users)
            return PartialResult(scenarioText: CommandFixtures.shardedJSON, seed: scenario.seed, shard: (index, 2),
                                 result: result).encoded()
        }
    }

    /// The values a number is mutated to: the limits, their neighbours, and small moves.
    static func mutatedNumbers(of value: Int64) -> [String] {
        ["0", "-1", "1", String(Int64.max), String(Int64.max - 1), String(Int64.min), String(Int64.max / 2 + 1),
         "9223372036854775808", String(value &+ 1), String(value &- 1), String(value &* 2), String(value / 2)]
    }

    /// Merges `first` (mutated) with the untouched second part; returns the exit code
    /// and, on success, summary.csv.
    static func merge(_ first: String, _ second: String, in folder: URL) throws -> (ExitCode, String?) {
        let one = folder.appendingPathComponent("one.json").path, two = folder.appendingPathComponent("two.json").path
        let out = folder.appendingPathComponent("out")
        try? FileManager.default.removeItem(at: out)
        try Data(first.utf8).write(to: URL(fileURLWithPath: one))
        try Data(second.utf8).write(to: URL(fileURLWithPath: two))
        let code = PushSimCommand.main(["merge", one, two, "--out", out.path], console: CapturedConsole().console)
        let summary = try? String(contentsOf: out.appendingPathComponent("summary.csv"), encoding: .utf8)
        return (code, summary)
    }

    /// summary.csv's own identity: every row's buckets add up to its messages.
    static func summaryAddsUp(_ summary: String) -> Bool {
        let rows = summary.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let columns = rows[0].map(String.init)
        func column(_ name: String) -> Int { columns.firstIndex(of: name)! }
        return rows.dropFirst().allSatisfy { row in
            let value = { (name: String) in Int64(row[column(name)])! }
            return value("delivered") + value("summarized") + value("lost") + value("pending") == value("messages")
        }
    }

    /// The first part mutated, deterministically: numbers set to the limits and their
    /// neighbours, and single bytes replaced, deleted or doubled.
    static func mutants(of text: String) -> [String] {
        var mutants: [String] = []
        // Numbers: integers before the embedded scenario, each set to every interesting value in turn.
        let body = text[..<text.range(of: "\"scenario\":")!.lowerBound]
        let numbers = body.ranges(of: /-?[0-9]+/)
        var random = SplitMix64(seed: 2026)
        for _ in 0..<16 {
            let range = numbers[Int(random.next() % UInt64(numbers.count))]
            for value in mutatedNumbers(of: Int64(text[range]) ?? 0) {
                mutants.append(text.replacingCharacters(in: range, with: value))
            }
        }
        // Bytes: anywhere, the scenario included.
        let bytes = Array(text.utf8)
        let replacements = Array("0123456789-,.:[]{}\"e ".utf8)
        for _ in 0..<120 {
            var mutated = bytes
            let index = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0: mutated[index] = replacements[Int(random.next() % UInt64(replacements.count))]
            case 1: mutated.remove(at: index)
            default: mutated.insert(mutated[index], at: index)
            }
            mutants.append(String(decoding: mutated, as: UTF8.self))
        }
        return mutants
    }

    static let batches = 4

    @Test("merge of byte- and number-mutated parts exits 0 with reports that add up, or 65; never a crash",
          arguments: 0..<batches)
    func mutatedPartsNeverCrash(batch: Int) throws {
        let parts = try Self.parts()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-mutated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.merge(parts[0], parts[1], in: folder).0 == .success)
        let mutants = Self.mutants(of: parts[0]).enumerated().filter { $0.offset % Self.batches == batch }.map(\.element)
        var accepted = 0, refused = 0
        for mutant in mutants {
            let (code, summary) = try Self.merge(mutant, parts[1], in: folder)
            #expect(code == .success || code == .dataError, "exit \(code.rawValue)")
            if code == .success {
                accepted += 1
                #expect(summary.map(Self.summaryAddsUp) == true)
            } else {
                refused += 1
            }
        }
        // Most damage is caught; some (a digit inside the scenario's description, a
        // latency moved to a neighbouring bucket) is harmless and merges, as the events' count does.
        #expect(refused > mutants.count / 2, "\(accepted) accepted, \(refused) refused")
        let harmless = parts[0].replacing(/"events":([0-9]+)/) { "\"events\":\(Int($0.1)! + 1)" }
        #expect(harmless != parts[0])
        #expect(try Self.merge(harmless, parts[1], in: folder).0 == .success)
    }
}
