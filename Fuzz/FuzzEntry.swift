// libFuzzer's entry point, compiled by Fuzz/run.sh as a module on top of PushSim's (never
// by SwiftPM: Package.swift does not list this folder). One binary, four targets, chosen
// by PUSHSIM_FUZZ_TARGET: `json` (the JSON parser), `scenario` (the scenario decoder,
// then the cost estimate of what it accepts), `partial` (a shard's partial result or a
// result.json, then the reports and the page drawn from what it accepts: every number
// in it reaches the CSVs and charts) and `folder` (a report folder's summary.csv as
// `diff` reads it, compared with itself and with a shipped one: table and JSON).
// Beyond "no crash", every error message must be lines without control characters,
// each of bounded length: user text is escaped and cut (`UserText`).
import Base
import CLI
import Foundation
import Reports
import ScenarioFormat
import Simulator
import Studies

private let target = ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_TARGET"] ?? "scenario"

/// Stops the run (a finding) when `message` has a control character other than the
/// line breaks between errors, or a line longer than any message needs.
private func checkMessage(_ message: String) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        precondition(line.unicodeScalars.allSatisfy { !UserText.isInvisible($0) },
                     "a message line holds a control character: \(line.debugDescription)")
        precondition(line.unicodeScalars.count <= 2_000, "a message line of \(line.unicodeScalars.count) characters")
    }
}

/// The shipped summary a fuzzed one is compared with (`Fuzz/corpus/folder/summary.csv`).
/// Read from the repository's root, where run.sh runs the binary; nil elsewhere.
private let reference: ReportFolder? = try? ReportFolder(
    path: "reference", summary: (try? FileBytes.read(path: "Fuzz/corpus/folder/summary.csv")) ?? [], record: nil)

@_cdecl("LLVMFuzzerTestOneInput")
public func pushsimFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch target {
    case "json":
        do {
            _ = try JSONParser.parse(bytes)
        } catch {
            checkMessage("\(error)")
        }
    case "partial":
        do {
            let decoded = try PartialResult.decode(bytes, file: "fuzz/partial.json")
            _ = decoded.partial.encoded()
            // What `merge` and `report` make of an accepted part: reports, table and page.
            let reports = Reports(scenario: decoded.scenario, result: decoded.partial.result)
            _ = reports.files
            _ = reports.table
            _ = ReportPage.render(scenario: decoded.scenario, result: decoded.partial.result, commandLine: nil)
        } catch {
            checkMessage("\(error)")
        }
    case "folder":
        do {
            let folder = try ReportFolder(path: "fuzz", summary: bytes, record: nil)
            for other in [folder] + (reference.map { [$0] } ?? []) {
                for confidence in [0.95, Expectation.maximumConfidence] {
                    let comparison = FolderComparison(old: other, new: folder, confidence: confidence)
                    checkMessage(DiffCommand.table(comparison))
                    _ = MachineOutput.diff(comparison)
                }
            }
        } catch {
            checkMessage("\(error)")
        }
    default:
        do {
            let scenario = try ScenarioDecoder.decode(bytes, file: "fuzz.json")
            let cost = RunCost(scenario, threads: 2)
            precondition(cost.messages >= 0 && cost.events >= 0 && cost.memoryBytes > 0, "a negative cost: \(cost)")
            _ = ValidateCommand.costLine(scenario, threads: 2)
        } catch {
            checkMessage("\(error)")
        }
    }
    return 0
}
