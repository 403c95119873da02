/// What the handshake carries once the ServerHello is sent: the transcript, the secrets still
/// to be used, and what was agreed.
struct HandshakeProgress {
    var transcript: Transcript
    let suite: CipherSuite
    let group: KeyExchangeGroup
    let clientHandshakeSecret: [UInt8]
    let clientApplicationSecret: [UInt8]
    let applicationProtocol: [UInt8]?
    let serverName: String?
    let retried: Bool

    func session(clientCertificateChain: [[UInt8]]) -> NegotiatedSession {
        NegotiatedSession(cipherSuite: suite, group: group, applicationProtocol: applicationProtocol, serverName: serverName,
                          retried: retried, clientCertificateChain: clientCertificateChain)
    }
}

/// What a HelloRetryRequest leaves for the second ClientHello.
struct RetryContext {
    let firstHello: ClientHello
    let negotiation: ServerNegotiation
    let group: KeyExchangeGroup
    /// message_hash(ClientHello1) and the HelloRetryRequest.
    let transcript: Transcript
}

/// The server's handshake, one case per message it waits for, each holding only what is
/// valid then (as rustls's states are types).
enum ServerState {
    case awaitingClientHello
    case awaitingRetriedClientHello(RetryContext)
    case awaitingClientCertificate(HandshakeProgress)
    case awaitingClientCertificateVerify(HandshakeProgress, chain: [[UInt8]])
    case awaitingClientFinished(HandshakeProgress, chain: [[UInt8]])
    /// Application data flows; `keyUpdates` counts the client's KeyUpdates since its last data.
    case connected(keyUpdates: Int)
    /// Over: an alert went or came, or close_notify.
    case closed
}
