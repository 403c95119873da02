import ChildProcesses
import Foundation
import Glibc
import ProviderAuth
import Synchronization
import TLS
import TLSCrypto

/// Runs the tools the peer tests drive (openssl, python3), bounded in time. A missing tool
/// skips its test with a note, except with CI=true, where it fails (`.ci/run` installs them).
enum PeerTool {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    static func isInstalled(_ name: String) -> Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `tool` with `arguments` and `input` on its standard input (each piece once `gate`
    /// returns for its index, kept open until the tool exits); killed after `timeout` seconds.
    static func run(_ tool: String, _ arguments: [String], input: [String] = [], gate: (Int) -> Void = { _ in },
                    timeout: TimeInterval = 30, directory: URL? = nil) throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        for (index, piece) in input.enumerated() {
            gate(index)
            standardInput.fileHandleForWriting.write(Data(piece.utf8))
        }
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let collected = Mutex((Data(), Data()))
        let group = DispatchGroup()
        // The reads block until the tool exits: each on a queue of its own (a thread of dispatch's
        // overcommitting pool), not the global queue, whose threads Swift's cooperative pool shares.
        DispatchQueue(label: "pushsim.test.pipe-reader").async(group: group) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.0 = data }
        }
        DispatchQueue(label: "pushsim.test.pipe-reader").async(group: group) {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.1 = data }
        }
        group.wait()
        try? standardInput.fileHandleForWriting.close()
        process.waitUntilExit()
        watchdog.cancel()
        let (out, err) = collected.withLock { $0 }
        return Outcome(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                       errors: String(decoding: err, as: UTF8.self))
    }
}

/// ECDSA P-256 with SHA-256 through TLSCrypto (constant time), as TLS's DER ECDSA-Sig-Value
/// (RFC 8446 §4.2.3).
struct P256Signer: CertificateVerifySigner {
    let key: P256.PrivateKey
    var scheme: SignatureScheme { .ecdsaSecp256r1SHA256 }

    func sign(_ content: [UInt8]) -> [UInt8] {
        key.signature(forDigest: SHA256.hash(content)).derRepresentation
    }
}

/// Accepts a client whose CertificateVerify is a valid ECDSA P-256 signature by `key` (a test
/// knows its client's key; checking the chain is module X509's work).
struct P256ClientVerifier: ClientCertificateVerifier {
    let key: P256.PublicKey
    func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict {
        guard scheme == .ecdsaSecp256r1SHA256, let parsed = P256.Signature(derRepresentation: signature),
              key.isValidSignature(parsed, forDigest: SHA256.hash(signedContent)) else {
            return .refused(.decryptError, reason: "signature does not verify")
        }
        return .accepted
    }
}

/// A P-256 key and self-signed certificate for localhost and 127.0.0.1, made by openssl in a
/// temporary folder.
struct TestCertificate {
    let folder: URL
    let der: [UInt8]
    let key: P256.PrivateKey

    init(name: String = "server") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try PeerTool.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "2", "-subj", "/CN=localhost",
                                                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], directory: folder)
        guard made.status == 0 else { throw CertificateError.openssl(made.errors) }
        _ = try PeerTool.run("openssl", ["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"], directory: folder)
        der = Array(try Data(contentsOf: folder.appendingPathComponent("\(name).der")))
        guard case .privateKey(let key) = try P256KeyFile(pem: Array(try Data(contentsOf: folder.appendingPathComponent("\(name).key"))))
        else { throw CertificateError.openssl("not a private key") }
        self.key = P256.PrivateKey(rawRepresentation: key.rawRepresentation)!
    }

    enum CertificateError: Error { case openssl(String) }

    func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    var credentials: ServerCredentials { ServerCredentials(certificateChain: [der], signer: P256Signer(key: key)) }
}

/// A TLS server on a loopback socket, on a thread of its own: it serves `connections`
/// connections one after the other, echoes application data (and closes after the first
/// echo when told), and keeps every event. Bounded: 20 s per connection.
final class LoopbackTLSServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let configuration: TLSServerConfiguration
    private let closeAfterEcho: Bool
    let events = Mutex<[TLSEvent]>([])
    private let done = DispatchSemaphore(value: 0)

    init(configuration: TLSServerConfiguration, closeAfterEcho: Bool = true) throws {
        self.configuration = configuration
        self.closeAfterEcho = closeAfterEcho
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        port = UInt16(bigEndian: address.sin_port)
        guard bound else { throw POSIXError(.EADDRINUSE) }
    }

    func start(connections: Int) {
        Thread.detachNewThread { [self] in
            for _ in 0..<connections { serveOne() }
            Glibc.close(listener)
            done.signal()
        }
    }

    /// Waits (at most 10 s) until an event satisfies `condition`.
    func waitFor(_ condition: (TLSEvent) -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && !events.withLock({ $0.contains(where: condition) }) { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Waits for the thread to finish (at most `seconds`).
    func wait(seconds: Int = 30) -> Bool { done.wait(timeout: .now() + .seconds(seconds)) == .success }

    private func serveOne() {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 20_000) > 0 else { return }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { Glibc.close(connection) }
        var tls = TLSServer(configuration: configuration)
        let deadline = Date().addingTimeInterval(20)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !tls.isFinished && Date() < deadline {
            var readable = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 200) > 0 else { continue }
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { break }
            let received = tls.receive(Array(buffer[0..<count]))
            events.withLock { $0 += received }
            for case .applicationData(let data) in received {
                try? tls.send(data)
                if closeAfterEcho { tls.close() }
            }
            writeAll(connection, tls.takeOutbound(maxBytes: .max))
        }
        writeAll(connection, tls.takeOutbound(maxBytes: .max))
        shutdown(connection, Int32(SHUT_WR))
        // Read what the client still sends (its close_notify) so closing does not reset the connection.
        var rest = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while poll(&rest, 1, 1_000) > 0 && read(connection, &buffer, buffer.count) > 0 {}
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }
}
