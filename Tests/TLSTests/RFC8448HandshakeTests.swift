@testable import TLS
import TLSCrypto
import TestVectors
import Testing

/// RFC 8448 §3 ("Simple 1-RTT Handshake"), the server's side byte for byte: given the
/// client's bytes, the server's random and x25519 key, the certificate and the RSA-PSS
/// signature the trace prints (a signer that answers it: PSS is randomized), the server
/// writes exactly the trace's ServerHello and encrypted flight, accepts the client's
/// Finished, and exchanges the trace's application data.
@Suite("RFC 8448 §3: the simple 1-RTT handshake byte for byte")
struct RFC8448HandshakeTests {
    static let serverHello = bytes(hex: RFC8448.serverHello)
    static let certificateMessage = bytes(hex: RFC8448.certificate)
    static let certificateVerify = bytes(hex: RFC8448.certificateVerify)

    /// The server of the trace: AES-128-GCM preferred (the trace's choice), the groups its
    /// EncryptedExtensions announce, its certificate and signature.
    static func server() -> TLSServer {
        let certificate = Array(certificateMessage[11..<(11 + 0x1b0)])
        let signature = Array(certificateVerify[8...])
        var configuration = TLSServerConfiguration(credentials: ServerCredentials(
            certificateChain: [certificate], signer: FixedSigner(scheme: .rsaPSSRSAESHA256, signature: signature)))
        configuration.cipherSuites = [.aes128GCMSHA256, .chacha20Poly1305SHA256]
        configuration.announcedGroups = [0x001d, 0x0017, 0x0018, 0x0019, 0x0100, 0x0101, 0x0102, 0x0103, 0x0104]
        let tape = Array(serverHello[6..<38]) + bytes(hex: RFC8448.serverPrivateKey)
        return TLSServer(configuration: configuration, random: TapeRandom(tape: tape))
    }

    @Test("the ClientHello record gets the trace's ServerHello record, then its 674-byte encrypted flight")
    func serverFlight() {
        var server = Self.server()
        let clientHello = TestClient.plaintext(22, bytes(hex: RFC8448.clientHello))
        let (events, output) = server.exchange(clientHello)
        #expect(events.isEmpty)
        let expected = TestClient.plaintext(22, Self.serverHello, version: 0x0303) + bytes(hex: RFC8448.serverHandshakeRecord)
        #expect(output == expected)
        #expect(!server.isConnected)
    }

    @Test("the client's Finished record completes the handshake; application data both ways as the trace prints")
    func finishedAndApplicationData() throws {
        var server = Self.server()
        _ = server.exchange(TestClient.plaintext(22, bytes(hex: RFC8448.clientHello)))
        let (events, output) = server.exchange(bytes(hex: RFC8448.clientFinishedRecord))
        #expect(output.isEmpty)
        let session = NegotiatedSession(cipherSuite: .aes128GCMSHA256, group: .x25519, applicationProtocol: nil, serverName: "server",
                                        retried: false, clientCertificateChain: [])
        #expect(events == [.handshakeCompleted(session)])
        #expect(server.session == session)

        let payload = [UInt8](0..<50)
        #expect(server.exchange(bytes(hex: RFC8448.clientApplicationRecord)).events == [.applicationData(payload)])
        // The trace's server sent a NewSessionTicket first (sequence 0); ours sends none, so its
        // write sequence is moved on by one to seal the trace's record.
        server.writeProtection!.sequenceNumber = 1
        try server.send(payload)
        #expect(server.takeOutbound(maxBytes: .max) == bytes(hex: RFC8448.serverApplicationRecord))
    }

    @Test("the trace's hello arriving a byte at a time gets the same answer")
    func byteAtATime() {
        var server = Self.server()
        var output: [UInt8] = []
        for byte in TestClient.plaintext(22, bytes(hex: RFC8448.clientHello)) {
            #expect(server.receive([byte]).isEmpty)
            output += server.takeOutbound(maxBytes: .max)
        }
        #expect(output == TestClient.plaintext(22, Self.serverHello, version: 0x0303) + bytes(hex: RFC8448.serverHandshakeRecord))
    }

    @Test("a wrong Finished (one bit flipped before sealing) is decrypt_error, sent under the server's application key")
    func wrongFinished() throws {
        var server = Self.server()
        _ = server.exchange(TestClient.plaintext(22, bytes(hex: RFC8448.clientHello)))
        var record = bytes(hex: RFC8448.clientFinishedRecord)
        record[20] ^= 1
        let (events, output) = server.exchange(record)
        #expect(events == [.failed(.recordNotAuthentic)])
        #expect(output.count == 5 + 2 + 1 + 16)
    }
}
