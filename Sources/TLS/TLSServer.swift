/// Why application data could not be queued.
public enum TLSSendError: Error, Sendable, Equatable {
    /// The handshake is not over, or the connection is closed.
    case notConnected
}

/// The server side of a TLS 1.3 connection (RFC 8446), without I/O: the client's bytes in,
/// events out, bytes to write queued. Records and messages are values; the handshake is a
/// state machine (`ServerState`) modelled on Go's crypto/tls server and rustls's states.
///
/// ```swift
/// var tls = TLSServer(configuration: configuration)
/// for event in tls.receive(bytes) { … }                // .handshakeCompleted, .applicationData, …
/// try tls.send(answer)                                 // once the handshake completed
/// socket.write(tls.takeOutbound(maxBytes: .max))
/// ```
/// No resumption, no 0-RTT (early data is refused and skipped), TLS 1.3 only.
public struct TLSServer {
    let configuration: TLSServerConfiguration
    var state = ServerState.awaitingClientHello
    var random: any RandomNumberGenerator
    var records = RecordReader()
    var reassembler: HandshakeReassembler
    var readProtection: RecordProtection?
    var writeProtection: RecordProtection?
    /// Records received in a row that carried nothing.
    var ignoredRecords = 0
    /// How refused early data is skipped (§4.2.10), and how much was.
    var earlyData = EarlyDataSkipping.none
    var skippedEarlyDataBytes = 0
    /// No protected record has opened under the current read key yet: the client may still
    /// send a plaintext alert (it refused our ServerHello before deriving keys).
    var awaitingFirstProtectedRecord = false
    var sentChangeCipherSpec = false
    /// The most content one of our records carries (the client's record_size_limit).
    var maxRecordContent = TLSLimits.maxPlaintextBytes
    var events: [TLSEvent] = []
    private var outbound: [UInt8] = []
    private var outboundStart = 0
    /// What the handshake agreed, once it completed.
    public internal(set) var session: NegotiatedSession?

    enum EarlyDataSkipping {
        case none
        /// After a ServerHello: records that do not open under the handshake key are skipped.
        case undecryptable
        /// After a HelloRetryRequest: protected records are skipped until the second ClientHello.
        case protected
    }

    /// A server with `configuration`, drawing its randoms and ephemeral keys from `random`
    /// (the system's generator, which reads the kernel's; a test's tape).
    /// - Complexity: O(1).
    public init(configuration: TLSServerConfiguration, random: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        self.random = random
        reassembler = HandshakeReassembler(limits: configuration.limits)
    }

    /// Reads the client's bytes (any split); returns what they did, in order.
    /// - Complexity: O(n) in the bytes, plus the handshake's public-key work when a hello completes.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) -> [TLSEvent] {
        guard !isFinished else { return [] }
        records.append(bytes)
        do {
            while !isFinished, let record = try records.next(maxFragment: maxFragment) {
                try handle(record)
            }
        } catch {
            fail(error)
        }
        defer { events = [] }
        return events
    }

    /// `receive` for an array.
    /// - Complexity: as `receive(_:)`.
    public mutating func receive(_ bytes: [UInt8]) -> [TLSEvent] {
        bytes.withUnsafeBytes { receive($0) }
    }

    private var maxFragment: Int {
        if case .awaitingClientHello = state { return TLSLimits.maxPlaintextBytes }
        return TLSLimits.maxCiphertextBytes
    }

    /// Queues application data in records of at most the client's record size.
    /// - Complexity: O(n).
    public mutating func send(_ data: [UInt8]) throws(TLSSendError) {
        guard case .connected = state else { throw .notConnected }
        var start = 0
        repeat {
            let end = min(data.count, start + maxRecordContent)
            queueProtected(.applicationData, data[start..<end])
            start = end
        } while start < data.count
    }

    /// Updates our key, asking the client to update its own (§4.6.3).
    /// - Complexity: O(1).
    public mutating func updateKey(requestingPeerUpdate: Bool = true) throws(TLSSendError) {
        guard case .connected = state else { throw .notConnected }
        sendKeyUpdate(requested: requestingPeerUpdate)
    }

    /// Sends close_notify: nothing more is sent or read.
    /// - Complexity: O(1).
    public mutating func close() {
        guard !isFinished else { return }
        queueAlert(.closeNotify)
        state = .closed
    }

    /// Whether the connection is over (close_notify, an alert either way): once the queued
    /// bytes are written, the transport closes.
    /// - Complexity: O(1).
    public var isFinished: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether application data may be sent.
    /// - Complexity: O(1).
    public var isConnected: Bool {
        if case .connected = state { return true }
        return false
    }

    /// Bytes queued for the client.
    /// - Complexity: O(1).
    public var outboundByteCount: Int { outbound.count - outboundStart }

    /// Removes and returns up to `maxBytes` queued bytes, oldest first.
    /// - Complexity: O(k) in the bytes returned (amortized).
    public mutating func takeOutbound(maxBytes: Int) -> [UInt8] {
        let end = outboundStart + min(maxBytes, outboundByteCount)
        let taken = Array(outbound[outboundStart..<end])
        outboundStart = end
        if outboundStart == outbound.count {
            outbound.removeAll(keepingCapacity: true)
            outboundStart = 0
        }
        return taken
    }

    /// Ends the connection for `failure`: its alert is queued, the state closed.
    mutating func fail(_ failure: TLSFailure) {
        guard !isFinished else { return }
        events.append(.failed(failure))
        queueAlert(failure.alert)
        state = .closed
    }

    mutating func randomBytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let word = random.next()
            for shift in stride(from: 0, to: 64, by: 8) where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }

    // Writing.

    /// Handshake messages in plaintext records (the ServerHello, a HelloRetryRequest).
    mutating func queuePlaintext(_ type: ContentType, _ content: [UInt8]) {
        var start = 0
        repeat {
            let end = min(content.count, start + TLSLimits.maxPlaintextBytes)
            outbound.append(contentsOf: recordHeader(type, length: end - start))
            outbound.append(contentsOf: content[start..<end])
            start = end
        } while start < content.count
    }

    /// Content in protected records under the current write key, cut to the client's record size.
    mutating func queueProtected(_ type: ContentType, _ content: ArraySlice<UInt8>) {
        var start = content.startIndex
        repeat {
            let end = min(content.endIndex, start + maxRecordContent)
            outbound.append(contentsOf: writeProtection!.seal(type, content[start..<end]))
            start = end
            // §5.5: a key is retired before its records approach the AEAD's bound.
            if type == .applicationData, writeProtection!.sequenceNumber >= configuration.limits.recordsPerKey {
                sendKeyUpdate(requested: false)
            }
        } while start < content.endIndex
    }

    mutating func sendKeyUpdate(requested: Bool) {
        queueProtected(.handshake, ServerMessages.keyUpdate(requested: requested)[...])
        writeProtection = writeProtection!.next()
    }

    /// An alert: protected once we have a key, plaintext before (§6). close_notify is a warning.
    mutating func queueAlert(_ description: AlertDescription) {
        let level: AlertLevel = description == .closeNotify ? .warning : .fatal
        let alert = [level.rawValue, description.rawValue]
        if writeProtection != nil { queueProtected(.alert, alert[...]) } else { queuePlaintext(.alert, alert) }
    }
}
