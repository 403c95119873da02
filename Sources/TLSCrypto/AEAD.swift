/// An authenticated cipher as TLS 1.3 protects records with it (RFC 5116's interface, RFC 8446
/// §5.2): a 12-byte nonce, additional data authenticated but not encrypted (the record header),
/// the text encrypted in place, and a 16-byte tag. `ChaCha20Poly1305` and `AES128GCM`.
///
/// The core works on caller-owned memory and allocates nothing: a record is sealed where it will
/// be sent from and opened where it was read into. The conveniences on arrays below are for tests
/// and one-off use. Opening checks the tag (in constant time) before decrypting anything: on a
/// wrong tag the text is left as it came, and nothing of the would-be plaintext is computed.
///
/// TLSCrypto is for PushSim's TLS test server on loopback (docs/tls.md): written to the published
/// guidance, constant time where secrets are handled, but not reviewed as production cryptography.
public protocol AEAD: Sendable {
    /// The key's length in bytes.
    static var keyByteCount: Int { get }

    /// The cipher under `key`; nil unless it is `keyByteCount` bytes.
    init?(key: [UInt8])

    /// Encrypts `text` in place and writes the tag over `tag` (16 bytes), authenticating
    /// `additionalData` too. The three must not overlap.
    func seal(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
              tag: UnsafeMutableRawBufferPointer)

    /// Whether `tag` (16 bytes) authenticates `additionalData` and the ciphertext `text`; if so,
    /// `text` is decrypted in place, else it is left untouched.
    func open(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
              tag: UnsafeRawBufferPointer) -> Bool
}

extension AEAD {
    /// The tag's length in bytes, for both ciphers.
    public static var tagByteCount: Int { 16 }

    /// Seals `buffer[text]` in place, authenticating `buffer[additionalData]` too, and writes the
    /// tag into the 16 bytes after the text: a TLS record built in its send buffer (header,
    /// inner plaintext, room for the tag) sealed where it lies. The additional data must not
    /// overlap the text or the tag; all of it must lie in the buffer.
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func seal(nonce: AEADNonce, in buffer: inout [UInt8], additionalData: Range<Int>, text: Range<Int>) {
        precondition(additionalData.upperBound <= text.lowerBound || text.upperBound + Self.tagByteCount <= additionalData.lowerBound,
                     "the additional data overlaps the text or its tag")
        precondition(additionalData.lowerBound >= 0 && text.lowerBound >= 0 && additionalData.upperBound <= buffer.count
                     && text.upperBound + Self.tagByteCount <= buffer.count, "a range beyond the buffer")
        buffer.withUnsafeMutableBytes { bytes in
            seal(nonce: nonce, additionalData: UnsafeRawBufferPointer(rebasing: bytes[additionalData]),
                 text: UnsafeMutableRawBufferPointer(rebasing: bytes[text]),
                 tag: UnsafeMutableRawBufferPointer(rebasing: bytes[text.upperBound..<(text.upperBound + Self.tagByteCount)]))
        }
    }

    /// Opens `buffer[text]` in place against the tag in the 16 bytes after it, authenticating
    /// `buffer[additionalData]` too: a received TLS record opened where it was read. False (the
    /// text untouched) when the tag does not match.
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func open(nonce: AEADNonce, in buffer: inout [UInt8], additionalData: Range<Int>, text: Range<Int>) -> Bool {
        precondition(additionalData.upperBound <= text.lowerBound || text.upperBound + Self.tagByteCount <= additionalData.lowerBound,
                     "the additional data overlaps the text or its tag")
        precondition(additionalData.lowerBound >= 0 && text.lowerBound >= 0 && additionalData.upperBound <= buffer.count
                     && text.upperBound + Self.tagByteCount <= buffer.count, "a range beyond the buffer")
        return buffer.withUnsafeMutableBytes { bytes in
            self.open(nonce: nonce, additionalData: UnsafeRawBufferPointer(rebasing: bytes[additionalData]),
                 text: UnsafeMutableRawBufferPointer(rebasing: bytes[text]),
                 tag: UnsafeRawBufferPointer(rebasing: bytes[text.upperBound..<(text.upperBound + Self.tagByteCount)]))
        }
    }

    /// The ciphertext of `plaintext` followed by its 16-byte tag.
    /// - Complexity: O(n) in the text and additional data; one allocation, the result.
    public func seal(nonce: AEADNonce, additionalData: [UInt8], plaintext: [UInt8]) -> [UInt8] {
        var sealed = plaintext + [UInt8](repeating: 0, count: Self.tagByteCount)
        sealed.withUnsafeMutableBytes { bytes in
            additionalData.withUnsafeBytes { additionalData in
                seal(nonce: nonce, additionalData: additionalData, text: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<plaintext.count]),
                     tag: UnsafeMutableRawBufferPointer(rebasing: bytes[plaintext.count...]))
            }
        }
        return sealed
    }

    /// The plaintext of `sealed` (ciphertext then its 16-byte tag); nil when shorter than a tag
    /// or when the tag does not authenticate it.
    /// - Complexity: O(n) in the text and additional data; one allocation, the result.
    public func open(nonce: AEADNonce, additionalData: [UInt8], sealed: [UInt8]) -> [UInt8]? {
        guard sealed.count >= Self.tagByteCount else { return nil }
        let textCount = sealed.count - Self.tagByteCount
        var text = Array(sealed[0..<textCount])
        let opened = text.withUnsafeMutableBytes { text in
            additionalData.withUnsafeBytes { additionalData in
                sealed.withUnsafeBytes { sealed in
                    self.open(nonce: nonce, additionalData: additionalData, text: text, tag: UnsafeRawBufferPointer(rebasing: sealed[textCount...]))
                }
            }
        }
        return opened ? text : nil
    }
}

/// A 12-byte AEAD nonce, kept as two big-endian integers so that TLS's per-record nonce (the IV
/// XOR the 64-bit record sequence number, left-padded with zeros: RFC 8446 §5.3) is one XOR and
/// no allocation.
public struct AEADNonce: Sendable, Equatable {
    /// The nonce's length in bytes.
    public static let byteCount = 12

    /// Bytes 0..<4, big-endian.
    var prefix: UInt32
    /// Bytes 4..<12, big-endian.
    var suffix: UInt64

    /// The nonce of 12 bytes; nil for another count.
    /// - Complexity: O(1).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        prefix = bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
        suffix = bytes[4..<12].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 12 bytes.
    /// - Complexity: O(1).
    public var bytes: [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: prefix >> (24 - 8 * UInt32($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: suffix >> (56 - 8 * UInt64($0))) }
    }

    /// This nonce (a record IV) XOR `sequenceNumber` as 8 big-endian bytes at its end: the
    /// nonce of the record with that sequence number.
    /// - Complexity: O(1).
    public func xoring(sequenceNumber: UInt64) -> AEADNonce {
        var nonce = self
        nonce.suffix ^= sequenceNumber
        return nonce
    }

    /// Byte `index` (0..<12).
    @inline(__always)
    func byte(_ index: Int) -> UInt8 {
        index < 4 ? UInt8(truncatingIfNeeded: prefix >> (24 - 8 * UInt32(index)))
            : UInt8(truncatingIfNeeded: suffix >> (56 - 8 * UInt64(index - 4)))
    }
}
