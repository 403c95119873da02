import Base

/// What iOS reads of a payload: whether it draws an alert, whether the extension may
/// run, and the alert's words. A payload that is not JSON, or has no `aps`, draws nothing
/// (APNs itself does not judge the JSON: it checks only the size).
package struct AlertText: Equatable {
    /// `aps.alert` is there (a string, or an object with a title or body).
    package var hasAlert = false
    /// `aps.mutable-content` is 1.
    package var mutableContent = false
    package var title: String?
    package var body: String?

    /// Reads a payload.
    /// - Complexity: O(n) in the payload.
    package init(payload: [UInt8]) {
        guard let root = try? JSONParser.parse(payload), case .object(let object) = root.value,
              case .object(let aps)? = object["aps"]?.value else { return }
        if case .number(let flag)? = aps["mutable-content"]?.value { mutableContent = flag.int64Value == 1 }
        switch aps["alert"]?.value {
        case .string(let text)?:
            hasAlert = true
            body = Self.cut(text)
        case .object(let alert)?:
            hasAlert = true
            if case .string(let text)? = alert["title"]?.value { title = Self.cut(text) }
            if case .string(let text)? = alert["body"]?.value { body = Self.cut(text) }
        case .null?, .bool?, .number?, .array?, nil:
            break
        }
    }

    /// At most `PushRecords.textLimit` bytes, cut at a character.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > PushRecords.textLimit else { return text }
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= PushRecords.textLimit - 3 else { break }
            kept.append(character)
        }
        return kept + "…"
    }
}
