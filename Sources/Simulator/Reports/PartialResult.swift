import FakeAPNs
import Provider

/// The result of one shard, written by `pushsim run --shard K/N` and read by
/// `pushsim merge`. It carries the scenario's own text, so merging needs no other
/// file and can check that every part came from the same scenario, seed and strategies.
struct PartialResult {
    static let format = "pushsim-partial"
    static let version: Int64 = 1

    var scenarioText: String
    var seed: UInt64
    var shard: (index: Int, count: Int)
    var result: SimulationResult

    /// JSON, one aggregate per strategy; counts as integers, latency as non-empty buckets.
    func encoded() -> String {
        func list<T>(_ items: some Sequence<T>, _ render: (T) -> String) -> String {
            "[" + items.map(render).joined(separator: ",") + "]"
        }
        var text = "{\"format\":\(jsonStringLiteral(Self.format)),\"version\":\(Self.version),"
        text += "\"shard\":[\(shard.index),\(shard.count)],\"seed\":\(seed),"
        text += "\"strategies\":" + list(result.strategies) { jsonStringLiteral($0.label) } + ","
        text += "\"users\":\(result.users),\"events\":\(result.events),\n"
        text += "\"aggregates\":[\n"
        text += result.aggregates.map { aggregate in
            var item = "{\"counts\":" + list([aggregate.messages, aggregate.delivered, aggregate.summarized,
                                               aggregate.pending, aggregate.pushesSent, aggregate.rerequests,
                                               aggregate.duplicatesShown, aggregate.collapsed]) { String($0) }
            item += ",\"lost\":" + list(aggregate.lostByReason) { String($0) }
            item += ",\"latency\":" + list(aggregate.latency.nonEmptyBuckets) { "[\($0.0),\($0.1)]" }
            item += ",\"daily\":" + list(aggregate.daily) {
                "[\($0.messages),\($0.delivered),\($0.summarized),\($0.lost),\($0.pending)]"
            }
            return item + "}"
        }.joined(separator: ",\n")
        text += "\n],\n\"scenario\":" + jsonStringLiteral(scenarioText) + "}\n"
        return text
    }

    /// Why a partial file cannot be merged.
    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a partial; `file` names it in errors.
    static func decode(_ bytes: [UInt8], file: String) throws(DecodingError) -> (partial: PartialResult, scenario: Scenario) {
        func fail(_ message: String) -> DecodingError { DecodingError(description: "\(file): \(message)") }
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch { throw fail("\(error.location): \(error.message)") }
        guard case .object(let object) = root.value,
              case .string(format)? = object["format"]?.value else { throw fail("not a pushsim partial result") }
        func integer(_ node: JSONNode?) throws(DecodingError) -> Int64 {
            guard case .number(let number)? = node?.value, let value = number.int64Value else {
                throw fail("damaged partial result (expected an integer at \(node?.location.description ?? "?"))")
            }
            return value
        }
        func array(_ node: JSONNode?) throws(DecodingError) -> [JSONNode] {
            guard case .array(let items)? = node?.value else { throw fail("damaged partial result (expected an array)") }
            return items
        }
        guard try integer(object["version"]) == version else { throw fail("written by another version of pushsim") }
        guard case .string(let scenarioText)? = object["scenario"]?.value else { throw fail("damaged partial result (no scenario)") }
        var scenario: Scenario
        do { scenario = try ScenarioDecoder.decode(Array(scenarioText.utf8), file: file + " (embedded scenario)") } catch {
            throw fail("\(error)")
        }
        let seed = UInt64(try integer(object["seed"]))
        scenario.seed = seed
        let shardItems = try array(object["shard"])
        guard shardItems.count == 2 else { throw fail("damaged partial result (shard)") }
        let shard = (index: Int(try integer(shardItems[0])), count: Int(try integer(shardItems[1])))
        var strategies: [Strategy] = []
        for item in try array(object["strategies"]) {
            guard case .string(let label) = item.value,
                  let strategy = scenario.strategies.first(where: { $0.label == label }) else {
                throw fail("damaged partial result (unknown strategy)")
            }
            strategies.append(strategy)
        }
        scenario.strategies = strategies
        var aggregates: [StrategyAggregate] = []
        let aggregateItems = try array(object["aggregates"])
        guard aggregateItems.count == strategies.count else { throw fail("damaged partial result (aggregates)") }
        for item in aggregateItems {
            guard case .object(let fields) = item.value else { throw fail("damaged partial result (aggregate)") }
            var aggregate = StrategyAggregate(days: scenario.dayCount)
            let counts = try array(fields["counts"]).map { node throws(DecodingError) in try integer(node) }
            guard counts.count == 8 else { throw fail("damaged partial result (counts)") }
            aggregate.messages = counts[0]; aggregate.delivered = counts[1]; aggregate.summarized = counts[2]
            aggregate.pending = counts[3]; aggregate.pushesSent = counts[4]; aggregate.rerequests = counts[5]
            aggregate.duplicatesShown = counts[6]; aggregate.collapsed = counts[7]
            let lost = try array(fields["lost"])
            guard lost.count == LossReason.slots else { throw fail("damaged partial result (lost)") }
            for (index, node) in lost.enumerated() { aggregate.lostByReason[index] = try integer(node) }
            for bucket in try array(fields["latency"]) {
                let pair = try array(bucket)
                guard pair.count == 2 else { throw fail("damaged partial result (latency)") }
                let index = Int(try integer(pair[0])), count = try integer(pair[1])
                guard (0..<LatencyHistogram.bucketCount).contains(index), count >= 0 else {
                    throw fail("damaged partial result (latency bucket)")
                }
                aggregate.latency.add(bucket: index, count: UInt64(count))
            }
            let days = try array(fields["daily"])
            guard days.count == scenario.dayCount else { throw fail("damaged partial result (daily)") }
            for (day, node) in days.enumerated() {
                let values = try array(node).map { node throws(DecodingError) in try integer(node) }
                guard values.count == 5 else { throw fail("damaged partial result (day)") }
                aggregate.daily[day] = DayCounts(messages: values[0], delivered: values[1], summarized: values[2],
                                                 lost: values[3], pending: values[4])
            }
            aggregates.append(aggregate)
        }
        let result = SimulationResult(strategies: strategies, aggregates: aggregates,
                                      users: try integer(object["users"]), events: try integer(object["events"]))
        return (PartialResult(scenarioText: scenarioText, seed: seed, shard: shard, result: result), scenario)
    }
}
