import Foundation
@testable import Live
import Testing

/// The control API's query decoding, which replaced Foundation's `removingPercentEncoding`
/// (pushsim no longer links Foundation): the same answer on each case, Foundation asked here.
@Suite("Percent decoding")
struct PercentDecodingTests {
    @Test("escapes decode as Foundation decodes them; a broken escape or bytes that are not UTF-8 give nil", arguments: [
        "", "plain", "a%20b", "%41%6a%4A", "a+b", "%C3%A9t%C3%A9", "%00", "%", "%2", "%zz", "%%41", "a%2", "%FF", "%C3", "100%",
        "é%20x", "%e2%82%ac",
    ])
    func matchesFoundation(text: String) {
        #expect(PercentDecoding.decoded(text) == text.removingPercentEncoding)
    }
}
