@testable import TLS
import TLSCrypto
import Testing

/// Each way a ClientHello is refused, with the alert RFC 8446 names for it (sent in
/// plaintext: no key exists yet).
@Suite("ClientHello refusals: each failure with its alert")
struct HelloRefusalTests {
    /// The server's answer to a hello with `options`: its events and the alert it sent.
    static func refusal(_ options: HelloOptions, configuration: TLSServerConfiguration = testConfiguration())
        -> (events: [TLSEvent], alert: [UInt8]) {
        var server = TLSServer(configuration: configuration, random: TapeRandom(tape: []))
        var client = TestClient()
        let (events, output) = server.exchange(client.helloRecord(options))
        #expect(server.isFinished)
        return (events, output)
    }

    static func expectRefused(_ options: HelloOptions, _ failure: TLSFailure, _ alert: AlertDescription,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let (events, output) = refusal(options)
        #expect(events == [.failed(failure)], sourceLocation: sourceLocation)
        #expect(failure.alert == alert, sourceLocation: sourceLocation)
        #expect(output == [21, 3, 3, 0, 2, 2, alert.rawValue], sourceLocation: sourceLocation)
    }

    @Test("a client offering only http/1.1 gets no_application_protocol (120)")
    func alpnWithoutH2() {
        var options = HelloOptions()
        options.alpn = ["http/1.1"]
        Self.expectRefused(options, .noApplicationProtocol, .noApplicationProtocol)
    }

    @Test("no supported_versions (TLS 1.2), or one without 0x0304, is protocol_version (70)")
    func versions() {
        var options = HelloOptions()
        options.versions = nil
        Self.expectRefused(options, .versionNotOffered, .protocolVersion)
        options.versions = [0x0303, 0x0302]
        Self.expectRefused(options, .versionNotOffered, .protocolVersion)
    }

    @Test("compression other than null is illegal_parameter (47)")
    func compression() {
        var options = HelloOptions()
        options.compression = [1, 0]
        Self.expectRefused(options, .compressionOffered, .illegalParameter)
    }

    @Test("no cipher suite, group or signature scheme in common is handshake_failure (40)")
    func nothingInCommon() {
        var options = HelloOptions()
        options.cipherSuites = [0x1302, 0xc02f]
        Self.expectRefused(options, .noCommonCipherSuite, .handshakeFailure)
        options = HelloOptions()
        options.groups = [0x0018]
        options.shares = [(0x0018, [UInt8](repeating: 4, count: 97))]
        Self.expectRefused(options, .noCommonGroup, .handshakeFailure)
        options = HelloOptions()
        options.signatureAlgorithms = [0x0804, 0x0401]
        Self.expectRefused(options, .noCommonSignatureScheme, .handshakeFailure)
    }

    @Test("signature_algorithms, supported_groups or key_share missing is missing_extension (109)")
    func missingExtensions() {
        var options = HelloOptions()
        options.signatureAlgorithms = nil
        Self.expectRefused(options, .missingExtension(13), .missingExtension)
        options = HelloOptions()
        options.groups = nil
        Self.expectRefused(options, .missingExtension(10), .missingExtension)
        options = HelloOptions()
        options.sendsKeyShare = false
        Self.expectRefused(options, .missingExtension(51), .missingExtension)
    }

    @Test("key shares: for a group not offered, twice, of the wrong length, or of small order, are illegal_parameter (47)")
    func badKeyShares() {
        let client = TestClient()
        var options = HelloOptions()
        options.groups = [0x0017]
        options.shares = [(0x001d, client.key.publicKey)]
        Self.expectRefused(options, .invalidKeyShare, .illegalParameter)
        options = HelloOptions()
        options.shares = [(0x001d, client.key.publicKey), (0x001d, client.key.publicKey)]
        Self.expectRefused(options, .invalidKeyShare, .illegalParameter)
        options.shares = [(0x001d, [UInt8](repeating: 9, count: 31))]
        Self.expectRefused(options, .invalidKeyShare, .illegalParameter)
        options.shares = [(0x001d, [UInt8](repeating: 0, count: 32))]
        Self.expectRefused(options, .invalidKeyShare, .illegalParameter)
    }

    @Test("an extension twice, or pre_shared_key not last, is illegal_parameter (47)")
    func misplacedExtensions() {
        var options = HelloOptions()
        options.extra = [(0xfa, []), (0xfa, [])]
        Self.expectRefused(options, .misplacedExtension, .illegalParameter)
        options.extra = [(41, [0, 0]), (0xfa, [])]
        Self.expectRefused(options, .misplacedExtension, .illegalParameter)
    }

    @Test("record_size_limit below 64 is illegal_parameter (47)")
    func tinyRecordSizeLimit() {
        var options = HelloOptions()
        options.recordSizeLimit = 63
        Self.expectRefused(options, .recordSizeLimitTooSmall, .illegalParameter)
    }

    @Test("a hello cut short or with a byte too many is decode_error (50)")
    func truncated() {
        let message = TestClient().hello()
        for cut in [message.count - 1, 40, 4] {
            var server = TLSServer(configuration: testConfiguration())
            var short = Array(message[0..<cut])
            let length = short.count - 4
            short[1] = UInt8(length >> 16); short[2] = UInt8(length >> 8 & 0xff); short[3] = UInt8(length & 0xff)
            let (events, output) = server.exchange(TestClient.plaintext(22, short))
            #expect(events.count == 1)
            #expect(output.last == AlertDescription.decodeError.rawValue, "cut at \(cut)")
        }
    }

    @Test("a first record that is not a handshake (data, ChangeCipherSpec, alert garbage) is unexpected_message or decode_error")
    func wrongFirstRecord() {
        for (record, failure) in [(TestClient.plaintext(23, [1, 2, 3]), TLSFailure.unexpectedRecord),
                                  (TestClient.plaintext(20, [1]), .invalidChangeCipherSpec),
                                  (TestClient.plaintext(21, [2, 40, 0]), .malformedAlert),
                                  (TestClient.plaintext(22, [2, 0, 0, 0]), .unexpectedMessage),
                                  ([0x47, 0x45, 0x54, 0x20, 0x2f, 0x20, 0x48], .unknownContentType)] {
            var server = TLSServer(configuration: testConfiguration())
            let (events, output) = server.exchange(record)
            #expect(events == [.failed(failure)])
            #expect(output == [21, 3, 3, 0, 2, 2, failure.alert.rawValue])
        }
    }

    @Test("a plaintext record over 2^14 bytes is record_overflow (22), refused from its header")
    func recordOverflow() {
        var server = TLSServer(configuration: testConfiguration())
        let (events, output) = server.exchange([22, 3, 1, 0x40, 0x01])
        #expect(events == [.failed(.recordTooLong)])
        #expect(output == [21, 3, 3, 0, 2, 2, 22])
        var fine = TLSServer(configuration: testConfiguration())
        #expect(fine.exchange([22, 3, 1, 0x40, 0x00]).events.isEmpty)
    }

    @Test("a handshake message over the size limit is refused from its header (illegal_parameter)")
    func handshakeTooLong() {
        var server = TLSServer(configuration: testConfiguration())
        let (events, _) = server.exchange(TestClient.plaintext(22, [1, 0x01, 0x00, 0x01]))
        #expect(events == [.failed(.handshakeMessageTooLong)])
    }

    @Test("a hello in more records than the limit is refused; within it, it is gathered")
    func fragmentLimit() {
        var configuration = testConfiguration()
        configuration.limits.maxRecordsPerHandshakeMessage = 8
        let message = TestClient().hello()
        var records: [UInt8] = []
        for start in stride(from: 0, to: message.count, by: 1) { records += TestClient.plaintext(22, [message[start]]) }
        var server = TLSServer(configuration: configuration)
        #expect(server.exchange(records).events == [.failed(.handshakeMessageTooLong)])
        records = []
        let piece = message.count / 8 + 1
        for start in stride(from: 0, to: message.count, by: piece) {
            records += TestClient.plaintext(22, Array(message[start..<min(message.count, start + piece)]))
        }
        var gathered = TLSServer(configuration: configuration)
        let (events, output) = gathered.exchange(records)
        #expect(events.isEmpty)
        #expect(output.first == 22)
    }

    @Test("an empty handshake record is unexpected_message")
    func emptyHandshakeRecord() {
        var server = TLSServer(configuration: testConfiguration())
        #expect(server.exchange(TestClient.plaintext(22, [])).events == [.failed(.emptyHandshakeRecord)])
    }

    @Test("bytes after the ClientHello in its record (a message across the key change) are unexpected_message")
    func helloWithTrailingMessage() {
        var client = TestClient()
        let hello = client.hello()
        var server = TLSServer(configuration: testConfiguration())
        #expect(server.exchange(TestClient.plaintext(22, hello + [20, 0, 0])).events == [.failed(.messageSpansKeyChange)])
    }
}
