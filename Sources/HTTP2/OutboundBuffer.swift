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

    /// Appends a HEADERS frame whose field block `writeBlock` appends, in place; a block
    /// larger than `maxFrameSize` is split into HEADERS and CONTINUATION frames (§4.3).
    /// - Complexity: O(n), n the block's octets.
    mutating func appendHeaders(stream: StreamID, endStream: Bool, maxFrameSize: Int, _ writeBlock: (inout [UInt8]) -> Void) {
        let headerStart = bytes.count
        bytes.append(contentsOf: FrameHeader.placeholder)
        writeBlock(&bytes)
        let length = bytes.count - headerStart - FrameHeader.size
        if length <= maxFrameSize {
            let flags = (endStream ? FrameFlag.endStream : 0) | FrameFlag.endHeaders
            return Frame.writeHeader(length: length, type: FrameType.headers, flags: flags, stream: stream, at: headerStart, in: &bytes)
        }
        // Rare (a block over 16 KiB at the smallest frame size): the block is moved into frames.
        let block = Array(bytes[(headerStart + FrameHeader.size)...])
        bytes.removeSubrange(headerStart...)
        var offset = maxFrameSize
        append(Frame(stream: stream, payload: .headers(fragment: Array(block[0..<offset]), endStream: endStream, endHeaders: false,
                                                       priority: nil, padding: nil)))
        while offset < block.count {
            let end = Swift.min(offset + maxFrameSize, block.count)
            append(Frame(stream: stream, payload: .continuation(fragment: Array(block[offset..<end]), endHeaders: end == block.count)))
            offset = end
        }
    }

    /// Appends a DATA frame carrying `data`, without padding.
    /// - Complexity: O(n), n the octets.
    mutating func appendData(_ data: ArraySlice<UInt8>, stream: StreamID, endStream: Bool) {
        let headerStart = bytes.count
        bytes.append(contentsOf: FrameHeader.placeholder)
        bytes.append(contentsOf: data)
        Frame.writeHeader(length: data.count, type: FrameType.data, flags: endStream ? FrameFlag.endStream : 0, stream: stream,
                          at: headerStart, in: &bytes)
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
