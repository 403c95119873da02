@testable import Live
import Testing

/// serve's APNs endpoint makes text only of the fields `APNsWireRequest.parse` reads: every
/// `apns-*` field (unknown ones too: a duplicate of any is refused) and `authorization`.
@Suite("serve's APNs field names")
struct APNsFieldNameTests {
    static func name(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { ServeService.apnsFieldName($0) }
    }

    @Test("apns-* and authorization are read, by their own names; nothing else is")
    func names() {
        for known in ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-id", "apns-collapse-id",
                      "authorization", "apns-unknown", "apns-idx", "apns-topics", "apns-x", "apns-"] {
            #expect(Self.name(known) == known)
        }
        for other in ["apns", "user-agent", "content-length", "authorizations", "x-apns-id", "", "apnS-id"] {
            #expect(Self.name(other) == nil, "\(other)")
        }
    }
}
