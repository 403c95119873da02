import Foundation
import ProviderAuth
import TestThreads
@testable import TLS
import Testing

/// Real TLS 1.3 clients against the server on loopback: OpenSSL's `s_client` and Python's
/// `ssl` (OpenSSL underneath, but its own configuration), with an EC P-256 certificate
/// openssl makes and CertificateVerify signed by ProviderAuth's P-256.
@Suite("Real peers: openssl s_client and Python's ssl over loopback", .ownThread, .serialized)
struct PeerTests {
    static let opensslPresent = PeerTool.isInstalled("openssl")
    static let pythonPresent = PeerTool.isInstalled("python3") && PeerTool.isInstalled("openssl")

    @Test("openssl s_client -tls1_3 -alpn h2: TLSv1.3, ALPN h2, the certificate verified, a KeyUpdate and data echoed",
          .enabled(if: opensslPresent || PeerTool.required, "apt-get install -y openssl (with CI=true its absence fails the test)"))
    func opensslClient() throws {
        let certificate = try TestCertificate()
        let server = try LoopbackTLSServer(configuration: TLSServerConfiguration(credentials: certificate.credentials))
        server.start(connections: 1)
        let outcome = try PeerTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "h2", "-connect", "127.0.0.1:\(server.port)",
                                                   "-servername", "localhost", "-CAfile", certificate.path("server.pem"),
                                                   "-verify_return_error"], input: ["K\n", "ping\n"]) { piece in
            // Each line once the step before is done: s_client takes a whole read as one command.
            if piece == 0 { server.waitFor { if case .handshakeCompleted = $0 { true } else { false } } }
            if piece == 1 { server.waitFor { $0 == .keyUpdated(requested: true) } }
        }
        #expect(server.wait())
        #expect(outcome.output.contains("TLSv1.3"), "\(outcome.output)\n\(outcome.errors)")
        #expect(outcome.output.contains("ALPN protocol: h2"))
        #expect(outcome.output.contains("Verify return code: 0 (ok)"))
        #expect(outcome.output.contains("TLS_CHACHA20_POLY1305_SHA256"))
        let events = server.events.withLock { $0 }
        #expect(events.contains(.keyUpdated(requested: true)), "\(events)")
        #expect(events.contains(.applicationData(Array("ping\n".utf8))))
        #expect(outcome.output.contains("ping"))
    }

    @Test("openssl s_client with AES-128-GCM only, and with a client certificate the server verifies",
          .enabled(if: opensslPresent || PeerTool.required, "apt-get install -y openssl (with CI=true its absence fails the test)"))
    func opensslAESAndClientCertificate() throws {
        let certificate = try TestCertificate()
        let client = try TestCertificate(name: "client")
        var configuration = TLSServerConfiguration(credentials: certificate.credentials)
        configuration.clientAuthentication = .required(P256ClientVerifier(key: client.key.publicKey))
        let server = try LoopbackTLSServer(configuration: configuration)
        server.start(connections: 1)
        let outcome = try PeerTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "h2", "-connect", "127.0.0.1:\(server.port)",
                                                   "-ciphersuites", "TLS_AES_128_GCM_SHA256", "-CAfile", certificate.path("server.pem"),
                                                   "-cert", client.path("client.pem"), "-key", client.path("client.key")],
                                       input: ["hello\n"])
        #expect(server.wait())
        #expect(outcome.output.contains("TLS_AES_128_GCM_SHA256"), "\(outcome.output)\n\(outcome.errors)")
        let events = server.events.withLock { $0 }
        let completed = events.compactMap { event -> NegotiatedSession? in
            if case .handshakeCompleted(let session) = event { session } else { nil }
        }
        #expect(completed.first?.clientCertificateChain == [client.der], "\(events)")
        #expect(events.contains(.applicationData(Array("hello\n".utf8))))
    }

    @Test("openssl s_client -groups P-256: the secp256r1 key exchange",
          .enabled(if: opensslPresent || PeerTool.required, "apt-get install -y openssl (with CI=true its absence fails the test)"))
    func opensslP256() throws {
        let certificate = try TestCertificate()
        let server = try LoopbackTLSServer(configuration: TLSServerConfiguration(credentials: certificate.credentials))
        server.start(connections: 1)
        let outcome = try PeerTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "h2", "-groups", "P-256", "-connect",
                                                   "127.0.0.1:\(server.port)", "-CAfile", certificate.path("server.pem"),
                                                   "-verify_return_error"], input: ["p256\n"])
        #expect(server.wait())
        #expect(outcome.output.contains("Server Temp Key: ECDH, prime256v1"), "\(outcome.output)\n\(outcome.errors)")
        let events = server.events.withLock { $0 }
        #expect(events.contains(.applicationData(Array("p256\n".utf8))), "\(events)")
        if case .handshakeCompleted(let session)? = events.first { #expect(session.group == .secp256r1) } else { Issue.record("\(events)") }
    }

    @Test("openssl s_client -groups X448:X25519 (a share for X448 only) gets a HelloRetryRequest for x25519 and completes",
          .enabled(if: opensslPresent || PeerTool.required, "apt-get install -y openssl (with CI=true its absence fails the test)"))
    func opensslHelloRetryRequest() throws {
        let certificate = try TestCertificate()
        let server = try LoopbackTLSServer(configuration: TLSServerConfiguration(credentials: certificate.credentials))
        server.start(connections: 1)
        let outcome = try PeerTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "h2", "-groups", "X448:X25519", "-connect",
                                                   "127.0.0.1:\(server.port)", "-CAfile", certificate.path("server.pem"),
                                                   "-verify_return_error"], input: ["retry\n"])
        #expect(server.wait())
        #expect(outcome.output.contains("Server Temp Key: X25519"), "\(outcome.output)\n\(outcome.errors)")
        let events = server.events.withLock { $0 }
        #expect(events.contains(.applicationData(Array("retry\n".utf8))), "\(events)")
        if case .handshakeCompleted(let session)? = events.first { #expect(session.retried && session.group == .x25519) } else {
            Issue.record("\(events)")
        }
    }

    @Test("openssl s_client offering only http/1.1 is refused with no_application_protocol",
          .enabled(if: opensslPresent || PeerTool.required, "apt-get install -y openssl (with CI=true its absence fails the test)"))
    func opensslWithoutH2() throws {
        let certificate = try TestCertificate()
        let server = try LoopbackTLSServer(configuration: TLSServerConfiguration(credentials: certificate.credentials))
        server.start(connections: 1)
        let outcome = try PeerTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "http/1.1", "-connect", "127.0.0.1:\(server.port)"])
        #expect(server.wait())
        #expect(outcome.errors.contains("no application protocol"), "\(outcome.errors)")
        #expect(server.events.withLock { $0 } == [.failed(.noApplicationProtocol)])
    }

    @Test("Python's ssl with ALPN h2 and the CA: TLSv1.3, h2, data echoed on two connections",
          .enabled(if: pythonPresent || PeerTool.required, "apt-get install -y openssl python3 (with CI=true its absence fails the test)"))
    func pythonClient() throws {
        let certificate = try TestCertificate()
        let server = try LoopbackTLSServer(configuration: TLSServerConfiguration(credentials: certificate.credentials))
        server.start(connections: 2)
        let script = """
            import socket, ssl, sys
            for attempt in range(2):
                context = ssl.create_default_context(cafile=sys.argv[2])
                context.minimum_version = ssl.TLSVersion.TLSv1_3
                context.set_alpn_protocols(["h2"])
                with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10) as raw:
                    with context.wrap_socket(raw, server_hostname="localhost") as tls:
                        tls.sendall(b"ping %d" % attempt)
                        print(tls.version(), tls.selected_alpn_protocol(), tls.cipher()[0], tls.recv(100).decode())
            """
        let outcome = try PeerTool.run("python3", ["-c", script, "\(server.port)", certificate.path("server.pem")])
        #expect(server.wait())
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "TLSv1.3 h2 TLS_CHACHA20_POLY1305_SHA256 ping 0\nTLSv1.3 h2 TLS_CHACHA20_POLY1305_SHA256 ping 1\n")
        #expect(server.events.withLock { $0 }.filter { if case .handshakeCompleted = $0 { true } else { false } }.count == 2)
    }
}
