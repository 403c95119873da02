import Foundation
import Glibc
import HTTP2
import Testing
import TestThreads
import Transport

/// Crowds that once locked every client out (issue 34): 5,000 silent connections, and a
/// slowloris of 2,000 that send a byte now and then and never finish a frame or a request.
/// Legitimate clients on both ports are answered meanwhile: each listener has its own
/// limit, and a full one closes the connection that waited longest, one that never
/// brought a request first. Limits are small here (256 and 64) to keep descriptors few;
/// the rule is the same at serve's 1,024 and 256.
@Suite("Crowds: idle connections and slowloris on both ports", .ownThread, .serialized, .timeLimit(.minutes(2)))
struct CrowdTests {
    static let apnsLimit = 256, controlLimit = 64

    static func start() throws -> (RunningServer, apns: Int, control: Int) {
        #expect(DescriptorLimit.raise(to: 16_384) >= 8_192, "the test needs about 6,000 descriptors")
        var configuration = TransportConfiguration()
        configuration.maxConnections = apnsLimit
        // The crowd connects faster than a loop sharing two cores may accept: a backlog that
        // overflows makes its connects wait a second for the SYN again (the test's time, not serve's).
        configuration.listenBacklog = 4_096
        let running = try RunningServer(configuration: configuration,
                                        listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http1OrHTTP2)],
                                        maxConnections: [apnsLimit, controlLimit])
        return (running, running.ports[0], running.ports[1])
    }

    /// A new client waits this long for each read: starvation is an answer that never comes,
    /// and a CI machine sharing its 2 cores with other suites' servers may take seconds for one
    /// that does (a 5 s wait once failed there while the crowd was being accepted).
    static let clientWait = 20

    /// A new HTTP/2 client's request on the APNs port is answered (200, whole).
    static func apnsAnswered(port: Int, path: String) -> Bool {
        guard let client = try? RawClient(port: port, timeout: clientWait) else { return false }
        defer { client.close() }
        var wire = H2Wire()
        guard (try? client.send(H2Wire.start + H2Wire.settingsAcknowledgement + wire.headers(stream: 1, path: path, endStream: true))) != nil
        else { return false }
        let bytes = client.read { H2Wire.frames($0)?.contains { frame in
            if case .data(_, true, _) = frame.payload { frame.stream == StreamID(1) } else { false }
        } == true }
        return H2Wire.frames(bytes)?.contains { frame in
            if case .data(_, true, _) = frame.payload { frame.stream == StreamID(1) } else { false }
        } == true
    }

    /// A new HTTP/1.1 client's request on the control port is answered 200.
    static func controlAnswered(port: Int, path: String) -> Bool {
        guard let client = try? RawClient(port: port, timeout: clientWait) else { return false }
        defer { client.close() }
        guard (try? client.send("GET \(path) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")) != nil else { return false }
        return String(decoding: client.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n")
    }

    @Test("5,000 silent connections held on both ports: new clients are answered on both, and a client served before keeps its connection")
    func idleCrowd() throws {
        let (running, apns, control) = try Self.start()
        defer { running.stop() }
        let longLived = try RawClient(port: apns)
        #expect(ConnectionLimitTests.isServed(longLived) && ConnectionLimitTests.isAnswered(longLived, stream: 1, path: "/before"))

        var crowd: [RawClient] = []
        crowd.reserveCapacity(5_000)
        for index in 0..<5_000 { crowd.append(try RawClient(port: index % 2 == 0 ? apns : control)) }
        var unanswered: [String] = []
        let started = ContinuousClock.now
        for round in 0..<10 {
            if !Self.apnsAnswered(port: apns, path: "/apns-\(round)") { unanswered.append("APNs port, round \(round), at \(ContinuousClock.now - started)") }
            if !Self.controlAnswered(port: control, path: "/control-\(round)") { unanswered.append("control port, round \(round), at \(ContinuousClock.now - started)") }
        }
        #expect(unanswered.isEmpty, "unanswered: \(unanswered)")
        #expect(ConnectionLimitTests.isAnswered(longLived, stream: 3, path: "/after"))
        for client in crowd { client.close() }
        let statistics = running.stop()
        #expect(statistics.connectionsEvicted >= 5_000 - Self.apnsLimit - Self.controlLimit)
        #expect(statistics.peakConnections <= Self.apnsLimit + Self.controlLimit)
    }

    @Test("a slowloris of 2,000 connections, a byte each now and then, reconnecting when closed: new clients are answered on both ports")
    func slowloris() throws {
        let (running, apns, control) = try Self.start()
        defer { running.stop() }
        // Octets that never complete a frame or a request: the preface's on the APNs port, a head's on the control port.
        let dribbles = [FrameParser.clientPreface, Array("GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 4_000)]
        var attackers: [(client: RawClient?, port: Int, sent: Int)] = (0..<2_000).map { index in
            let port = index % 2 == 0 ? apns : control
            return (try? RawClient(port: port, timeout: 1), port, 0)
        }
        var answered = 0, rounds = 0, reconnects = 0
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(3) || rounds < 5 {
            for index in attackers.indices {
                let dribble = dribbles[index % 2]
                let octet = dribble[min(attackers[index].sent, dribble.count - 2)]
                if let client = attackers[index].client, (try? client.send([octet])) != nil {
                    attackers[index].sent += 1
                } else {
                    attackers[index].client?.close()
                    attackers[index] = (try? RawClient(port: attackers[index].port, timeout: 1), attackers[index].port, 0)
                    reconnects += 1
                }
            }
            if Self.apnsAnswered(port: apns, path: "/apns-\(rounds)") { answered += 1 }
            if Self.controlAnswered(port: control, path: "/control-\(rounds)") { answered += 1 }
            rounds += 1
        }
        #expect(answered == 2 * rounds, "\(answered) of \(2 * rounds) answered, \(reconnects) reconnections")
        for attacker in attackers { attacker.client?.close() }
        let statistics = running.stop()
        #expect(statistics.connectionsEvicted > 0)
        #expect(running.service.snapshot.requests.count == answered)
    }
}

/// The process's limit on open descriptors, raised for tests that hold thousands.
enum DescriptorLimit {
    /// Raises the soft limit to `wanted` (or the hard limit, if lower); the soft limit now.
    static func raise(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < rlim_t(wanted) {
            limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
