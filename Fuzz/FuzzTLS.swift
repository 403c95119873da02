// The `tls` fuzz target: TLS's server (module TLS) against arbitrary client bytes, twice.
// First the input as a client's raw bytes, whole and in pieces (the same events and the same
// answer either way). Then as what an honest client sends after a valid ClientHello: the
// input cut into records (a type byte, a length byte, the content) sealed under the client's
// real keys, so the handshake states after the hello, the record layer's rules and the
// connected state's KeyUpdates and alerts are reached with authentic records; the first byte
// chooses whether the client's Finished goes first, whether the server asks for a client
// certificate, and the hello's shape. Beyond "no crash": events stop after a failure or a
// close, the handshake completes at most once and before any data, what the server writes
// is well-formed records ending with an alert when it failed.
import TLS
import TLSCrypto

private struct FuzzSigner: CertificateVerifySigner {
    var scheme: SignatureScheme { .ecdsaSecp256r1SHA256 }
    func sign(_ content: [UInt8]) -> [UInt8] { [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01] }
}

private struct FuzzVerifier: ClientCertificateVerifier {
    func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict {
        signature.first == 0 ? .refused(.badCertificate, reason: "fuzz") : .accepted
    }
}

/// A generator with a fixed stream, so a finding replays.
private struct FixedStream: RandomNumberGenerator {
    var state: UInt64 = 0x5eed
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return (state ^ (state >> 31)) &* 0xbf58_476d_1ce4_e5b9
    }
}

private func fuzzServer(_ mode: UInt8) -> TLSServer {
    var configuration = TLSServerConfiguration(credentials: ServerCredentials(certificateChain: [[0x30, 0x00]], signer: FuzzSigner()))
    switch mode % 3 {
    case 1: configuration.clientAuthentication = .required(FuzzVerifier())
    case 2: configuration.clientAuthentication = .optional(FuzzVerifier())
    default: break
    }
    if mode & 8 != 0 { configuration.cipherSuites = [.aes128GCMSHA256] }
    configuration.limits.maxRecordsPerHandshakeMessage = 32
    return TLSServer(configuration: configuration, random: FixedStream())
}

/// Checks one batch of events against what came before.
private struct EventCheck {
    var over = false
    var completed = false
    /// The server ended the connection for a failure (its alert must be last).
    var failed = false

    mutating func check(_ events: [TLSEvent], _ server: TLSServer) {
        for event in events {
            precondition(!over, "an event after the end: \(event)")
            switch event {
            case .handshakeCompleted:
                precondition(!completed, "a second handshake")
                completed = true
            case .applicationData(let data):
                precondition(completed && !data.isEmpty, "data before the handshake, or empty")
            case .keyUpdated:
                precondition(completed, "a KeyUpdate before the handshake")
            case .closed, .peerAlert:
                over = true
            case .failed:
                over = true
                failed = true
            }
        }
        precondition(over == server.isFinished, "isFinished disagrees with the events")
    }
}

/// What the server wrote must be whole records of the four types within §5's sizes.
private func checkRecords(_ bytes: [UInt8], failed: Bool) {
    var index = 0
    var lastType: UInt8 = 0
    while index < bytes.count {
        precondition(bytes.count - index >= 5, "a record header cut short")
        let type = bytes[index], length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
        precondition((20...23).contains(type) && length <= (1 << 14) + 256 && bytes[index + 1] == 3, "a malformed record")
        precondition(index + 5 + length <= bytes.count, "a record cut short")
        lastType = type
        index += 5 + length
    }
    // A failure's alert comes last: plaintext (21) before keys, else protected (23) with 2 + 1 + 16 bytes.
    precondition(!failed || lastType == 21 || (lastType == 23 && bytes.count >= 24), "a failure without its alert last")
}

func fuzzTLS(_ bytes: [UInt8]) {
    guard let mode = bytes.first else { return }
    // The input as raw bytes, whole and in pieces.
    var whole = fuzzServer(mode)
    let wholeEvents = whole.receive(bytes)
    var check = EventCheck()
    check.check(wholeEvents, whole)
    let wholeOutput = whole.takeOutbound(maxBytes: .max)
    checkRecords(wholeOutput, failed: check.failed)
    var pieces = fuzzServer(mode)
    var pieceEvents: [TLSEvent] = []
    var pieceOutput: [UInt8] = []
    let size = 1 + Int(mode % 13)
    for start in stride(from: 0, to: bytes.count, by: size) {
        pieceEvents += pieces.receive(Array(bytes[start..<min(bytes.count, start + size)]))
        pieceOutput += pieces.takeOutbound(maxBytes: 7)
        pieceOutput += pieces.takeOutbound(maxBytes: .max)
    }
    precondition(pieceEvents == wholeEvents && pieceOutput == wholeOutput, "pieces and whole disagree")
    fuzzAfterHello(mode, Array(bytes.dropFirst()))
}

/// One direction's keys of the fuzzing client, from TLSCrypto's public key schedule.
private func handshakeMessage(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
    [type, UInt8(body.count >> 16), UInt8(body.count >> 8 & 0xff), UInt8(body.count & 0xff)] + body
}

private func plaintextRecord(_ type: UInt8, _ content: [UInt8]) -> [UInt8] {
    [type, 3, 1, UInt8(content.count >> 8), UInt8(content.count & 0xff)] + content
}

private let fuzzClientKey = X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))!

/// A valid ClientHello shaped by `mode`: a session id, ALPN h2, early data.
private func fuzzHello(_ mode: UInt8) -> [UInt8] {
    var extensions: [UInt8] = [0, 43, 0, 3, 2, 3, 4, 0, 10, 0, 4, 0, 2, 0, 0x1d, 0, 13, 0, 4, 0, 2, 4, 3]
    extensions += [0, 51, 0, 38, 0, 36, 0, 0x1d, 0, 32] + fuzzClientKey.publicKey
    if mode & 32 != 0 { extensions += [0, 16, 0, 5, 0, 3, 2, 0x68, 0x32] }
    if mode & 64 != 0 { extensions += [0, 42, 0, 0] }
    let sessionID = mode & 16 != 0 ? [UInt8](repeating: 0x11, count: 32) : []
    let body: [UInt8] = [3, 3] + [UInt8](repeating: 0x77, count: 32) + [UInt8(sessionID.count)] + sessionID
        + [0, 4, 0x13, 0x01, 0x13, 0x03, 1, 0] + [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xff)] + extensions
    return handshakeMessage(1, body)
}

/// The server's first flight read: its handshake messages added to `transcript`, the
/// client's handshake keys returned with the client's handshake secret.
private func readServerFlight(_ output: [UInt8], transcript: inout SHA256) -> (write: RecordProtection, finishedKey: [UInt8], master: [UInt8])? {
    // The ServerHello, then (compatibility mode) a ChangeCipherSpec, then the protected flight.
    guard output.count > 5, output[0] == 22 else { return nil }
    let helloLength = Int(output[3]) << 8 | Int(output[4])
    let serverHello = Array(output[5..<(5 + helloLength)])
    transcript.update(serverHello)
    let sessionIDLength = Int(serverHello[38])
    guard let suite = CipherSuite(rawValue: UInt16(serverHello[39 + sessionIDLength]) << 8 | UInt16(serverHello[40 + sessionIDLength]))
    else { return nil }
    // The extensions: key_share's group, length and key.
    var at = 44 + sessionIDLength
    var share: [UInt8] = []
    while at + 4 <= serverHello.count {
        let type = Int(serverHello[at]) << 8 | Int(serverHello[at + 1]), length = Int(serverHello[at + 2]) << 8 | Int(serverHello[at + 3])
        if type == 0x33 { share = Array(serverHello[(at + 8)..<(at + 4 + length)]) }
        at += 4 + length
    }
    guard let shared = fuzzClientKey.sharedSecret(with: share) else { return nil }
    let handshakeSecret = KeySchedule.handshakeSecret(earlySecret: KeySchedule.earlySecret(), sharedSecret: shared)
    let traffic = KeySchedule.handshakeTrafficSecrets(handshakeSecret: handshakeSecret, helloHash: transcript.finalize())
    var read = RecordProtection(suite: suite, secret: traffic.server)
    var index = 5 + helloLength
    while index + 5 <= output.count {
        let length = Int(output[index + 3]) << 8 | Int(output[index + 4])
        let record = Record(contentType: .applicationData, header: Array(output[index..<(index + 5)]),
                            fragment: Array(output[(index + 5)..<(index + 5 + length)]))
        if output[index] == 23, let (_, opened) = (try? read.open(record)) ?? nil {
            transcript.update(opened)
        }
        index += 5 + length
    }
    return (RecordProtection(suite: suite, secret: traffic.client), KeySchedule.finishedKey(trafficSecret: traffic.client),
            KeySchedule.masterSecret(handshakeSecret: handshakeSecret))
}

/// The input as records an honest client seals, after a valid hello (see the file's comment).
private func fuzzAfterHello(_ mode: UInt8, _ input: [UInt8]) {
    var server = fuzzServer(mode)
    var check = EventCheck()
    var transcript = SHA256()
    let hello = fuzzHello(mode)
    transcript.update(hello)
    check.check(server.receive(plaintextRecord(22, hello)), server)
    guard let (handshakeKeys, finishedKey, master) = readServerFlight(server.takeOutbound(maxBytes: .max), transcript: &transcript) else {
        preconditionFailure("a valid hello was not answered")
    }
    var write = handshakeKeys
    if mode & 128 != 0 {
        let application = KeySchedule.applicationTrafficSecrets(masterSecret: master, serverFinishedHash: transcript.finalize())
        var flight: [UInt8] = []
        if mode % 3 != 0 {
            for message in [handshakeMessage(11, [0, 0, 0, 7, 0, 0, 2, 0x30, 0x00, 0, 0]), handshakeMessage(15, [4, 3, 0, 1, 1])] {
                transcript.update(message)
                flight += message
            }
        }
        let finished = handshakeMessage(20, HMACSHA256.authenticationCode(key: finishedKey, message: transcript.finalize()))
        check.check(server.receive(write.seal(.handshake, (flight + finished)[...])), server)
        precondition(check.completed || check.over, "an honest Finished did not complete the handshake")
        write = RecordProtection(suite: write.suite, secret: application.client)
    }
    var rest = input[...]
    while !check.over, rest.count >= 2 {
        let kind = rest.removeFirst() % 6, length = Int(rest.removeFirst())
        let content = Array(rest.prefix(length))
        rest = rest.dropFirst(length)
        let record: [UInt8]
        switch kind {
        case 0: record = write.seal(.handshake, content[...])
        case 1: record = write.seal(.alert, content[...])
        case 2: record = write.seal(.applicationData, content[...])
        case 3: record = plaintextRecord(20, content)
        case 4: record = content
        default: record = write.seal(.handshake, handshakeMessage(24, [length % 2 == 0 ? 0 : 1])[...])
        }
        check.check(server.receive(record), server)
        checkRecords(server.takeOutbound(maxBytes: .max), failed: check.failed)
        if kind == 5 && check.completed { write = write.next() }
        if check.completed && !check.over {
            precondition((try? server.send(content)) != nil, "a connected server refused to send")
        }
    }
}
