import TLS

/// A connection over TLS 1.3: `TLSServer` in and out, and the session of the protocol ALPN
/// chose (HTTP/2, as APNs speaks it: `h2`, or nothing, which is HTTP/2 all the same) fed the
/// decrypted octets, its answers sealed as they are taken. The inner session starts with the
/// connection (its SETTINGS wait, queued inside it) and sees nothing until the handshake completed.
final class TLSSession: Session {
    private var tls: TLSServer
    private let inner: HTTP2Session
    private let maxQueuedWriteBytes: Int
    /// The most of the inner session's octets sealed at once.
    private static let sealChunk = 1 << 16
    private var clientClosed = false
    private(set) var endedByTLSError = false

    init(configuration: TLSServerConfiguration, inner: HTTP2Session, maxQueuedWriteBytes: Int) {
        tls = TLSServer(configuration: configuration)
        self.inner = inner
        self.maxQueuedWriteBytes = maxQueuedWriteBytes
    }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {
        for event in tls.receive(bytes) {
            switch event {
            case .handshakeCompleted(let negotiated):
                // Who the client proved to be reaches the service with each of its requests.
                inner.clientCertificateChain = negotiated.clientCertificateChain
            case .keyUpdated:
                break
            case .applicationData(let data):
                data.withUnsafeBytes { inner.receive($0, now: now, service: service) }
            case .closed:
                clientClosed = true
                inner.inputEnded(now: now, service: service)
            case .peerAlert:
                clientClosed = true
            case .failed:
                endedByTLSError = true
            }
        }
        seal()
    }

    /// Moves the inner session's answers into TLS records; once it is over and all its octets
    /// are sealed, close_notify follows.
    private func seal() {
        guard tls.isConnected else { return }
        while inner.outboundByteCount > 0 && tls.outboundByteCount < maxQueuedWriteBytes {
            try? tls.send(inner.takeOutbound(maxBytes: Self.sealChunk))
        }
        if inner.isFinished && inner.outboundByteCount == 0 { tls.close() }
    }

    var wantsInput: Bool {
        !clientClosed && !tls.isFinished && tls.outboundByteCount < maxQueuedWriteBytes && (!tls.isConnected || inner.wantsInput)
    }

    var outboundByteCount: Int { tls.outboundByteCount + (tls.isConnected ? inner.outboundByteCount : 0) }

    func takeOutbound(maxBytes: Int) -> [UInt8] {
        seal()
        return tls.takeOutbound(maxBytes: maxBytes)
    }

    func resume(now: Duration, service: Service) {
        guard tls.isConnected else { return }
        inner.resume(now: now, service: service)
        seal()
    }

    func inputEnded(now: Duration, service: Service) {
        clientClosed = true
        if tls.isConnected { inner.inputEnded(now: now, service: service) }
        seal()
    }

    func beginShutdown() {
        if tls.isConnected { inner.beginShutdown() } else { tls.close() }
        seal()
    }

    func closeIdle() {
        if tls.isConnected { inner.closeIdle() } else { tls.close() }
        seal()
    }

    func goAway(lastStream: Int) {
        if tls.isConnected { inner.goAway(lastStream: lastStream) } else { tls.close() }
        seal()
    }

    var isFinished: Bool { tls.isFinished || (clientClosed && !tls.isConnected) }

    var requestsServed: Int { inner.requestsServed }

    var endedByProtocolError: Bool { endedByTLSError || inner.endedByProtocolError }

    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service) {
        inner.answerLater(stream: stream, response, now: now, service: service)
        seal()
    }

    var awaitsLaterAnswer: Bool { inner.awaitsLaterAnswer }

    /// The inner session's whole frames, and the handshake once complete: a client that
    /// dribbles its hello byte by byte shows no activity (slowloris).
    var progress: Int { inner.progress + (tls.isConnected ? 1 : 0) }

    var hasDeferredWork: Bool { tls.isConnected && inner.hasDeferredWork }

    var refusedForMemory: Int { inner.refusedForMemory }

    func connectionClosed() { inner.connectionClosed() }
}
