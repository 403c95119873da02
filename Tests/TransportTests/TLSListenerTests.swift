import Foundation
import ProviderAuth
import Testing
import TestThreads
import TLS
import TLSCrypto
import Transport

/// ECDSA P-256 CertificateVerify signatures through TLSCrypto, for a certificate openssl
/// makes in a temporary folder (its key read by ProviderAuth's PEM reader).
private struct P256Signer: CertificateVerifySigner {
    let key: P256.PrivateKey
    var scheme: SignatureScheme { .ecdsaSecp256r1SHA256 }

    func sign(_ content: [UInt8]) -> [UInt8] { key.signature(forDigest: SHA256.hash(content)).derRepresentation }
}

/// A listener speaking `.http2OverTLS`: TLS 1.3 from module TLS, HTTP/2 inside, against
/// curl, h2load and openssl on loopback.
@Suite("TLS listener: HTTP/2 over TLS 1.3", .ownThread, .timeLimit(.minutes(2)), .serialized)
struct TLSListenerTests {
    static let present = ExternalTool.isInstalled("openssl") && ExternalTool.isInstalled("curl")
    static let missing: Comment = "apt-get install -y openssl curl (with CI=true their absence fails the test)"

    /// A certificate for localhost and 127.0.0.1 and the server configured with it.
    static func makeServer() throws -> (RunningServer, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try ExternalTool.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                    "-keyout", folder.appendingPathComponent("key.pem").path,
                                                    "-out", folder.appendingPathComponent("cert.pem").path, "-days", "2",
                                                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        #expect(made.status == 0, "\(made.errors)")
        _ = try ExternalTool.run("openssl", ["x509", "-in", folder.appendingPathComponent("cert.pem").path, "-outform", "DER",
                                             "-out", folder.appendingPathComponent("cert.der").path])
        let der = Array(try Data(contentsOf: folder.appendingPathComponent("cert.der")))
        guard case .privateKey(let key) = try P256KeyFile(pem: Array(try Data(contentsOf: folder.appendingPathComponent("key.pem")))) else {
            throw POSIXError(.EINVAL)
        }
        var configuration = TransportConfiguration()
        configuration.tls = TLSSettings(TLSServerConfiguration(credentials: ServerCredentials(certificateChain: [der],
                                                                                             signer: P256Signer(key: P256.PrivateKey(rawRepresentation: key.rawRepresentation)!))))
        return (try RunningServer(configuration: configuration, listeners: [("127.0.0.1", .http2OverTLS)]), folder)
    }

    @Test("curl --cacert over https gets HTTP/2 answers: a GET and an echoed POST on one connection",
          .enabled(if: present || ExternalTool.required, missing))
    func curlOverTLS() throws {
        let (running, folder) = try Self.makeServer()
        defer { running.stop() }
        let url = "https://localhost:\(running.port)"
        let common = ["-sS", "--max-time", "20", "--cacert", folder.appendingPathComponent("cert.pem").path,
                      "--resolve", "localhost:\(running.port):127.0.0.1", "-w", "%{http_version} %{http_code}\n"]
        let outcome = try ExternalTool.run("curl", common + ["\(url)/3/device/abc", "--next"] + common
                                           + ["--data-binary", "{}", "\(url)/echo"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "GET /3/device/abc h2 body=0 listener=0\n2 200\n{}2 200\n")
        #expect(running.stop().connectionsAccepted == 1)
    }

    @Test("Python's httpx (http2=True, the CA as verify) negotiates h2 over TLS: 20 POSTs and a 100 000-octet echo on one connection",
          .enabled(if: (ExternalTool.isInstalled("openssl") && ExternalTool.pythonHas("httpx, h2")) || ExternalTool.required,
                   "apt-get install -y openssl; python3 -m pip install httpx h2 (with CI=true their absence fails the test)"))
    func httpxOverTLS() throws {
        let (running, folder) = try Self.makeServer()
        let script = """
            import signal, sys, httpx
            signal.alarm(40)
            base, ca = sys.argv[1], sys.argv[2]
            with httpx.Client(http2=True, verify=ca, timeout=20) as client:
                versions = set()
                for index in range(20):
                    response = client.post(f"{base}/3/device/{index:064x}", content=b'{"aps":{}}', headers={"apns-topic": "t"})
                    versions.add((response.http_version, response.status_code))
                body = bytes(range(256)) * 390 + b"end!"
                echoed = client.post(f"{base}/echo", content=body).content == body
                print(sorted(versions), echoed)
            """
        let outcome = try ExternalTool.run("python3", ["-c", script, "https://127.0.0.1:\(running.port)",
                                                       folder.appendingPathComponent("cert.pem").path], timeout: 60)
        let statistics = running.stop()
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "[('HTTP/2', 200)] True\n")
        #expect(statistics.connectionsAccepted == 1 && statistics.requests == 21)
    }

    @Test("h2load -n 1000 -c 4 -m 10 over TLS: all succeed",
          .enabled(if: ExternalTool.isInstalled("h2load") && ExternalTool.isInstalled("openssl") || ExternalTool.required,
                   "apt-get install -y nghttp2-client openssl (with CI=true their absence fails the test)"))
    func h2loadOverTLS() throws {
        let (running, _) = try Self.makeServer()
        let outcome = try ExternalTool.run("h2load", ["-n", "1000", "-c", "4", "-m", "10", "https://127.0.0.1:\(running.port)/3/device/abc"],
                                           timeout: 90)
        let statistics = running.stop()
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(H2loadTests.requestFigures(outcome.output)["succeeded"] == 1000, "\(outcome.output)")
        #expect(statistics.requests == 1000)
    }

    @Test("a client offering only http/1.1 gets no_application_protocol and counts as a protocol error",
          .enabled(if: present || ExternalTool.required, missing))
    func http1ALPNRefused() throws {
        let (running, _) = try Self.makeServer()
        let outcome = try ExternalTool.run("openssl", ["s_client", "-tls1_3", "-alpn", "http/1.1", "-connect", "127.0.0.1:\(running.port)"],
                                           timeout: 20, input: Data())
        #expect(outcome.errors.contains("no application protocol"), "\(outcome.errors)")
        #expect(running.stop().protocolErrors == 1)
    }

    @Test("binding a TLS listener without credentials is refused with a line that says what is missing")
    func noCredentials() {
        let server = Server(configuration: TransportConfiguration())
        #expect(throws: TransportError.cannotListen(address: "127.0.0.1:0",
                                                    reason: "TLS needs a certificate and its key (TransportConfiguration.tls)")) {
            try server.bind(host: "127.0.0.1", port: 0, protocol: .http2OverTLS)
        }
    }
}
