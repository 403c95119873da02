import Foundation
@testable import HTTP2
import Testing
import TestThreads

/// The response path's encoder: `:status` written as its static index or as a field,
/// then the fields of a `HeaderList` encoded from its octets. It must write exactly what
/// the general encoder writes for `:status` and the same fields as `HeaderField`s, block
/// after block (the dynamic table in step), and what it writes must decode, with our
/// decoder and with Python's hpack, to those fields.
@Suite("HPACK response blocks")
struct ResponseEncodingTests {
    /// APNs's answers and a few others: every static status, statuses the static table
    /// lacks (indexed into the dynamic table, then found there), fields never indexed.
    static let responses: [(status: Int, fields: [HeaderField])] = {
        var responses: [(Int, [HeaderField])] = []
        for number in 0..<6 {
            let apnsID = HeaderField("apns-id", "0f3c41b2-\(number)a7e-4c55-9b1d-2d7e0\(number)c4b9a1", indexing: .withoutIndexing)
            responses.append((200, [apnsID, HeaderField("content-length", "0")]))
            responses.append(([400, 403, 410, 413, 429, 500][number],
                              [apnsID, HeaderField("content-type", "application/json"), HeaderField("content-length", "\(30 + number)")]))
        }
        for status in [204, 206, 304, 404, 100, 103, 599, 999, 429] {
            responses.append((status, [HeaderField("x-trace", "t\(status)", indexing: .never), HeaderField("server", "pushsim")]))
        }
        responses.append((200, []))
        responses.append((200, [HeaderField("set-cookie", String(repeating: "v", count: 5_000))])) // larger than the table
        return responses
    }()

    /// The blocks of `responses` from the response path, and from the general encoder.
    static func blocks(huffman: HPACKEncoder.HuffmanPolicy) -> (fast: [[UInt8]], general: [[UInt8]]) {
        var fast = HPACKEncoder(huffman: huffman), general = HPACKEncoder(huffman: huffman)
        var list = HeaderList()
        var blocks: ([[UInt8]], [[UInt8]]) = ([], [])
        for (index, response) in responses.enumerated() {
            if index == 9 {
                // The peer shrinks its table, then grows it: both must announce it alike.
                fast.setPeerMaxTableSize(256)
                general.setPeerMaxTableSize(256)
                fast.setPeerMaxTableSize(4_096)
                general.setPeerMaxTableSize(4_096)
            }
            list.removeAll() // one list refilled, as the transport does
            for field in response.fields { list.append(field) }
            var fastBlock: [UInt8] = [0xee] // appended after what is there
            fast.encodeResponse(status: response.status, list, into: &fastBlock)
            blocks.0.append(Array(fastBlock.dropFirst()))
            blocks.1.append(general.encode([HeaderField(":status", String(response.status))] + response.fields))
        }
        return blocks
    }

    @Test("encodeResponse writes the general encoder's octets, block after block, for every Huffman policy",
          arguments: [HPACKEncoder.HuffmanPolicy.never, .always, .whenNotLonger])
    func sameOctets(huffman: HPACKEncoder.HuffmanPolicy) {
        let (fast, general) = Self.blocks(huffman: huffman)
        for index in fast.indices { #expect(fast[index] == general[index], "response \(index): \(hexString(fast[index]))") }
        // A static status is its one-octet index.
        #expect(fast[0].first == 0x88)
    }

    @Test("encodeResponse from [HeaderField] writes the same octets as from a HeaderList")
    func fromFields() {
        var fromList = HPACKEncoder(), fromFields = HPACKEncoder()
        for response in Self.responses {
            var listBlock: [UInt8] = [], fieldsBlock: [UInt8] = []
            fromList.encodeResponse(status: response.status, HeaderList(response.fields), into: &listBlock)
            fromFields.encodeResponse(status: response.status, response.fields, into: &fieldsBlock)
            #expect(listBlock == fieldsBlock)
        }
    }

    @Test("the blocks decode with our decoder to :status and the fields, with how each was sent")
    func decodes() throws {
        var decoder = HPACKDecoder()
        for (index, block) in Self.blocks(huffman: .whenNotLonger).fast.enumerated() {
            let response = Self.responses[index]
            let decoded = try decoder.decode(block)
            #expect(decoded == [HeaderField(":status", String(response.status))] + response.fields, "response \(index)")
            for (field, sent) in zip(decoded.dropFirst(), response.fields) where sent.indexing != .incremental {
                #expect(field.indexing == sent.indexing)
            }
        }
    }

    @Test("Python's hpack decodes the blocks, in order, to :status and the fields", .ownThread,
          .enabled(if: LockstepPython.h2Present || LockstepPython.required, "python3 -m pip install h2 hyperframe hpack (with CI=true its absence fails the test)"))
    func pythonDecodes() throws {
        try #require(LockstepPython.h2Present, "CI=true, but python3 cannot import hpack (pip install h2 hyperframe hpack)")
        for huffman in [HPACKEncoder.HuffmanPolicy.never, .always, .whenNotLonger] {
            let python = try LockstepPython(script: "hpack_blocks.py")
            defer { python.finish() }
            for (index, block) in Self.blocks(huffman: huffman).fast.enumerated() {
                try python.write("B", block)
                let answer = try #require(try python.read(), "hpack_blocks.py ended")
                #expect(answer.kind == UInt8(ascii: "F"), "hpack refused response \(index): \(String(decoding: answer.payload, as: UTF8.self))")
                let pairs = try #require(JSONSerialization.jsonObject(with: Data(answer.payload)) as? [[String]])
                let decoded = pairs.map { HeaderField(name: Array($0[0].unicodeScalars.map { UInt8($0.value) }),
                                                      value: Array($0[1].unicodeScalars.map { UInt8($0.value) })) }
                let response = Self.responses[index]
                #expect(decoded == [HeaderField(":status", String(response.status))] + response.fields, "response \(index)")
            }
            try python.write("E", [])
        }
    }

    @Test("a server's response from a HeaderList decodes to the same fields as one from [HeaderField]")
    func serverResponds() throws {
        var list = HeaderList()
        list.append(name: "apns-id", value: "0f3c41b2-1a7e-4c55-9b1d-2d7e01c4b9a1", indexing: .withoutIndexing)
        list.append(name: "content-length", decimal: 0)
        var viaList = ServerTestClient(), viaFields = ServerTestClient()
        try viaList.connection.respond(to: viaList.stream, status: 200, headers: list)
        try viaFields.connection.respond(to: viaFields.stream, status: 200, headers: Array(list))
        let fromList = try viaList.responseFields(), fromFields = try viaFields.responseFields()
        #expect(fromList == fromFields)
        #expect(fromList == [HeaderField(":status", "200"), HeaderField("apns-id", "0f3c41b2-1a7e-4c55-9b1d-2d7e01c4b9a1"),
                             HeaderField("content-length", "0")])
    }
}

/// A server connection with one request open on stream 1, and the response it writes.
private struct ServerTestClient {
    var connection = ServerConnection()
    let stream: StreamID = 1

    init() {
        var client = HPACKEncoder()
        let request = client.encode([HeaderField(":method", "POST"), HeaderField(":scheme", "http"),
                                     HeaderField(":path", "/3/device/ab"), HeaderField(":authority", "a")])
        var input = FrameParser.clientPreface + Frame(stream: .connection, payload: .settings(ack: false, parameters: [])).encoded
        input += Frame(stream: stream, payload: .headers(fragment: request, endStream: true, endHeaders: true, priority: nil,
                                                       padding: nil)).encoded
        _ = connection.receive(input, now: .zero)
        _ = connection.takeOutbound() // our SETTINGS, WINDOW_UPDATE, the acknowledgement
    }

    /// The fields of the response's HEADERS.
    mutating func responseFields() throws -> [HeaderField] {
        var parser = FrameParser()
        parser.append(connection.takeOutbound())
        var decoder = HPACKDecoder()
        while let frame = try parser.nextFrame() {
            if case .headers(let fragment, _, _, _, _) = frame.payload { return try decoder.decode(fragment) }
        }
        return []
    }
}
