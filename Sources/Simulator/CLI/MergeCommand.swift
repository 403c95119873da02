import Foundation

/// `pushsim merge DIR... --out DIR`: sums the partial results of a sharded run
/// into the same reports one run would have written, byte for byte.
enum MergeCommand {
    static let help = """
    OVERVIEW: Combine the partial results of 'pushsim run --shard K/N' into reports.

    USAGE: pushsim merge <dir-or-partial.json>... --out <dir>

    Every shard 1…N of one scenario, seed and strategy set must be given exactly
    once. Writes \(Reports.listing(Reports.fileNames)) to <dir>,
    identical to an unsharded run.

    EXAMPLES:
      pushsim merge parts/1 parts/2 parts/3 --out reports/scale-1m

    """

    static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "merge", valued: ["--out"], flags: [])
        } catch {
            return PushSimCommand.usage(error, help: help, console: console)
        }
        guard !scanner.positional.isEmpty else {
            return PushSimCommand.usage(.missingArgument("the partial results to merge"), help: help, console: console)
        }
        guard let out = scanner.value("--out"), !out.isEmpty else {
            return PushSimCommand.usage(.missingArgument("--out <dir>"), help: help, console: console)
        }
        var merged: SimulationResult?
        var reference: (partial: PartialResult, scenario: Scenario)?
        var seen: Set<Int> = []
        for argument in scanner.positional {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
            let path = isDirectory.boolValue ? (argument as NSString).appendingPathComponent("partial.json") : argument
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(path: path) } catch {
                console.err("error: \(path): cannot read: \(error.reason)\n")
                return .dataError
            }
            let decoded: (partial: PartialResult, scenario: Scenario)
            do { decoded = try PartialResult.decode(bytes, file: path) } catch {
                console.err("error: \(error)\n")
                return .dataError
            }
            if let reference {
                guard decoded.partial.scenarioText == reference.partial.scenarioText,
                      decoded.partial.seed == reference.partial.seed,
                      decoded.partial.result.strategies == reference.partial.result.strategies,
                      decoded.partial.shard.count == reference.partial.shard.count else {
                    console.err("error: \(path): from another scenario, seed, strategy set or shard count than the first part\n")
                    return .dataError
                }
            } else {
                reference = decoded
            }
            guard seen.insert(decoded.partial.shard.index).inserted else {
                console.err("error: \(path): shard \(decoded.partial.shard.index)/\(decoded.partial.shard.count) given twice\n")
                return .dataError
            }
            if merged == nil { merged = decoded.partial.result } else {
                do { try merged!.merge(part: decoded.partial.result, file: path) } catch {
                    console.err("error: \(error)\n")
                    return .dataError
                }
            }
        }
        guard let reference, var result = merged else { return .dataError }
        let missing = (1...reference.partial.shard.count).filter { !seen.contains($0) }
        guard missing.isEmpty else {
            console.err("error: shards missing: " + missing.map { "\($0)/\(reference.partial.shard.count)" }.joined(separator: ", ") + "\n")
            return .dataError
        }
        result.strategies = reference.scenario.strategies
        if let broken = result.checkIdentity() {
            console.err("error: the merged result does not add up: \(broken)\n")
            return .failure
        }
        let reports = Reports(scenario: reference.scenario, result: result)
        do {
            try ReportWriter.write(reports.files, to: out)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        console.out(reports.table)
        console.err("merged \(seen.count) shards into \(Reports.listing(Reports.fileNames)) in \(out)\n")
        return .success
    }
}
