@testable import Base
@testable import FakeAPNs
import Foundation
@testable import Reports
@testable import Simulator
import TestSupport
import Testing

/// Report files, the stdout table and the partial-result format, on aggregates built by
/// hand with every field set, so each column can be checked to the digit.
@Suite("Reports of hand-built aggregates")
struct ReportsTests {
    /// no-queue: ×1, queue: ×2, queue-as-published: nothing at all (every ratio empty).
    static let result = SimulationResult(strategies: HandBuilt.scenario.strategies,
                                         aggregates: [HandBuilt.aggregate(1), HandBuilt.aggregate(2), StrategyAggregate(days: 2)],
                                         users: 10, events: 4_321)

    /// The `Int64` stored properties of a value, by reflection: catches a field added later.
    static func int64Fields(of value: Any) -> [(String, Int64)] {
        Mirror(reflecting: value).children.compactMap { child in (child.value as? Int64).map { (child.label ?? "?", $0) } }
    }

    /// `measuredSent` → `measured_sent`, for comparing field labels with count names.
    static func snakeCase(_ label: String) -> String {
        label.reduce(into: "") { text, character in
            text += character.isUppercase ? "_" + character.lowercased() : String(character)
        }
    }

    // MARK: CSV files

    @Test("the hand-built aggregate has every field nonzero and adds up")
    func fixtureSetsEveryField() {
        let aggregate = HandBuilt.aggregate(1)
        #expect(aggregate.checkIdentity() == nil)
        #expect(Self.int64Fields(of: aggregate).filter { $0.1 == 0 }.map(\.0) == [])
        #expect(Self.int64Fields(of: aggregate).count == 4)
        #expect(!aggregate.outcomes.values.contains(0) && aggregate.outcomes.values.count == OutcomeCounter.allCases.count)
        #expect(!aggregate.chain.values.contains(0))
        for day in aggregate.daily { #expect(!day.values.contains(0) && day.values.count == DayCounter.allCases.count) }
        #expect(!aggregate.apns.values.contains(0))
        #expect(!aggregate.lostByReason.dropFirst().contains(0))
    }

    @Test("summary.csv: every column, in order, with measured deliverability beside deliverability and the chain counters last")
    func summaryText() {
        let lostOnes = Array(repeating: "1", count: LossReason.allCases.count - 1).joined(separator: ",")
        let lostTwos = Array(repeating: "2", count: LossReason.allCases.count - 1).joined(separator: ",")
        let lostZeros = Array(repeating: "0", count: LossReason.allCases.count).joined(separator: ",")
        #expect(LossReason.allCases.count == 11)
        // The counts and the rates first; each rate's standard error and interval after them (`summaryEstimates`).
        let summary = Reports(scenario: HandBuilt.scenario, result: Self.result).summary
        let counted = summary.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).prefix(43).joined(separator: ",")
        }.joined(separator: "\n")
        #expect(counted == """
        strategy,messages,delivered,summarized,lost,pending,deliverability,measured_deliverability,informed_rate,\
        pushes_sent,rerequests,duplicates_shown,collapsed,latency_p50_s,latency_p95_s,latency_p99_s,\
        lost_apns_coalesced,lost_apns_expired,lost_apns_rejected,lost_unregistered,lost_stale_subscription,\
        lost_provider_network,lost_provider_outage,lost_rate_limited,lost_disabled,lost_alerts_not_allowed,\
        lost_display_off,pushes_per_message,extension_not_run,extension_killed,extension_timed_out,hash_mismatches,\
        reordered,retries,rerequest_errors,positions_expired,token_rotations,device_id_changes,registrations,\
        launches,subscription_changes,rerequest_answers_missed,app_updates
        no-queue,100,70,10,15,5,0.700000,0.750000,0.800000,130,12,3,4,1.999,29.884,29.884,5,\(lostOnes),1.3000,\
        1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        queue,200,140,20,30,10,0.700000,0.750000,0.800000,260,24,6,8,1.999,29.884,29.884,10,\(lostTwos),1.3000,\
        2,4,6,8,10,12,14,16,18,20,22,24,26,28,30
        queue-as-published,0,0,0,0,0,,,,0,0,0,0,,,,\(lostZeros),,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

        """)
        #expect(Reports.summaryColumns.count == 43 + 4 * 3 + LossReason.allCases.count * 4 + Reports.recoveryColumns.count)
    }

    @Test("summary.csv: each rate's standard error and 95% interval follow the counters, the lost shares with their values")
    func summaryEstimates() {
        let lines = Reports(scenario: HandBuilt.scenario, result: Self.result).summary.split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(43).joined(separator: ",") }
        let lostColumns = LossReason.allCases.map { reason in
            ["", "_se", "_low", "_high"].map { "lost_" + reason.columnName + "_share" + $0 }.joined(separator: ",")
        }.joined(separator: ",")
        #expect(lines[0] == "deliverability_se,deliverability_low,deliverability_high,informed_rate_se,informed_rate_low,"
                + "informed_rate_high,measured_deliverability_se,measured_deliverability_low,measured_deliverability_high,"
                + "pushes_per_message_se,pushes_per_message_low,pushes_per_message_high," + lostColumns
                + ",recovered,recovered_latency_p50_s,recovered_latency_p95_s,first_copy_latency_p95_s")
        // Every count sits in one block of users (countAllInBlock): the blocks do not spread, so each
        // standard error is 0 and each interval is its value. (EstimatesTests computes spread ones.)
        let otherShares = Array(repeating: "0.010000,0.000000,0.010000,0.010000", count: LossReason.allCases.count - 1)
        #expect(lines[1] == (["0.000000,0.700000,0.700000", "0.000000,0.800000,0.800000", "0.000000,0.750000,0.750000",
                              "0.000000,1.300000,1.300000", "0.050000,0.000000,0.050000,0.050000"] + otherShares
                              + ["0,,,29.884"]).joined(separator: ","))
        // Nothing to divide by: no value, no standard error, no interval.
        #expect(lines[3] == (Array(repeating: "", count: 4 * 3 + LossReason.allCases.count * 4) + ["0", "", "", ""])
                                .joined(separator: ","))
    }

    @Test("daily.csv: the talk's measured sent, received and deliverability after the true deliverability, then lost by reason")
    func dailyText() {
        #expect(Reports(scenario: HandBuilt.scenario, result: Self.result).daily == """
        strategy,date,messages,delivered,summarized,lost,pending,deliverability,measured_sent,measured_received,\
        measured_deliverability,launches,console_received,console_delivered,lost_apns_coalesced,lost_apns_expired,\
        lost_apns_rejected,lost_unregistered,\
        lost_stale_subscription,lost_provider_network,lost_provider_outage,lost_rate_limited,lost_disabled,\
        lost_alerts_not_allowed,lost_display_off,deliverability_se,measured_deliverability_se
        no-queue,2026-03-02,60,42,6,9,3,0.700000,50,38,0.760000,7,70,60,5,1,1,1,1,0,0,0,0,0,0,0.000000,0.000000
        no-queue,2026-03-03,40,28,4,6,2,0.700000,30,22,0.733333,5,50,50,0,0,0,0,0,1,1,1,1,1,1,0.000000,0.000000
        queue,2026-03-02,120,84,12,18,6,0.700000,100,76,0.760000,14,140,120,10,2,2,2,2,0,0,0,0,0,0,0.000000,0.000000
        queue,2026-03-03,80,56,8,12,4,0.700000,60,44,0.733333,10,100,100,0,0,0,0,0,2,2,2,2,2,2,0.000000,0.000000
        queue-as-published,2026-03-02,0,0,0,0,0,,0,0,,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,
        queue-as-published,2026-03-03,0,0,0,0,0,,0,0,,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,

        """)
    }

    @Test("funnel.csv: one row per strategy and stage in chain order, share of the messages")
    func funnelText() {
        #expect(Reports(scenario: HandBuilt.scenario, result: Self.result).funnel == """
        strategy,stage,messages,share,share_se,share_low,share_high
        no-queue,messages,100,1.000000,0.000000,1.000000,1.000000
        no-queue,provider_sent,98,0.980000,0.000000,0.980000,0.980000
        no-queue,apns_accepted,95,0.950000,0.000000,0.950000,0.950000
        no-queue,reached_device,85,0.850000,0.000000,0.850000,0.850000
        no-queue,shown,70,0.700000,0.000000,0.700000,0.700000
        no-queue,logged,66,0.660000,0.000000,0.660000,0.660000
        no-queue,uploaded,60,0.600000,0.000000,0.600000,0.600000
        no-queue,opened,20,0.200000,0.000000,0.200000,0.200000
        queue,messages,200,1.000000,0.000000,1.000000,1.000000
        queue,provider_sent,196,0.980000,0.000000,0.980000,0.980000
        queue,apns_accepted,190,0.950000,0.000000,0.950000,0.950000
        queue,reached_device,170,0.850000,0.000000,0.850000,0.850000
        queue,shown,140,0.700000,0.000000,0.700000,0.700000
        queue,logged,132,0.660000,0.000000,0.660000,0.660000
        queue,uploaded,120,0.600000,0.000000,0.600000,0.600000
        queue,opened,40,0.200000,0.000000,0.200000,0.200000
        queue-as-published,messages,0,,,,
        queue-as-published,provider_sent,0,,,,
        queue-as-published,apns_accepted,0,,,,
        queue-as-published,reached_device,0,,,,
        queue-as-published,shown,0,,,,
        queue-as-published,logged,0,,,,
        queue-as-published,uploaded,0,,,,
        queue-as-published,opened,0,,,,

        """)
    }

    @Test("apns.csv: the strategy, then every APNs counter in APNsCounters order")
    func apnsText() {
        #expect(Reports(scenario: HandBuilt.scenario, result: Self.result).apns == """
        strategy,accepted,rejected,too_many_requests,delivered,delivered_from_storage,bounced,stored_offline,stored_power,\
        discarded_unregistered,discarded_expired,discarded_disabled,discarded_replaced
        no-queue,120,7,3,90,20,6,25,2,4,1,1,5
        queue,240,14,6,180,40,12,50,4,8,2,2,10
        queue-as-published,0,0,0,0,0,0,0,0,0,0,0,0

        """)
    }

    @Test("files lists the five reports, in order, with their contents")
    func filesListsFour() {
        let reports = Reports(scenario: HandBuilt.scenario, result: Self.result)
        #expect(reports.files.map(\.name) == ["summary.csv", "daily.csv", "funnel.csv", "apns.csv", "compare.csv"])
        #expect(reports.files.map(\.contents) == [reports.summary, reports.daily, reports.funnel, reports.apns, reports.compare])
        #expect(Reports.listing(Reports.fileNames) == "summary.csv, daily.csv, funnel.csv, apns.csv and compare.csv")
        #expect(Reports.listing(["one.csv"]) == "one.csv")
    }

    // MARK: Every declared counter

    @Test("every declared counter, given a value of its own, reaches its summary.csv / apns.csv column, the table, the partial format and the merge")
    func everyCounterReachesEveryOutput() throws {
        // Distinct values, so a counter written under another's column shows. APNs's
        // obey PartialChecks (answers ≤ requests, exits ≤ entries, …): decoding checks them.
        var aggregate = StrategyAggregate(days: 2)
        aggregate[.pushesSent] = 1_000_000
        for counter in ChainCounter.allCases { aggregate.chain[counter] = 1_000 + 7 * Int64(counter.rawValue) }
        // The chain's launches are the days' (a balance rule).
        aggregate.daily[1][.launches] = aggregate.chain[.launches]
        aggregate[.launches] = aggregate.chain[.launches]
        for counter in APNsCounter.allCases { aggregate.apns[counter] = 100 + Int64(counter.rawValue) }
        aggregate.apns[.accepted] = 50_000
        // The Console's days are APNs's counters (balance rules).
        aggregate.daily[0][.consoleReceived] = aggregate.apns[.accepted]
        aggregate[.consoleReceived] = aggregate.apns[.accepted]
        aggregate.daily[0][.consoleDelivered] = aggregate.apns[.delivered] + aggregate.apns[.deliveredFromStorage]
        aggregate[.consoleDelivered] = aggregate.daily[0][.consoleDelivered]
        aggregate.countAllInBlock()
        let scenario = HandBuilt.scenario
        let single = SimulationResult(strategies: [scenario.strategies[0]], aggregates: [aggregate], users: 10, events: 1)
        let reports = Reports(scenario: scenario, result: single)

        /// Column name → value of the first data row.
        func row(_ csv: String) -> [String: String] {
            let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(Set(lines[0]).count == lines[0].count, "a column name appears twice")
            return Dictionary(uniqueKeysWithValues: zip(lines[0], lines[1]))
        }
        let summary = row(reports.summary), apns = row(reports.apns)
        let tableLines = reports.table.split(separator: "\n").map(String.init)
        for counter in ChainCounter.allCases {
            let value = String(aggregate.chain[counter])
            #expect(summary[counter.columnName] == value, "summary.csv \(counter.columnName)")
            let label = counter.columnName.replacingOccurrences(of: "_", with: " ")
            #expect(tableLines.contains { $0.hasPrefix(label + " ") && $0.hasSuffix(" " + value) }, "table \(label)")
        }
        for counter in APNsCounter.allCases {
            #expect(apns[counter.columnName] == String(aggregate.apns[counter]), "apns.csv \(counter.columnName)")
        }
        #expect(Reports.apnsColumns == ["strategy"] + APNsCounter.allCases.map(\.columnName))
        let counters = Reports.summaryColumns.firstIndex(of: "pushes_per_message")! + 1
        #expect(Reports.summaryColumns[counters..<(counters + ChainCounter.allCases.count)]
                == ArraySlice(ChainCounter.allCases.map(\.columnName)))

        // The partial format: encode → decode keeps every counter; two parts merge by adding.
        let three = [aggregate, aggregate, aggregate]
        let first = try decode(partial(three, shard: (1, 2)).encoded())
        let second = try decode(partial(three, shard: (2, 2)).encoded())
        #expect(first.result.aggregates == three)
        var merged = first.result
        try merged.merge(part: second.result, file: "part 2")
        for counter in ChainCounter.allCases { #expect(merged.aggregates[0].chain[counter] == 2 * aggregate.chain[counter]) }
        for counter in APNsCounter.allCases { #expect(merged.aggregates[0].apns[counter] == 2 * aggregate.apns[counter]) }
    }

    @Test("a counter's column is its case name in snake_case, a run of capitals one word")
    func counterColumnNames() {
        #expect(ChainCounter.deviceIDChanges.columnName == "device_id_changes")
        #expect(APNsCounter.tooManyRequests.columnName == "too_many_requests")
        // Raw values index the storage: 0, 1, 2, … in declaration order.
        #expect(ChainCounter.allCases.map(\.rawValue) == Array(ChainCounter.allCases.indices))
        #expect(APNsCounter.allCases.map(\.rawValue) == Array(APNsCounter.allCases.indices))
    }

    // MARK: The stdout table

    @Test("the table shows measured deliverability after deliverability and every chain counter that happened")
    func tableWithCounters() {
        #expect(Reports(scenario: HandBuilt.scenario, result: Self.result).table == """
        hand: 10 devices, 2 days from 2026-03-02, seed 5
                                        no-queue           queue  queue-as-published
        messages                             100             200                   0
        deliverability             70.00% ± 0.00   70.00% ± 0.00                   –
        measured deliverability    75.00% ± 0.00   75.00% ± 0.00                   –
        informed rate              80.00% ± 0.00   80.00% ± 0.00                   –
        delivered                             70             140                   0
        summarized                            10              20                   0
        lost                                  15              30                   0
          apns_coalesced                       5              10                   0
          apns_expired                         1               2                   0
          apns_rejected                        1               2                   0
          unregistered                         1               2                   0
          stale_subscription                   1               2                   0
          provider_network                     1               2                   0
          provider_outage                      1               2                   0
          rate_limited                         1               2                   0
          disabled                             1               2                   0
          alerts_not_allowed                   1               2                   0
          display_off                          1               2                   0
        pending                                5              10                   0
        pushes per message         1.300 ± 0.000   1.300 ± 0.000                   –
        re-requests                           12              24                   0
        duplicates shown                       3               6                   0
        collapsed                              4               8                   0
        latency p50 / p95 (s)     1.999 / 29.884  1.999 / 29.884               – / –
        extension not run                      1               2                   0
        extension killed                       2               4                   0
        extension timed out                    3               6                   0
        hash mismatches                        4               8                   0
        reordered                              5              10                   0
        retries                                6              12                   0
        rerequest errors                       7              14                   0
        positions expired                      8              16                   0
        token rotations                        9              18                   0
        device id changes                     10              20                   0
        registrations                         11              22                   0
        launches                              12              24                   0
        subscription changes                  13              26                   0
        rerequest answers missed              14              28                   0
        app updates                           15              30                   0

        minus no-queue, paired (± = half-width of the 95% interval)
                                           queue  queue-as-published
        deliverability           +0.00 pp ± 0.00                   –
        measured deliverability  +0.00 pp ± 0.00                   –
        informed rate            +0.00 pp ± 0.00                   –
        pushes per message        +0.000 ± 0.000                   –

        """)
    }

    @Test("the table hides chain counters that are zero for every strategy")
    func tableHidesZeroCounters() {
        var quiet = HandBuilt.aggregate(1)
        quiet.chain = ChainCounts()
        var retriesOnly = quiet
        retriesOnly.chain[.retries] = 3
        func labels(_ aggregates: [StrategyAggregate]) -> [String] {
            let result = SimulationResult(strategies: Array(HandBuilt.scenario.strategies.prefix(aggregates.count)),
                                          aggregates: aggregates, users: 1, events: 0)
            let lines = Reports(scenario: HandBuilt.scenario, result: result).table.split(separator: "\n")
            let latency = lines.firstIndex { $0.hasPrefix("latency p50") }!
            let comparison = lines.firstIndex { $0.hasPrefix("minus ") } ?? lines.endIndex
            // A label ends where the padding before the first column begins (two spaces or more).
            return lines[(latency + 1)..<comparison].map { line in
                String(line.components(separatedBy: "  ").first ?? "").trimmingCharacters(in: .whitespaces)
            }
        }
        #expect(labels([quiet, quiet]) == [])
        #expect(labels([quiet, retriesOnly]) == ["retries"])
        #expect(labels([retriesOnly, quiet]) == ["retries"])
        #expect(labels([HandBuilt.aggregate(1)]) == ChainCounter.allCases.map { $0.columnName.replacingOccurrences(of: "_", with: " ") })
    }

    // MARK: Partial results

    /// A part holding `aggregates`, with the user count its shard has (decoding checks it).
    private func partial(_ aggregates: [StrategyAggregate], shard: (Int, Int) = (1, 2)) -> PartialResult {
        let users = Simulation.shardRange(index: shard.0, count: shard.1, devices: HandBuilt.scenario.devices).count
        return PartialResult(scenarioText: HandBuilt.scenarioJSON, seed: 5, shard: shard,
                             result: SimulationResult(strategies: HandBuilt.scenario.strategies, aggregates: aggregates,
                                                      users: Int64(users), events: 99))
    }

    private func decode(_ text: String) throws(PartialResult.DecodingError) -> PartialResult {
        try PartialResult.decode(Array(text.utf8), file: "part.json").partial
    }

    @Test("the partial format holds every outcome counter and every other Int64 field of an aggregate, once, and a day's counters")
    func partialFormatCoversEveryField() {
        // An outcome or a field added to StrategyAggregate without a place in `counts` fails this.
        let names = StrategyAggregate.counts.map(\.name)
        let fields = Self.int64Fields(of: StrategyAggregate(days: 1)).map { Self.snakeCase($0.0) }
        #expect(names.count == Set(names).count)
        #expect(Set(names) == Set(OutcomeCounter.allCases.map(\.columnName) + fields))
        #expect(names.count == OutcomeCounter.allCases.count + fields.count)
        // Format 6's order, then the outcomes added since (format 7: `launches`, the Console's).
        #expect(names == ["messages", "delivered", "summarized", "pending", "pushes_sent", "rerequests", "duplicates_shown",
                          "collapsed", "provider_sent", "apns_accepted", "reached_device", "logged", "uploaded", "opened",
                          "measured_sent", "measured_received", "launches", "console_received", "console_delivered"])
        // Each name reads and writes its own count.
        for (index, (_, field)) in StrategyAggregate.counts.enumerated() {
            var aggregate = StrategyAggregate(days: 1)
            aggregate[keyPath: field] = Int64(index + 1)
            #expect(StrategyAggregate.counts.map { aggregate[keyPath: $0.field] }
                    == StrategyAggregate.counts.indices.map { $0 == index ? Int64(index + 1) : 0 })
        }
        // A day's array is its counters in declaration order, as daily.csv names them.
        #expect(DayCounts.columnNames == ["messages", "delivered", "summarized", "lost", "pending", "measured_sent", "measured_received",
                                          "launches", "console_received", "console_delivered"])
        #expect(DayCounts.columnNames.allSatisfy(Reports.dailyColumns.contains))
        #expect(PartialResult.version == 7)
    }

    @Test("every outcome counter appears under its declared name: a column of summary.csv or daily.csv, or a funnel.csv stage")
    func everyOutcomeIsReported() {
        let reports = Reports(scenario: HandBuilt.scenario, result: Self.result)
        let header = { (text: String) in Set(text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)) }
        let stages = Set(reports.funnel.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[1]) })
        let reported = header(reports.summary).union(header(reports.daily)).union(stages)
        // delivered is the funnel's `shown`, and a column of its own.
        for counter in OutcomeCounter.allCases { #expect(reported.contains(counter.columnName), "\(counter)") }
        #expect(stages == Set(OutcomeCounter.funnelStages.map(\.stage)))
        for counter in DayCounter.allCases { #expect(header(reports.daily).contains(counter.columnName), "\(counter)") }
    }

    @Test("each outcome counter, set alone, round-trips through a partial in its own place")
    func partialKeepsEachOutcome() throws {
        for (index, counter) in OutcomeCounter.allCases.enumerated() {
            var aggregate = StrategyAggregate(days: 2)
            aggregate[counter] = Int64(index + 1)
            let text = partial([aggregate, StrategyAggregate(days: 2), StrategyAggregate(days: 2)]).encoded()
            let position = try #require(StrategyAggregate.counts.firstIndex { $0.name == counter.columnName })
            let counts = Array(repeating: "0", count: StrategyAggregate.counts.count).enumerated()
                .map { $0.offset == position ? String(index + 1) : $0.element }.joined(separator: ",")
            #expect(text.contains("{\"counts\":[\(counts)],"))
            // Decoding checks the balance rules: a lone count breaks them, so read the array back by hand.
            let decoded = try #require(text.split(separator: "{\"counts\":[").dropFirst().first?.prefix { $0 != "]" })
            #expect(decoded.split(separator: ",").map { Int64($0)! }[position] == Int64(index + 1))
        }
    }

    @Test("a partial with every field nonzero round-trips exactly through encode and decode")
    func partialRoundTrip() throws {
        let original = partial([HandBuilt.aggregate(1), HandBuilt.aggregate(2), StrategyAggregate(days: 2)], shard: (2, 3))
        let text = original.encoded()
        #expect(text.hasPrefix("{\"format\":\"pushsim-partial\",\"version\":7,\"shard\":[2,3],\"seed\":5,"))
        let decoded = try PartialResult.decode(Array(text.utf8), file: "part.json")
        #expect(decoded.partial.result == original.result)
        #expect(decoded.partial.shard == (2, 3))
        #expect(decoded.partial.seed == 5)
        #expect(decoded.partial.scenarioText == HandBuilt.scenarioJSON)
        #expect(decoded.scenario == HandBuilt.scenario)
        #expect(decoded.partial.encoded() == text)
    }

    @Test("recovered messages' latency round-trips through a partial, is written only when some were recovered, and a part claiming more recovered than delivered in a bucket is refused")
    func partialRecoveredLatency() throws {
        var recovering = HandBuilt.aggregate(1)
        for _ in 0..<7 { recovering.recoveredLatency.record(30_000_000) }
        let text = partial([recovering, HandBuilt.aggregate(2), StrategyAggregate(days: 2)]).encoded()
        #expect(text.components(separatedBy: "\"recoveredLatency\"").count == 2)
        let decoded = try decode(text)
        #expect(decoded.result.aggregates[0].recoveredLatency.total == 7)
        #expect(decoded.result.aggregates[0].firstCopyLatency.total == recovering.latency.total - 7)
        let summary = Reports(scenario: HandBuilt.scenario, result: decoded.result).summary.split(separator: "\n")
        #expect(summary[1].hasSuffix(",7,29.884,29.884,1.999"))
        // 7 recovered of the 10 delivered at 30 s: claiming 11 there is a damaged part.
        let damaged = text.replacingOccurrences(of: "\"recoveredLatency\":[[\(LatencyHistogram.bucket(of: 30_000_000)),7]]",
                                                with: "\"recoveredLatency\":[[\(LatencyHistogram.bucket(of: 30_000_000)),11]]")
        #expect(damaged != text)
        #expect(throws: PartialResult.DecodingError.self) { try PartialResult.decode(Array(damaged.utf8), file: "part.json") }
    }

    @Test("merging two decoded partials equals merging the aggregates, and gives the same report bytes")
    func partialsMergeExactly() throws {
        var merged = try decode(partial([HandBuilt.aggregate(1), HandBuilt.aggregate(2), StrategyAggregate(days: 2)]).encoded()).result
        merged.merge(try decode(partial([HandBuilt.aggregate(2), StrategyAggregate(days: 2), HandBuilt.aggregate(1)],
                                        shard: (2, 2)).encoded()).result)
        #expect(merged.aggregates == [HandBuilt.aggregate(3), HandBuilt.aggregate(2), HandBuilt.aggregate(1)])
        #expect(HandBuilt.scenario.devices == 10)
        #expect(merged.users == 10 && merged.events == 198)
        var direct = SimulationResult(strategies: HandBuilt.scenario.strategies,
                                      aggregates: [HandBuilt.aggregate(1), HandBuilt.aggregate(2), StrategyAggregate(days: 2)],
                                      users: 5, events: 99)
        direct.merge(SimulationResult(strategies: HandBuilt.scenario.strategies,
                                      aggregates: [HandBuilt.aggregate(2), StrategyAggregate(days: 2), HandBuilt.aggregate(1)],
                                      users: 5, events: 99))
        #expect(merged == direct)
        let fromPartials = Reports(scenario: HandBuilt.scenario, result: merged)
        let fromAggregates = Reports(scenario: HandBuilt.scenario, result: direct)
        #expect(fromPartials.files.map(\.contents) == fromAggregates.files.map(\.contents))
        #expect(fromPartials.table == fromAggregates.table)
    }

    @Test("an older partial is refused with a message saying to re-run the shards; a newer one too")
    func otherVersionsRefused() {
        let version = PartialResult.version
        let text = partial([HandBuilt.aggregate(1), HandBuilt.aggregate(1), HandBuilt.aggregate(1)]).encoded()
            .replacingOccurrences(of: "\"version\":\(version),", with: "\"version\":\(version - 1),")
        do {
            _ = try decode(text)
            Issue.record("decoded a version \(version - 1) partial")
        } catch {
            #expect(error.description == "part.json: a version \(version - 1) partial result, from an older pushsim whose "
                    + "reports had other columns; this pushsim reads version \(version): re-run every shard with it")
        }
        let newer = text.replacingOccurrences(of: "\"version\":\(version - 1),", with: "\"version\":\(version + 1),")
        do {
            _ = try decode(newer)
            Issue.record("decoded a version \(version + 1) partial")
        } catch {
            #expect(error.description == "part.json: a version \(version + 1) partial result, from a newer pushsim; "
                    + "this one reads version \(version)")
        }
    }

    @Test("a partial whose new arrays have the wrong length is refused as damaged", arguments: [
        ("\"apns\":[120,", "\"apns\":[", "part.json: damaged partial result (apns)"),
        ("\"counts\":[100,", "\"counts\":[", "part.json: damaged partial result (counts)"),
        ("\"chain\":[1,", "\"chain\":[", "part.json: damaged partial result (chain)"),
        ("[60,42,6,9,3,50,38,7,70,60]", "[60,42,6,9,3,50,38,7]", "part.json: damaged partial result (day)"),
    ])
    func damagedArraysRefused(find: String, replace: String, message: String) {
        let text = partial([HandBuilt.aggregate(1), HandBuilt.aggregate(1), HandBuilt.aggregate(1)]).encoded()
        #expect(text.contains(find))
        do {
            _ = try decode(text.replacingOccurrences(of: find, with: replace))
            Issue.record("decoded a damaged partial")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a partial from a pushsim with other counters is refused, naming the counters that differ", arguments: [
        ("\"retries\",", "", "from a pushsim with other chain counters (without retries): re-run every shard with this one"),
        ("\"retries\",", "\"retries\",\"new_counter\",",
         "from a pushsim with other chain counters (with new_counter): re-run every shard with this one"),
        ("\"bounced\",\"stored_offline\",", "\"stored_offline\",\"bounced\",",
         "from a pushsim with other APNs counters (in another order): re-run every shard with this one"),
    ])
    func otherCountersRefused(find: String, replace: String, message: String) {
        let text = partial([HandBuilt.aggregate(1), HandBuilt.aggregate(1), HandBuilt.aggregate(1)]).encoded()
        #expect(text.contains("\"chainCounters\":[\"extension_not_run\","))
        do {
            _ = try decode(text.replacingOccurrences(of: find, with: replace))
            Issue.record("decoded a partial with other counters")
        } catch {
            #expect(error.description == "part.json: " + message)
        }
    }
}

/// `ReportWriter`: four files replaced together or not at all.
@Suite("Report writer")
struct ReportWriterTests {
    static let files: [(name: String, contents: String)] = [("summary.csv", "new summary\n"), ("daily.csv", "new daily\n"),
                                                             ("funnel.csv", "new funnel\n"), ("apns.csv", "new apns\n")]

    /// A folder holding an older summary.csv and daily.csv (no funnel or apns yet) and a note.
    private func olderReports() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-writer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in [("summary.csv", "old summary\n"), ("daily.csv", "old daily\n"), ("notes.txt", "keep\n")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        return folder
    }

    private func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    private func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("a rename failing at the last of four files puts the three already renamed back")
    func failedRenameRollsBack() throws {
        let folder = try olderReports()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var renamed: [String] = []
        do {
            try ReportWriter.write(Self.files, to: folder) { from, to in
                guard !to.hasSuffix("/apns.csv") else { errno = EACCES; return -1 }
                renamed.append((to as NSString).lastPathComponent)
                return rename(from, to)
            }
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(folder)/apns.csv: cannot move into place (Permission denied)")
        }
        #expect(renamed == ["summary.csv", "daily.csv", "funnel.csv"])
        #expect(try listing(folder) == ["daily.csv", "notes.txt", "summary.csv"])
        #expect(text(folder + "/summary.csv") == "old summary\n")
        #expect(text(folder + "/daily.csv") == "old daily\n")
    }

    @Test("a report name taken by a folder fails before anything is replaced")
    func folderInTheWay() throws {
        let folder = try olderReports()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/apns.csv", withIntermediateDirectories: false)
        do {
            try ReportWriter.write(Self.files, to: folder)
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(folder)/apns.csv: exists and is a directory")
        }
        #expect(try listing(folder) == ["apns.csv", "daily.csv", "notes.txt", "summary.csv"])
        #expect(text(folder + "/summary.csv") == "old summary\n")
    }

    @Test("a failed write into a new folder takes away the folders it created, and only those")
    func failureRemovesCreatedFolders() throws {
        let root = try olderReports()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/deep/er/reports"
        do {
            try ReportWriter.write(Self.files, to: target) { _, _ in errno = EACCES; return -1 }
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(target)/summary.csv: cannot move into place (Permission denied)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/deep"))
        #expect(try listing(root) == ["daily.csv", "notes.txt", "summary.csv"])
    }

    @Test("a folder that cannot be created is named with the system's reason")
    func uncreatableFolder() throws {
        let root = try olderReports()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/notes.txt/reports"
        do {
            try ReportWriter.write(Self.files, to: target)
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(target): cannot create the folder (Not a directory)")
        }
        #expect(try listing(root) == ["daily.csv", "notes.txt", "summary.csv"])
    }

    @Test("a successful write replaces the older reports, adds the new ones and leaves nothing else")
    func successReplacesAll() throws {
        let folder = try olderReports()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ReportWriter.write(Self.files, to: folder)
        #expect(try listing(folder) == ["apns.csv", "daily.csv", "funnel.csv", "notes.txt", "summary.csv"])
        for (name, contents) in Self.files { #expect(text(folder + "/" + name) == contents) }
        #expect(text(folder + "/notes.txt") == "keep\n")
    }
}
