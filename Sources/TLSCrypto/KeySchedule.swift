/// The TLS 1.3 key schedule (RFC 8446 §7.1–§7.3) for a full handshake without a pre-shared key,
/// with SHA-256: each secret of the diagram in §7.1 as a function of the one before it and the
/// transcript hash it takes. The handshake module calls them in order; RFC 8448's simple 1-RTT
/// trace checks every one (`KeyScheduleTests`).
public enum KeySchedule {
    /// Transcript-Hash of no messages: SHA-256 of the empty string, the context of "derived".
    public static let emptyHash: [UInt8] = SHA256.hash([])

    /// Early Secret = HKDF-Extract(0, 0): no PSK, so both are 32 zero bytes.
    /// - Complexity: O(1).
    public static func earlySecret() -> [UInt8] {
        HKDF.extract(salt: [], inputKeyMaterial: [UInt8](repeating: 0, count: SHA256.byteCount))
    }

    /// Handshake Secret = HKDF-Extract(Derive-Secret(Early Secret, "derived", ""), (EC)DHE).
    /// - Complexity: O(1).
    public static func handshakeSecret(earlySecret: [UInt8], sharedSecret: [UInt8]) -> [UInt8] {
        let salt = HKDF.deriveSecret(secret: earlySecret, label: "derived", transcriptHash: emptyHash)
        return HKDF.extract(salt: salt, inputKeyMaterial: sharedSecret)
    }

    /// Master Secret = HKDF-Extract(Derive-Secret(Handshake Secret, "derived", ""), 0).
    /// - Complexity: O(1).
    public static func masterSecret(handshakeSecret: [UInt8]) -> [UInt8] {
        let salt = HKDF.deriveSecret(secret: handshakeSecret, label: "derived", transcriptHash: emptyHash)
        return HKDF.extract(salt: salt, inputKeyMaterial: [UInt8](repeating: 0, count: SHA256.byteCount))
    }

    /// client_ and server_handshake_traffic_secret: Derive-Secret(Handshake Secret,
    /// "c hs traffic" / "s hs traffic", ClientHello…ServerHello).
    /// - Complexity: O(1).
    public static func handshakeTrafficSecrets(handshakeSecret: [UInt8], helloHash: [UInt8]) -> (client: [UInt8], server: [UInt8]) {
        (HKDF.deriveSecret(secret: handshakeSecret, label: "c hs traffic", transcriptHash: helloHash),
         HKDF.deriveSecret(secret: handshakeSecret, label: "s hs traffic", transcriptHash: helloHash))
    }

    /// client_ and server_application_traffic_secret_0: Derive-Secret(Master Secret,
    /// "c ap traffic" / "s ap traffic", ClientHello…server Finished).
    /// - Complexity: O(1).
    public static func applicationTrafficSecrets(masterSecret: [UInt8], serverFinishedHash: [UInt8]) -> (client: [UInt8], server: [UInt8]) {
        (HKDF.deriveSecret(secret: masterSecret, label: "c ap traffic", transcriptHash: serverFinishedHash),
         HKDF.deriveSecret(secret: masterSecret, label: "s ap traffic", transcriptHash: serverFinishedHash))
    }

    /// exporter_master_secret: Derive-Secret(Master Secret, "exp master", ClientHello…server Finished).
    /// - Complexity: O(1).
    public static func exporterMasterSecret(masterSecret: [UInt8], serverFinishedHash: [UInt8]) -> [UInt8] {
        HKDF.deriveSecret(secret: masterSecret, label: "exp master", transcriptHash: serverFinishedHash)
    }

    /// application_traffic_secret_N+1 = HKDF-Expand-Label(secret_N, "traffic upd", "", 32): the
    /// next secret after a KeyUpdate (§7.2).
    /// - Complexity: O(1).
    public static func nextApplicationTrafficSecret(_ secret: [UInt8]) -> [UInt8] {
        HKDF.expandLabel(secret: secret, label: "traffic upd", context: [], byteCount: SHA256.byteCount)
    }

    /// finished_key = HKDF-Expand-Label(BaseKey, "finished", "", 32) (§4.4.4).
    /// - Complexity: O(1).
    public static func finishedKey(trafficSecret: [UInt8]) -> [UInt8] {
        HKDF.expandLabel(secret: trafficSecret, label: "finished", context: [], byteCount: SHA256.byteCount)
    }

    /// verify_data = HMAC(finished_key, Transcript-Hash(Handshake Context, Certificate*,
    /// CertificateVerify*)): what a Finished message carries (§4.4.4). A received one is compared
    /// with `ConstantTime.equals`.
    /// - Complexity: O(1).
    public static func finishedVerifyData(trafficSecret: [UInt8], transcriptHash: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: finishedKey(trafficSecret: trafficSecret), message: transcriptHash)
    }
}

/// A record protection key and IV (RFC 8446 §7.3) from a traffic secret:
/// key = HKDF-Expand-Label(Secret, "key", "", key length), iv = HKDF-Expand-Label(Secret, "iv", "", 12).
public struct TrafficKeys: Sendable {
    /// The AEAD key: 16 bytes for AES-128-GCM, 32 for ChaCha20-Poly1305.
    public let key: [UInt8]
    /// The 12-byte IV each record's nonce is made from (`AEADNonce.xoring(sequenceNumber:)`).
    public let iv: AEADNonce

    /// The key of `keyByteCount` bytes and the IV of `secret`.
    /// - Complexity: O(1).
    public init(secret: [UInt8], keyByteCount: Int) {
        key = HKDF.expandLabel(secret: secret, label: "key", context: [], byteCount: keyByteCount)
        iv = AEADNonce(HKDF.expandLabel(secret: secret, label: "iv", context: [], byteCount: AEADNonce.byteCount))!
    }
}
