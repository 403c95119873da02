@testable import HTTP2
import Testing

/// Frames as values and octets (RFC 9113 §4, §6): every type round-trips, the parser takes
/// any chunking, and what a frame's own octets can get wrong is refused with the RFC's code.
@Suite("HTTP/2 frames")
struct FrameTests {
    static let samples: [Frame] = [
        Frame(stream: 1, payload: .data(bytes: Array("hello".utf8), endStream: true, padding: nil)),
        Frame(stream: 3, payload: .data(bytes: [1, 2, 3], endStream: false, padding: 7)),
        Frame(stream: 5, payload: .data(bytes: [], endStream: true, padding: 0)),
        Frame(stream: 1, payload: .headers(fragment: [0x82, 0x86], endStream: true, endHeaders: true, priority: nil, padding: nil)),
        Frame(stream: 7, payload: .headers(fragment: [0x82], endStream: false, endHeaders: false,
                                           priority: Priority(exclusive: true, dependency: 3, weight: 200), padding: 4)),
        Frame(stream: 9, payload: .priority(Priority(exclusive: false, dependency: 0, weight: 15))),
        Frame(stream: 1, payload: .rstStream(.cancel)),
        Frame(stream: 1, payload: .rstStream(ErrorCode(rawValue: 0xdead))),
        Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.maxConcurrentStreams, 100), Setting(SettingID(rawValue: 0x99), 7)])),
        Frame(stream: 0, payload: .settings(ack: true, parameters: [])),
        Frame(stream: 1, payload: .pushPromise(promised: 2, fragment: [0x82], endHeaders: true, padding: 2)),
        Frame(stream: 0, payload: .ping(ack: false, data: 0x0102_0304_0506_0708)),
        Frame(stream: 0, payload: .ping(ack: true, data: .max)),
        Frame(stream: 0, payload: .goAway(lastStream: 41, code: .enhanceYourCalm, debug: Array("calm".utf8))),
        Frame(stream: 0, payload: .windowUpdate(increment: 0x7fff_ffff)),
        Frame(stream: 3, payload: .windowUpdate(increment: 1)),
        Frame(stream: 1, payload: .continuation(fragment: [0x84], endHeaders: true)),
        Frame(stream: 1, payload: .unknown(type: 0xfa, flags: 0xff, payload: [9, 9])),
    ]

    static func parseAll(_ bytes: [UInt8], maxFrameSize: Int = 16_384) throws -> [Frame] {
        var parser = FrameParser(maxFrameSize: maxFrameSize)
        parser.append(bytes)
        var frames: [Frame] = []
        while let frame = try parser.nextFrame() { frames.append(frame) }
        #expect(parser.bufferedByteCount == 0)
        return frames
    }

    static func parseError(_ bytes: [UInt8]) -> ProtocolError? {
        do {
            _ = try parseAll(bytes)
            return nil
        } catch let error as ProtocolError {
            return error
        } catch {
            return nil
        }
    }

    @Test("every frame type serialises and parses back to the same value (RFC 9113 §6)", arguments: samples)
    func roundTrip(_ frame: Frame) throws {
        #expect(try Self.parseAll(frame.encoded) == [frame])
    }

    @Test("the frame header is 24-bit length, type, flags, reserved bit and 31-bit stream (RFC 9113 §4.1)")
    func headerLayout() {
        let bytes = Frame(stream: 0x0102_0304, payload: .data(bytes: [0xaa], endStream: true, padding: nil)).encoded
        #expect(bytes == [0, 0, 1, 0x0, 0x1, 0x01, 0x02, 0x03, 0x04, 0xaa])
        #expect(Frame(stream: 0, payload: .ping(ack: true, data: 1)).encoded == hex("000008 06 01 00000000 0000000000000001"))
    }

    @Test("a parser fed one octet at a time yields the same frames as one fed everything at once (RFC 9113 §4.1)")
    func incremental() throws {
        var all: [UInt8] = []
        for frame in Self.samples { frame.encode(into: &all) }
        var parser = FrameParser(maxFrameSize: 16_384)
        var frames: [Frame] = []
        for byte in all {
            parser.append([byte])
            while let frame = try parser.nextFrame() { frames.append(frame) }
        }
        #expect(frames == Self.samples)
        // And in chunks that straddle frame boundaries.
        var chunked = FrameParser(maxFrameSize: 16_384)
        frames = []
        var offset = 0
        var size = 1
        while offset < all.count {
            let end = min(all.count, offset + size)
            chunked.append(Array(all[offset..<end]))
            while let frame = try chunked.nextFrame() { frames.append(frame) }
            offset = end
            size = size * 3 % 17 + 1
        }
        #expect(frames == Self.samples)
    }

    @Test("the reserved bit of the stream identifier and undefined flags are ignored (RFC 9113 §4.1)")
    func reservedBitsIgnored() throws {
        let bytes = rawFrame(type: 0x0, flags: 0x1 | 0x2 | 0x4 | 0x20 | 0x40, stream: 0x8000_0003, payload: [7])
        #expect(try Self.parseAll(bytes) == [Frame(stream: 3, payload: .data(bytes: [7], endStream: true, padding: nil))])
        let update = rawFrame(type: 0x8, stream: 0, payload: [0x80, 0, 0, 5])
        #expect(try Self.parseAll(update) == [Frame(stream: 0, payload: .windowUpdate(increment: 5))])
    }

    @Test("a frame above SETTINGS_MAX_FRAME_SIZE is refused from its header, before the payload arrives (RFC 9113 §4.2)")
    func frameSizeLimit() throws {
        var parser = FrameParser(maxFrameSize: 16_384)
        parser.append([0x00, 0x40, 0x01, 0x0, 0x0, 0, 0, 0, 1]) // a DATA header announcing 16 385 octets
        #expect(throws: ProtocolError.connection(.frameSizeError, "a frame of 16385 octets, above SETTINGS_MAX_FRAME_SIZE 16384")) {
            _ = try parser.nextFrame()
        }
        // 2^14 octets exactly is accepted; larger limits accept larger frames.
        let full = Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 1, count: 16_384), endStream: false, padding: nil))
        #expect(try Self.parseAll(full.encoded).count == 1)
        let large = Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 1, count: 70_000), endStream: false, padding: nil))
        #expect(try Self.parseAll(large.encoded, maxFrameSize: 1 << 20).count == 1)
    }

    @Test("padding that fills the payload is PROTOCOL_ERROR; a padded frame without its pad length is FRAME_SIZE_ERROR (RFC 9113 §6.1, §6.2)")
    func invalidPadding() {
        #expect(Self.parseError(rawFrame(type: 0x0, flags: 0x8, stream: 1, payload: [3, 0, 0]))?.code == .protocolError)
        #expect(Self.parseError(rawFrame(type: 0x1, flags: 0x8 | 0x4, stream: 1, payload: [6, 0x82, 0, 0, 0, 0]))?.code == .protocolError)
        #expect(Self.parseError(rawFrame(type: 0x0, flags: 0x8, stream: 1, payload: []))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x5, flags: 0x8, stream: 1, payload: [9, 0, 0, 0, 2]))?.code == .protocolError)
        // Padding of length-1 octets, with no content, is valid.
        #expect(Self.parseError(rawFrame(type: 0x0, flags: 0x8, stream: 1, payload: [2, 0, 0])) == nil)
    }

    @Test("frames that need a stream refuse stream 0, and connection frames refuse a stream (RFC 9113 §6)")
    func streamZeroRules() {
        for type: UInt8 in [0x0, 0x1, 0x2, 0x3, 0x5, 0x9] {
            let payload: [UInt8] = type == 0x2 ? [0, 0, 0, 1, 0] : type == 0x3 || type == 0x5 ? [0, 0, 0, 0] : []
            let error = Self.parseError(rawFrame(type: type, stream: 0, payload: payload))
            #expect(error?.code == .protocolError && error?.stream == nil, "type \(type)")
        }
        for (type, payload) in [(UInt8(0x4), [UInt8]()), (0x6, [UInt8](repeating: 0, count: 8)), (0x7, [UInt8](repeating: 0, count: 8))] {
            let error = Self.parseError(rawFrame(type: type, stream: 1, payload: payload))
            #expect(error?.code == .protocolError && error?.stream == nil, "type \(type)")
        }
    }

    @Test("fixed-length frames of another length are FRAME_SIZE_ERROR; PRIORITY's is a stream error (RFC 9113 §6.3–§6.9)")
    func fixedLengths() {
        let priority = Self.parseError(rawFrame(type: 0x2, stream: 3, payload: [0, 0, 0, 1]))
        #expect(priority == .stream(3, .frameSizeError, "PRIORITY of 4 octets, not 5"))
        #expect(Self.parseError(rawFrame(type: 0x3, stream: 1, payload: [0, 0, 0]))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x4, stream: 0, payload: [0, 3, 0, 0, 0]))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x4, flags: 0x1, stream: 0, payload: [0, 3, 0, 0, 0, 1]))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x6, stream: 0, payload: [UInt8](repeating: 0, count: 7)))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x7, stream: 0, payload: [UInt8](repeating: 0, count: 7)))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x8, stream: 0, payload: [0, 0, 1]))?.code == .frameSizeError)
        #expect(Self.parseError(rawFrame(type: 0x1, flags: 0x20 | 0x4, stream: 1, payload: [0, 0, 0]))?.code == .frameSizeError)
    }

    @Test("after a stream error the parser goes on with the next frame")
    func continuesAfterStreamError() throws {
        var parser = FrameParser()
        parser.append(rawFrame(type: 0x2, stream: 3, payload: [0]) + Frame(stream: 0, payload: .ping(ack: false, data: 9)).encoded)
        #expect(throws: ProtocolError.self) { _ = try parser.nextFrame() }
        #expect(try parser.nextFrame() == Frame(stream: 0, payload: .ping(ack: false, data: 9)))
    }

    @Test("the client preface is matched octet by octet; anything else is PROTOCOL_ERROR at once (RFC 9113 §3.4)")
    func preface() throws {
        var parser = FrameParser(expectingClientPreface: true)
        for byte in FrameParser.clientPreface.prefix(10) {
            parser.append([byte])
            #expect(try parser.nextFrame() == nil)
        }
        parser.append(Array(FrameParser.clientPreface.dropFirst(10)) + Frame(stream: 0, payload: .settings(ack: false, parameters: [])).encoded)
        #expect(try parser.nextFrame() == Frame(stream: 0, payload: .settings(ack: false, parameters: [])))
        var http1 = FrameParser(expectingClientPreface: true)
        http1.append(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: ProtocolError.self) { _ = try http1.nextFrame() }
        var late = FrameParser(expectingClientPreface: true)
        late.append(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r!".utf8))
        #expect(throws: ProtocolError.self) { _ = try late.nextFrame() }
    }

    @Test("DATA counts its padding and pad length against flow control (RFC 9113 §6.1, §6.9)")
    func flowControlledLength() {
        #expect(Frame(stream: 1, payload: .data(bytes: [1, 2], endStream: false, padding: 5)).flowControlledLength == 8)
        #expect(Frame(stream: 1, payload: .data(bytes: [1, 2], endStream: false, padding: nil)).flowControlledLength == 2)
        #expect(Frame(stream: 1, payload: .headers(fragment: [1], endStream: false, endHeaders: true, priority: nil, padding: 3)).flowControlledLength == 0)
    }

    @Test("a long connection does not keep the octets it has parsed")
    func compacts() throws {
        var parser = FrameParser()
        let ping = Frame(stream: 0, payload: .ping(ack: false, data: 1)).encoded
        for _ in 0..<10_000 {
            parser.append(ping + Array(ping.prefix(5)))
            _ = try parser.nextFrame()
            parser.append(Array(ping.dropFirst(5)))
            _ = try parser.nextFrame()
        }
        #expect(parser.bufferedByteCount == 0)
    }
}

/// The RFC's names for the codes and settings, as logs show them.
@Suite("HTTP/2 codes")
struct CodeTests {
    @Test("error codes print as RFC 9113 §7 names them, unknown ones in hex")
    func errorNames() {
        #expect(ErrorCode.enhanceYourCalm.description == "ENHANCE_YOUR_CALM")
        #expect(ErrorCode.http11Required.description == "HTTP_1_1_REQUIRED")
        #expect(ErrorCode(rawValue: 0xff).description == "0xff")
    }

    @Test("SETTINGS values RFC 9113 §6.5.2 forbids are refused, unknown identifiers ignored")
    func settingsValidation() throws {
        var settings = Settings()
        #expect(throws: ProtocolError.self) { try settings.apply(Setting(.enablePush, 2)) }
        #expect(throws: ProtocolError.connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of 2147483648, above 2^31-1")) {
            try settings.apply(Setting(.initialWindowSize, 0x8000_0000))
        }
        #expect(throws: ProtocolError.self) { try settings.apply(Setting(.maxFrameSize, 16_383)) }
        #expect(throws: ProtocolError.self) { try settings.apply(Setting(.maxFrameSize, 1 << 24)) }
        try settings.apply(Setting(.maxFrameSize, (1 << 24) - 1))
        try settings.apply(Setting(SettingID(rawValue: 0xabcd), 12))
        try settings.apply(Setting(.initialWindowSize, 0x7fff_ffff))
        #expect(settings.maxFrameSize == (1 << 24) - 1 && settings.initialWindowSize == 0x7fff_ffff)
        #expect(Settings().parameters.isEmpty)
    }
}
