@testable import CLI
import Live
import ScenarioFormat
import Simulator
import Base
import Foundation
import TestSupport
import Testing

/// `pushsim serve` as a user runs it: refusals before it listens in-process; a whole run
/// (listen, push with curl, inspect, stop, reports) with the built binary.
@Suite("serve: the command")
struct ServeCommandTests {
    typealias ScratchDirectory = CommandFixtures.ScratchDirectory

    @Test("a command line serve cannot run is refused with one line and exit 64, before it listens")
    func usageErrors() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let cases: [([String], String)] = [
            (["serve"], "missing the scenario file"),
            (["serve", scenario, "--clock", "controlled", "--speed", "10"], "--speed sets the scaled clock"),
            (["serve", scenario, "--clock", "sometimes"], "expected scaled or controlled"),
            (["serve", scenario, "--listen", "nowhere"], "expected host:port"),
            (["serve", scenario, "--listen", "127.0.0.1:70000"], "expected host:port"),
            (["serve", scenario, "--speed", "0"], "simulated seconds per wall second"),
            (["serve", scenario, "--for", "soon"], "a duration with a unit"),
            (["serve", scenario, "--start", "tomorrow"], "expected now"),
            (["serve", scenario, "--strategy", "nope"], "nope"),
            (["serve", scenario, "--provider-key", "TEAM:KEY"], "TEAMID:KEYID:path"),
            (["serve", scenario, "--provider-key", "T:K:f.p8", "--trust-certificate-subject", "x-s"], "give one"),
            (["serve", scenario, "--tls-cert", "c.pem", "--tls-key", "k.pem"], "give --tls too"),
            (["serve", scenario, "--client-ca", "ca.pem"], "give --tls too"),
            (["serve", scenario, "--tls", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
            (["serve", scenario, "--tls", "--tls-dir", "d", "--tls-cert", "c.pem", "--tls-key", "k.pem"], "give one"),
            (["serve", scenario, "--tls", "--client-ca", "ca.pem", "--provider-key", "T:K:f.p8"], "--client-ca is certificate authentication"),
        ]
        for (arguments, message) in cases {
            let (code, _, err) = CapturedConsole.run(arguments)
            #expect(code == .usage, "\(arguments)")
            #expect(err.contains(message), "\(arguments): \(err)")
        }
    }

    @Test("--start now moves the scenario to the wall clock's day and starts the clock at its time; the run lasts --for from there")
    func startNow() throws {
        let scenario = try ScenarioDecoder.decode(Array(CommandFixtures.tiny.utf8), file: "tiny.json")
        // 2026-11-27 11:05:30.25 UTC.
        let wall: SimTime = 1_795_777_530 * TimeUnit.second + 250_000
        let (moved, origin) = ServeCommand.startingNow(scenario, at: wall, length: 2 * TimeUnit.hour)
        #expect(moved.start.description == "2026-11-27")
        #expect(origin == (11 * 3600 + 5 * 60 + 30) * TimeUnit.second + 250_000)
        #expect(moved.duration == origin + 2 * TimeUnit.hour)
        #expect(LiveClock.iso8601(origin, start: moved.start) == "2026-11-27T11:05:30.250Z")
        #expect(ServeCommand.startingNow(scenario, at: wall, length: nil).0.duration == origin + scenario.duration)
    }

    @Test("a scenario or key file that cannot be read (missing, or not a key) is exit 65 with one line naming the file, before it listens")
    func dataErrors() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let key = try scratch.write("AuthKey_KEY1234567.p8", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n")
        var (code, _, err) = CapturedConsole.run(["serve", scratch.file("missing.json")])
        #expect(code == .dataError)
        #expect(err.contains("missing.json"))
        (code, _, err) = CapturedConsole.run(["serve", scenario, "--provider-key", "TEAM123456:KEY1234567:" + key])
        #expect(code == .dataError)
        #expect(err.contains("AuthKey_KEY1234567.p8"))
        #expect(err.split(separator: "\n").count == 1)
        let absent = scratch.file("nofile.p8")
        (code, _, err) = CapturedConsole.run(["serve", scenario, "--provider-key", "TEAM123456:KEY1234567:" + absent])
        #expect(code == .dataError)
        #expect(err == "error: \(absent): no such file\n")
        (code, _, err) = CapturedConsole.run(["serve", scenario, "--set", "devices=10000000"])
        #expect(code == .dataError)
        #expect(err.contains("--allow-large"))
    }

    @Test("--tls with a certificate, key or client CA file that is missing, not PEM, not P-256 or not the certificate's is exit 65 with one line naming the file, before it listens")
    func tlsFileErrors() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let folder = scratch.file("tls")
        // serve's own folder gives a real certificate and key to mismatch.
        let made = try LocalTLSFolder.prepare(folder, now: Int64(Date().timeIntervalSince1970))
        #expect(made.madeAuthority && made.madeServerCertificate)
        let garbage = try scratch.write("garbage.pem", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
        let cert = folder + "/server.pem", key = folder + "/server-key.pem", caKey = folder + "/ca-key.pem"
        let cases: [([String], String)] = [
            (["--tls-cert", scratch.file("none.pem"), "--tls-key", key], "none.pem"),
            (["--tls-cert", garbage, "--tls-key", key], "garbage.pem: not a PEM certificate chain"),
            (["--tls-cert", cert, "--tls-key", cert], "server.pem: not a P-256 private key"),
            (["--tls-cert", cert, "--tls-key", caKey], "ca-key.pem: the key is not the one of the first certificate"),
            (["--tls-dir", folder, "--client-ca", garbage], "garbage.pem: not a PEM certificate chain"),
        ]
        for (extra, message) in cases {
            let (code, _, err) = CapturedConsole.run(["serve", scenario, "--tls"] + extra + ["--out", scratch.file("out")])
            #expect(code == .dataError, "\(extra)")
            #expect(err.hasPrefix("error: ") && err.contains(message) && err.split(separator: "\n").count == 1, "\(extra): \(err)")
        }
    }

    @Test("a port already taken is exit 1 with the address and the system's reason")
    func portTaken() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        // Listen on a port first, then ask serve for it.
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(taken, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(listen(taken, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            getsockname(taken, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let (code, _, err) = CapturedConsole.run(["serve", scenario, "--listen", "127.0.0.1:\(port)",
                                                  "--out", scratch.file("out")])
        #expect(code == .failure)
        #expect(err.contains("127.0.0.1:\(port)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out/serve.json")))
    }
}
