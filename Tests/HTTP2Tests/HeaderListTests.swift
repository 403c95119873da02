@testable import HTTP2
import Testing

/// `HeaderList`: a block's fields in one buffer. Read as `HeaderField`s or by octets, it
/// must hold the same fields whichever way it was filled, and compare and hash by its
/// fields, never by how its octets lie.
@Suite("Header lists")
struct HeaderListTests {
    static let fields = [HeaderField("apns-topic", "com.example.app"), HeaderField("user-agent", "h2load nghttp2/1.52.0"),
                         HeaderField("x-empty", ""), HeaderField("authorization", "bearer x", indexing: .never),
                         HeaderField("apns-id", "0f3c41b2-1a7e-4c55-9b1d-2d7e01c4b9a1", indexing: .withoutIndexing)]

    @Test("filled from fields, from text or from octets, a list reads back the same fields and representations")
    func readsBack() {
        var fromText = HeaderList()
        for field in Self.fields { fromText.append(name: field.nameString, value: field.valueString, indexing: field.indexing) }
        let fromFields = HeaderList(Self.fields)
        for list in [fromText, fromFields] {
            #expect(Array(list) == Self.fields && list.count == 5)
            #expect(list.indices.map(list.indexing(at:)) == Self.fields.map(\.indexing))
            #expect(list.indices.map(list.name(at:)) == Self.fields.map(\.nameString))
            #expect(list.indices.map(list.value(at:)) == Self.fields.map(\.valueString))
            var seen: [HeaderField] = []
            list.forEachField { name, value in seen.append(HeaderField(name: Array(name), value: Array(value))) }
            #expect(seen == Self.fields)
            #expect(list.value("user-agent") == "h2load nghttp2/1.52.0" && list.value("x-empty") == "" && list.value("apns") == nil)
            #expect(list.firstIndex(named: "apns-id") == 4 && list.size == Self.fields.reduce(0) { $0 + $1.size })
        }
        #expect(fromText == fromFields && fromText.hashValue == fromFields.hashValue)
    }

    @Test("a static table name is its constant; any other name is decoded")
    func names() {
        let list = HeaderList([HeaderField("content-length", "1"), HeaderField("apns-topic", "t"), HeaderField(":path", "/")])
        #expect(list.indices.map(list.name(at:)) == ["content-length", "apns-topic", ":path"])
    }

    @Test("decimal values are written without text: 0, one digit, many, the largest Int")
    func decimals() {
        var list = HeaderList()
        for value in [0, 7, 10, 1_234_567_890, Int.max] { list.append(name: "content-length", decimal: value) }
        #expect(list.indices.map(list.value(at:)) == ["0", "7", "10", "1234567890", String(Int.max)])
    }

    @Test("emptied and refilled, a list holds only the new fields; its room grows past what it had")
    func reuse() {
        var list = HeaderList(Self.fields)
        list.removeAll()
        #expect(list.isEmpty && list == HeaderList())
        let long = HeaderField("x-long", String(repeating: "a", count: 10_000))
        list.append(long)
        list.append(Self.fields[0])
        #expect(Array(list) == [long, Self.fields[0]])
    }

    @Test("dropping the first fields lists the rest: equal to a list of only them, read and encoded alike")
    func dropFirst() {
        var list = HeaderList([HeaderField(":method", "GET"), HeaderField(":path", "/")] + Self.fields)
        list.removeFirst(2)
        let rest = HeaderList(Self.fields)
        #expect(list == rest && list.hashValue == rest.hashValue && Array(list) == Self.fields && list.count == 5)
        #expect(list.value(":path") == nil && list.firstIndex(named: "apns-topic") == 0)
        var a = HPACKEncoder(), b = HPACKEncoder()
        var first: [UInt8] = [], second: [UInt8] = []
        a.encode(list, into: &first)
        b.encode(rest, into: &second)
        #expect(first == second)
        list.append(HeaderField("x-after", "1"))
        #expect(list.count == 6 && list.value(at: 5) == "1")
    }

    @Test("lists differ when a field, its split between name and value, or the order differs")
    func inequality() {
        let list = HeaderList([HeaderField("ab", "c")])
        #expect(list != HeaderList([HeaderField("a", "bc")]))
        #expect(list != HeaderList([HeaderField("ab", "d")]))
        #expect(HeaderList(Self.fields) != HeaderList(Self.fields.reversed()))
        #expect(HeaderList(Self.fields) != HeaderList(Self.fields.dropLast()))
    }

    @Test("decoding into a list gives the fields decoding to [HeaderField] gives, appended after what it holds")
    func decodeInto() throws {
        var encoder = HPACKEncoder()
        let blocks = (0..<4).map { _ in encoder.encode(Self.fields) }
        var toFields = HPACKDecoder(), toList = HPACKDecoder()
        var list = HeaderList([HeaderField("before", "1")])
        for block in blocks {
            let fields = try toFields.decode(block)
            list.removeAll()
            list.append(HeaderField("before", "1"))
            try block.withUnsafeBufferPointer { bytes in try toList.decode(bytes, into: &list) }
            #expect(Array(list) == [HeaderField("before", "1")] + fields && fields == Self.fields)
            #expect(Array(list.dropFirst()).map(\.indexing) == fields.map(\.indexing))
        }
    }

    @Test("HeaderField keeps name and value in one buffer; setting either keeps the other")
    func headerField() {
        var field = HeaderField("name", "value")
        #expect(field.name == Array("name".utf8) && field.value == Array("value".utf8) && field.size == 41)
        field.name = Array("longer-name".utf8)
        #expect(field == HeaderField("longer-name", "value"))
        field.value = []
        #expect(field == HeaderField("longer-name", "") && !field.isPseudo && HeaderField(":a", "").isPseudo)
        #expect(HeaderField("ab", "c") != HeaderField("a", "bc") && HeaderField("ab", "c").hashValue == HeaderField("ab", "c").hashValue)
        #expect(HeaderField(name: [0x61], value: [0x62]) == HeaderField("a", "b"))
    }
}
