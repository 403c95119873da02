import TLSCrypto

/// One direction's record protection (RFC 8446 §5.2–§5.3): the AEAD under a traffic key,
/// the IV, and the sequence number that makes each record's nonce; a new key (handshake,
/// application, KeyUpdate) is a new value, its sequence number zero. `package`: the fuzz
/// target seals an honest client's records with it.
package struct RecordProtection {
    private let cipher: any AEAD
    private let iv: AEADNonce
    /// The traffic secret the key came from: KeyUpdate derives the next one from it.
    package let secret: [UInt8]
    package let suite: CipherSuite
    package var sequenceNumber: UInt64 = 0

    /// - Complexity: O(1): HKDF-Expand-Label twice and the cipher's key setup.
    package init(suite: CipherSuite, secret: [UInt8]) {
        self.suite = suite
        self.secret = secret
        switch suite {
        case .aes128GCMSHA256:
            let keys = TrafficKeys(secret: secret, keyByteCount: AES128GCM.keyByteCount)
            cipher = AES128GCM(key: keys.key)!
            iv = keys.iv
        case .chacha20Poly1305SHA256:
            let keys = TrafficKeys(secret: secret, keyByteCount: ChaCha20Poly1305.keyByteCount)
            cipher = ChaCha20Poly1305(key: keys.key)!
            iv = keys.iv
        }
    }

    /// The protection under the next secret (KeyUpdate, §7.2).
    package func next() -> RecordProtection {
        RecordProtection(suite: suite, secret: KeySchedule.nextApplicationTrafficSecret(secret))
    }

    /// A whole protected record of `content` with inner type `type`, no padding.
    /// - Complexity: O(n); one allocation.
    package mutating func seal(_ type: ContentType, _ content: ArraySlice<UInt8>) -> [UInt8] {
        let length = content.count + 1 + 16
        var record = recordHeader(.applicationData, length: length)
        record.reserveCapacity(TLSLimits.recordHeaderBytes + length)
        record.append(contentsOf: content)
        record.append(type.rawValue)
        record.append(contentsOf: [UInt8](repeating: 0, count: 16))
        sealInPlace(&record)
        return record
    }

    /// Seals a record laid out as its header, its inner plaintext and 16 bytes for the tag.
    /// - Complexity: O(n), no allocation.
    mutating func sealInPlace(_ record: inout [UInt8]) {
        let text = TLSLimits.recordHeaderBytes..<(record.count - 16)
        cipher.seal(nonce: iv.xoring(sequenceNumber: sequenceNumber), in: &record, additionalData: 0..<TLSLimits.recordHeaderBytes,
                    text: text)
        sequenceNumber += 1
    }

    /// The inner content type and content of a protected record, padding removed (§5.4);
    /// nil when it does not open (the sequence number stays, as nothing was received).
    /// - Complexity: O(n).
    package mutating func open(_ record: Record) throws(TLSFailure) -> (ContentType, [UInt8])? {
        guard record.fragment.count >= 16 + 1 else { return nil }
        var buffer = record.header + record.fragment
        let text = TLSLimits.recordHeaderBytes..<(buffer.count - 16)
        guard cipher.open(nonce: iv.xoring(sequenceNumber: sequenceNumber), in: &buffer, additionalData: 0..<TLSLimits.recordHeaderBytes,
                          text: text) else { return nil }
        sequenceNumber += 1
        // The content type is the last byte that is not zero.
        var end = text.upperBound
        while end > text.lowerBound && buffer[end - 1] == 0 { end -= 1 }
        guard end > text.lowerBound else { throw .noContentType }
        guard end - 1 - text.lowerBound <= TLSLimits.maxPlaintextBytes else { throw .plaintextTooLong }
        guard let type = ContentType(rawValue: buffer[end - 1]) else { throw .unknownContentType }
        return (type, Array(buffer[text.lowerBound..<(end - 1)]))
    }
}
