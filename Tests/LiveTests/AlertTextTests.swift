import Base
@testable import Live
import Testing

@Suite("What a phone reads of a payload")
struct AlertTextTests {
    @Test("an alert string, an alert object, mutable-content; nothing without aps or for a payload that is not JSON")
    func readings() {
        func read(_ text: String) -> AlertText { AlertText(payload: Array(text.utf8)) }
        #expect(read(#"{"aps":{"alert":"Hi"}}"#) == AlertText(hasAlert: true, mutableContent: false, title: nil, body: "Hi"))
        #expect(read(#"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1}}"#)
                == AlertText(hasAlert: true, mutableContent: true, title: "T", body: "B"))
        #expect(read(#"{"aps":{"content-available":1}}"#) == AlertText())
        #expect(read(#"{"data":{"alert":"x"}}"#) == AlertText())
        #expect(read(#"{"aps":{"alert":"Hi"}"#) == AlertText())                       // not closed
        #expect(read(#"{"aps":{"alert":"Hi"},"aps":{}}"#) == AlertText())             // a key twice: not JSON
        #expect(read(#"{"aps":{"alert":"caf\u00e9 \"ok\""}}"#).body == "café \"ok\"")  // escapes: the parser reads them
        #expect(read("\u{feff}" + #"{"aps":{"alert":"bom"}}"#).body == "bom")
        #expect(read(#"{"aps":{"alert":""# + String(repeating: "x", count: 300) + #""}}"#).body?.utf8.count ?? 0 <= 200)
    }

    @Test("keys are checked for duplicates per object; past the keys the scan keeps, the parser reads the payload")
    func keysPerObject() {
        func read(_ text: String) -> AlertText { AlertText(payload: Array(text.utf8)) }
        let alert = AlertText(hasAlert: true, body: "x")
        // The same key in different objects is no duplicate.
        #expect(read(#"{"a":{"a":1,"b":{"a":2}},"aps":{"a":3,"alert":"x"},"b":0}"#) == alert)
        #expect(PayloadScan.read(Array(#"{"a":{"a":1},"aps":{"alert":"x","a":2}}"#.utf8)) == alert)
        // A duplicate in an inner object, after it was closed and reopened.
        #expect(read(#"{"aps":{"alert":"x"},"o":{"k":1},"p":{"k":1,"k":2}}"#) == AlertText())
        // More keys than the scan keeps: read by the parser, the same reading.
        let many = (0..<(PayloadScan.keysKept + 6)).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let payload = Array((#"{"aps":{"alert":"x"},"# + many + "}").utf8)
        #expect(PayloadScan.read(payload) == nil)
        #expect(AlertText(payload: payload) == alert)
        let duplicated = Array((#"{"aps":{"alert":"x"},"# + many + #","k3":0}"#).utf8)
        #expect(AlertText(payload: duplicated) == AlertText())
        let fewer = (0..<(PayloadScan.keysKept - 2)).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(PayloadScan.read(Array((#"{"aps":{"alert":"x"},"# + fewer + "}").utf8)) == alert)
    }

    /// A few payloads, then every one of them changed at random: a byte replaced, removed or repeated.
    static func payloads() -> [[UInt8]] {
        let seeds = [#"{"aps":{"alert":{"title":"Hello","body":"A new mail","loc-args":[1,2.5e3,-0.1]},"mutable-content":1,"sound":"default"},"xiva":{"pos":12,"hash":"ab"}}"#,
                     #"{ "aps" : { "alert" : "plain" , "badge" : 3 } , "n" : null , "t" : true , "f" : false }"#,
                     #"{"aps":{"mutable-content":10,"alert":{}},"deep":[[[{"a":[{}]}]]]}"#,
                     #"[{"aps":{"alert":"array"}}]"#, #"{"aps":"alert"}"#, "{}", ""]
        var random = SplitMix64(seed: 21)
        let alphabet = Array(#"{}[]:,"\ -+.eE0123456789abcdefghijklmnopqrstuvwxyz"#.utf8) + [0x00, 0x0a, 0xc3, 0xa9, 0xff]
        var out = seeds.map { Array($0.utf8) }
        for _ in 0..<20_000 {
            var bytes = out[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 3) where !bytes.isEmpty {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(bytes[at], at: at)
                }
            }
            out.append(bytes)
        }
        return out
    }

    @Test("the fast scan reads every payload as the JSON parser does (20,000 payloads changed at random)")
    func scanAgreesWithTheParser() {
        var scanned = 0
        for payload in Self.payloads() {
            let parsed = AlertText(parsing: payload)
            #expect(AlertText(payload: payload) == parsed, "\(String(decoding: payload, as: UTF8.self))")
            if PayloadScan.read(payload) != nil { scanned += 1 }
        }
        // Most are read by the scan itself, not handed to the parser.
        #expect(scanned > 10_000)
    }
}
