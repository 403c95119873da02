import TLSCrypto

/// The running hash of the handshake messages (RFC 8446 §4.4.1), SHA-256 for both suites.
struct Transcript {
    private var hash = SHA256()

    mutating func add(_ message: [UInt8]) { hash.update(message) }

    /// The hash of everything added so far; adding may go on.
    var current: [UInt8] { hash.finalize() }

    /// After a HelloRetryRequest the first ClientHello is replaced by the synthetic
    /// message_hash message: type 254, length 32, Hash(ClientHello1) (§4.4.1).
    static func replacingFirstHello(_ firstHello: [UInt8]) -> Transcript {
        var transcript = Transcript()
        transcript.add([HandshakeType.messageHash.rawValue, 0, 0, UInt8(SHA256.byteCount)] + SHA256.hash(firstHello))
        return transcript
    }
}
