/// TLS 1.3's two functions over HKDF (RFC 8446 §7.1), with SHA-256 (the hash of both cipher
/// suites PushSim offers).
extension HKDF {
    /// HKDF-Expand-Label(Secret, Label, Context, Length): HKDF-Expand with the info
    /// `HkdfLabel { uint16 length; opaque label<7..255> = "tls13 " + Label; opaque context<0..255> }`.
    /// `label` is one of RFC 8446's ASCII labels ("key", "iv", "finished", "c hs traffic", …);
    /// a label over 249 bytes or a context over 255 traps, as a programming error.
    /// - Complexity: O(byteCount + label + context) bytes hashed.
    public static func expandLabel(secret: [UInt8], label: String, context: [UInt8], byteCount: Int) -> [UInt8] {
        let fullLabel = Array("tls13 ".utf8) + Array(label.utf8)
        precondition(fullLabel.count <= 255 && context.count <= 255 && byteCount <= Int(UInt16.max), "an HkdfLabel field too long")
        var info: [UInt8] = [UInt8(byteCount >> 8), UInt8(truncatingIfNeeded: byteCount), UInt8(fullLabel.count)]
        info += fullLabel
        info.append(UInt8(context.count))
        info += context
        return expand(pseudorandomKey: secret, info: info, byteCount: byteCount)
    }

    /// Derive-Secret(Secret, Label, Messages) = HKDF-Expand-Label(Secret, Label,
    /// Transcript-Hash(Messages), 32), given the transcript's hash (a running `SHA256`'s
    /// `finalize()`), so the messages need not be kept.
    /// - Complexity: O(1): a few compressions.
    public static func deriveSecret(secret: [UInt8], label: String, transcriptHash: [UInt8]) -> [UInt8] {
        expandLabel(secret: secret, label: label, context: transcriptHash, byteCount: SHA256.byteCount)
    }
}
