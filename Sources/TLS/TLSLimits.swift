/// The sizes RFC 8446 fixes for records, and the bounds this server adds so that a hostile
/// client costs bounded memory and work.
public struct TLSLimits: Sendable, Equatable {
    /// RFC 8446 §5.1: a record's plaintext fragment (and a protected record's content) is at
    /// most 2^14 bytes; more is `record_overflow`.
    public static let maxPlaintextBytes = 1 << 14
    /// RFC 8446 §5.2: a protected record's encrypted_record is at most 2^14 + 256 bytes.
    public static let maxCiphertextBytes = (1 << 14) + 256
    /// A record header: content type, legacy_record_version, length.
    public static let recordHeaderBytes = 5

    /// The largest handshake message taken from the client (a ClientHello, a certificate
    /// chain): beyond it, `illegal_parameter`. Go's crypto/tls uses the same 64 KiB.
    public var maxHandshakeMessageBytes = 1 << 16
    /// Records one handshake message may be cut into (a client dribbling a byte a record).
    public var maxRecordsPerHandshakeMessage = 256
    /// Records in a row that carry nothing (ChangeCipherSpec, empty application data, early
    /// data skipped): beyond it, `unexpected_message` (Go's `maxUselessRecords` is 16).
    public var maxIgnoredRecords = 16
    /// KeyUpdates the client may send without application data between them.
    public var maxKeyUpdatesWithoutData = 32
    /// The 0-RTT data skipped when a client sends early data we refuse (RFC 8446 §4.2.10:
    /// beyond the server's bound, `unexpected_message`).
    public var maxSkippedEarlyDataBytes = 1 << 16
    /// Records sealed under one key before the server updates its own key (RFC 8446 §5.5:
    /// AES-GCM's bound is 2^24.5 records; this stays under it for both ciphers).
    public var recordsPerKey: UInt64 = 1 << 24

    /// The defaults above.
    /// - Complexity: O(1).
    public init() {}
}
