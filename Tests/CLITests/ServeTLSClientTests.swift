@testable import CLI
import Foundation
import Live
import TestSupport
import Testing
import TestThreads

/// `pushsim serve --tls` (the built binary) alone, no terminator in front, against the clients
/// providers use, on loopback: aioapns, apns2-up and aapns with only their CA and host set
/// (through their options, or by resolving Apple's host names to loopback for the client's
/// process: Tests/Fixtures/serve/apple_on_loopback.py), with a provider token and with a client
/// certificate (`--client-ca`); openssl s_client, curl, Python's ssl and Java's HttpClient.
/// A missing tool skips a test locally and fails it with CI=true (`ExternalTool`).
@Suite("serve --tls: real clients with no terminator (aioapns, apns2-up, aapns, openssl, curl, Python ssl, Java)", .ownThread, .serialized)
struct ServeTLSClientTests {
    typealias Clients = ServeClientTests
    static let topic = ServeClientTests.topic
    static let keyID = "ABC123DEFG", team = "TEAM123456"

    /// What a test runs against: its scratch folder, serve's TLS folder in it, and serve.
    struct Setup {
        let scratch: CommandFixtures.ScratchDirectory
        var tlsFolder: String { scratch.file("tls") }
        var authority: String { scratch.file("tls/ca.pem") }
        var key: String { scratch.file("pki/AuthKey_\(ServeTLSClientTests.keyID).p8") }
    }

    /// A scratch folder with make-pki.sh's files in `pki/` (an RSA CA and its RSA client
    /// certificates, Apple's kind; a P-256 token key) and serve's local CA made in `tls/`.
    static func setUp() throws -> Setup {
        let scratch = try CommandFixtures.ScratchDirectory()
        try Clients.makePKI(scratch.file("pki"))
        return Setup(scratch: scratch)
    }

    /// serve --tls on the clients' scenario with its CA in the setup's folder and `extra` options.
    static func serve(_ binary: String, _ setup: Setup, _ extra: [String]) throws -> RunningServe {
        try Clients.startControlled(binary, in: setup.scratch, ["--tls", "--tls-dir", setup.tlsFolder] + extra)
    }

    /// A P-256 client certificate with subject UID=<topic> issued by serve's local CA, by
    /// docs/serve.md's openssl recipe; its certificate and key in one PEM file.
    static func issueClientCertificate(_ setup: Setup) throws -> String {
        try issueClientCertificate(setup, subject: "/UID=\(topic)/CN=Apple Push Services: \(topic)", name: "client")
    }

    static func issueClientCertificate(_ setup: Setup, subject: String, name: String) throws -> String {
        let recipe = """
        set -e
        openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout \(name)-key.pem \\
            -subj "\(subject)" -out \(name).csr
        printf 'extendedKeyUsage=clientAuth\\nkeyUsage=critical,digitalSignature\\n' > client.ext
        openssl x509 -req -in \(name).csr -CA tls/ca.pem -CAkey tls/ca-key.pem -CAcreateserial -days 30 \\
            -extfile client.ext -out \(name).pem
        cat \(name).pem \(name)-key.pem > \(name)-and-key.pem
        """
        let made = try Clients.run(["bash", "-c", recipe], seconds: 60, directory: setup.scratch.path)
        #expect(made.status == 0, "the client certificate recipe: \(made.err)")
        return setup.scratch.file("\(name)-and-key.pem")
    }

    /// The CAs --client-ca names: serve's local one and make-pki.sh's RSA one, in one file.
    static func clientAuthorities(_ setup: Setup) throws -> String {
        let local = try String(contentsOfFile: setup.authority, encoding: .utf8)
        let rsa = try String(contentsOfFile: setup.scratch.file("pki/ca.crt"), encoding: .utf8)
        return try setup.scratch.write("client-cas.pem", local + rsa)
    }

    /// The three answers every client must get, as it parsed them: 200 for a current token,
    /// 400 BadDeviceToken for one never issued, 410 Unregistered with its timestamp for a rotated one.
    static func expectThreeAnswers(_ result: [String: Any], _ client: String) throws {
        let current = try #require(result["current"] as? [String: Any], "\(client): \(result)")
        #expect(current["status"] as? Int == 200, "\(client): \(result)")
        let unknown = try #require(result["unknown"] as? [String: Any])
        #expect(unknown["reason"] as? String == "BadDeviceToken", "\(client): \(result)")
        let rotated = try #require(result["rotated"] as? [String: Any])
        #expect(rotated["status"] as? Int == 410 && rotated["reason"] as? String == "Unregistered", "\(client): \(result)")
        let timestamp = try #require(rotated["timestamp"] as? Int, "\(client): 410 without a timestamp: \(result)")
        #expect(timestamp > Clients.startMilliseconds && timestamp <= (result["rotatedAt"] as? Int ?? 0), "\(client): \(result)")
    }

    /// A client script run under apple_on_loopback.py: Apple's host names go to serve's port,
    /// and the CA is the process's trust store (SSL_CERT_FILE).
    static func runAsApple(_ python: String, _ script: String, port: Int, authority: String, _ arguments: [String]) throws -> Finished {
        try Clients.run([python, Clients.fixtures + "/apple_on_loopback.py", String(port), Clients.fixtures + "/" + script] + arguments,
                        seconds: 120, environment: ["SSL_CERT_FILE": authority])
    }

    typealias Finished = ServeClientTests.Finished

    /// Runs `client` against serve with a provider token, then with client certificates
    /// (`certificate(setup)` gives the file); each run's JSON is checked.
    static func tokenThenCertificate(_ tools: [ExternalTool], certificate: (Setup) throws -> String,
                                     client: (_ serve: RunningServe, _ setup: Setup, _ credentials: [String]) throws -> Finished) throws {
        let binary = try Clients.require([.curl, .openssl] + tools)
        let setup = try setUp()
        defer { setup.scratch.remove() }
        let byToken = try serve(binary, setup, ["--provider-key", "\(team):\(keyID):\(setup.key)"])
        defer { Clients.forceStop(byToken) }
        try expectThreeAnswers(try Clients.json(try client(byToken, setup, ["key", setup.key, keyID, team]), "token"), "token")
        try Clients.stop(byToken)
        let file = try certificate(setup)
        let byCertificate = try serve(binary, setup, ["--client-ca", try clientAuthorities(setup)])
        defer { Clients.forceStop(byCertificate) }
        try expectThreeAnswers(try Clients.json(try client(byCertificate, setup, ["cert", file]), "certificate"), "certificate")
        try Clients.stop(byCertificate)
    }

    @Test("aioapns, only SSL_CERT_FILE set and api.push.apple.com:443 resolved to serve: 200, 400 BadDeviceToken, 410 with its timestamp, with a provider token and with an RSA client certificate (PKCS#1 v1.5 chain, RSA-PSS CertificateVerify)",
          .needs(.curl, .openssl, .aioapns), .timeLimit(.minutes(4)))
    func aioapns() throws {
        try Self.tokenThenCertificate([.aioapns], certificate: { $0.scratch.file("pki/client.pem") }) { serve, setup, credentials in
            try Self.runAsApple("python3", "aioapns_apple.py", port: serve.apnsPort, authority: setup.authority,
                                [String(serve.controlPort), Self.topic] + credentials)
        }
    }

    @Test("apns2-up (its own venv), only its CA file and api.push.apple.com:443 resolved to serve: 200, 400 BadDeviceToken, 410 with its timestamp, with a provider token (a float iat) and with a P-256 client certificate from docs/serve.md's openssl recipe",
          .needs(.curl, .openssl, .apns2Up), .timeLimit(.minutes(4)))
    func apns2Up() throws {
        try Self.tokenThenCertificate([.apns2Up], certificate: Self.issueClientCertificate) { serve, setup, credentials in
            try Self.runAsApple(ExternalTool.apns2Python, "apns2_apple.py", port: serve.apnsPort, authority: setup.authority,
                                [String(serve.controlPort), Self.topic] + credentials)
        }
    }

    @Test("aapns, its host, port and ca_file set: 200, 400 BadDeviceToken, 410 with its timestamp, with an RSA client certificate and (through its connection pool) a provider token",
          .needs(.curl, .openssl, .aapns), .timeLimit(.minutes(4)))
    func aapns() throws {
        try Self.tokenThenCertificate([.aapns], certificate: { $0.scratch.file("pki/client.pem") }) { serve, setup, credentials in
            try Clients.run(["python3", Clients.fixtures + "/aapns_client.py", String(serve.apnsPort), String(serve.controlPort),
                             setup.authority, Self.topic] + credentials, seconds: 120)
        }
    }

    @Test("with --client-ca, a client without a certificate or with one no named CA issued never gets a request through; one without UID is 403 BadCertificate",
          .needs(.curl, .openssl, .aioapns), .timeLimit(.minutes(3)))
    func certificateRefusals() throws {
        let binary = try Clients.require([.curl, .openssl, .aioapns])
        let setup = try Self.setUp()
        defer { setup.scratch.remove() }
        _ = try LocalTLSFolder.prepare(setup.tlsFolder, now: Int64(Date().timeIntervalSince1970))
        let noUIDFile = try Self.issueClientCertificate(setup, subject: "/CN=No UID/O=Example", name: "nouid")
        let serve = try Self.serve(binary, setup, ["--client-ca", setup.authority])
        defer { Clients.forceStop(serve) }
        let url = "https://localhost:\(serve.apnsPort)/3/device/00"
        let common = ["curl", "-sS", "--max-time", "20", "--cacert", setup.authority, "-d", "{}", "-H", "apns-topic: \(Self.topic)"]
        let bare = try Clients.run(common + [url], seconds: 30)
        #expect(bare.status != 0, "no client certificate got through: \(bare.out)")
        let stranger = try Clients.run(common + ["--cert", setup.scratch.file("pki/client.pem"), url], seconds: 30)
        #expect(stranger.status != 0, "a certificate of a CA not named got through: \(stranger.out)")
        let answers = try Clients.control(serve, "/counters")["answers"] as? [String: Any]
        #expect(answers?.isEmpty ?? true, "\(String(describing: answers))")
        let noUID = try Clients.json(try Self.runAsApple("python3", "aioapns_apple.py", port: serve.apnsPort, authority: setup.authority,
                                                         [String(serve.controlPort), Self.topic, "cert", noUIDFile]), "no UID")
        let refused = try #require(noUID["current"] as? [String: Any])
        #expect(refused["status"] as? Int == 403 && refused["reason"] as? String == "BadCertificate", "\(noUID)")
        try Clients.stop(serve)
    }

    @Test("openssl s_client -tls1_3 -alpn h2 shows TLSv1.3 and ALPN h2 and verifies serve's certificate for api.push.apple.com; curl --cacert and Python's ssl get HTTP/2 and TLSv1.3; the CA is kept on the next start and its keys are 0600",
          .needs(.curl, .openssl), .timeLimit(.minutes(3)))
    func opensslCurlPython() throws {
        let binary = try Clients.require([.curl, .openssl])
        let setup = try Self.setUp()
        defer { setup.scratch.remove() }
        let serve = try Self.serve(binary, setup, [])
        defer { Clients.forceStop(serve) }
        let token = try #require(try Clients.devices(serve).first?["token"] as? String)
        let shown = try Clients.run(["sh", "-c", "echo | openssl s_client -connect 127.0.0.1:\(serve.apnsPort) -servername api.push.apple.com "
                                     + "-verify_hostname api.push.apple.com -tls1_3 -alpn h2 -CAfile \(setup.authority)"], seconds: 30)
        #expect(shown.out.contains("New, TLSv1.3"), "\(shown.out)")
        #expect(shown.out.contains("ALPN protocol: h2"), "\(shown.out)")
        #expect(shown.out.contains("Verify return code: 0 (ok)"), "\(shown.out)")
        let curl = try Clients.run(["curl", "-sS", "--max-time", "20", "--cacert", setup.authority,
                                    "--resolve", "api.push.apple.com:\(serve.apnsPort):127.0.0.1", "-w", "%{http_version} %{http_code}",
                                    "-H", "apns-topic: \(Self.topic)", "-d", #"{"aps":{"alert":"curl"}}"#,
                                    "https://api.push.apple.com:\(serve.apnsPort)/3/device/\(token)"], seconds: 30)
        #expect(curl.out == "2 200", "\(curl.out) \(curl.err)")
        let python = try Clients.json(try Clients.run(["python3", Clients.fixtures + "/python_ssl.py", "api.sandbox.push.apple.com",
                                                       String(serve.apnsPort), setup.authority], seconds: 30), "python_ssl.py")
        #expect(python["version"] as? String == "TLSv1.3" && python["alpn"] as? String == "h2", "\(python)")
        #expect(serve.banner.contains("https://127.0.0.1:\(serve.apnsPort) (HTTP/2 over TLS 1.3)"), "\(serve.banner)")
        #expect(serve.banner.contains("TLS CA    \(setup.authority) (made now)"), "\(serve.banner)")
        try Clients.stop(serve)
        for key in ["ca-key.pem", "server-key.pem"] {
            let mode = try FileManager.default.attributesOfItem(atPath: setup.tlsFolder + "/" + key)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(key): \(String(describing: mode))")
        }
        let again = try Self.serve(binary, setup, [])
        defer { Clients.forceStop(again) }
        #expect(again.banner.contains("TLS CA    \(setup.authority) (kept)"), "\(again.banner)")
        try Clients.stop(again)
    }

    @Test("Java's java.net.http.HttpClient (the JDK's, as pushy's users run), trusting serve's CA by an SSLContext: HTTP/2 200 with an apns-id",
          .needs(.curl, .openssl, .java), .timeLimit(.minutes(3)))
    func javaHttpClient() throws {
        let binary = try Clients.require([.curl, .openssl, .java])
        let setup = try Self.setUp()
        defer { setup.scratch.remove() }
        let serve = try Self.serve(binary, setup, [])
        defer { Clients.forceStop(serve) }
        let token = try #require(try Clients.devices(serve).first?["token"] as? String)
        let java = try Clients.run(["java", Clients.fixtures + "/Http2Push.java", "https://localhost:\(serve.apnsPort)/3/device/\(token)",
                                    setup.authority, Self.topic], seconds: 150)
        let words = java.out.split(separator: " ").map(String.init)
        #expect(words.count >= 3 && words[0] == "HTTP_2" && words[1] == "200", "\(java.out) \(java.err)")
        #expect(Clients.isAPNsID(words.count >= 3 ? words[2] : nil), "\(java.out)")
        try Clients.stop(serve)
    }
}
