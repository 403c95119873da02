/// Why the server ended a connection: each reason once, with the alert it sends (RFC 8446 §6.2
/// names which alert answers which failure). The reason is our own text, never the peer's bytes.
public enum TLSFailure: Error, Sendable, Hashable {
    // The record layer (§5).
    /// A record longer than §5.1 or §5.2 allows.
    case recordTooLong
    /// A protected record whose content (without padding) exceeds 2^14 bytes.
    case plaintextTooLong
    /// A content type that is not one of §5.1's four.
    case unknownContentType
    /// A record of a type that may not come now (plaintext after keys, data before the handshake…).
    case unexpectedRecord
    /// A protected record that does not open under the current key.
    case recordNotAuthentic
    /// A protected record of zeros only: no content type.
    case noContentType
    /// A handshake record with no bytes (§5.1 forbids them).
    case emptyHandshakeRecord
    /// A record of another type while a handshake message is half received (§5.1).
    case interleavedRecord
    /// A handshake message that does not end where the key changes (§5.1).
    case messageSpansKeyChange
    /// ChangeCipherSpec other than the single byte 1, or outside the handshake (§5, §D.4).
    case invalidChangeCipherSpec
    /// An alert record that is not two bytes.
    case malformedAlert
    /// More records in a row that carry nothing than `TLSLimits.maxIgnoredRecords`.
    case tooManyIgnoredRecords
    /// A handshake message over `TLSLimits.maxHandshakeMessageBytes`, or cut into more
    /// records than `maxRecordsPerHandshakeMessage`.
    case handshakeMessageTooLong
    /// Refused early data beyond `TLSLimits.maxSkippedEarlyDataBytes`.
    case tooMuchEarlyData

    // Messages.
    /// A message that does not parse: the field named.
    case malformed(String)
    /// A handshake message of a type that may not come now.
    case unexpectedMessage
    /// No supported_versions, or one without TLS 1.3: TLS 1.2 and earlier are not offered.
    case versionNotOffered
    /// legacy_compression_methods other than the single null method.
    case compressionOffered
    /// An extension twice, or pre_shared_key not last (§4.2).
    case misplacedExtension
    /// A required extension missing (§9.2): its code point.
    case missingExtension(UInt16)
    /// None of the client's cipher suites is ours.
    case noCommonCipherSuite
    /// None of the client's groups is ours.
    case noCommonGroup
    /// The client does not accept the scheme the server's certificate signs with.
    case noCommonSignatureScheme
    /// A key share twice, for a group not in supported_groups, or not a valid point.
    case invalidKeyShare
    /// The ClientHello after a HelloRetryRequest does not do what it asked, or changed (§4.1.2).
    case retriedHelloMismatch
    /// The client offered application protocols, none of them ours (RFC 7301 §3.2).
    case noApplicationProtocol
    /// record_size_limit below 64 (RFC 8449 §4).
    case recordSizeLimitTooSmall
    /// The client's Finished does not verify.
    case finishedMismatch
    /// A client certificate is required and the client sent none.
    case certificateRequired
    /// The client's Certificate names a certificate_request_context we did not send.
    case certificateContextMismatch
    /// The client signed with a scheme we did not offer.
    case unofferedSignatureScheme
    /// The verifier refused the client's certificate or signature, with its alert.
    case clientCertificateRefused(AlertDescription, String)
    /// KeyUpdate with a request_update other than 0 or 1.
    case invalidKeyUpdate
    /// More KeyUpdates than `TLSLimits.maxKeyUpdatesWithoutData` without data between them.
    case tooManyKeyUpdates

    /// The alert sent for it.
    /// - Complexity: O(1).
    public var alert: AlertDescription {
        switch self {
        case .recordTooLong, .plaintextTooLong: .recordOverflow
        case .unknownContentType, .unexpectedRecord, .noContentType, .emptyHandshakeRecord, .interleavedRecord,
             .messageSpansKeyChange, .invalidChangeCipherSpec, .tooManyIgnoredRecords, .tooMuchEarlyData,
             .unexpectedMessage, .tooManyKeyUpdates: .unexpectedMessage
        case .recordNotAuthentic: .badRecordMAC
        case .malformedAlert, .malformed: .decodeError
        case .handshakeMessageTooLong, .compressionOffered, .misplacedExtension, .invalidKeyShare, .retriedHelloMismatch,
             .recordSizeLimitTooSmall, .certificateContextMismatch, .unofferedSignatureScheme, .invalidKeyUpdate: .illegalParameter
        case .versionNotOffered: .protocolVersion
        case .missingExtension: .missingExtension
        case .noCommonCipherSuite, .noCommonGroup, .noCommonSignatureScheme: .handshakeFailure
        case .noApplicationProtocol: .noApplicationProtocol
        case .finishedMismatch: .decryptError
        case .certificateRequired: .certificateRequired
        case .clientCertificateRefused(let alert, _): alert
        }
    }

    /// One line saying what went wrong, for a log.
    /// - Complexity: O(1).
    public var reason: String {
        switch self {
        case .recordTooLong: "a record longer than RFC 8446 §5 allows"
        case .plaintextTooLong: "a protected record's content over 2^14 bytes"
        case .unknownContentType: "a record of an unknown content type"
        case .unexpectedRecord: "a record of a type that may not come now"
        case .recordNotAuthentic: "a protected record that does not open"
        case .noContentType: "a protected record without a content type"
        case .emptyHandshakeRecord: "an empty handshake record"
        case .interleavedRecord: "another record inside a handshake message"
        case .messageSpansKeyChange: "a handshake message across a key change"
        case .invalidChangeCipherSpec: "a ChangeCipherSpec out of place or not 0x01"
        case .malformedAlert: "an alert record that is not two bytes"
        case .tooManyIgnoredRecords: "too many records in a row that carry nothing"
        case .handshakeMessageTooLong: "a handshake message over the limit"
        case .tooMuchEarlyData: "early data over the limit"
        case .malformed(let field): "malformed \(field)"
        case .unexpectedMessage: "a handshake message that may not come now"
        case .versionNotOffered: "the client does not offer TLS 1.3"
        case .compressionOffered: "compression methods other than null"
        case .misplacedExtension: "an extension repeated, or pre_shared_key not last"
        case .missingExtension(let code): "extension \(code) missing"
        case .noCommonCipherSuite: "no cipher suite in common"
        case .noCommonGroup: "no key exchange group in common"
        case .noCommonSignatureScheme: "the client does not accept the certificate's signature scheme"
        case .invalidKeyShare: "an invalid key share"
        case .retriedHelloMismatch: "the second ClientHello does not follow the HelloRetryRequest"
        case .noApplicationProtocol: "no application protocol in common"
        case .recordSizeLimitTooSmall: "record_size_limit below 64"
        case .finishedMismatch: "the client's Finished does not verify"
        case .certificateRequired: "no client certificate"
        case .certificateContextMismatch: "a certificate_request_context we did not send"
        case .unofferedSignatureScheme: "a signature scheme we did not offer"
        case .clientCertificateRefused(_, let why): "client certificate refused: \(why)"
        case .invalidKeyUpdate: "a KeyUpdate neither requested nor not"
        case .tooManyKeyUpdates: "too many KeyUpdates without data"
        }
    }
}
