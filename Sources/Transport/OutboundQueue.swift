/// Octets an HTTP/1.1 session has written and the socket has not yet taken, oldest first.
struct OutboundQueue {
    /// Written octets; those before `start` are taken. Writers append to it directly.
    var bytes: [UInt8] = []
    private var start = 0

    /// Octets waiting.
    var count: Int { bytes.count - start }

    /// Removes and returns up to `maxBytes` octets, oldest first.
    /// - Complexity: O(n), n the octets returned.
    mutating func take(maxBytes: Int) -> [UInt8] {
        let size = Swift.min(maxBytes, count)
        let chunk = Array(bytes[start..<(start + size)])
        start += size
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16) // a large answer's capacity is not kept
            start = 0
        }
        return chunk
    }
}
