import Foundation
import TestSupport
import Testing
import TestThreads

/// serve's operator routes read by the tools operators use: Prometheus's own text parser
/// (prometheus_client) on `GET /metrics`, schemathesis on `GET /openapi.json`, and a
/// provider's wall-clock `apns-expiration` against the simulated clock (`--start now`).
@Suite("serve for operators, checked by real tools", .ownThread)
struct OperatorToolsTests {
    typealias Tools = ServeClientTests

    /// One push through curl over h2c with `apns-expiration: expiration`: its status.
    static func push(_ serve: RunningServe, token: String, expiration: Int64) -> String? {
        runTool("curl", ["-s", "--max-time", "20", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
                         "-H", "apns-topic: \(Tools.topic)", "-H", "apns-push-type: alert", "-H", "apns-expiration: \(expiration)",
                         "-d", #"{"aps":{"alert":"mail"}}"#, "http://127.0.0.1:\(serve.apnsPort)/3/device/\(token)"])?.out
    }

    /// Prometheus's parser on serve's `/metrics`: each sample as `name{labels sorted}` → value, and each family's type.
    static let parser = """
    import json, sys, urllib.request
    from prometheus_client.parser import text_string_to_metric_families
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=20).read().decode("utf-8")
    samples, types = {}, {}
    for family in text_string_to_metric_families(text):
        types[family.name] = family.type
        for s in family.samples:
            samples[s.name + "{" + ",".join("%s=%s" % kv for kv in sorted(s.labels.items())) + "}"] = s.value
    print(json.dumps({"samples": samples, "types": types}))
    """

    @Test("prometheus_client's text parser reads serve's /metrics: every counter a counter family, values equal to GET /counters",
          .needs(.curl, .prometheusClient), .timeLimit(.minutes(2)))
    func prometheusParsesMetrics() throws {
        let binary = try Tools.require([.curl, .prometheusClient])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let serve = try Tools.startControlled(binary, in: scratch)
        defer { Tools.forceStop(serve) }
        let token = try #require(try Tools.devices(serve).first?["token"] as? String)
        #expect(Self.push(serve, token: token, expiration: 0) == "200")
        _ = try Tools.control(serve, "/clock", post: #"{"advanceSeconds": 60}"#)
        let parsed = try Tools.json(try Tools.run(["python3", "-c", Self.parser, String(serve.controlPort)], seconds: 60), "the parser")
        let samples = try #require(parsed["samples"] as? [String: Double])
        let types = try #require(parsed["types"] as? [String: String])
        let counters = try Tools.control(serve, "/counters")
        for (group, metric) in [("apns", "apns"), ("deviceApps", "device_apps")] {
            let counts = try #require(counters[group] as? [String: Int])
            #expect(!counts.isEmpty)
            for (column, value) in counts {
                #expect(types["pushsim_\(metric)_\(column)"] == "counter", "\(metric) \(column)")
                #expect(samples["pushsim_\(metric)_\(column)_total{strategy=no-queue}"] == Double(value), "\(metric) \(column)")
            }
        }
        #expect(samples["pushsim_answers_total{status=200}"] == 1)
        #expect(types["pushsim_run_info"] == "gauge")
        try Tools.stop(serve)
    }

    @Test("schemathesis (all checks, bounded) finds no failure in serve's control API against its OpenAPI document",
          .needs(.schemathesis), .timeLimit(.minutes(4)))
    func schemathesisFindsNothing() throws {
        let binary = try Tools.require([.schemathesis])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("clients.json", Tools.scenario)
        // A scaled clock: POST /clock is then 409, so no generated body can end the run; POST /stop is left out.
        let serve = try RunningServe.start(binary, [scenario, "--topic", Tools.topic, "--out", scratch.file("out")])
        defer { Tools.forceStop(serve) }
        let finished = try Tools.run(["schemathesis", "run", "http://127.0.0.1:\(serve.controlPort)/openapi.json", "--checks", "all",
                                      "--exclude-path", "/stop", "--max-examples", "25", "--max-time", "60", "--workers", "1",
                                      "--seed", "20261127", "--no-color"],
                                     seconds: 150, directory: scratch.path)
        #expect(!finished.timedOut)
        #expect(finished.status == 0, "schemathesis failed:\n\(finished.out.suffix(6000))\n\(finished.err.suffix(2000))")
        #expect(finished.out.contains("No issues found"), "\(finished.out.suffix(3000))")
        try Tools.stop(serve)
    }

    @Test("a wall-clock apns-expiration a day ahead is expired on arrival against a scenario that starts in 2030, counted; with --start now it is not",
          .needs(.curl), .timeLimit(.minutes(2)))
    func wallClockExpirations() throws {
        let binary = try Tools.require([.curl])
        let tomorrow = Int64(Date().timeIntervalSince1970) + 86_400
        for (extra, expired) in [(["--set", "start=2030-01-07"], 1), (["--start", "now"], 0)] {
            let scratch = try CommandFixtures.ScratchDirectory()
            defer { scratch.remove() }
            let serve = try Tools.startControlled(binary, in: scratch, extra)
            defer { Tools.forceStop(serve) }
            let token = try #require(try Tools.devices(serve).first?["token"] as? String)
            #expect(Self.push(serve, token: token, expiration: tomorrow) == "200")
            let counts = try Tools.control(serve, "/counters")["deviceApps"] as? [String: Int]
            #expect(counts?["expired_on_arrival"] == expired, "\(extra)")
            try Tools.stop(serve)
            let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.file("out/serve.json"))))
            #expect(((summary as? [String: Any])?["counts"] as? [String: Any])?["expired_on_arrival"] as? Int == expired, "\(extra)")
        }
    }
}
