/// The alert descriptions of RFC 8446 §6 (and RFC 7301's no_application_protocol): what a
/// party tells the other before closing.
public enum AlertDescription: UInt8, Sendable, Hashable, CaseIterable {
    case closeNotify = 0
    case unexpectedMessage = 10
    case badRecordMAC = 20
    case recordOverflow = 22
    case handshakeFailure = 40
    case badCertificate = 42
    case unsupportedCertificate = 43
    case certificateRevoked = 44
    case certificateExpired = 45
    case certificateUnknown = 46
    case illegalParameter = 47
    case unknownCA = 48
    case accessDenied = 49
    case decodeError = 50
    case decryptError = 51
    case protocolVersion = 70
    case insufficientSecurity = 71
    case internalError = 80
    case inappropriateFallback = 86
    case userCanceled = 90
    case missingExtension = 109
    case unsupportedExtension = 110
    case unrecognizedName = 112
    case badCertificateStatusResponse = 113
    case unknownPSKIdentity = 115
    case certificateRequired = 116
    case noApplicationProtocol = 120
}

/// An alert as it travels: level (ignored in TLS 1.3 but for its value) and description.
enum AlertLevel: UInt8 {
    case warning = 1
    case fatal = 2
}
