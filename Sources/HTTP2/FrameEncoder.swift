/// Serialises frame values (RFC 9113 §4.1, §6). It writes what the value says and checks
/// nothing a peer could have chosen: the connection only builds valid frames, and tests
/// build broken ones byte by byte.
extension Frame {
    /// The frame's octets.
    /// - Complexity: O(n), n the payload length.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Appends the frame's octets to `bytes`.
    /// - Precondition: the payload fits the 24-bit length field (the caller splits larger ones).
    /// - Complexity: O(n), n the payload length.
    public func encode(into bytes: inout [UInt8]) {
        let headerStart = bytes.count
        // The header is written with a zero length, patched once the payload is appended:
        // no temporary array per frame.
        bytes.append(contentsOf: FrameHeader.placeholder)
        let type: UInt8
        var flags: UInt8 = 0
        switch payload {
        case .data(let data, let endStream, let padding):
            type = FrameType.data
            if endStream { flags |= FrameFlag.endStream }
            Self.padded(padding, flags: &flags, into: &bytes) { $0.append(contentsOf: data) }
        case .headers(let fragment, let endStream, let endHeaders, let priority, let padding):
            type = FrameType.headers
            if endStream { flags |= FrameFlag.endStream }
            if endHeaders { flags |= FrameFlag.endHeaders }
            if priority != nil { flags |= FrameFlag.priority }
            Self.padded(padding, flags: &flags, into: &bytes) { bytes in
                if let priority { Self.append(priority, to: &bytes) }
                bytes.append(contentsOf: fragment)
            }
        case .priority(let priority):
            type = FrameType.priority
            Self.append(priority, to: &bytes)
        case .rstStream(let code):
            type = FrameType.rstStream
            Self.append(code.rawValue, to: &bytes)
        case .settings(let ack, let parameters):
            type = FrameType.settings
            if ack { flags |= FrameFlag.ack }
            for parameter in parameters {
                bytes.append(UInt8(parameter.id.rawValue >> 8))
                bytes.append(UInt8(truncatingIfNeeded: parameter.id.rawValue))
                Self.append(parameter.value, to: &bytes)
            }
        case .pushPromise(let promised, let fragment, let endHeaders, let padding):
            type = FrameType.pushPromise
            if endHeaders { flags |= FrameFlag.endHeaders }
            Self.padded(padding, flags: &flags, into: &bytes) { bytes in
                Self.append(promised.rawValue, to: &bytes)
                bytes.append(contentsOf: fragment)
            }
        case .ping(let ack, let data):
            type = FrameType.ping
            if ack { flags |= FrameFlag.ack }
            Self.append(UInt32(truncatingIfNeeded: data >> 32), to: &bytes)
            Self.append(UInt32(truncatingIfNeeded: data), to: &bytes)
        case .goAway(let lastStream, let code, let debug):
            type = FrameType.goAway
            Self.append(lastStream.rawValue, to: &bytes)
            Self.append(code.rawValue, to: &bytes)
            bytes.append(contentsOf: debug)
        case .windowUpdate(let increment):
            type = FrameType.windowUpdate
            Self.append(increment & 0x7fff_ffff, to: &bytes)
        case .continuation(let fragment, let endHeaders):
            type = FrameType.continuation
            if endHeaders { flags |= FrameFlag.endHeaders }
            bytes.append(contentsOf: fragment)
        case .unknown(let unknownType, let unknownFlags, let data):
            type = unknownType
            flags = unknownFlags
            bytes.append(contentsOf: data)
        }
        let length = bytes.count - headerStart - FrameHeader.size
        Self.writeHeader(length: length, type: type, flags: flags, stream: stream, at: headerStart, in: &bytes)
    }

    /// Writes a frame header over the nine octets at `headerStart` (written as zeros
    /// before the payload, whose length is known once it is appended).
    /// - Precondition: the payload fits the 24-bit length field.
    /// - Complexity: O(1).
    static func writeHeader(length: Int, type: UInt8, flags: UInt8, stream: StreamID, at headerStart: Int, in bytes: inout [UInt8]) {
        precondition(length <= 0xff_ffff, "a frame payload of \(length) octets does not fit the length field")
        let stream = stream.rawValue
        bytes.withUnsafeMutableBufferPointer { out in
            out[headerStart] = UInt8(truncatingIfNeeded: length >> 16)
            out[headerStart + 1] = UInt8(truncatingIfNeeded: length >> 8)
            out[headerStart + 2] = UInt8(truncatingIfNeeded: length)
            out[headerStart + 3] = type
            out[headerStart + 4] = flags
            out[headerStart + 5] = UInt8(truncatingIfNeeded: stream >> 24)
            out[headerStart + 6] = UInt8(truncatingIfNeeded: stream >> 16)
            out[headerStart + 7] = UInt8(truncatingIfNeeded: stream >> 8)
            out[headerStart + 8] = UInt8(truncatingIfNeeded: stream)
        }
    }

    /// Writes the pad length, the content, then that many zero octets (RFC 9113 §6.1:
    /// "Padding octets MUST be set to zero when sending").
    private static func padded(_ padding: UInt8?, flags: inout UInt8, into bytes: inout [UInt8],
                               content: (inout [UInt8]) -> Void) {
        guard let padding else { return content(&bytes) }
        flags |= FrameFlag.padded
        bytes.append(padding)
        content(&bytes)
        bytes.append(contentsOf: repeatElement(0, count: Int(padding)))
    }

    private static func append(_ priority: Priority, to bytes: inout [UInt8]) {
        append(priority.dependency.rawValue | (priority.exclusive ? 0x8000_0000 : 0), to: &bytes)
        bytes.append(priority.weight)
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
}
