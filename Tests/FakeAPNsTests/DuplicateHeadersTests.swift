@testable import FakeAPNs
import Testing

@Suite("APNs's duplicate-header check, among few headers and many")
struct DuplicateHeadersTests {
    /// Whether APNs refuses these header names (each with the value "v") as duplicates.
    static func refusedAsDuplicate(_ names: [String]) -> Bool {
        let result = APNsWireRequest.parse(method: "POST", path: "/3/device/" + String(repeating: "ab", count: 32),
                                           headers: names.map { ($0, "v") }, body: Array(#"{"aps":{}}"#.utf8))
        if case .failure(.duplicateHeaders) = result { return true }
        return false
    }

    @Test("an apns- header or authorization twice is a duplicate, anywhere among few headers or many; other fields may repeat",
          arguments: [0, 20])
    func duplicates(padding: Int) {
        let filler = (0..<padding).map { "x-filler-\($0)" }
        let apns = ["apns-topic", "apns-id", "apns-push-type", "authorization", "apns-priority"]
        #expect(!Self.refusedAsDuplicate(filler + apns))
        #expect(!Self.refusedAsDuplicate(["accept", "accept"] + filler + apns + ["x-a", "x-a"]))
        for name in apns {
            #expect(Self.refusedAsDuplicate(apns + filler + [name]))
            #expect(Self.refusedAsDuplicate([name] + filler + apns))
        }
        #expect(Self.refusedAsDuplicate(filler + ["apns-unknown", "apns-unknown"]))
        #expect(!Self.refusedAsDuplicate(filler + ["apns-unknown", "apns-unknown-2"]))
    }
}
