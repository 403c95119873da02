/// The AEAD ChaCha20-Poly1305 (RFC 8439 §2.8), TLS_CHACHA20_POLY1305_SHA256's record
/// protection: block 0 of ChaCha20 under the nonce gives Poly1305's one-time key (§2.6), blocks
/// 1… encrypt, and the tag authenticates AAD ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(AAD) ‖
/// len(ciphertext). Constant time as its parts are; the tag is compared with `ConstantTime`.
public struct ChaCha20Poly1305: AEAD {
    /// The key's length in bytes.
    public static let keyByteCount = 32

    private let cipher: ChaCha20

    /// The AEAD under `key`; nil unless it is 32 bytes.
    /// - Complexity: O(1).
    public init?(key: [UInt8]) {
        guard let cipher = ChaCha20(key: key) else { return nil }
        self.cipher = cipher
    }

    /// Encrypts `text` in place and writes its tag over `tag` (16 bytes).
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func seal(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
                     tag: UnsafeMutableRawBufferPointer) {
        precondition(tag.count == Self.tagByteCount, "a tag is 16 bytes")
        cipher.apply(nonce: nonce, counter: 1, to: text)
        authenticator(nonce: nonce, additionalData: additionalData, ciphertext: UnsafeRawBufferPointer(text)).finalize(into: tag)
    }

    /// Whether `tag` authenticates the ciphertext `text` and `additionalData`; if so, decrypts
    /// `text` in place.
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func open(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
                     tag: UnsafeRawBufferPointer) -> Bool {
        guard tag.count == Self.tagByteCount else { return false }
        var expected: (UInt64, UInt64) = (0, 0)
        let authentic = withUnsafeMutableBytes(of: &expected) { expected in
            authenticator(nonce: nonce, additionalData: additionalData, ciphertext: UnsafeRawBufferPointer(text)).finalize(into: expected)
            return ConstantTime.equals(UnsafeRawBufferPointer(expected), tag)
        }
        guard authentic else { return false }
        cipher.apply(nonce: nonce, counter: 1, to: text)
        return true
    }

    /// Poly1305 keyed by block 0, fed §2.8's MAC data.
    private func authenticator(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer) -> Poly1305 {
        // Its first 32 bytes are the one-time key (§2.6).
        let block = cipher.block(nonce: nonce, counter: 0)
        var poly = withUnsafeBytes(of: block) { Poly1305(key: $0.baseAddress!) }
        poly.updatePadded(additionalData)
        poly.updatePadded(ciphertext)
        poly.updateLengths(additionalData.count, ciphertext.count)
        return poly
    }
}
