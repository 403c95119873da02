@testable import FakeAPNs
import Testing

@Suite("APNs's duplicate-header check, pairwise and past 16 headers")
struct DuplicateHeadersTests {
    static func headers(_ names: [String]) -> [(name: String, value: String)] { names.map { ($0, "v") } }

    @Test("an apns- header or authorization twice is a duplicate, anywhere among few headers or many; other fields may repeat",
          arguments: [0, 20])
    func duplicates(padding: Int) {
        let filler = (0..<padding).map { "x-filler-\($0)" }
        let apns = ["apns-topic", "apns-id", "apns-push-type", "authorization", "apns-priority"]
        #expect(!APNsWireRequest.hasDuplicateAPNsHeader(Self.headers(filler + apns)))
        #expect(!APNsWireRequest.hasDuplicateAPNsHeader(Self.headers(["accept", "accept"] + filler + apns + ["x-a", "x-a"])))
        for name in apns {
            #expect(APNsWireRequest.hasDuplicateAPNsHeader(Self.headers(apns + filler + [name])))
            #expect(APNsWireRequest.hasDuplicateAPNsHeader(Self.headers([name] + filler + apns)))
        }
        #expect(APNsWireRequest.hasDuplicateAPNsHeader(Self.headers(filler + ["apns-unknown", "apns-unknown"])))
        #expect(!APNsWireRequest.hasDuplicateAPNsHeader(Self.headers(filler + ["apns-unknown", "apns-unknown-2"])))
    }
}
