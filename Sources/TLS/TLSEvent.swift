/// What the client's bytes did, in order.
public enum TLSEvent: Sendable, Equatable {
    /// The handshake is over: application data flows both ways.
    case handshakeCompleted(NegotiatedSession)
    /// Application data, decrypted.
    case applicationData([UInt8])
    /// The client updated its key; `requested`: it asked us to update ours (done).
    case keyUpdated(requested: Bool)
    /// The client's close_notify: it sends no more. Ours is queued in reply.
    case closed
    /// The client's alert (other than close_notify and user_canceled): the connection is
    /// over. Its description's code (`AlertDescription(rawValue:)` names the known ones).
    case peerAlert(UInt8)
    /// We ended the connection for this failure; its alert is queued: flush, then close.
    case failed(TLSFailure)
}

/// What the handshake agreed.
public struct NegotiatedSession: Sendable, Equatable {
    public let cipherSuite: CipherSuite
    public let group: KeyExchangeGroup
    /// The ALPN protocol chosen, nil when the client offered none.
    public let applicationProtocol: [UInt8]?
    /// The host the client named in server_name (SNI), as sent.
    public let serverName: String?
    /// Whether a HelloRetryRequest was needed.
    public let retried: Bool
    /// The client's certificates (DER, its own first) once verified; empty without client authentication.
    public let clientCertificateChain: [[UInt8]]
}
