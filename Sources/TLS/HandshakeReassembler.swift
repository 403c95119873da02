/// A handshake message whole: its type, body and bytes as they go in the transcript.
struct HandshakeMessage {
    let type: UInt8
    let body: [UInt8]
    /// Header and body, for the transcript.
    let bytes: [UInt8]
}

/// Gathers handshake messages from records: one may span records, one record may hold
/// several (RFC 8446 §5.1). Bounded in size and in the records a message may take.
struct HandshakeReassembler {
    private var pending: [UInt8] = []
    /// Records that have added to the message under way.
    private var fragments = 0
    let limits: TLSLimits

    init(limits: TLSLimits) { self.limits = limits }

    /// Whether a message is half received (no record of another type may come, no key change).
    var isEmpty: Bool { pending.isEmpty }

    mutating func append(_ fragment: [UInt8]) throws(TLSFailure) {
        guard !fragment.isEmpty else { throw .emptyHandshakeRecord }
        pending.append(contentsOf: fragment)
        fragments += 1
        guard fragments <= limits.maxRecordsPerHandshakeMessage else { throw .handshakeMessageTooLong }
        // The announced length is checked as soon as the header is here, before the body is buffered.
        if pending.count >= 4 {
            let length = Int(pending[1]) << 16 | Int(pending[2]) << 8 | Int(pending[3])
            guard length <= limits.maxHandshakeMessageBytes else { throw .handshakeMessageTooLong }
        }
    }

    /// The next whole message, nil until one is.
    mutating func next() throws(TLSFailure) -> HandshakeMessage? {
        guard pending.count >= 4 else { return nil }
        let length = Int(pending[1]) << 16 | Int(pending[2]) << 8 | Int(pending[3])
        guard length <= limits.maxHandshakeMessageBytes else { throw .handshakeMessageTooLong }
        guard pending.count >= 4 + length else { return nil }
        let bytes = Array(pending[0..<(4 + length)])
        pending.removeFirst(4 + length)
        // The next message starts within this record; its own records count from here.
        fragments = pending.isEmpty ? 0 : 1
        return HandshakeMessage(type: bytes[0], body: Array(bytes[4...]), bytes: bytes)
    }
}
