@testable import TLS
import TLSCrypto
import Testing

/// The handshake's other paths: HelloRetryRequest, client certificates, middlebox
/// compatibility, refused early data, messages split across records and coalesced in one.
@Suite("Handshake paths: retry, client certificates, compatibility, early data, fragments")
struct HandshakeFlowTests {
    /// A hello whose only share is for a group the server does not offer (secp384r1), but
    /// that offers x25519 in supported_groups.
    static func retryOptions() -> HelloOptions {
        var options = HelloOptions()
        options.groups = [0x0018, 0x001d]
        options.shares = [(0x0018, [4] + [UInt8](repeating: 1, count: 96))]
        return options
    }

    @Test("a hello without a usable share gets a HelloRetryRequest for x25519; the second hello completes (message_hash transcript)")
    func helloRetryRequest() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        let (events, output) = server.exchange(client.helloRecord(Self.retryOptions()))
        #expect(events.isEmpty)
        client.take(output)
        #expect(client.received.count == 1)
        let retry = client.received[0].1
        #expect(Array(retry[2..<34]) == ServerMessages.helloRetryRequestRandom)
        #expect(Array(retry.suffix(12)) == [0x00, 0x33, 0x00, 0x02, 0x00, 0x1d, 0x00, 0x2b, 0x00, 0x02, 0x03, 0x04])
        var second = Self.retryOptions()
        second.shares = [(0x001d, client.key.publicKey)]
        client.take(server.exchange(client.helloRecord(second)).output)
        #expect(client.received.map(\.0) == [2, 2, 8, 11, 15, 20])
        let finished = client.seal(.handshake, client.finished())
        let (done, _) = server.exchange(finished)
        #expect(done.count == 1)
        #expect(server.session?.retried == true)
    }

    @Test("a second hello that changes its random, shares another group, or offers early data is illegal_parameter")
    func retryMismatch() {
        var changes: [(inout HelloOptions, TestClient) -> Void] = []
        changes.append { options, client in options.shares = [(0x001d, client.key.publicKey)]; options.random[0] ^= 1 }
        changes.append { options, _ in options.shares = [(0x0018, [4] + [UInt8](repeating: 2, count: 96))] }
        changes.append { options, client in options.shares = [(0x001d, client.key.publicKey)]; options.earlyData = true }
        changes.append { options, client in options.shares = [(0x001d, client.key.publicKey)]; options.cipherSuites = [0x1303] }
        for change in changes {
            var server = TLSServer(configuration: testConfiguration())
            var client = TestClient()
            _ = server.exchange(client.helloRecord(Self.retryOptions()))
            var second = Self.retryOptions()
            change(&second, client)
            let (events, output) = server.exchange(client.helloRecord(second))
            #expect(events == [.failed(.retriedHelloMismatch)])
            #expect(output == [21, 3, 3, 0, 2, 2, 47])
        }
    }

    @Test("a client's P-256 share is used when it sends no x25519 one; a client offering only P-256 without a share gets a retry for it")
    func secp256r1() {
        let client = TestClient()
        var options = HelloOptions()
        options.groups = [0x0017, 0x001d]
        options.shares = [(0x0017, client.p256Key.publicKey.x963Representation)]
        let (server, _, events) = connected(testConfiguration(), options)
        #expect(events.count == 1)
        #expect(server.session?.group == .secp256r1)

        var retried = TLSServer(configuration: testConfiguration())
        var retryClient = TestClient()
        var first = HelloOptions()
        first.groups = [0x0017]
        first.shares = []
        retryClient.take(retried.exchange(retryClient.helloRecord(first)).output)
        #expect(Array(retryClient.received[0].1.suffix(12)) == [0x00, 0x33, 0x00, 0x02, 0x00, 0x17, 0x00, 0x2b, 0x00, 0x02, 0x03, 0x04])
        var second = first
        second.shares = [(0x0017, retryClient.p256Key.publicKey.x963Representation)]
        retryClient.take(retried.exchange(retryClient.helloRecord(second)).output)
        #expect(retried.exchange(retryClient.seal(.handshake, retryClient.finished())).events.count == 1)
        #expect(retried.session?.group == .secp256r1 && retried.session?.retried == true)
    }

    @Test("a P-256 share that is not a point on the curve is illegal_parameter")
    func secp256r1OffCurve() {
        var options = HelloOptions()
        options.groups = [0x0017]
        options.shares = [(0x0017, [4] + [UInt8](repeating: 1, count: 64))]
        HelloRefusalTests.expectRefused(options, .invalidKeyShare, .illegalParameter)
    }

    @Test("a client with a legacy_session_id gets it echoed and one ChangeCipherSpec; its own are ignored (§D.4)")
    func middleboxCompatibility() {
        var options = HelloOptions()
        options.sessionID = [UInt8](repeating: 0x5a, count: 32)
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        let output = server.exchange(client.helloRecord(options)).output
        #expect(output[0] == 22 && Array(output[44..<76]) == options.sessionID)
        client.take(output)
        #expect(client.sawChangeCipherSpec)
        let record = TestClient.plaintext(20, [1]) + client.seal(.handshake, client.finished())
        #expect(server.exchange(record).events.count == 1)
        #expect(server.isConnected)
    }

    @Test("ChangeCipherSpec other than 0x01, after the handshake, or too many of them is unexpected_message")
    func changeCipherSpecRules() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        _ = server.exchange(client.helloRecord())
        #expect(server.exchange(TestClient.plaintext(20, [2])).events == [.failed(.invalidChangeCipherSpec)])
        var (connectedServer, _, _) = connected()
        #expect(connectedServer.exchange(TestClient.plaintext(20, [1])).events == [.failed(.invalidChangeCipherSpec)])
        var flooded = TLSServer(configuration: testConfiguration())
        var flooder = TestClient()
        _ = flooded.exchange(flooder.helloRecord())
        let many = (0..<17).flatMap { _ in TestClient.plaintext(20, [1]) }
        #expect(flooded.exchange(many).events == [.failed(.tooManyIgnoredRecords)])
    }

    @Test("refused early data is skipped (records that do not open) until the Finished, within the limit")
    func earlyDataSkipped() {
        var options = HelloOptions()
        options.earlyData = true
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        client.take(server.exchange(client.helloRecord(options)).output)
        let earlyRecord = TestClient.plaintext(23, [UInt8](repeating: 0xee, count: 100), version: 0x0303)
        #expect(server.exchange(earlyRecord + earlyRecord).events.isEmpty)
        #expect(server.exchange(client.seal(.handshake, client.finished())).events.count == 1)
        var small = testConfiguration()
        small.limits.maxSkippedEarlyDataBytes = 150
        var limited = TLSServer(configuration: small)
        var limitedClient = TestClient()
        _ = limited.exchange(limitedClient.helloRecord(options))
        #expect(limited.exchange(earlyRecord + earlyRecord).events == [.failed(.tooMuchEarlyData)])
    }

    @Test("a Finished cut across three records and a client's flight coalesced in one record are both read")
    func fragmentsAndCoalescing() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        client.take(server.exchange(client.helloRecord()).output)
        let finished = client.finished()
        let pieces = [finished[0..<3], finished[3..<20], finished[20...]].map { client.seal(.handshake, Array($0)) }
        #expect(server.exchange(pieces.flatMap { $0 }).events.count == 1)

        var configuration = testConfiguration()
        configuration.clientAuthentication = .required(FixedVerifier(verdict: .accepted))
        var authServer = TLSServer(configuration: configuration)
        var authClient = TestClient()
        authClient.take(authServer.exchange(authClient.helloRecord()).output)
        let flight = authClient.own(ServerMessages.certificate(chain: [[0x30, 0x00]]))
            + authClient.own(ServerMessages.certificateVerify(scheme: .ecdsaSecp256r1SHA256, signature: [1, 2, 3]))
            + authClient.finished()
        let (events, _) = authServer.exchange(authClient.seal(.handshake, flight))
        #expect(events.count == 1)
        #expect(authServer.session?.clientCertificateChain == [[0x30, 0x00]])
    }

    @Test("the Finished followed by more handshake bytes in its record is unexpected_message (a message across the key change)")
    func finishedThenMore() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        client.take(server.exchange(client.helloRecord()).output)
        let record = client.seal(.handshake, client.finished() + [24, 0, 0])
        #expect(server.exchange(record).events == [.failed(.messageSpansKeyChange)])
    }

    @Test("application data before the client's Finished is unexpected_message")
    func dataBeforeFinished() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        client.take(server.exchange(client.helloRecord()).output)
        #expect(server.exchange(client.seal(.applicationData, [1])).events == [.failed(.unexpectedRecord)])
    }

    @Test("a client's plaintext alert after our ServerHello (it has no key yet) is reported")
    func plaintextAlertDuringHandshake() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        _ = server.exchange(client.helloRecord())
        #expect(server.exchange(TestClient.plaintext(21, [2, 40])).events == [.peerAlert(40)])
    }

    @Test("a wrong client Finished is decrypt_error (51)")
    func wrongFinished() {
        var server = TLSServer(configuration: testConfiguration())
        var client = TestClient()
        client.take(server.exchange(client.helloRecord()).output)
        var finished = client.finished()
        finished[10] ^= 1
        let (events, output) = server.exchange(client.seal(.handshake, finished))
        #expect(events == [.failed(.finishedMismatch)])
        client.switchToApplicationKeys()
        client.take(output)
        #expect(client.alerts == [51])
    }
}
