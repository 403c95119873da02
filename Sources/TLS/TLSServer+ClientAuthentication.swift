/// The client's Certificate and CertificateVerify (RFC 8446 §4.4.2–§4.4.3), judged by the
/// configured verifier.
extension TLSServer {
    mutating func receiveClientCertificate(_ message: HandshakeMessage, _ progress: HandshakeProgress) throws(TLSFailure) {
        var reader = WireReader(message.body, field: "Certificate")
        // We sent an empty certificate_request_context; the client must echo it.
        guard try reader.vector(lengthBytes: 1).isEmpty else { throw .certificateContextMismatch }
        var list = try reader.nested(lengthBytes: 3, field: "certificate_list")
        try reader.expectEnd()
        var chain: [[UInt8]] = []
        while !list.isAtEnd {
            chain.append(try list.vector(lengthBytes: 3, minimum: 1))
            _ = try list.vector(lengthBytes: 2)  // per-certificate extensions: none asked for
        }
        var progress = progress
        progress.transcript.add(message.bytes)
        if chain.isEmpty {
            switch configuration.clientAuthentication {
            case .required: throw .certificateRequired
            case .optional, .none: state = .awaitingClientFinished(progress, chain: [])
            }
        } else {
            state = .awaitingClientCertificateVerify(progress, chain: chain)
        }
    }

    mutating func receiveClientCertificateVerify(_ message: HandshakeMessage, _ progress: HandshakeProgress,
                                                 chain: [[UInt8]]) throws(TLSFailure) {
        var reader = WireReader(message.body, field: "CertificateVerify")
        let scheme = SignatureScheme(rawValue: try reader.u16())
        let signature = try reader.vector(lengthBytes: 2, minimum: 1)
        try reader.expectEnd()
        guard configuration.clientSignatureSchemes.contains(scheme) else { throw .unofferedSignatureScheme }
        let content = ServerMessages.signedContent(server: false, transcriptHash: progress.transcript.current)
        let verdict: ClientCertificateVerdict
        switch configuration.clientAuthentication {
        case .optional(let verifier), .required(let verifier):
            verdict = verifier.verify(chain: chain, scheme: scheme, signature: signature, signedContent: content)
        case .none:
            throw .unexpectedMessage
        }
        switch verdict {
        case .accepted:
            var progress = progress
            progress.transcript.add(message.bytes)
            state = .awaitingClientFinished(progress, chain: chain)
        case .refused(let alert, let reason):
            throw .clientCertificateRefused(alert, reason)
        }
    }
}
