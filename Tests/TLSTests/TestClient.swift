@testable import TLS
import TLSCrypto

/// What a test's ClientHello says: each field and extension may be changed or left out.
struct HelloOptions {
    var legacyVersion: UInt16 = 0x0303
    var random: [UInt8] = [UInt8](repeating: 7, count: 32)
    var sessionID: [UInt8] = []
    var cipherSuites: [UInt16] = [0x1301, 0x1303]
    var compression: [UInt8] = [0]
    var versions: [UInt16]? = [0x0304]
    var groups: [UInt16]? = [0x001d, 0x0017]
    /// nil: a share of the client's x25519 key.
    var shares: [(UInt16, [UInt8])]?
    var sendsKeyShare = true
    var signatureAlgorithms: [UInt16]? = [0x0403, 0x0804]
    var serverName: String? = "api.push.apple.com"
    var alpn: [String]? = ["h2", "http/1.1"]
    var earlyData = false
    var recordSizeLimit: UInt16?
    /// Sent after the others (a pre_shared_key here must be last).
    var extra: [(UInt16, [UInt8])] = []
}

/// A minimal TLS 1.3 client built from the module's own pieces (records, transcript) and
/// TLSCrypto: enough to drive the server through every state and check what it sends.
struct TestClient {
    var key = X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))!
    var p256Key = P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0x24, count: 32))!
    var transcript = Transcript()
    var read: RecordProtection?
    var write: RecordProtection?
    var clientHandshakeSecret: [UInt8] = []
    var serverApplicationSecret: [UInt8] = []
    var clientApplicationSecret: [UInt8] = []
    /// Handshake messages the server sent, in order, as (type, body).
    var received: [(UInt8, [UInt8])] = []
    var alerts: [UInt8] = []
    var applicationData: [[UInt8]] = []
    var pendingHandshake: [UInt8] = []
    var sawChangeCipherSpec = false

    func hello(_ options: HelloOptions = HelloOptions()) -> [UInt8] {
        WireWriter.handshake(.clientHello) { body in
            body.u16(options.legacyVersion)
            body.append(options.random)
            body.vector(lengthBytes: 1) { $0.append(options.sessionID) }
            body.vector(lengthBytes: 2) { list in options.cipherSuites.forEach { list.u16($0) } }
            body.vector(lengthBytes: 1) { $0.append(options.compression) }
            body.vector(lengthBytes: 2) { extensions in writeExtensions(options, &extensions) }
        }
    }

    private func writeExtensions(_ options: HelloOptions, _ extensions: inout WireWriter) {
        if let name = options.serverName {
            extensions.extension(0) { data in
                data.vector(lengthBytes: 2) { list in list.u8(0); list.vector(lengthBytes: 2) { $0.append(Array(name.utf8)) } }
            }
        }
        if let versions = options.versions {
            extensions.extension(43) { data in data.vector(lengthBytes: 1) { list in versions.forEach { list.u16($0) } } }
        }
        if let groups = options.groups {
            extensions.extension(10) { data in data.vector(lengthBytes: 2) { list in groups.forEach { list.u16($0) } } }
        }
        if options.sendsKeyShare {
            let shares = options.shares ?? [(0x001d, key.publicKey)]
            extensions.extension(51) { data in
                data.vector(lengthBytes: 2) { list in
                    for (group, share) in shares { list.u16(group); list.vector(lengthBytes: 2) { $0.append(share) } }
                }
            }
        }
        if let schemes = options.signatureAlgorithms {
            extensions.extension(13) { data in data.vector(lengthBytes: 2) { list in schemes.forEach { list.u16($0) } } }
        }
        if let alpn = options.alpn {
            extensions.extension(16) { data in
                data.vector(lengthBytes: 2) { list in alpn.forEach { name in list.vector(lengthBytes: 1) { $0.append(Array(name.utf8)) } } }
            }
        }
        if let limit = options.recordSizeLimit { extensions.extension(28) { $0.u16(limit) } }
        if options.earlyData { extensions.extension(42) { _ in } }
        for (type, data) in options.extra { extensions.extension(type) { $0.append(data) } }
    }

    /// A plaintext record of `content`.
    static func plaintext(_ type: UInt8, _ content: [UInt8], version: UInt16 = 0x0301) -> [UInt8] {
        [type, UInt8(version >> 8), UInt8(version & 0xff), UInt8(content.count >> 8), UInt8(content.count & 0xff)] + content
    }

    /// Sends the hello in one record and keeps it for the transcript.
    mutating func helloRecord(_ options: HelloOptions = HelloOptions()) -> [UInt8] {
        let message = hello(options)
        transcript.add(message)
        return Self.plaintext(22, message)
    }

    /// Reads what the server sent: the ServerHello (keys derived from it), then protected
    /// records (handshake messages, alerts, data).
    mutating func take(_ bytes: [UInt8]) {
        for record in splitRecords(bytes) {
            switch record.contentType {
            case .changeCipherSpec: sawChangeCipherSpec = true
            case .alert: alerts.append(record.fragment[1])
            case .handshake: handshake(record.fragment)
            case .applicationData:
                guard let (type, content) = try? read?.open(record) else { alerts.append(255); continue }
                switch type {
                case .handshake: handshake(content)
                case .alert: alerts.append(content[1])
                case .applicationData: applicationData.append(content)
                case .changeCipherSpec: alerts.append(254)
                }
            }
        }
    }

    private mutating func handshake(_ content: [UInt8]) {
        pendingHandshake += content
        while pendingHandshake.count >= 4 {
            let length = Int(pendingHandshake[1]) << 16 | Int(pendingHandshake[2]) << 8 | Int(pendingHandshake[3])
            guard pendingHandshake.count >= 4 + length else { return }
            let whole = Array(pendingHandshake[0..<(4 + length)])
            pendingHandshake.removeFirst(4 + length)
            handle(whole)
        }
    }

    private mutating func handle(_ message: [UInt8]) {
        let type = message[0], body = Array(message[4...])
        received.append((type, body))
        switch type {
        case 2 where Array(body[2..<34]) == ServerMessages.helloRetryRequestRandom:
            // A HelloRetryRequest: the transcript restarts from message_hash (§4.4.1).
            let first = transcript.current
            transcript = Transcript()
            transcript.add([254, 0, 0, 32] + first)
            transcript.add(message)
        case 2:
            transcript.add(message)
            deriveHandshakeKeys(serverHello: body)
        case 20:
            transcript.add(message)
            let suite = read!.suite
            let handshakeSecret = KeySchedule.handshakeSecret(earlySecret: KeySchedule.earlySecret(), sharedSecret: sharedSecret!)
            let application = KeySchedule.applicationTrafficSecrets(masterSecret: KeySchedule.masterSecret(handshakeSecret: handshakeSecret),
                                                                    serverFinishedHash: transcript.current)
            serverApplicationSecret = application.server
            clientApplicationSecret = application.client
            read = RecordProtection(suite: suite, secret: application.server)
        case 24:
            read = read!.next()
        default:
            transcript.add(message)
        }
    }

    var sharedSecret: [UInt8]?

    private mutating func deriveHandshakeKeys(serverHello body: [UInt8]) {
        var reader = WireReader(body, field: "ServerHello")
        _ = try! reader.bytes(34)
        _ = try! reader.vector(lengthBytes: 1)
        let suite = CipherSuite(rawValue: try! reader.u16())!
        _ = try! reader.u8()
        var extensions = try! reader.nested(lengthBytes: 2, field: "extensions")
        while !extensions.isAtEnd {
            let type = try! extensions.u16()
            var data = try! extensions.nested(lengthBytes: 2, field: "extension")
            if type == 51 {
                let group = try! data.u16()
                let share = try! data.vector(lengthBytes: 2)
                sharedSecret = group == 0x0017 ? p256Key.sharedSecret(with: P256.PublicKey(x963Representation: share)!)
                    : key.sharedSecret(with: share)
            }
        }
        let handshakeSecret = KeySchedule.handshakeSecret(earlySecret: KeySchedule.earlySecret(), sharedSecret: sharedSecret!)
        let traffic = KeySchedule.handshakeTrafficSecrets(handshakeSecret: handshakeSecret, helloHash: transcript.current)
        clientHandshakeSecret = traffic.client
        read = RecordProtection(suite: suite, secret: traffic.server)
        write = RecordProtection(suite: suite, secret: traffic.client)
    }

    /// A handshake message of ours, added to the transcript.
    mutating func own(_ message: [UInt8]) -> [UInt8] {
        transcript.add(message)
        return message
    }

    /// The client's Finished message for the transcript so far.
    mutating func finished() -> [UInt8] {
        let verifyData = KeySchedule.finishedVerifyData(trafficSecret: clientHandshakeSecret, transcriptHash: transcript.current)
        return own(ServerMessages.finished(verifyData: verifyData))
    }

    /// `content` sealed as one record under the client's current key.
    mutating func seal(_ type: ContentType, _ content: [UInt8]) -> [UInt8] {
        write!.seal(type, content[...])
    }

    /// After our Finished went: application keys.
    mutating func switchToApplicationKeys() {
        write = RecordProtection(suite: write!.suite, secret: clientApplicationSecret)
    }
}

extension TLSServer {
    /// Feeds `bytes`, returning the events and what the server wrote.
    mutating func exchange(_ bytes: [UInt8]) -> (events: [TLSEvent], output: [UInt8]) {
        let events = receive(bytes)
        return (events, takeOutbound(maxBytes: .max))
    }
}

/// A server and client through the handshake: the server's flight read, the client's
/// Finished accepted. `options` shape the hello.
func connected(_ configuration: TLSServerConfiguration = testConfiguration(), _ options: HelloOptions = HelloOptions())
    -> (server: TLSServer, client: TestClient, events: [TLSEvent]) {
    var server = TLSServer(configuration: configuration, random: TapeRandom(tape: []))
    var client = TestClient()
    client.take(server.exchange(client.helloRecord(options)).output)
    let finished = client.finished()
    let record = client.seal(.handshake, finished)
    client.switchToApplicationKeys()
    let (events, output) = server.exchange(record)
    client.take(output)
    return (server, client, events)
}
