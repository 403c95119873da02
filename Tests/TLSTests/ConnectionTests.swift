@testable import TLS
import TLSCrypto
import Testing

/// The server through whole handshakes with the test client: what it agrees, application
/// data, KeyUpdate, close_notify, and the record layer's rules after the hello.
@Suite("Server connection: handshake, data, KeyUpdate, close, record rules")
struct ConnectionTests {
    @Test("a handshake agrees ChaCha20 (preferred), x25519, h2 and records the SNI; data flows both ways")
    func handshakeAndData() throws {
        var (server, client, events) = connected()
        let session = NegotiatedSession(cipherSuite: .chacha20Poly1305SHA256, group: .x25519, applicationProtocol: Array("h2".utf8),
                                        serverName: "api.push.apple.com", retried: false, clientCertificateChain: [])
        #expect(events == [.handshakeCompleted(session)])
        #expect(client.received.map(\.0) == [2, 8, 11, 15, 20])
        #expect(client.alerts.isEmpty)
        #expect(server.exchange(client.seal(.applicationData, Array("PRI * HTTP/2.0".utf8))).events
                == [.applicationData(Array("PRI * HTTP/2.0".utf8))])
        try server.send([UInt8](repeating: 0xab, count: 40_000))
        client.take(server.takeOutbound(maxBytes: .max))
        #expect(client.applicationData.map(\.count) == [16_384, 16_384, 7_232])
    }

    @Test("with AES preferred the server picks AES-128-GCM; without ALPN none is chosen")
    func aesAndNoALPN() {
        var configuration = testConfiguration()
        configuration.cipherSuites = [.aes128GCMSHA256, .chacha20Poly1305SHA256]
        var options = HelloOptions()
        options.alpn = nil
        options.serverName = nil
        let (server, _, events) = connected(configuration, options)
        #expect(events.count == 1)
        #expect(server.session?.cipherSuite == .aes128GCMSHA256)
        #expect(server.session?.applicationProtocol == nil)
        #expect(server.session?.serverName == nil)
    }

    @Test("sending before the handshake completes throws notConnected")
    func sendTooEarly() {
        var server = TLSServer(configuration: testConfiguration())
        #expect(throws: TLSSendError.notConnected) { try server.send([1]) }
    }

    @Test("the client's KeyUpdate with update_requested is answered with ours; data goes on under both new keys")
    func keyUpdateRequested() throws {
        var (server, client, _) = connected()
        let (events, output) = server.exchange(client.seal(.handshake, ServerMessages.keyUpdate(requested: true)))
        client.write = client.write!.next()
        #expect(events == [.keyUpdated(requested: true)])
        client.take(output)
        #expect(client.received.last.map { [$0.0] + $0.1 } == [24, 0])
        #expect(server.exchange(client.seal(.applicationData, [1, 2, 3])).events == [.applicationData([1, 2, 3])])
        try server.send([4, 5])
        client.take(server.takeOutbound(maxBytes: .max))
        #expect(client.applicationData == [[4, 5]])
        #expect(client.alerts.isEmpty)
    }

    @Test("a KeyUpdate not requested changes only the client's key; the server's own updateKey asks the client")
    func keyUpdateEachWay() throws {
        var (server, client, _) = connected()
        #expect(server.exchange(client.seal(.handshake, ServerMessages.keyUpdate(requested: false))) == ([.keyUpdated(requested: false)], []))
        client.write = client.write!.next()
        try server.updateKey()
        try server.send([9])
        client.take(server.takeOutbound(maxBytes: .max))
        #expect(client.received.last.map { [$0.0] + $0.1 } == [24, 1])
        #expect(client.applicationData == [[9]])
        #expect(server.exchange(client.seal(.applicationData, [7])).events == [.applicationData([7])])
    }

    @Test("a KeyUpdate of 2 is illegal_parameter; more KeyUpdates than the limit without data is unexpected_message")
    func keyUpdateLimits() {
        var (server, client, _) = connected()
        #expect(server.exchange(client.seal(.handshake, [24, 0, 0, 1, 2])).events == [.failed(.invalidKeyUpdate)])
        var configuration = testConfiguration()
        configuration.limits.maxKeyUpdatesWithoutData = 3
        var (flooded, flooder, _) = connected(configuration)
        var events: [TLSEvent] = []
        for _ in 0..<4 {
            events += flooded.exchange(flooder.seal(.handshake, ServerMessages.keyUpdate(requested: false))).events
            flooder.write = flooder.write!.next()
        }
        #expect(events.last == .failed(.tooManyKeyUpdates))
        #expect(events.filter { $0 == .keyUpdated(requested: false) }.count == 3)
    }

    @Test("the client's close_notify is answered with ours; the connection is over")
    func closeNotify() {
        var (server, client, _) = connected()
        let (events, output) = server.exchange(client.seal(.alert, [1, 0]))
        #expect(events == [.closed])
        client.take(output)
        #expect(client.alerts == [0])
        #expect(server.isFinished)
        #expect(server.receive([1, 2, 3]).isEmpty)
    }

    @Test("the server's close sends close_notify; a client's fatal alert ends the connection without an answer")
    func closeAndPeerAlert() {
        var (server, client, _) = connected()
        server.close()
        client.take(server.takeOutbound(maxBytes: .max))
        #expect(client.alerts == [0])
        var (other, otherClient, _) = connected()
        #expect(other.exchange(otherClient.seal(.alert, [2, 42])) == ([.peerAlert(42)], []))
    }

    @Test("a tampered record is bad_record_mac (20), sent under the server's application key")
    func badRecordMAC() {
        var (server, client, _) = connected()
        var record = client.seal(.applicationData, [1, 2, 3])
        record[7] ^= 0x80
        let (events, output) = server.exchange(record)
        #expect(events == [.failed(.recordNotAuthentic)])
        client.take(output)
        #expect(client.alerts == [20])
    }

    @Test("a protected record of zeros only is unexpected_message; one over 2^14 content bytes is record_overflow")
    func innerPlaintextRules() {
        var (server, client, _) = connected()
        #expect(server.exchange(client.write!.sealRaw([0, 0, 0])).events == [.failed(.noContentType)])
        var (big, bigClient, _) = connected()
        #expect(big.exchange(bigClient.write!.sealRaw([UInt8](repeating: 1, count: 16_385) + [23])).events == [.failed(.plaintextTooLong)])
        var (padded, paddedClient, _) = connected()
        #expect(padded.exchange(paddedClient.write!.sealRaw([5, 6, 23, 0, 0, 0, 0])).events == [.applicationData([5, 6])])
    }

    @Test("empty application data records are ignored up to the limit, then unexpected_message")
    func emptyRecords() {
        var (server, client, _) = connected()
        var events: [TLSEvent] = []
        for _ in 0..<16 { events += server.exchange(client.seal(.applicationData, [])).events }
        #expect(events.isEmpty)
        #expect(server.exchange(client.seal(.applicationData, [])).events == [.failed(.tooManyIgnoredRecords)])
    }

    @Test("a handshake message other than KeyUpdate after the handshake is unexpected_message")
    func postHandshakeMessage() {
        var (server, client, _) = connected()
        #expect(server.exchange(client.seal(.handshake, [20, 0, 0, 32] + [UInt8](repeating: 0, count: 32))).events
                == [.failed(.unexpectedMessage)])
    }

    @Test("half a handshake message then application data is unexpected_message (interleaved)")
    func interleaved() {
        var (server, client, _) = connected()
        _ = server.exchange(client.seal(.handshake, [24, 0]))
        #expect(server.exchange(client.seal(.applicationData, [1])).events == [.failed(.interleavedRecord)])
    }

    @Test("the client's record_size_limit bounds our records' content")
    func recordSizeLimit() throws {
        var options = HelloOptions()
        options.recordSizeLimit = 64
        var (server, client, _) = connected(testConfiguration(), options)
        try server.send([UInt8](repeating: 1, count: 200))
        client.take(server.takeOutbound(maxBytes: .max))
        #expect(client.applicationData.map(\.count) == [63, 63, 63, 11])
    }
}

extension RecordProtection {
    /// A record whose inner plaintext is `inner` exactly (content, type, padding as given).
    mutating func sealRaw(_ inner: [UInt8]) -> [UInt8] {
        var record = recordHeader(.applicationData, length: inner.count + 16) + inner + [UInt8](repeating: 0, count: 16)
        sealInPlace(&record)
        return record
    }
}
