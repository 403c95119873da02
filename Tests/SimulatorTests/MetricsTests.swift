@testable import Base
import FakeAPNs
@testable import Reports
@testable import Simulator
import TestSupport
import Testing

@Suite("Latency histogram")
struct LatencyHistogramTests {
    @Test("values below 64 µs have a bucket of their own")
    func smallValuesAreExact() {
        for value in 0..<64 as Range<Int64> {
            #expect(LatencyHistogram.bucket(of: value) == Int(value))
            #expect(LatencyHistogram.lowerBound(of: Int(value)) == value)
            var histogram = LatencyHistogram()
            histogram.record(value)
            #expect(histogram.quantile(0.5) == value)
        }
        #expect(LatencyHistogram.bucket(of: 64) == 64)
        #expect(LatencyHistogram.lowerBound(of: 64) == 64)
    }

    @Test("negative values count as 0")
    func negativeValuesClampToZero() {
        #expect(LatencyHistogram.bucket(of: -5) == 0)
        var histogram = LatencyHistogram()
        histogram.record(-1_000)
        #expect(histogram.total == 1)
        #expect(histogram.quantile(1) == 0)
    }

    /// Values on and around every power of two, plus random ones of every magnitude.
    private static var probeValues: [Int64] {
        var values: [Int64] = []
        for exponent in 6..<63 {
            let power = Int64(1) << Int64(exponent)
            values += [power - 1, power, power + 1, power + power / 64, power + power / 2 - 1]
        }
        var rng = SplitMix64(seed: 64)
        for _ in 0..<5_000 {
            let bits = Int(rng.next() % 57) + 6          // 6 … 62 significant bits
            values.append(Int64(rng.next() >> UInt64(64 - bits)) | (Int64(1) << Int64(bits - 1)))
        }
        values.append(.max)
        return values
    }

    @Test("a value's bucket starts at or below it, within 1/32 of it, and the next bucket starts above it")
    func bucketBoundsAreTight() {
        for value in Self.probeValues where value >= 64 {
            let bucket = LatencyHistogram.bucket(of: value)
            #expect((64..<LatencyHistogram.bucketCount).contains(bucket))
            let lower = LatencyHistogram.lowerBound(of: bucket)
            #expect(lower <= value, "value \(value)")
            #expect(Double(value - lower) / Double(value) < 1.0 / 32, "value \(value)")
            #expect(LatencyHistogram.bucket(of: lower) == bucket, "value \(value)")
            if value < Int64(1) << 62 {
                #expect(LatencyHistogram.lowerBound(of: bucket + 1) > value, "value \(value)")
            }
        }
    }

    @Test("buckets grow with the value")
    func bucketsAreMonotonic() {
        let sorted = Self.probeValues.sorted()
        let buckets = sorted.map(LatencyHistogram.bucket(of:))
        #expect(buckets == buckets.sorted())
        // Lower bounds strictly increase bucket by bucket over the whole range in use.
        for bucket in 1..<(64 + 57 * 32) {
            #expect(LatencyHistogram.lowerBound(of: bucket) > LatencyHistogram.lowerBound(of: bucket - 1), "bucket \(bucket)")
        }
    }

    @Test("known lower bounds above 64 µs")
    func knownLowerBounds() {
        // 1 s = 1,000,000 µs: 2^19 ≤ v < 2^20, sub-bucket (v >> 14) & 31 = 29 → 2^19 + 29·2^14.
        #expect(LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 1_000_000)) == 999_424)
        // 100 µs: 2^6 ≤ v < 2^7, sub-bucket (100 >> 1) & 31 = 18 → 64 + 18·2 = 100 (exact, even).
        #expect(LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 100)) == 100)
        #expect(LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 101)) == 100)
        #expect(LatencyHistogram.bucket(of: 127) == 64 + 31)
        #expect(LatencyHistogram.bucket(of: 128) == 96)
    }

    @Test("quantiles of known data are the ⌈q·n⌉-th smallest value")
    func quantilesOfKnownData() {
        var histogram = LatencyHistogram()
        #expect(histogram.quantile(0.5) == nil)
        for value in (1...50).reversed() { histogram.record(Int64(value)) }
        #expect(histogram.total == 50)
        #expect(histogram.quantile(0) == 1)
        #expect(histogram.quantile(0.02) == 1)
        #expect(histogram.quantile(0.03) == 2)
        #expect(histogram.quantile(0.5) == 25)
        #expect(histogram.quantile(0.95) == 48)
        #expect(histogram.quantile(0.99) == 50)
        #expect(histogram.quantile(1) == 50)

        var mixed = LatencyHistogram()
        for _ in 0..<90 { mixed.record(10) }
        for _ in 0..<10 { mixed.record(1_000_000) }
        #expect(mixed.quantile(0.5) == 10)
        #expect(mixed.quantile(0.90) == 10)
        #expect(mixed.quantile(0.91) == 999_424)
        #expect(mixed.quantile(0.99) == 999_424)
    }

    @Test("merging histograms equals recording every value in one")
    func mergeEqualsRecordingAll() {
        var rng = SplitMix64(seed: 3)
        var left = LatencyHistogram(), right = LatencyHistogram(), all = LatencyHistogram()
        for index in 0..<3_000 {
            let value = Int64(rng.next() % 10_000_000_000) >> Int64(rng.next() % 34)
            all.record(value)
            if index % 3 == 0 { left.record(value) } else { right.record(value) }
        }
        var merged = left
        merged.merge(right)
        #expect(merged == all)
        #expect(merged.total == 3_000)
        var otherOrder = right
        otherOrder.merge(left)
        #expect(otherOrder == all)
        for q in [0.0, 0.25, 0.5, 0.9, 0.99, 1] { #expect(merged.quantile(q) == all.quantile(q)) }
        var withEmpty = all
        withEmpty.merge(LatencyHistogram())
        #expect(withEmpty == all)
    }
}

@Suite("Strategy aggregate")
struct StrategyAggregateTests {
    /// A consistent aggregate over two days: day 0 has 6 messages, day 1 has 4.
    private func consistent() -> StrategyAggregate {
        var aggregate = StrategyAggregate(days: 2)
        aggregate[.messages] = 10
        aggregate[.delivered] = 6
        aggregate[.summarized] = 2
        aggregate.lostByReason[Int(LossReason.apnsCoalesced.rawValue)] = 1
        aggregate.pending = 1
        aggregate[.pushesSent] = 13
        aggregate.rerequests = 4
        aggregate.duplicatesShown = 1
        aggregate.collapsed = 2
        for value: Int64 in [5, 50, 500, 5_000, 50_000, 500_000] { aggregate.latency.record(value) }
        aggregate.daily[0] = DayCounts([.messages: 6, .delivered: 4, .summarized: 1, .lost: 1, .pending: 0])
        aggregate.daily[1] = DayCounts([.messages: 4, .delivered: 2, .summarized: 1, .lost: 0, .pending: 1])
        aggregate.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 0, reasonRawValue: 1)] = 1
        aggregate.countAllInBlock()
        return aggregate
    }

    @Test("a consistent aggregate passes the identity, and its rates are exact")
    func consistentAggregatePasses() {
        let aggregate = consistent()
        #expect(aggregate.checkIdentity() == nil)
        #expect(aggregate.lost == 1)
        #expect(aggregate.lost(.apnsCoalesced) == 1)
        #expect(aggregate.lost(.apnsExpired) == 0)
        #expect(aggregate.deliverability == 0.6)
        #expect(aggregate.informedRate == 0.8)
        #expect(StrategyAggregate(days: 3).checkIdentity() == nil)
        #expect(StrategyAggregate(days: 3).deliverability == 0)
        #expect(StrategyAggregate(days: 3).informedRate == 0)
        #expect(StrategyAggregate(days: 3).daily.count == 3)
    }

    @Test("merge adds every counter, loss reason, latency bucket and day")
    func mergeAddsEverything() {
        var merged = consistent()
        var other = consistent()
        other.lostByReason[Int(LossReason.unregistered.rawValue)] = 2
        other[.messages] += 2
        other.daily[1][.messages] += 2
        other.daily[1][.lost] += 2
        other.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 1, reasonRawValue: Int(LossReason.unregistered.rawValue))] = 2
        other.latency.record(7)
        other[.delivered] += 1
        other[.messages] += 1
        other.daily[0][.messages] += 1
        other.daily[0][.delivered] += 1
        other.countAllInBlock(5)
        #expect(other.checkIdentity() == nil)
        merged.merge(other)

        #expect(merged[.messages] == 23)
        #expect(merged[.delivered] == 13)
        #expect(merged[.summarized] == 4)
        #expect(merged.pending == 2)
        #expect(merged.lost == 4)
        #expect(merged.lost(.apnsCoalesced) == 2)
        #expect(merged.lost(.unregistered) == 2)
        #expect(merged[.pushesSent] == 26)
        #expect(merged.rerequests == 8)
        #expect(merged.duplicatesShown == 2)
        #expect(merged.collapsed == 4)
        #expect(merged.latency.total == 13)
        #expect(merged.daily[0] == DayCounts([.messages: 13, .delivered: 9, .summarized: 2, .lost: 2, .pending: 0]))
        #expect(merged.daily[1] == DayCounts([.messages: 10, .delivered: 4, .summarized: 2, .lost: 2, .pending: 2]))
        #expect(merged.checkIdentity() == nil)

        var otherOrder = other
        otherOrder.merge(consistent())
        #expect(otherOrder == merged)
    }

    @Test("the identity catches outcomes that do not add up to the messages")
    func identityCatchesTotals() {
        var aggregate = consistent()
        aggregate[.messages] = 11
        #expect(aggregate.checkIdentity() == "delivered 6 + summarized 2 + lost 1 + pending 1 ≠ messages 11")
    }

    @Test("the identity catches a loss counted without a reason")
    func identityCatchesReasonlessLoss() {
        var aggregate = consistent()
        aggregate.lostByReason[Int(LossReason.apnsCoalesced.rawValue)] = 0
        aggregate.lostByReason[0] = 1     // totals still add up
        #expect(aggregate.checkIdentity() == "a loss without a reason was counted")
    }

    @Test("the identity catches a day whose outcomes do not add up")
    func identityCatchesBrokenDay() {
        var aggregate = consistent()
        aggregate.daily[1][.delivered] -= 1    // day 1: 1 + 1 + 0 + 1 ≠ 4
        #expect(aggregate.checkIdentity() == "day 2: delivered 1 + summarized 1 + lost 0 + pending 1 ≠ messages 4")
    }

    @Test("the identity catches a daily series that does not add up to the totals")
    func identityCatchesDailyTotals() {
        var aggregate = consistent()
        // Each day still adds up on its own, but together they hold one message too many.
        aggregate.daily[1][.messages] += 1
        aggregate.daily[1][.pending] += 1
        #expect(aggregate.checkIdentity() == "the daily messages add up to 11, the total is 10")

        var moved = consistent()
        // Same daily total of messages, but a delivery moved into "lost" on one day.
        moved.daily[0][.delivered] -= 1
        moved.daily[0][.lost] += 1
        #expect(moved.checkIdentity() == "the daily delivered add up to 5, the total is 6")
    }

    @Test("the identity catches lost-by-reason days that do not add up to a day's lost or to a reason's total")
    func identityCatchesDailyReasons() {
        var moved = consistent()
        // The loss moved to the other day: day 1 lost 1 has no reason left.
        moved.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 0, reasonRawValue: 1)] = 0
        moved.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 1, reasonRawValue: 1)] = 1
        #expect(moved.checkIdentity() == "day 1: the lost_* counts add up to 0, its lost is 1")
        var renamed = consistent()
        // Day 1 still adds up, but under another reason than the total says.
        renamed.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 0, reasonRawValue: 1)] = 0
        renamed.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: 0, reasonRawValue: 2)] = 1
        #expect(renamed.checkIdentity() == "the daily lost_apns_coalesced add up to 0, the total is 1")
    }

    @Test("the identity catches latency recorded for a different number of deliveries")
    func identityCatchesLatencyCount() {
        var aggregate = consistent()
        aggregate.latency.record(1)
        #expect(aggregate.checkIdentity() == "latency was recorded for 7 messages, 6 delivered")
    }

    @Test("a simulation result names the strategy whose identity broke")
    func resultIdentityNamesStrategy() {
        var broken = consistent()
        broken.pending = 0
        broken[.messages] -= 1
        broken.countAllInBlock()
        broken[.messages] += 1
        let strategies = [Strategy(label: "a", kind: .noQueue, repeatMaxCount: .max, collapseID: true),
                          Strategy(label: "b", kind: .queue, repeatMaxCount: 5, collapseID: true)]
        let result = SimulationResult(strategies: strategies, aggregates: [consistent(), broken], users: 1, events: 0)
        #expect(result.checkIdentity()?.description == "strategy b: delivered 6 + summarized 2 + lost 1 + pending 0 ≠ messages 10")
        let fine = SimulationResult(strategies: strategies, aggregates: [consistent(), consistent()], users: 1, events: 0)
        #expect(fine.checkIdentity() == nil)
    }
}

@Suite("Report formatting")
struct ReportFormattingTests {
    @Test("ratio rounds half up to six places", arguments: [
        (Int64(1), Int64(3), "0.333333"),
        (2, 3, "0.666667"),
        (0, 5, "0.000000"),
        (5, 5, "1.000000"),
        (7, 2, "3.500000"),
        (1, 2_000_000, "0.000001"),     // exactly half a unit: up
        (1, 2_000_001, "0.000000"),     // just under half: down
        (123_456_789, 1_000, "123456.789000"),
    ])
    func ratioRounds(numerator: Int64, denominator: Int64, expected: String) {
        #expect(FixedPoint.ratio(numerator, denominator) == expected)
    }

    @Test("ratio with other numbers of places")
    func ratioPlaces() {
        #expect(FixedPoint.ratio(1, 8, places: 2) == "0.13")
        #expect(FixedPoint.ratio(2, 3, places: 4) == "0.6667")
        #expect(FixedPoint.ratio(15_948, 14_404, places: 4) == "1.1072")
        #expect(FixedPoint.ratio(1, 2, places: 0) == "1")
        #expect(FixedPoint.ratio(1, 3, places: 0) == "0")
    }

    @Test("ratio over a zero denominator is empty")
    func ratioOverZero() {
        #expect(FixedPoint.ratio(7, 0) == "")
        #expect(FixedPoint.ratio(0, 0) == "")
    }

    @Test("ratio of huge numerators does not overflow")
    func ratioOfHugeNumbers() {
        // numerator × 10^6 needs more than 64 bits in all of these.
        #expect(FixedPoint.ratio(10_000_000_000_000, 30_000_000_000_000) == "0.333333")
        #expect(FixedPoint.ratio(.max, .max) == "1.000000")
        #expect(FixedPoint.ratio(.max - 1, .max) == "1.000000")
        #expect(FixedPoint.ratio(.max / 3, .max / 2) == "0.666667")
        // The remainder here is close to Int64.max: doubling it to compare with
        // the denominator must not overflow. (2^62 - 1) / (2^63 - 1) ≈ 0.49999999999999999995.
        #expect(FixedPoint.ratio(.max / 2, .max) == "0.500000")
        #expect(FixedPoint.ratio(.max / 2, .max, places: 18) == "0.500000000000000000")
    }

    @Test("microseconds as seconds with three decimals, rounded half up")
    func seconds() {
        #expect(FixedPoint.seconds(microseconds: 0) == "0.000")
        #expect(FixedPoint.seconds(microseconds: 499) == "0.000")
        #expect(FixedPoint.seconds(microseconds: 500) == "0.001")
        #expect(FixedPoint.seconds(microseconds: 1_499) == "0.001")
        #expect(FixedPoint.seconds(microseconds: 999_424) == "0.999")
        #expect(FixedPoint.seconds(microseconds: 999_500) == "1.000")
        #expect(FixedPoint.seconds(microseconds: 1_000_000) == "1.000")
        #expect(FixedPoint.seconds(microseconds: 12_345_678) == "12.346")
        #expect(FixedPoint.seconds(microseconds: 90_061_500_000) == "90061.500")
    }

    @Test("fixed-point rendering pads with zeros and keeps the sign")
    func fixed() {
        #expect(FixedPoint.fixed(5, places: 3) == "0.005")
        #expect(FixedPoint.fixed(-5, places: 3) == "-0.005")
        #expect(FixedPoint.fixed(12_345, places: 2) == "123.45")
        #expect(FixedPoint.fixed(7, places: 0) == "7")
        #expect(FixedPoint.fixed(0, places: 2) == "0.00")
    }

    @Test("CSV fields are quoted only when they hold a comma, a quote or a line break", arguments: [
        ("plain", "plain"),
        ("", ""),
        ("with space", "with space"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("windows\r\nline", "\"windows\r\nline\""),
    ])
    func csvField(text: String, expected: String) {
        #expect(CSV.field(text) == expected)
    }

    @Test("a CSV row joins quoted fields with commas and ends with LF")
    func csvRow() {
        #expect(CSV.row(["a", "b,c", "", "d\"e"]) == "a,\"b,c\",,\"d\"\"e\"\n")
        #expect(CSV.row(["only"]) == "only\n")
    }
}

@Suite("Civil dates")
struct CivilDateTests {
    @Test("parses YYYY-MM-DD into its parts")
    func parses() throws {
        let date = try #require(CivilDate(iso: "2026-01-05"))
        #expect(date.year == 2026 && date.month == 1 && date.day == 5)
        #expect(date == CivilDate(year: 2026, month: 1, day: 5))
        #expect(CivilDate(iso: "2024-02-29") != nil)     // leap year
        #expect(CivilDate(iso: "2000-02-29") != nil)     // leap century
        #expect(CivilDate(iso: "2026-12-31") != nil)
        #expect(CivilDate(iso: "0001-01-01") == CivilDate(year: 1, month: 1, day: 1))
    }

    @Test("rejects dates that do not exist or are not written YYYY-MM-DD", arguments: [
        "2026-02-30", "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
        "2026-01-32", "2026-1-05", "2026-01-5", "26-01-05", "02026-01-05", "20260105", "2026/01/05",
        "2026-01-05 ", " 2026-01-05", "2026-01-05T00:00", "+026-01-05", "-026-01-05", "2026--01-05",
        "2026-0a-05", "２０２６-01-05", "", "--",
    ])
    func rejectsInvalid(text: String) {
        #expect(CivilDate(iso: text) == nil)
    }

    @Test("rejects impossible parts")
    func rejectsImpossibleParts() {
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 0, day: 1) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: 0) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: -1) == nil)
        #expect(CivilDate(year: 2026, month: 6, day: 31) == nil)
    }

    @Test("weekdays count from Monday = 0")
    func weekdays() throws {
        #expect(try #require(CivilDate(iso: "2026-01-05")).weekday == 0)     // Monday
        #expect(try #require(CivilDate(iso: "2026-01-10")).weekday == 5)     // Saturday
        #expect(try #require(CivilDate(iso: "2026-01-11")).weekday == 6)     // Sunday
        #expect(try #require(CivilDate(iso: "1970-01-01")).weekday == 3)     // Thursday
        #expect(try #require(CivilDate(iso: "1969-12-31")).weekday == 2)     // Wednesday, before the epoch
        #expect(try #require(CivilDate(iso: "2000-02-29")).weekday == 1)     // Tuesday
    }

    @Test("days since the epoch")
    func daysSinceEpoch() throws {
        #expect(try #require(CivilDate(iso: "1970-01-01")).daysSinceEpoch == 0)
        #expect(try #require(CivilDate(iso: "2000-01-01")).daysSinceEpoch == 10_957)
        #expect(try #require(CivilDate(iso: "1969-12-31")).daysSinceEpoch == -1)
        #expect(CivilDate(daysSinceEpoch: 20_458) == CivilDate(year: 2026, month: 1, day: 5))
    }

    @Test("adding days crosses months, years and leap days", arguments: [
        ("2026-01-31", 1, "2026-02-01"),
        ("2026-02-28", 1, "2026-03-01"),
        ("2024-02-28", 1, "2024-02-29"),
        ("2024-02-29", 1, "2024-03-01"),
        ("2026-12-31", 1, "2027-01-01"),
        ("2026-01-05", 28, "2026-02-02"),
        ("2024-01-01", 366, "2025-01-01"),
        ("2026-03-01", -1, "2026-02-28"),
        ("2024-03-01", -1, "2024-02-29"),
        ("2026-01-05", 0, "2026-01-05"),
        ("2000-02-28", 1, "2000-02-29"),
        ("2100-02-28", 1, "2100-03-01"),
    ])
    func addingDays(start: String, days: Int, expected: String) throws {
        #expect(try #require(CivilDate(iso: start)).adding(days: days).description == expected)
    }

    @Test("description round-trips through parsing for every day of several years")
    func descriptionRoundTrip() throws {
        let first = try #require(CivilDate(iso: "2023-01-01"))
        var previous = first
        for offset in 1..<(4 * 366) {
            let date = first.adding(days: offset)
            #expect(CivilDate(iso: date.description) == date)
            #expect(previous < date)
            #expect(date.daysSinceEpoch == previous.daysSinceEpoch + 1)
            previous = date
        }
        #expect(try #require(CivilDate(year: 5, month: 3, day: 7)).description == "0005-03-07")
    }
}

@Suite("Counters declared once")
struct CounterDeclarationTests {
    @Test("each outcome's name is its case in snake_case, the names reports and partials always used")
    func outcomeNames() {
        #expect(OutcomeCounts.columnNames == ["messages", "delivered", "measured_sent", "measured_received", "launches",
                                              "console_received", "console_delivered", "summarized", "pushes_sent",
                                              "provider_sent", "apns_accepted", "reached_device", "logged", "uploaded", "opened"])
        #expect(DayCounts.columnNames == ["messages", "delivered", "summarized", "lost", "pending", "measured_sent",
                                          "measured_received", "launches", "console_received", "console_delivered"])
        #expect(RateCount.allCases.map(\.name) == OutcomeCounts.columnNames + LossReason.allCases.map { "lost_" + $0.columnName })
        #expect(Set(RateCount.allCases.map(\.name)).count == RateCount.allCases.count)
    }

    @Test("every kind of counter fits its set's inline storage")
    func capacities() {
        #expect(OutcomeCounter.allCases.count <= OutcomeCounts.capacity)
        #expect(DayCounter.allCases.count <= DayCounts.capacity)
        #expect(ChainCounter.allCases.count <= ChainCounts.capacity)
        #expect(APNsCounter.allCases.count <= APNsCounters.capacity)
    }

    @Test("block indices: unique and dense, each outcome at its raw value, then the loss reasons in raw-value order")
    func blockIndices() {
        let indices = RateCount.allCases.map(\.index)
        #expect(indices == Array(0..<RateCount.allCases.count))
        for counter in OutcomeCounter.allCases { #expect(RateCount.outcome(counter).index == counter.rawValue) }
        for reason in LossReason.allCases {
            #expect(RateCount.lost(reason).index == OutcomeCounter.allCases.count + Int(reason.rawValue) - 1)
        }
        // The daily counts lead both arrays, so a daily count's index is the same in each.
        #expect(OutcomeCounter.daily.map(\.rawValue) == Array(0..<OutcomeCounter.daily.count))
        #expect(OutcomeCounter.daily.allSatisfy { DayCounter($0) != nil })
    }

    @Test("each outcome's total is its own slot: setting one changes only its RateCount total")
    func totalsAreTheirOwn() {
        for (index, counter) in OutcomeCounter.allCases.enumerated() {
            var aggregate = StrategyAggregate(days: 1)
            aggregate[counter] = Int64(index + 7)
            #expect(OutcomeCounter.allCases.map { RateCount.outcome($0).total(in: aggregate) }
                    == OutcomeCounter.allCases.map { $0 == counter ? Int64(index + 7) : 0 })
            #expect(aggregate.outcomes.values.reduce(0, +) == Int64(index + 7))
        }
    }

    @Test("the funnel's stages are the outcomes with a position, in chain order, delivered named shown")
    func funnelStages() {
        #expect(OutcomeCounter.funnelStages.map(\.stage)
                == ["messages", "provider_sent", "apns_accepted", "reached_device", "shown", "logged", "uploaded", "opened"])
        #expect(OutcomeCounter.funnelStages.map(\.count) == OutcomeCounter.allCases.filter { $0.funnelPosition != nil }
            .sorted { $0.funnelPosition! < $1.funnelPosition! })
        #expect(Reports.funnelStages.map(\.count) == OutcomeCounter.funnelStages.map { .outcome($0.count) })
    }

    @Test("a merged aggregate is the sum counter by counter: outcomes, days, blocks, chain and APNs counters")
    func mergeSumsEveryCounter() {
        let first = HandBuilt.aggregate(1), second = HandBuilt.aggregate(3)
        var merged = first
        merged.merge(second)
        for counter in OutcomeCounter.allCases { #expect(merged[counter] == first[counter] + second[counter]) }
        for day in merged.daily.indices {
            for counter in DayCounter.allCases {
                #expect(merged.daily[day][counter] == first.daily[day][counter] + second.daily[day][counter])
            }
        }
        #expect(merged.blocks == ContiguousArray(zip(first.blocks, second.blocks).map { $0 + $1 }))
        #expect(merged.dailyBlocks == ContiguousArray(zip(first.dailyBlocks, second.dailyBlocks).map { $0 + $1 }))
        for counter in ChainCounter.allCases { #expect(merged.chain[counter] == first.chain[counter] + second.chain[counter]) }
        for counter in APNsCounter.allCases { #expect(merged.apns[counter] == first.apns[counter] + second.apns[counter]) }
        #expect(merged == HandBuilt.aggregate(4))
        #expect(merged.checkIdentity() == nil)
    }

    @Test("a sum past Int64.max in a day's counter is named by the counter's declared name")
    func dayOverflowNamed() {
        var huge = StrategyAggregate(days: 2)
        huge.daily[1][.measuredSent] = .max
        var other = StrategyAggregate(days: 2)
        other.daily[1][.measuredSent] = 1
        #expect(huge.merge(checking: other) == "day 2 measured_sent")
        var outcome = StrategyAggregate(days: 1)
        outcome[.apnsAccepted] = .max
        var one = StrategyAggregate(days: 1)
        one[.apnsAccepted] = 1
        #expect(outcome.merge(checking: one) == "apns_accepted")
    }
}
