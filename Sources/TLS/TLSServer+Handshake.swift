import TLSCrypto

/// The hellos and the server's flight (RFC 8446 §4.1–§4.4).
extension TLSServer {
    /// The first ClientHello: answered by a HelloRetryRequest or by the server's flight.
    mutating func receiveFirstHello(_ message: HandshakeMessage) throws(TLSFailure) {
        let hello = try ClientHello(body: message.body)
        guard hello.legacyVersion >= ProtocolVersion.tls12 || hello.supportedVersions != nil else { throw .versionNotOffered }
        let negotiation = try ServerNegotiation(hello, configuration: configuration)
        guard reassembler.isEmpty else { throw .messageSpansKeyChange }
        switch negotiation.keyAgreement {
        case .share(let group, let share):
            var transcript = Transcript()
            transcript.add(message.bytes)
            earlyData = hello.offersEarlyData ? .undecryptable : .none
            try answer(hello, negotiation, group: group, share: share, transcript: transcript, retried: false)
        case .retry(let group):
            let retry = ServerMessages.helloRetryRequest(sessionID: hello.sessionID, suite: negotiation.suite, group: group)
            var transcript = Transcript.replacingFirstHello(message.bytes)
            transcript.add(retry)
            queuePlaintext(.handshake, retry)
            sendCompatibilityChangeCipherSpec(hello)
            earlyData = hello.offersEarlyData ? .protected : .none
            state = .awaitingRetriedClientHello(RetryContext(firstHello: hello, negotiation: negotiation, group: group,
                                                             transcript: transcript))
        }
    }

    /// The ClientHello after our HelloRetryRequest: checked against the first (§4.1.2).
    mutating func receiveRetriedHello(_ message: HandshakeMessage, _ retry: RetryContext) throws(TLSFailure) {
        let hello = try ClientHello(body: message.body)
        try ServerNegotiation.checkRetried(hello, first: retry.firstHello, group: retry.group)
        let negotiation = try ServerNegotiation(hello, configuration: configuration)
        guard negotiation.suite == retry.negotiation.suite, case .share(retry.group, let share) = negotiation.keyAgreement else {
            throw .retriedHelloMismatch
        }
        guard reassembler.isEmpty else { throw .messageSpansKeyChange }
        var transcript = retry.transcript
        transcript.add(message.bytes)
        try answer(hello, negotiation, group: retry.group, share: share, transcript: transcript, retried: true)
    }

    /// §D.4: a client in middlebox compatibility mode (a legacy_session_id) gets one
    /// ChangeCipherSpec after our first handshake message.
    private mutating func sendCompatibilityChangeCipherSpec(_ hello: ClientHello) {
        guard !hello.sessionID.isEmpty, !sentChangeCipherSpec else { return }
        sentChangeCipherSpec = true
        queuePlaintext(.changeCipherSpec, [1])
    }

    /// ServerHello, then EncryptedExtensions, [CertificateRequest], Certificate,
    /// CertificateVerify and Finished in one protected flight; the keys move on with it.
    private mutating func answer(_ hello: ClientHello, _ negotiation: ServerNegotiation, group: KeyExchangeGroup, share: [UInt8],
                                 transcript start: Transcript, retried: Bool) throws(TLSFailure) {
        var transcript = start
        let serverRandom = randomBytes(32)
        let key = EphemeralKey.generate(group) { randomBytes(32) }
        let sharedSecret = try key.sharedSecret(with: share)
        let serverHello = ServerMessages.serverHello(random: serverRandom, sessionID: hello.sessionID, suite: negotiation.suite,
                                                     group: group, publicKey: key.publicKey)
        transcript.add(serverHello)
        queuePlaintext(.handshake, serverHello)
        sendCompatibilityChangeCipherSpec(hello)

        let handshakeSecret = KeySchedule.handshakeSecret(earlySecret: KeySchedule.earlySecret(), sharedSecret: sharedSecret)
        let traffic = KeySchedule.handshakeTrafficSecrets(handshakeSecret: handshakeSecret, helloHash: transcript.current)
        writeProtection = RecordProtection(suite: negotiation.suite, secret: traffic.server)
        readProtection = RecordProtection(suite: negotiation.suite, secret: traffic.client)
        awaitingFirstProtectedRecord = true
        maxRecordContent = negotiation.maxRecordContent

        let flight = serverFlight(hello, negotiation, transcript: &transcript, serverTrafficSecret: traffic.server)
        queueProtected(.handshake, flight[...])
        let application = KeySchedule.applicationTrafficSecrets(masterSecret: KeySchedule.masterSecret(handshakeSecret: handshakeSecret),
                                                                serverFinishedHash: transcript.current)
        writeProtection = RecordProtection(suite: negotiation.suite, secret: application.server)

        let progress = HandshakeProgress(transcript: transcript, suite: negotiation.suite, group: group,
                                         clientHandshakeSecret: traffic.client, clientApplicationSecret: application.client,
                                         applicationProtocol: negotiation.applicationProtocol, serverName: hello.serverName,
                                         retried: retried)
        switch configuration.clientAuthentication {
        case .none: state = .awaitingClientFinished(progress, chain: [])
        case .optional, .required: state = .awaitingClientCertificate(progress)
        }
    }

    /// The messages after ServerHello, each added to the transcript as it is written.
    private mutating func serverFlight(_ hello: ClientHello, _ negotiation: ServerNegotiation, transcript: inout Transcript,
                                       serverTrafficSecret: [UInt8]) -> [UInt8] {
        var flight = ServerMessages.encryptedExtensions(
            announcedGroups: configuration.announcedGroups, recordSizeLimit: hello.recordSizeLimit != nil,
            serverName: hello.serverName != nil, applicationProtocol: negotiation.applicationProtocol)
        switch configuration.clientAuthentication {
        case .none:
            break
        case .optional, .required:
            flight += ServerMessages.certificateRequest(schemes: configuration.clientSignatureSchemes,
                                                        certificateSchemes: configuration.clientCertificateSignatureSchemes)
        }
        transcript.add(flight)
        let certificate = ServerMessages.certificate(chain: configuration.credentials.certificateChain)
        transcript.add(certificate)
        let signer = configuration.credentials.signer
        let signature = signer.sign(ServerMessages.signedContent(server: true, transcriptHash: transcript.current))
        let certificateVerify = ServerMessages.certificateVerify(scheme: signer.scheme, signature: signature)
        transcript.add(certificateVerify)
        let finished = ServerMessages.finished(
            verifyData: KeySchedule.finishedVerifyData(trafficSecret: serverTrafficSecret, transcriptHash: transcript.current))
        transcript.add(finished)
        return flight + certificate + certificateVerify + finished
    }

    /// The client's Finished (§4.4.4), compared in constant time; then application keys.
    mutating func receiveClientFinished(_ message: HandshakeMessage, _ progress: HandshakeProgress, chain: [[UInt8]]) throws(TLSFailure) {
        let expected = KeySchedule.finishedVerifyData(trafficSecret: progress.clientHandshakeSecret,
                                                      transcriptHash: progress.transcript.current)
        guard message.body.count == expected.count else { throw .malformed("Finished") }
        guard ConstantTime.equals(message.body, expected) else { throw .finishedMismatch }
        guard reassembler.isEmpty else { throw .messageSpansKeyChange }
        readProtection = RecordProtection(suite: progress.suite, secret: progress.clientApplicationSecret)
        awaitingFirstProtectedRecord = false
        let session = progress.session(clientCertificateChain: chain)
        self.session = session
        state = .connected(keyUpdates: 0)
        events.append(.handshakeCompleted(session))
    }
}
