import Testing
import X509

@Suite("DER: the reader's refusals, the writer's encodings, both round trips")
struct DERReaderTests {
    func reason(_ bytes: [UInt8], _ read: (inout DERReader) throws(DERError) -> Void) -> DERError.Reason? {
        var reader = DERReader(bytes)
        do {
            try read(&reader)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("lengths: short and long forms read; indefinite, padded, over-long and overrunning ones refused")
    func lengths() throws {
        var reader = DERReader([0x04, 0x81, 0x80] + [UInt8](repeating: 7, count: 0x80) + [0x05, 0x00])
        #expect(try reader.read(.octetString, "long").count == 0x80)
        try reader.null("null")
        try reader.expectEnd("all")
        let cases: [([UInt8], DERError.Reason)] = [
            ([], .missing),
            ([0x30], .truncatedLength),
            ([0x30, 0x80, 0x00, 0x00], .indefiniteLength),
            ([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], .nonMinimalLength),
            ([0x04, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 0x80), .nonMinimalLength),
            ([0x04, 0x85, 1, 0, 0, 0, 0], .lengthTooLong),
            ([0x04, 0x82, 0x01], .truncatedLength),
            ([0x04, 0x03, 1, 2], .overrun(claimed: 3, remaining: 2)),
            ([0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], .overrun(claimed: 0xFFFF_FFFF, remaining: 0)),
            ([0x1F, 0x81, 0x01, 0x00], .highTagNumber),
        ]
        for (bytes, expected) in cases {
            #expect(reason(bytes) { reader throws(DERError) in _ = try reader.element("x") } == expected, "\(bytes)")
        }
        #expect(reason([0x02, 0x01, 0x00]) { reader throws(DERError) in _ = try reader.read(.octetString, "x") } == .unexpectedTag(found: .integer))
        #expect(reason([0x05, 0x00, 0x05, 0x00]) { reader throws(DERError) in
            try reader.null("x")
            try reader.expectEnd("y")
        } == .trailingBytes(count: 2))
    }

    @Test("nesting deeper than the limit is refused, at the limit read")
    func nesting() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x05, 0x00]
            for _ in 0..<depth {
                var writer = DERWriter()
                writer.element(.sequence, bytes)
                bytes = writer.bytes
            }
            return bytes
        }
        func descend(_ bytes: [UInt8]) throws(DERError) -> Int {
            var reader = DERReader(bytes)
            var depth = 0
            while reader.next(is: .sequence) {
                reader = try reader.sequence("level \(depth)")
                depth += 1
            }
            return depth
        }
        #expect(try descend(nested(DERReader.maximumDepth)) == DERReader.maximumDepth)
        #expect(throws: DERError("level \(DERReader.maximumDepth)", .nestingTooDeep)) { try descend(nested(DERReader.maximumDepth + 1)) }
    }

    @Test("integers: minimal two's complement only; positive magnitudes without the sign byte")
    func integers() throws {
        var reader = DERReader([0x02, 0x01, 0x00, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0xFF, 0x02, 0x03, 0x00, 0xFF, 0x01])
        #expect(try reader.smallInteger("zero") == 0)
        #expect(try reader.positiveInteger("128") == [0x80])
        #expect(try reader.integerContents("-1") == [0xFF])
        #expect(try reader.positiveInteger("65281") == [0xFF, 0x01])
        for bad: [UInt8] in [[0x02, 0x00], [0x02, 0x02, 0x00, 0x7F], [0x02, 0x02, 0xFF, 0x80]] {
            #expect(reason(bad) { reader throws(DERError) in _ = try reader.integerContents("x") } == .integerNotMinimal)
        }
        #expect(reason([0x02, 0x01, 0x00]) { reader throws(DERError) in _ = try reader.positiveInteger("x") } == .integerOutOfRange)
        #expect(reason([0x02, 0x01, 0x80]) { reader throws(DERError) in _ = try reader.positiveInteger("x") } == .integerOutOfRange)
        #expect(reason([0x02, 0x05, 1, 0, 0, 0, 0]) { reader throws(DERError) in _ = try reader.smallInteger("x") } == .integerOutOfRange)
        for value: Int64 in [0, 1, 127, 128, 255, 256, -1, -128, -129, .max, .min] {
            var writer = DERWriter()
            writer.integer(value)
            var back = DERReader(writer.bytes)
            let contents = try back.integerContents("back")
            let decoded = contents.dropFirst().reduce(Int64(Int8(bitPattern: contents.first!))) { $0 << 8 | Int64($1) }
            #expect(decoded == value)
        }
        var writer = DERWriter()
        writer.integer(magnitude: [0x00, 0x00, 0x80, 0x01])
        writer.integer(magnitude: [])
        #expect(writer.bytes == [0x02, 0x03, 0x00, 0x80, 0x01, 0x02, 0x01, 0x00])
    }

    @Test("booleans, NULL and bit strings: DER's one encoding each")
    func primitives() throws {
        var reader = DERReader([0x01, 0x01, 0xFF, 0x01, 0x01, 0x00, 0x03, 0x02, 0x07, 0x80, 0x03, 0x01, 0x00])
        #expect(try reader.boolean("t") == true)
        #expect(try reader.boolean("f") == false)
        let bits = try reader.bitString("one bit")
        #expect(bits.bytes == [0x80] && bits.unusedBits == 7)
        #expect(try reader.byteAlignedBitString("empty").isEmpty)
        #expect(reason([0x01, 0x01, 0x01]) { reader throws(DERError) in _ = try reader.boolean("x") } == .badBoolean)
        #expect(reason([0x05, 0x01, 0x00]) { reader throws(DERError) in try reader.null("x") } == .badNull)
        for bad: [UInt8] in [[0x03, 0x00], [0x03, 0x02, 0x08, 0x00], [0x03, 0x01, 0x01], [0x03, 0x02, 0x01, 0x01]] {
            #expect(reason(bad) { reader throws(DERError) in _ = try reader.bitString("x") } == .badBitString, "\(bad)")
        }
        #expect(reason([0x03, 0x02, 0x07, 0x80]) { reader throws(DERError) in _ = try reader.byteAlignedBitString("x") } == .badBitString)
        var writer = DERWriter()
        writer.namedBits([true, false, false, false, false, true])
        writer.namedBits([false, false, false, false, false, false, false, false, true])
        writer.namedBits([])
        #expect(writer.bytes == [0x03, 0x02, 0x02, 0x84, 0x03, 0x03, 0x07, 0x00, 0x80, 0x03, 0x01, 0x00])
    }

    @Test("object identifiers: dotted, arcs and contents agree; padded, cut or 65-bit arcs refused")
    func objectIdentifiers() throws {
        #expect(OID.commonName.contents == [0x55, 0x04, 0x03])
        #expect(OID.userID.contents == [0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x01])
        #expect(OID.rsaEncryption.contents == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])
        #expect(OID.userID.arcs == [0, 9, 2342, 19_200_300, 100, 1, 1])
        #expect(OID.commonName.description == "CN (2.5.4.3)")
        #expect(OID(arcs: [2, 999, 3]).description == "2.999.3")
        #expect(OID(contents: OID(arcs: [1, 2, UInt64.max]).contents)?.arcs == [1, 2, UInt64.max])
        for bad: [UInt8] in [[], [0x2A, 0x86], [0x2A, 0x80, 0x01], [0x2A, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]] {
            #expect(OID(contents: bad) == nil, "\(bad)")
        }
    }

    @Test("strings: each type's set enforced")
    func strings() throws {
        var writer = DERWriter()
        writer.utf8String("Zürich")
        writer.printableString("US")
        writer.ia5String("api.push.apple.com")
        writer.element(.bmpString, [0x00, 0x41, 0x04, 0x16])
        writer.element(.teletexString, [0x41, 0xE9])
        var reader = DERReader(writer.bytes)
        #expect(try reader.string("u").text == "Zürich")
        #expect(try reader.string("p") == ("US", .printableString))
        #expect(try reader.string("i").text == "api.push.apple.com")
        #expect(try reader.string("b").text == "AЖ")
        #expect(try reader.string("t").text == "Aé")
        for bad: [UInt8] in [[0x0C, 0x01, 0xFF], [0x13, 0x01, 0x40], [0x16, 0x01, 0x80], [0x1E, 0x01, 0x00], [0x1E, 0x02, 0xD8, 0x00]] {
            #expect(reason(bad) { reader throws(DERError) in _ = try reader.string("x") } == .badString, "\(bad)")
        }
        #expect(reason([0x04, 0x00]) { reader throws(DERError) in _ = try reader.string("x") } == .unexpectedTag(found: .octetString))
    }

    @Test("a structure written reads back element by element, with its exact encoding")
    func roundTrip() throws {
        var writer = DERWriter()
        writer.sequence { outer in
            outer.objectIdentifier(.subjectAltName)
            outer.constructed(.context(3, constructed: true)) { $0.octetString([UInt8](repeating: 0xAB, count: 300)) }
            outer.set { $0.boolean(true) }
        }
        var reader = DERReader(writer.bytes)
        let whole = try reader.element(.sequence, "outer")
        #expect(whole.encoded.elementsEqual(writer.bytes))
        var outer = DERReader(whole.contents, depth: 1)
        #expect(try outer.objectIdentifier("oid") == .subjectAltName)
        var explicit = try outer.constructed(.context(3, constructed: true), "[3]")
        #expect(explicit.depth == 2)
        #expect(try explicit.read(.octetString, "octets").count == 300)
        var set = try outer.set("set")
        #expect(try set.boolean("b"))
        try outer.expectEnd("outer")
    }

    @Test("messages name the element and the fault")
    func messages() {
        #expect(DERError("the validity", .overrun(claimed: 30, remaining: 2)).description == "the validity claims 30 bytes, 2 remain")
        #expect(DERError("the issuer", .unexpectedTag(found: .set)).description == "expected the issuer, found tag 0x31")
        #expect(DERError("tbsCertificate", .trailingBytes(count: 3)).description == "3 unexpected bytes after tbsCertificate")
    }
}
