import Base
import FakeAPNs
import ScenarioFormat
import Simulator

/// The result of one shard, written by `pushsim run --shard K/N` and read by
/// `pushsim merge`. It carries the scenario's own text, so merging needs no other
/// file and can check that every part came from the same scenario, seed and strategies.
package struct PartialResult {
    /// The file a shard writes in its folder; `merge` reads it from a folder given.
    package static let fileName = "partial.json"
    package static let format = "pushsim-partial"
    /// 2: the delivery chain (funnel, measured deliverability, chain and APNs counters);
    /// 3: APNs's `bounced`; 4: the counters named in the file (`chainCounters`,
    /// `apnsCounters`) and the chain counters in their own `chain` array, so a counter
    /// added later is told apart by name and needs no new version; 5: `dailyLost`, the
    /// lost per day and reason (daily.csv's `lost_*` columns); 6: `blocks` and
    /// `dailyBlocks`, the rates' counts per block of users (standard errors); 7: the
    /// launches and the Console's received and delivered per day and block (daily.csv's
    /// `launches`, `console_received`, `console_delivered`; the fit's figures).
    package static let version: Int64 = 7

    /// The most shards `run --shard` accepts; a part claiming more is damaged.
    package static let maximumShardCount = 100_000

    package var scenarioText: String
    package var seed: UInt64
    package var shard: (index: Int, count: Int)
    package var result: SimulationResult
    /// The command line that made it, when stored (`result.json`; `pushsim report` shows it).
    package var commandLine: String? = nil

    /// JSON, one aggregate per strategy; counts as integers, latency as non-empty buckets.
    package func encoded() -> String {
        let aggregates: [String] = result.aggregates.map(Self.encoded)
        let header: [(String, String)] = [
            ("format", JSONText.string(Self.format)), ("version", String(Self.version)),
            ("shard", JSONText.integers([Int64(shard.index), Int64(shard.count)])), ("seed", String(seed)),
            ("strategies", JSONText.array(result.strategies.map { JSONText.string($0.label) })),
            ("users", String(result.users)), ("events", String(result.events)),
        ]
        let counterNames: [(String, String)] = [
            ("chainCounters", JSONText.array(ChainCounts.columnNames.map(JSONText.string))),
            ("apnsCounters", JSONText.array(APNsCounters.columnNames.map(JSONText.string))),
        ]
        let command: [(String, String)] = commandLine.map { [("command", JSONText.string($0))] } ?? []
        return JSONText.object(lines: [
            header, counterNames, command,
            [("aggregates", "[\n" + aggregates.joined(separator: ",\n") + "\n]")],
            [("scenario", JSONText.string(scenarioText))],
        ]) + "\n"
    }

    /// One strategy's aggregate: counts as integers, latency as its non-empty buckets.
    private static func encoded(_ aggregate: StrategyAggregate) -> String {
        let counts: [String] = StrategyAggregate.counts.map { String(aggregate[keyPath: $0.field]) }
        let latency: [String] = aggregate.latency.nonEmptyBuckets.map { JSONText.array([String($0.0), String($0.1)]) }
        let recovered: [String] = aggregate.recoveredLatency.nonEmptyBuckets.map { JSONText.array([String($0.0), String($0.1)]) }
        let daily: [String] = aggregate.daily.map { JSONText.integers($0.values) }
        // Only when a fault cost something: a run without faults writes the same bytes as before them.
        let faults: [(String, String)] = aggregate.faults.isZero ? [] : [("faults", JSONText.integers(aggregate.faults.values))]
        return JSONText.object([
            ("counts", JSONText.array(counts)),
            ("chain", JSONText.integers(aggregate.chain.values)),
            ("lost", JSONText.integers(aggregate.lostByReason)),
            ("apns", JSONText.integers(aggregate.apns.values)),
        ] + (aggregate.background == BackgroundCounts() ? [] : [
            // Only where background pushes were sent: a partial result without them reads as before.
            ("background", JSONText.integers(aggregate.background.values)),
        ]) + [
            ("latency", JSONText.array(latency)),
        ] + (recovered.isEmpty ? [] : [
            // Only where a re-sent copy was shown: a partial result without one reads as before.
            ("recoveredLatency", JSONText.array(recovered)),
        ]) + [
            ("daily", JSONText.array(daily)),
            ("dailyLost", JSONText.integers(aggregate.dailyLostByReason)),
            ("blocks", JSONText.integers(aggregate.blocks)),
            ("dailyBlocks", JSONText.integers(aggregate.dailyBlocks)),
        ] + faults)
    }

    /// Reads and decodes what a command-line argument names: a folder holding
    /// `fileInFolder`, a file, or `-` (standard input). The path in the answer and in
    /// errors is the one to show.
    /// - Complexity: O(n) in the file's size.
    package static func load(_ argument: String, fileInFolder: String, standardInput: Int32) throws(DecodingError)
        -> (partial: PartialResult, scenario: Scenario, path: String) {
        let isFolder = ReportWriter.kind(of: argument) == true
        let path = isFolder ? ReportWriter.join(argument, fileInFolder) : FileBytes.displayName(argument)
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: isFolder ? path : argument, standardInput: standardInput,
                                       limit: ScenarioLimits.partialBytes)
        } catch {
            // A shard's folder holds partial.json, not result.json: say what to do.
            let partial = ReportWriter.join(argument, Self.fileName)
            if isFolder, fileInFolder != Self.fileName, ReportWriter.kind(of: partial) == false {
                throw DecodingError(description: "\(UserText.path(path)): cannot read: \(error.reason); the folder holds a "
                                    + "shard's \(Self.fileName): merge the shards first ('pushsim merge')")
            }
            // A whole run's report folder given to merge: say what merge takes, and where this run's result is.
            let result = ReportWriter.join(argument, RunOutput.resultFileName)
            if isFolder, fileInFolder == Self.fileName, ReportWriter.kind(of: result) == false {
                throw DecodingError(description: "\(UserText.path(path)): cannot read: \(error.reason); the folder holds a "
                                    + "whole run's reports (its result is \(UserText.path(result))): merge takes the "
                                    + "\(Self.fileName) of each 'pushsim run --shard K/N' (its folder or the file); "
                                    + "to draw a run's page again, 'pushsim report \(UserText.path(argument))'")
            }
            throw DecodingError(description: "\(UserText.path(path)): cannot read: \(error.reason)")
        }
        let decoded = try decode(bytes, file: path, expected: fileInFolder == fileName ? .partial : .result)
        return (decoded.partial, decoded.scenario, path)
    }

    /// Why a JSON object without a `format` string is not `expected`, naming the pushsim
    /// file it looks like (a scenario has `strategies` and `start`).
    /// - Complexity: O(members).
    private static func notThisFormat(_ object: JSONObject, expected: Expected) -> String {
        if object["strategies"] != nil, object["start"] != nil {
            return "not \(expected.noun) but a scenario file (run it with 'pushsim run')"
        }
        return "not \(expected.noun): no \"format\" field (pushsim writes \"format\": \"\(format)\" first)"
    }

    /// Why a partial file cannot be merged.
    package struct DecodingError: Error, CustomStringConvertible {
        package var description: String
    }

    /// What a command reads a file in this format as: a shard's `partial.json` (`merge`)
    /// or a run's `result.json` (`report`). Both hold the same format; the messages name
    /// the one the user gave.
    package enum Expected: Sendable {
        case partial
        case result

        /// "a shard's partial.json", "a run's result.json": what the file should have been.
        package var noun: String {
            switch self {
            case .partial: "a shard's \(PartialResult.fileName)"
            case .result: "a run's \(RunOutput.resultFileName)"
            }
        }

        /// How to get a file this pushsim reads: "re-run every shard", "run the scenario again".
        package var remedy: String {
            switch self {
            case .partial: "re-run every shard"
            case .result: "run the scenario again"
            }
        }

        /// "partial result", "result.json": what "damaged …" names.
        package var short: String {
            switch self {
            case .partial: "partial result"
            case .result: RunOutput.resultFileName
            }
        }
    }

    /// Reads a partial (or a run's `result.json`, `expected` says which the user meant);
    /// `file` names it in errors, which say what is wrong with the file: not JSON, JSON of
    /// another shape, another pushsim file (a scenario, `run.json`), or a damaged field.
    package static func decode(_ bytes: [UInt8], file: String, expected: Expected = .partial)
        throws(DecodingError) -> (partial: PartialResult, scenario: Scenario) {
        let reader = Reader(file: file, expected: expected)
        let object = try reader.header(bytes)
        try reader.checkCounterNames(object)
        let embedded = try reader.embeddedScenario(object)
        var scenario = embedded.scenario
        guard let seed = UInt64(exactly: try reader.integer(object["seed"])) else { throw reader.fail("\(reader.damaged) (seed)") }
        scenario.seed = seed
        let shard = try reader.shard(object)
        let strategies = try reader.strategies(object, of: scenario)
        scenario.strategies = strategies
        let aggregates = try reader.aggregates(object, strategies: strategies.count, days: scenario.dayCount)
        let result = SimulationResult(strategies: strategies, aggregates: aggregates,
                                      users: try reader.integer(object["users"]), events: try reader.integer(object["events"]))
        try reader.check(result, shard: shard, devices: scenario.devices)
        let commandLine = try reader.commandLine(object)
        return (PartialResult(scenarioText: embedded.text, seed: seed, shard: shard, result: result, commandLine: commandLine),
                scenario)
    }

    /// `decode`'s steps: each reads a part of the file, or throws what is wrong with it,
    /// naming `file` and what the user meant it for (`expected`).
    private struct Reader {
        let file: String
        let expected: Expected
        let damaged: String

        init(file: String, expected: Expected) {
            self.file = file
            self.expected = expected
            damaged = "damaged " + expected.short
        }

        func fail(_ message: String) -> DecodingError { DecodingError(description: "\(UserText.path(file)): \(message)") }

        func integer(_ node: JSONNode?) throws(DecodingError) -> Int64 {
            guard case .number(let number)? = node?.value, let value = number.int64Value else {
                throw fail("\(damaged) (expected an integer at \(node?.location.description ?? "?"))")
            }
            return value
        }

        func array(_ node: JSONNode?) throws(DecodingError) -> [JSONNode] {
            guard case .array(let items)? = node?.value else { throw fail("\(damaged) (expected an array)") }
            return items
        }

        func integers(_ node: JSONNode?) throws(DecodingError) -> [Int64] {
            try array(node).map { node throws(DecodingError) in try integer(node) }
        }

        /// The file's JSON object, once it is JSON, an object, this format and this version.
        func header(_ bytes: [UInt8]) throws(DecodingError) -> JSONObject {
            let root: JSONNode
            do { root = try JSONParser.parse(bytes) } catch {
                throw fail("not \(expected.noun): not JSON (\(error.location): \(error.message))")
            }
            guard case .object(let object) = root.value else {
                throw fail("not \(expected.noun): the file holds \(root.value.kindName), not a JSON object")
            }
            guard case .string(let foundFormat)? = object["format"]?.value else {
                throw fail(PartialResult.notThisFormat(object, expected: expected))
            }
            guard foundFormat == format else {
                let known = foundFormat == RunRecord.format ? " (a run's \(RunRecord.fileName))" : ""
                throw fail("not \(expected.noun): its \"format\" is \(UserText.quote(foundFormat))\(known), not \"\(format)\"")
            }
            let fileVersion = try integer(object["version"])
            guard fileVersion == version else {
                throw fail(fileVersion < version
                    ? "a version \(fileVersion) \(expected.short), from an older pushsim whose reports had other columns; "
                      + "this pushsim reads version \(version): \(expected.remedy) with it"
                    : "a version \(fileVersion) \(expected.short), from a newer pushsim; this one reads version \(version)")
            }
            return object
        }

        /// The counters by name: a part from a pushsim with other counters would put
        /// its numbers under the wrong columns.
        func checkCounterNames(_ object: JSONObject) throws(DecodingError) {
            for (key, kind, names) in [("chainCounters", "chain", ChainCounts.columnNames),
                                       ("apnsCounters", "APNs", APNsCounters.columnNames)] {
                let found = try array(object[key]).map { node throws(DecodingError) -> String in
                    guard case .string(let name) = node.value else { throw fail("\(damaged) (\(key))") }
                    return name
                }
                guard found == names else {
                    let missing = names.filter { !found.contains($0) }, unknown = found.filter { !names.contains($0) }
                    let difference = (missing.isEmpty ? [] : ["without " + missing.joined(separator: ", ")])
                        + (unknown.isEmpty ? [] : ["with " + UserText.list(unknown)])
                    throw fail("from a pushsim with other \(kind) counters ("
                               + (difference.isEmpty ? "in another order" : difference.joined(separator: "; "))
                               + "): \(expected.remedy) with this one")
                }
            }
        }

        /// The scenario's own text and the scenario it decodes to.
        func embeddedScenario(_ object: JSONObject) throws(DecodingError) -> (text: String, scenario: Scenario) {
            guard case .string(let scenarioText)? = object["scenario"]?.value else { throw fail("\(damaged) (no scenario)") }
            do { return (scenarioText, try ScenarioDecoder.decode(Array(scenarioText.utf8), file: file + " (embedded scenario)")) } catch {
                throw fail("\(error)")
            }
        }

        /// The shard `index` of `count`, within what `run --shard` writes.
        func shard(_ object: JSONObject) throws(DecodingError) -> (index: Int, count: Int) {
            let shardItems = try array(object["shard"])
            guard shardItems.count == 2 else { throw fail("\(damaged) (shard)") }
            let shard = (index: Int(try integer(shardItems[0])), count: Int(try integer(shardItems[1])))
            guard (1...maximumShardCount).contains(shard.count), (1...shard.count).contains(shard.index) else {
                throw fail("\(damaged) (shard \(shard.index)/\(shard.count))")
            }
            return shard
        }

        /// The strategies run, by label, as `scenario` defines them.
        func strategies(_ object: JSONObject, of scenario: Scenario) throws(DecodingError) -> [Strategy] {
            var strategies: [Strategy] = []
            for item in try array(object["strategies"]) {
                guard case .string(let label) = item.value,
                      let strategy = scenario.strategies.first(where: { $0.label == label }) else {
                    throw fail("\(damaged) (unknown strategy)")
                }
                strategies.append(strategy)
            }
            return strategies
        }

        /// One aggregate per strategy run, each over `days` days.
        func aggregates(_ object: JSONObject, strategies: Int, days: Int) throws(DecodingError) -> [StrategyAggregate] {
            var aggregates: [StrategyAggregate] = []
            let aggregateItems = try array(object["aggregates"])
            guard aggregateItems.count == strategies else { throw fail("\(damaged) (aggregates)") }
            for item in aggregateItems {
                guard case .object(let fields) = item.value else { throw fail("\(damaged) (aggregate)") }
                aggregates.append(try aggregate(fields, days: days))
            }
            return aggregates
        }

        /// One strategy's aggregate: its counts, chain, losses, APNs counters, latency, days and blocks.
        func aggregate(_ fields: JSONObject, days dayCount: Int) throws(DecodingError) -> StrategyAggregate {
            var aggregate = StrategyAggregate(days: dayCount)
            let counts = try integers(fields["counts"])
            guard counts.count == StrategyAggregate.counts.count else { throw fail("\(damaged) (counts)") }
            for ((_, field), value) in zip(StrategyAggregate.counts, counts) { aggregate[keyPath: field] = value }
            let chain = try integers(fields["chain"])
            guard let chainCounts = ChainCounts(values: chain) else { throw fail("\(damaged) (chain)") }
            aggregate.chain = chainCounts
            let lost = try array(fields["lost"])
            guard lost.count == LossReason.slots else { throw fail("\(damaged) (lost)") }
            for (index, node) in lost.enumerated() { aggregate.lostByReason[index] = try integer(node) }
            let apns = try integers(fields["apns"])
            guard let counters = APNsCounters(values: apns) else { throw fail("\(damaged) (apns)") }
            aggregate.apns = counters
            if fields["faults"] != nil {
                guard let faults = APNsFaultCounts(values: try integers(fields["faults"])) else { throw fail("\(damaged) (faults)") }
                aggregate.faults = faults
            }
            if fields["background"] != nil {
                guard let background = BackgroundCounts(values: try integers(fields["background"])) else {
                    throw fail("\(damaged) (background)")
                }
                aggregate.background = background
            }
            try readLatency(fields["latency"], into: &aggregate.latency)
            if fields["recoveredLatency"] != nil { try readLatency(fields["recoveredLatency"], into: &aggregate.recoveredLatency) }
            let days = try array(fields["daily"])
            guard days.count == dayCount else { throw fail("\(damaged) (daily)") }
            for (day, node) in days.enumerated() {
                guard let counts = DayCounts(values: try integers(node)) else { throw fail("\(damaged) (day)") }
                aggregate.daily[day] = counts
            }
            let dailyLost = try integers(fields["dailyLost"])
            guard dailyLost.count == aggregate.dailyLostByReason.count else { throw fail("\(damaged) (dailyLost)") }
            aggregate.dailyLostByReason = ContiguousArray(dailyLost)
            let blocks = try integers(fields["blocks"])
            guard blocks.count == aggregate.blocks.count else { throw fail("\(damaged) (blocks)") }
            aggregate.blocks = ContiguousArray(blocks)
            let dailyBlocks = try integers(fields["dailyBlocks"])
            guard dailyBlocks.count == aggregate.dailyBlocks.count else { throw fail("\(damaged) (dailyBlocks)") }
            aggregate.dailyBlocks = ContiguousArray(dailyBlocks)
            return aggregate
        }

        /// The latency's non-empty buckets, each a bucket a latency can fall in, their counts
        /// adding up within an Int64.
        func readLatency(_ node: JSONNode?, into histogram: inout LatencyHistogram) throws(DecodingError) {
            var latencyTotal: Int64 = 0
            for bucket in try array(node) {
                let pair = try array(bucket)
                guard pair.count == 2 else { throw fail("\(damaged) (latency)") }
                let index = Int(try integer(pair[0])), count = try integer(pair[1])
                // Only buckets a latency (a non-negative Int64) can fall in.
                guard (0..<LatencyHistogram.reachableBucketCount).contains(index), count >= 0 else {
                    throw fail("\(damaged) (latency bucket)")
                }
                // The total is a count of messages: an Int64, like every count.
                let (total, overflow) = latencyTotal.addingReportingOverflow(count)
                guard !overflow else { throw fail("\(damaged) (latency counts add up past \(Int64.max))") }
                latencyTotal = total
                histogram.add(bucket: index, count: UInt64(count))
            }
        }

        /// A part is checked on its own, so a damaged one is named (exit 65) rather
        /// than found out after merging: every rule a run's own result obeys, and the
        /// users its shard of `devices` holds.
        func check(_ result: SimulationResult, shard: (index: Int, count: Int), devices: Int) throws(DecodingError) {
            guard result.events >= 0 else { throw fail("\(damaged) (events \(result.events) < 0)") }
            for (strategy, aggregate) in zip(result.strategies, result.aggregates) {
                if let broken = PartialChecks.violation(in: aggregate) {
                    throw fail("\(damaged) (strategy \(UserText.escape(strategy.label)): \(broken))")
                }
            }
            let expectedUsers = Simulation.shardRange(index: shard.index, count: shard.count, devices: devices).count
            guard result.users == Int64(expectedUsers) else {
                throw fail("\(damaged) (\(Counted.phrase(result.users, "user")); shard \(shard.index)/\(shard.count) "
                           + "of \(Counted.phrase(devices, "device")) has \(expectedUsers))")
            }
        }

        /// The command line that made the file, when it holds one.
        func commandLine(_ object: JSONObject) throws(DecodingError) -> String? {
            guard let node = object["command"] else { return nil }
            guard case .string(let text) = node.value else { throw fail("\(damaged) (command)") }
            return text
        }
    }

    package init(scenarioText: String, seed: UInt64, shard: (index: Int, count: Int), result: SimulationResult, commandLine: String? = nil) {
        self.scenarioText = scenarioText
        self.seed = seed
        self.shard = shard
        self.result = result
        self.commandLine = commandLine
    }
}
