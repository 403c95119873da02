/// The octets a connection has to send, in order, until the transport takes them; and
/// how many of the frames in it answer the peer's frames (acknowledgements, resets,
/// window updates), which is what a peer that sends without reading makes grow.
struct OutboundBuffer: Sendable {
    private var bytes: [UInt8] = []
    private var start = 0
    /// Octets taken since the connection began: positions below are absolute.
    private var taken = 0
    /// Where each pending control frame ends, oldest first (`controlEnds[controlStart...]`).
    private var controlEnds: [Int] = []
    private var controlStart = 0

    /// Octets waiting.
    var count: Int { bytes.count - start }
    var isEmpty: Bool { count == 0 }
    /// Control frames not yet taken, completely or in part.
    var pendingControlFrames: Int { controlEnds.count - controlStart }

    /// Appends a frame; `control` counts it among the answers to the peer.
    /// - Complexity: O(n), n the frame's length.
    mutating func append(_ frame: Frame, control: Bool = false) {
        frame.encode(into: &bytes)
        if control { controlEnds.append(taken + count) }
    }

    /// Appends octets that are not a frame: the client connection preface.
    /// - Complexity: O(n), n the octets.
    mutating func appendPreface(_ preface: [UInt8]) {
        bytes.append(contentsOf: preface)
    }

    /// Removes and returns up to `maxBytes` octets, oldest first.
    /// - Complexity: O(n), n the octets returned.
    mutating func take(maxBytes: Int) -> [UInt8] {
        let size = Swift.min(Swift.max(0, maxBytes), count)
        let chunk = Array(bytes[start..<(start + size)])
        start += size
        taken += size
        while controlStart < controlEnds.count && controlEnds[controlStart] <= taken { controlStart += 1 }
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65_536 && start * 2 > bytes.count {
            bytes.removeSubrange(0..<start) // a transport that takes little at a time
            start = 0
        }
        if controlStart == controlEnds.count {
            controlEnds.removeAll(keepingCapacity: true)
            controlStart = 0
        } else if controlStart > 1_024 {
            controlEnds.removeSubrange(0..<controlStart)
            controlStart = 0
        }
        return chunk
    }
}
