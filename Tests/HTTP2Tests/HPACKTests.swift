@testable import HTTP2
import Testing

/// HPACK (RFC 7541): the primitive codecs, the tables, the Appendix C examples byte for
/// byte in both directions, and the decoder's refusals.
@Suite("HPACK")
struct HPACKTests {
    static func fields(_ pairs: [(String, String)]) -> [HeaderField] { pairs.map { HeaderField($0.0, $0.1) } }

    static func entries(_ table: DynamicTable) -> [HeaderField] { (0..<table.count).map { table[$0] } }

    // MARK: Integers and strings (§5)

    @Test("integers with an N-bit prefix: the C.1 examples and the largest value (RFC 7541 §5.1, C.1)")
    func integers() throws {
        var bytes: [UInt8] = []
        HPACKInteger.encode(10, prefix: 5, flags: 0, into: &bytes)
        #expect(bytes == [0b01010]) // C.1.1
        bytes = []
        HPACKInteger.encode(1337, prefix: 5, flags: 0, into: &bytes)
        #expect(bytes == [0b11111, 0b1001_1010, 0b0000_1010]) // C.1.2
        bytes = []
        HPACKInteger.encode(42, prefix: 8, flags: 0, into: &bytes)
        #expect(bytes == [42]) // C.1.3
        for value in [0, 30, 31, 127, 128, 255, 16_384, Int(UInt32.max)] {
            for prefix in 1...8 {
                var encoded: [UInt8] = []
                HPACKInteger.encode(value, prefix: prefix, flags: 0, into: &encoded)
                var index = 0
                let decoded = try encoded.withUnsafeBufferPointer { buffer in try HPACKInteger.decode(buffer, at: &index, prefix: prefix) }
                #expect(decoded == value && index == encoded.count, "\(value) with \(prefix) bits")
            }
        }
    }

    @Test("an integer beyond 2^32-1, with needless continuation octets, or cut short is refused (RFC 7541 §5.1)")
    func integerRefusals() {
        func decode(_ bytes: [UInt8], prefix: Int) -> Result<Int, HPACKError> {
            var index = 0
            return bytes.withUnsafeBufferPointer { buffer in Result { () throws(HPACKError) in try HPACKInteger.decode(buffer, at: &index, prefix: prefix) } }
        }
        #expect(decode([0x1f, 0xff, 0xff, 0xff, 0xff, 0x0f], prefix: 5) == .failure(.integerOverflow))
        #expect(decode([0x1f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], prefix: 5) == .failure(.integerOverflow))
        #expect(decode([0x1f, 0x80], prefix: 5) == .failure(.truncated))
        #expect(decode([], prefix: 5) == .failure(.truncated))
    }

    // MARK: Huffman (§5.2, Appendix B)

    @Test("Appendix B is a canonical code: each row follows from the lengths, with EOS all ones (RFC 7541 Appendix B)")
    func huffmanTableIsCanonical() {
        let rows = HuffmanCode.rows
        #expect(rows.count == 257)
        let order = (0..<257).sorted { (rows[$0].length, $0) < (rows[$1].length, $1) }
        var code: UInt32 = 0
        var length = rows[order[0]].length
        for (position, symbol) in order.enumerated() {
            if position > 0 {
                code = (code + 1) << UInt32(rows[symbol].length - length)
                length = rows[symbol].length
            }
            #expect(rows[symbol].code == code, "symbol \(symbol)")
        }
        #expect(rows[256] == (0x3fff_ffff, 30))
        // A few rows read straight from the appendix.
        #expect(rows[Int(UInt8(ascii: "0"))] == (0x0, 5) && rows[Int(UInt8(ascii: "a"))] == (0x3, 5))
        #expect(rows[Int(UInt8(ascii: "%"))] == (0x15, 6) && rows[0] == (0x1ff8, 13) && rows[255] == (0x3ff_ffee, 26))
    }

    @Test("Huffman-coded strings of Appendix C, both ways (RFC 7541 §5.2, C.4, C.6)")
    func huffmanExamples() throws {
        let examples = [("www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"), ("no-cache", "a8eb 1064 9cbf"),
                        ("custom-key", "25a8 49e9 5ba9 7d7f"), ("custom-value", "25a8 49e9 5bb8 e8b4 bf"),
                        ("302", "6402"), ("private", "aec3 771a 4b"), ("307", "640e ff"),
                        ("Mon, 21 Oct 2013 20:13:21 GMT", "d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff"),
                        ("https://www.example.com", "9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3")]
        for (text, code) in examples {
            var encoded: [UInt8] = []
            Huffman.encode(Array(text.utf8), into: &encoded)
            #expect(encoded == hex(code), "\(text): \(hexString(encoded))")
            #expect(Huffman.encodedLength(Array(text.utf8)) == encoded.count)
            #expect(try Huffman.decode(hex(code)) == Array(text.utf8))
        }
    }

    @Test("every octet value round-trips through the Huffman code")
    func huffmanAllOctets() throws {
        var all = (0...255).map(UInt8.init)
        all += all.reversed()
        var encoded: [UInt8] = []
        Huffman.encode(all, into: &encoded)
        #expect(try Huffman.decode(encoded) == all)
        for length in 0..<12 {
            let sample = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            var bytes: [UInt8] = []
            Huffman.encode(sample, into: &bytes)
            #expect(try Huffman.decode(bytes) == sample)
        }
    }

    @Test("EOS in the data, padding of 8 bits or more, or padding not all ones is a decoding error (RFC 7541 §5.2)")
    func huffmanRefusals() throws {
        // EOS (30 ones) followed by two ones of padding.
        #expect(throws: HPACKError.invalidHuffman) { _ = try Huffman.decode([0xff, 0xff, 0xff, 0xff]) }
        // "0" is 00000, then 3 padding bits that are zeros.
        #expect(throws: HPACKError.invalidHuffman) { _ = try Huffman.decode([0b0000_0000]) }
        // A whole octet of ones after a symbol that ends on a boundary: 8 bits of padding.
        var padded: [UInt8] = []
        Huffman.encode(Array("aaaaaaaa".utf8), into: &padded) // 8 × 5 bits: exactly 5 octets
        #expect(padded.count == 5)
        #expect(throws: HPACKError.invalidHuffman) { _ = try Huffman.decode(padded + [0xff]) }
        // Seven bits of ones are valid padding.
        #expect(try Huffman.decode([0b0000_0111]) == [UInt8(ascii: "0")])
        #expect(try Huffman.decode([]) == [])
    }

    // MARK: Tables (§2.3, §4)

    @Test("the static table has the 61 entries of Appendix A")
    func staticTable() {
        #expect(StaticTable.count == 61)
        #expect(StaticTable.fields[0] == HeaderField(":authority", ""))
        #expect(StaticTable.fields[7] == HeaderField(":status", "200"))
        #expect(StaticTable.fields[60] == HeaderField("www-authenticate", ""))
        func match(_ name: String, _ value: String) -> (nameIndex: Int, fieldIndex: Int?)? {
            Array(name.utf8).withUnsafeBufferPointer { name in
                Array(value.utf8).withUnsafeBufferPointer { value in StaticTable.match(name: name, value: value) }
            }
        }
        #expect(match(":status", "429")! == (8, nil))
        #expect(match(":path", "/index.html")! == (4, 5))
        #expect(match(":status", "500")! == (8, 14))
        #expect(match("www-authenticate", "")! == (61, 61))
        #expect(match("accept-encoding", "gzip, deflate")! == (16, 16))
        #expect(match("apns-id", "") == nil && match("", "") == nil && match(String(repeating: "x", count: 40), "") == nil)
        // Every entry is found by its name and its value, at its own index or an earlier one of the same name.
        for (position, entry) in StaticTable.entries.enumerated() {
            let found = match(entry.name, entry.value)
            #expect(found?.fieldIndex == position + 1)
            #expect(found.map { StaticTable.entries[$0.nameIndex - 1].name == entry.name && $0.nameIndex <= position + 1 } == true)
        }
    }

    @Test("the dynamic table adds at the front, evicts the oldest to fit, and empties for a field larger than itself (RFC 7541 §4.1–§4.4)")
    func dynamicTable() {
        var table = DynamicTable(maxSize: 100)
        table.insert(HeaderField("a", "1")) // 34
        table.insert(HeaderField("b", "2")) // 34
        #expect(table.size == 68 && table[0] == HeaderField("b", "2") && table[1] == HeaderField("a", "1"))
        table.insert(HeaderField("c", "3")) // evicts a
        #expect(table.count == 2 && table.size == 68 && table[1] == HeaderField("b", "2"))
        table.setMaxSize(40) // evicts b
        #expect(Self.entries(table) == [HeaderField("c", "3")])
        table.insert(HeaderField("long-name", "long-value")) // 51 > 40: empties
        #expect(table.count == 0 && table.size == 0)
        table.setMaxSize(4_096)
        for index in 0..<1_000 { table.insert(HeaderField("k\(index)", "v")) }
        #expect(table.size <= 4_096 && table[0] == HeaderField("k999", "v"))
        #expect(table.firstIndex(name: Array("k998".utf8), value: Array("v".utf8))! == (1, true))
        #expect(table.firstIndex(name: Array("k998".utf8), value: Array("w".utf8))! == (1, false))
    }

    // MARK: Appendix C (byte for byte)

    @Test("C.2: one field per representation, and the table after each (RFC 7541 C.2.1–C.2.4)")
    func appendixC2() throws {
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
            == Self.fields([("custom-key", "custom-header")]))
        #expect(decoder.table.size == 55 && Self.entries(decoder.table) == Self.fields([("custom-key", "custom-header")]))
        decoder = HPACKDecoder()
        let withoutIndexing = try decoder.decode(hex("040c 2f73 616d 706c 652f 7061 7468"))
        #expect(withoutIndexing == Self.fields([(":path", "/sample/path")]) && withoutIndexing[0].indexing == .withoutIndexing)
        #expect(decoder.table.count == 0)
        let never = try decoder.decode(hex("1008 7061 7373 776f 7264 0673 6563 7265 74"))
        #expect(never == Self.fields([("password", "secret")]) && never[0].indexing == .never && decoder.table.count == 0)
        #expect(try decoder.decode(hex("82")) == Self.fields([(":method", "GET")]) && decoder.table.count == 0)

        // And the encoder writes each representation the same way.
        var encoder = HPACKEncoder(huffman: .never)
        #expect(encoder.encode([HeaderField("custom-key", "custom-header")]) == hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
        encoder = HPACKEncoder(huffman: .never)
        #expect(encoder.encode([HeaderField(":path", "/sample/path", indexing: .withoutIndexing)]) == hex("040c 2f73 616d 706c 652f 7061 7468"))
        #expect(encoder.encode([HeaderField("password", "secret", indexing: .never)]) == hex("1008 7061 7373 776f 7264 0673 6563 7265 74"))
        #expect(encoder.encode([HeaderField(":method", "GET")]) == hex("82"))
    }

    static let requests = [
        fields([(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com")]),
        fields([(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com"), ("cache-control", "no-cache")]),
        fields([(":method", "GET"), (":scheme", "https"), (":path", "/index.html"), (":authority", "www.example.com"),
                ("custom-key", "custom-value")]),
    ]
    static let requestTables = [
        fields([(":authority", "www.example.com")]),
        fields([("cache-control", "no-cache"), (":authority", "www.example.com")]),
        fields([("custom-key", "custom-value"), ("cache-control", "no-cache"), (":authority", "www.example.com")]),
    ]
    static let responses = [
        fields([(":status", "302"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
                ("location", "https://www.example.com")]),
        fields([(":status", "307"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
                ("location", "https://www.example.com")]),
        fields([(":status", "200"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:22 GMT"),
                ("location", "https://www.example.com"), ("content-encoding", "gzip"),
                ("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1")]),
    ]
    static let responseTables = [
        fields([("location", "https://www.example.com"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"), ("cache-control", "private"),
                (":status", "302")]),
        fields([(":status", "307"), ("location", "https://www.example.com"), ("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
                ("cache-control", "private")]),
        fields([("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"), ("content-encoding", "gzip"),
                ("date", "Mon, 21 Oct 2013 20:13:22 GMT")]),
    ]

    struct Example: Sendable, CustomTestStringConvertible {
        var section: String
        var huffman: HPACKEncoder.HuffmanPolicy
        var tableSize: Int
        var blocks: [String]
        var fields: [[HeaderField]]
        var tables: [[HeaderField]]
        var sizes: [Int]
        var testDescription: String { section }
    }

    static let examples = [
        Example(section: "C.3 requests without Huffman", huffman: .never, tableSize: 4_096,
                blocks: ["8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                         "8286 84be 5808 6e6f 2d63 6163 6865",
                         "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"],
                fields: requests, tables: requestTables, sizes: [57, 110, 164]),
        Example(section: "C.4 requests with Huffman", huffman: .always, tableSize: 4_096,
                blocks: ["8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
                         "8286 84be 5886 a8eb 1064 9cbf",
                         "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"],
                fields: requests, tables: requestTables, sizes: [57, 110, 164]),
        Example(section: "C.5 responses without Huffman", huffman: .never, tableSize: 256,
                blocks: ["4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                         "4803 3330 37c1 c0bf",
                         "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31"],
                fields: responses, tables: responseTables, sizes: [222, 222, 215]),
        Example(section: "C.6 responses with Huffman", huffman: .always, tableSize: 256,
                blocks: ["4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
                         "4883 640e ffc1 c0bf",
                         "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07"],
                fields: responses, tables: responseTables, sizes: [222, 222, 215]),
    ]

    @Test("Appendix C.3–C.6: each block decodes to its fields and table, and encodes back to the same octets (RFC 7541 Appendix C)",
          arguments: examples)
    func appendixC(_ example: Example) throws {
        var decoder = HPACKDecoder(maxTableSize: example.tableSize)
        var encoder = HPACKEncoder(maxTableSize: example.tableSize, huffman: example.huffman)
        for (position, block) in example.blocks.enumerated() {
            #expect(try decoder.decode(hex(block)) == example.fields[position], "\(example.section) block \(position + 1)")
            #expect(Self.entries(decoder.table) == example.tables[position])
            #expect(decoder.table.size == example.sizes[position])
            let encoded = encoder.encode(example.fields[position])
            #expect(encoded == hex(block), "\(example.section) block \(position + 1): \(hexString(encoded))")
            #expect(Self.entries(encoder.table) == example.tables[position] && encoder.table.size == example.sizes[position])
        }
    }

    @Test("the default Huffman choice (when not longer) also writes Appendix C's Huffman octets (RFC 7541 C.4, C.6)")
    func huffmanWhenNotLonger() {
        for example in Self.examples where example.huffman == .always {
            var encoder = HPACKEncoder(maxTableSize: example.tableSize)
            for (position, block) in example.blocks.enumerated() { #expect(encoder.encode(example.fields[position]) == hex(block)) }
        }
    }

    // MARK: Decoder refusals and limits

    @Test("index 0 and indexes past both tables are COMPRESSION_ERROR (RFC 7541 §6.1, §2.3.3)")
    func badIndexes() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.zeroIndex) { _ = try decoder.decode([0x80]) }
        #expect(throws: HPACKError.indexOutOfRange(62)) { _ = try decoder.decode([0xbe]) }
        #expect(throws: HPACKError.indexOutOfRange(70)) { _ = try decoder.decode([0x40 | 0x3f, 70 - 63, 0x01, 0x61]) }
        #expect(HPACKError.zeroIndex.code == .compressionError)
    }

    @Test("a block cut inside a string or an integer is COMPRESSION_ERROR (RFC 7541 §5)")
    func truncated() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.truncated) { _ = try decoder.decode(hex("400a 6375 7374")) }
        #expect(throws: HPACKError.truncated) { _ = try decoder.decode(hex("4003 6162 63")) }
        #expect(throws: HPACKError.truncated) { _ = try decoder.decode(hex("7f")) }
    }

    @Test("size updates: within SETTINGS_HEADER_TABLE_SIZE, only at the start of a block, at most two (RFC 7541 §4.2, §6.3)")
    func sizeUpdates() throws {
        var decoder = HPACKDecoder(maxTableSize: 4_096)
        _ = try decoder.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
        #expect(try decoder.decode([0x20, 0x3f, 0xe1, 0x1f, 0x82]) == Self.fields([(":method", "GET")])) // 0 then 4096
        #expect(decoder.table.count == 0 && decoder.table.maxSize == 4_096)
        #expect(throws: HPACKError.tableSizeAboveMaximum(4_097, maximum: 4_096)) { _ = try decoder.decode([0x3f, 0xe2, 0x1f]) }
        #expect(throws: HPACKError.misplacedTableSizeUpdate) { _ = try decoder.decode([0x82, 0x20]) }
        #expect(throws: HPACKError.misplacedTableSizeUpdate) { _ = try decoder.decode([0x20, 0x20, 0x20]) }
    }

    @Test("after our SETTINGS lowers the table, the next block must start with a size update (RFC 7541 §4.2)")
    func requiredSizeUpdate() throws {
        var decoder = HPACKDecoder(maxTableSize: 4_096)
        decoder.setMaxAllowedTableSize(100)
        #expect(throws: HPACKError.missingTableSizeUpdate) { _ = try decoder.decode([0x82]) }
        var second = HPACKDecoder(maxTableSize: 4_096)
        second.setMaxAllowedTableSize(100)
        #expect(try second.decode([0x3f, 0x45, 0x82]) == Self.fields([(":method", "GET")]))
        #expect(second.table.maxSize == 100)
    }

    @Test("the encoder announces the peer's smaller table at the next block: the smallest size, then the last (RFC 7541 §4.2)")
    func encoderSizeUpdates() throws {
        var encoder = HPACKEncoder(huffman: .never)
        var decoder = HPACKDecoder()
        _ = try decoder.decode(encoder.encode([HeaderField("x-a", "1")]))
        encoder.setPeerMaxTableSize(0)
        encoder.setPeerMaxTableSize(2_048)
        let block = encoder.encode([HeaderField("x-a", "1")])
        #expect(Array(block.prefix(4)) == [0x20, 0x3f, 0xe1, 0x0f]) // 0, then 2048
        #expect(try decoder.decode(block) == [HeaderField("x-a", "1")])
        #expect(decoder.table.maxSize == 2_048 && encoder.table.maxSize == 2_048)
        // Raised again past our limit: announced once, at the limit.
        encoder.setPeerMaxTableSize(1 << 20)
        encoder.setPeerMaxTableSize(4_096)
        #expect(encoder.encode([HeaderField(":status", "200")]).first == 0x3f)
        var limited = HPACKEncoder()
        limited.setPeerMaxTableSize(65_536)
        #expect(limited.encode([HeaderField(":status", "200")]) == [0x88])
    }

    @Test("a small block referencing one large entry many times stops at SETTINGS_MAX_HEADER_LIST_SIZE: the HPACK bomb (RFC 9113 §10.5.1)")
    func hpackBomb() throws {
        var decoder = HPACKDecoder(maxTableSize: 4_096, maxHeaderListSize: 16_384)
        // One 4 000-octet value added to the table, then 1 000 one-octet references to it:
        // 4 KB of input that would expand to 4 MB.
        var block: [UInt8] = [0x40, 0x01, UInt8(ascii: "x")]
        HPACKInteger.encode(4_000, prefix: 7, flags: 0, into: &block)
        block += [UInt8](repeating: UInt8(ascii: "a"), count: 4_000)
        block += [UInt8](repeating: 0xbe, count: 1_000)
        #expect(throws: HPACKError.headerListTooLarge(limit: 16_384)) { _ = try decoder.decode(block) }
        #expect(HPACKError.headerListTooLarge(limit: 1).code == .enhanceYourCalm)
    }

    @Test("never-indexed fields stay literals even when the table holds them (RFC 7541 §6.2.3, §7.1.3)")
    func neverIndexed() throws {
        var encoder = HPACKEncoder(huffman: .never)
        let secret = HeaderField("authorization", "bearer x", indexing: .never)
        let first = encoder.encode([secret])
        #expect(first.first == 0x10 | 0x0f && encoder.table.count == 0)
        #expect(encoder.encode([secret]) == first)
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(first)[0].indexing == .never)
        // A field larger than the table is sent without indexing, not added.
        var small = HPACKEncoder(maxTableSize: 40, huffman: .never)
        let block = small.encode([HeaderField("x-long", String(repeating: "v", count: 20))])
        #expect(block.first == 0x00 && small.table.count == 0)
    }

    @Test("random field lists round-trip through encoder and decoder with evictions")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        var encoder = HPACKEncoder(maxTableSize: 256)
        var decoder = HPACKDecoder(maxTableSize: 256)
        for _ in 0..<300 {
            var fields: [HeaderField] = []
            for _ in 0..<Int.random(in: 0..<8, using: &generator) {
                let name = ["apns-id", "apns-topic", "x-\(Int.random(in: 0..<5, using: &generator))", "content-type", ":status"]
                    .randomElement(using: &generator)!
                let value = String((0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                    Character(UnicodeScalar(UInt8.random(in: 0x21...0x7e, using: &generator)))
                })
                let indexing = [HeaderField.Indexing.incremental, .withoutIndexing, .never].randomElement(using: &generator)!
                fields.append(HeaderField(name, value, indexing: indexing))
            }
            let decoded = try decoder.decode(encoder.encode(fields))
            #expect(decoded == fields)
            #expect(Self.entries(decoder.table) == Self.entries(encoder.table))
        }
    }
}
