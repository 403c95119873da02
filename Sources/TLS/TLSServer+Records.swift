/// What each record does (RFC 8446 §5): its type checked against the state, opened when
/// protected, its content handed on.
extension TLSServer {
    mutating func handle(_ record: Record) throws(TLSFailure) {
        switch record.contentType {
        case .changeCipherSpec:
            try ignoreChangeCipherSpec(record.fragment)
        case .applicationData:
            try handleProtected(record)
        case .handshake, .alert:
            // Plaintext: the hellos, and an alert from a client that has no key yet.
            guard readProtection == nil || (record.contentType == .alert && awaitingFirstProtectedRecord) else {
                throw .unexpectedRecord
            }
            guard record.fragment.count <= TLSLimits.maxPlaintextBytes else { throw .recordTooLong }
            if case .protected = earlyData { earlyData = .none }
            try handleContent(record.contentType, record.fragment)
        }
    }

    /// §D.4: a ChangeCipherSpec of the single byte 1 between the first ClientHello and the
    /// client's Finished is dropped; anywhere else it is an error.
    private mutating func ignoreChangeCipherSpec(_ fragment: [UInt8]) throws(TLSFailure) {
        switch state {
        case .awaitingRetriedClientHello, .awaitingClientCertificate, .awaitingClientCertificateVerify, .awaitingClientFinished:
            guard fragment == [1], reassembler.isEmpty else { throw .invalidChangeCipherSpec }
            try countIgnoredRecord()
        case .awaitingClientHello, .connected, .closed:
            throw .invalidChangeCipherSpec
        }
    }

    private mutating func handleProtected(_ record: Record) throws(TLSFailure) {
        guard var protection = readProtection else {
            // Early data sent before the client saw our HelloRetryRequest (§4.2.10).
            guard case .protected = earlyData else { throw .unexpectedRecord }
            return try skipEarlyData(record)
        }
        guard let (type, content) = try protection.open(record) else {
            guard case .undecryptable = earlyData else { throw .recordNotAuthentic }
            return try skipEarlyData(record)
        }
        readProtection = protection
        earlyData = .none
        awaitingFirstProtectedRecord = false
        try handleContent(type, content)
    }

    private mutating func skipEarlyData(_ record: Record) throws(TLSFailure) {
        skippedEarlyDataBytes += record.fragment.count
        guard skippedEarlyDataBytes <= configuration.limits.maxSkippedEarlyDataBytes else { throw .tooMuchEarlyData }
    }

    private mutating func countIgnoredRecord() throws(TLSFailure) {
        ignoredRecords += 1
        guard ignoredRecords <= configuration.limits.maxIgnoredRecords else { throw .tooManyIgnoredRecords }
    }

    /// A record's content, plaintext or opened.
    private mutating func handleContent(_ type: ContentType, _ content: [UInt8]) throws(TLSFailure) {
        switch type {
        case .handshake:
            ignoredRecords = 0
            try reassembler.append(content)
            while !isFinished, let message = try reassembler.next() {
                try handleHandshake(message)
            }
        case .alert:
            guard reassembler.isEmpty else { throw .interleavedRecord }
            try handleAlert(content)
        case .applicationData:
            guard reassembler.isEmpty else { throw .interleavedRecord }
            guard case .connected = state else { throw .unexpectedRecord }
            guard !content.isEmpty else { return try countIgnoredRecord() }
            ignoredRecords = 0
            state = .connected(keyUpdates: 0)
            events.append(.applicationData(content))
        case .changeCipherSpec:
            // Only in plaintext (§5): protected, it is an error.
            throw .invalidChangeCipherSpec
        }
    }

    /// §6: close_notify ends the client's side (ours answers it); user_canceled is a
    /// warning; every other alert is fatal in TLS 1.3, whatever its level says.
    private mutating func handleAlert(_ content: [UInt8]) throws(TLSFailure) {
        guard content.count == 2 else { throw .malformedAlert }
        switch AlertDescription(rawValue: content[1]) {
        case .closeNotify?:
            events.append(.closed)
            queueAlert(.closeNotify)
            state = .closed
        case .userCanceled?:
            try countIgnoredRecord()
        default:
            events.append(.peerAlert(content[1]))
            state = .closed
        }
    }

    /// Each handshake message by the state it arrives in.
    private mutating func handleHandshake(_ message: HandshakeMessage) throws(TLSFailure) {
        let type = HandshakeType(rawValue: message.type)
        switch state {
        case .awaitingClientHello:
            guard type == .clientHello else { throw .unexpectedMessage }
            try receiveFirstHello(message)
        case .awaitingRetriedClientHello(let retry):
            guard type == .clientHello else { throw .unexpectedMessage }
            try receiveRetriedHello(message, retry)
        case .awaitingClientCertificate(let progress):
            guard type == .certificate else { throw .unexpectedMessage }
            try receiveClientCertificate(message, progress)
        case .awaitingClientCertificateVerify(let progress, let chain):
            guard type == .certificateVerify else { throw .unexpectedMessage }
            try receiveClientCertificateVerify(message, progress, chain: chain)
        case .awaitingClientFinished(let progress, let chain):
            guard type == .finished else { throw .unexpectedMessage }
            try receiveClientFinished(message, progress, chain: chain)
        case .connected(let keyUpdates):
            guard type == .keyUpdate else { throw .unexpectedMessage }
            try receiveKeyUpdate(message, count: keyUpdates + 1)
        case .closed:
            return
        }
    }

    /// §4.6.3: the client's next key, and ours too when it asks.
    private mutating func receiveKeyUpdate(_ message: HandshakeMessage, count: Int) throws(TLSFailure) {
        guard message.body.count == 1 else { throw .malformed("KeyUpdate") }
        guard message.body[0] <= 1 else { throw .invalidKeyUpdate }
        guard count <= configuration.limits.maxKeyUpdatesWithoutData else { throw .tooManyKeyUpdates }
        guard reassembler.isEmpty else { throw .messageSpansKeyChange }
        readProtection = readProtection!.next()
        let requested = message.body[0] == 1
        if requested { sendKeyUpdate(requested: false) }
        state = .connected(keyUpdates: count)
        events.append(.keyUpdated(requested: requested))
    }
}
