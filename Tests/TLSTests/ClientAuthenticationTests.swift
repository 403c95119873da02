@testable import TLS
import TLSCrypto
import Testing

/// Client certificates (RFC 8446 §4.3.2, §4.4.2–§4.4.3): the CertificateRequest, the
/// verifier's verdict, and each refusal with its alert.
@Suite("Client certificates: requested, verified, refused")
struct ClientAuthenticationTests {
    /// A server asking for a certificate, the client past the server's flight.
    static func start(_ authentication: ClientAuthentication) -> (TLSServer, TestClient) {
        var configuration = testConfiguration()
        configuration.clientAuthentication = authentication
        var server = TLSServer(configuration: configuration)
        var client = TestClient()
        client.take(server.exchange(client.helloRecord()).output)
        return (server, client)
    }

    @Test("the CertificateRequest carries an empty context and both scheme lists (rsa_pkcs1_sha256 for certificates only)")
    func certificateRequest() {
        let (_, client) = Self.start(.required(FixedVerifier(verdict: .accepted)))
        #expect(client.received.map(\.0) == [2, 8, 13, 11, 15, 20])
        let request = client.received[2].1
        #expect(request == [0, 0, 0x1e, 0, 13, 0, 10, 0, 8, 4, 3, 8, 4, 8, 5, 8, 6, 0, 50, 0, 12, 0, 10, 4, 3, 8, 4, 8, 5, 8, 6, 4, 1])
    }

    @Test("the verifier receives the chain, scheme, signature and the content the client signed")
    func verifierInputs() {
        final class Recorder: ClientCertificateVerifier, @unchecked Sendable {
            var seen: (chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], content: [UInt8])?
            func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict {
                seen = (chain, scheme, signature, signedContent)
                return .accepted
            }
        }
        let recorder = Recorder()
        var (server, client) = Self.start(.required(recorder))
        let certificate = client.own(ServerMessages.certificate(chain: [[1, 2], [3]]))
        let expectedContent = ServerMessages.signedContent(server: false, transcriptHash: client.transcript.current)
        let verify = client.own(ServerMessages.certificateVerify(scheme: .rsaPSSRSAESHA256, signature: [9, 9]))
        let record = client.seal(.handshake, certificate) + client.seal(.handshake, verify) + client.seal(.handshake, client.finished())
        #expect(server.exchange(record).events.count == 1)
        #expect(recorder.seen?.chain == [[1, 2], [3]])
        #expect(recorder.seen?.scheme == .rsaPSSRSAESHA256)
        #expect(recorder.seen?.signature == [9, 9])
        #expect(recorder.seen?.content == expectedContent)
        #expect(Array(expectedContent[0..<64]) == [UInt8](repeating: 0x20, count: 64))
    }

    @Test("no certificate when one is required is certificate_required (116); when optional, the handshake completes")
    func emptyCertificate() {
        var (server, client) = Self.start(.required(FixedVerifier(verdict: .accepted)))
        let (events, output) = server.exchange(client.seal(.handshake, client.own(ServerMessages.certificate(chain: []))))
        #expect(events == [.failed(.certificateRequired)])
        client.switchToApplicationKeys()
        client.take(output)
        #expect(client.alerts == [116])
        var (optional, optionalClient) = Self.start(.optional(FixedVerifier(verdict: .accepted)))
        let flight = optionalClient.own(ServerMessages.certificate(chain: [])) + optionalClient.finished()
        #expect(optional.exchange(optionalClient.seal(.handshake, flight)).events.count == 1)
        #expect(optional.session?.clientCertificateChain == [])
    }

    @Test("the verifier's refusal is sent as its alert (bad_certificate, 42)")
    func refused() {
        var (server, client) = Self.start(.required(FixedVerifier(verdict: .refused(.badCertificate, reason: "unknown issuer"))))
        let flight = client.own(ServerMessages.certificate(chain: [[1]]))
            + client.own(ServerMessages.certificateVerify(scheme: .ecdsaSecp256r1SHA256, signature: [1]))
        let (events, output) = server.exchange(client.seal(.handshake, flight))
        #expect(events == [.failed(.clientCertificateRefused(.badCertificate, "unknown issuer"))])
        client.switchToApplicationKeys()
        client.take(output)
        #expect(client.alerts == [42])
    }

    @Test("a scheme not offered is illegal_parameter; a context we did not send is illegal_parameter; a Finished instead of a Certificate is unexpected_message")
    func protocolErrors() {
        var (server, client) = Self.start(.required(FixedVerifier(verdict: .accepted)))
        let flight = client.own(ServerMessages.certificate(chain: [[1]]))
            + client.own(ServerMessages.certificateVerify(scheme: .rsaPKCS1SHA256, signature: [1]))
        #expect(server.exchange(client.seal(.handshake, flight)).events == [.failed(.unofferedSignatureScheme)])
        var (contextServer, contextClient) = Self.start(.required(FixedVerifier(verdict: .accepted)))
        #expect(contextServer.exchange(contextClient.seal(.handshake, [11, 0, 0, 5, 1, 7, 0, 0, 0])).events
                == [.failed(.certificateContextMismatch)])
        var (orderServer, orderClient) = Self.start(.required(FixedVerifier(verdict: .accepted)))
        #expect(orderServer.exchange(orderClient.seal(.handshake, orderClient.finished())).events == [.failed(.unexpectedMessage)])
    }
}
