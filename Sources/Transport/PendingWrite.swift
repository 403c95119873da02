/// Octets taken from a session and not yet accepted by the socket, written as the socket
/// takes them and refilled from the session as they run out: the write loop both server
/// and outgoing connections use.
struct PendingWrite {
    private var bytes: [UInt8] = []
    private var offset = 0

    /// How a drain ended.
    enum Drained {
        /// Everything was written and `refill` had no more.
        case empty
        /// The socket is full: wait for POLLOUT.
        case blocked
        /// The write failed: the peer is gone.
        case failed
    }

    /// Octets waiting.
    var count: Int { bytes.count - offset }

    /// Writes until the socket is full, refilling from `refill` (an empty answer: nothing
    /// more); `wrote` is told of every write that moved octets.
    /// - Complexity: O(n), n the octets written.
    mutating func drain(into descriptor: Int32, wrote: () -> Void, refill: () -> [UInt8]) -> Drained {
        while true {
            if offset == bytes.count {
                bytes = refill()
                offset = 0
                if bytes.isEmpty { return .empty }
            }
            switch bytes[offset...].withUnsafeBytes({ Socket.write(descriptor, $0) }) {
            case .wrote(let count):
                offset += count
                wrote()
            case .wouldBlock:
                return .blocked
            case .failed:
                return .failed
            }
        }
    }
}
